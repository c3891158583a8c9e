"""Effects v2 item 8: the new triggers, static rules and the while_on_field duration — their checks,
their rules text, what each engine runs and why it skips the rest (docs/effects.md)."""

from __future__ import annotations

import pytest

from workbench.domain.effects import parse_effects
from workbench.domain.effects.text import rules_text
from workbench.domain.effects.vocabulary import ACTIONS, LABELS, STATIC_ACTIONS, TRIGGERS
from workbench.domain.engines.fusion.adapter import CAPABILITIES as FUSION
from workbench.domain.engines.seth.adapter import CAPABILITIES as SETH
from workbench.domain.engines.warzone.adapter import CAPABILITIES as WARZONE
from workbench.domain.validation import validate_card

NEW_TRIGGERS = ("on_damaged", "on_deal_damage", "on_enter", "on_draw", "on_opponent_play", "on_phase")


def _creature(effects):
    return {"name": "Test Pikeman", "kind": "creature", "class": 1, "degree": 1, "strength": 300,
            "resilience": 300, "effects": effects}


def _codes(problems):
    return {p.code: p for p in problems if p.code.startswith("effect.")}


def test_the_vocabulary_has_the_new_triggers_and_static_rules_with_labels():
    assert set(NEW_TRIGGERS) <= set(TRIGGERS)
    assert STATIC_ACTIONS == {"cannot_be_targeted", "cannot_be_attacked", "cannot_be_blocked", "cannot_attack",
                              "double_damage", "reduce_damage", "modify_cost"}
    assert all(ACTIONS[a].description.startswith("static:") for a in STATIC_ACTIONS)
    assert all(LABELS["triggers"][t] for t in NEW_TRIGGERS)


@pytest.mark.parametrize(("entry", "code", "named"), [
    ({"trigger": "on_play", "action": "cannot_be_targeted", "target": "this"}, "effect.static_trigger", "continuous"),
    ({"trigger": "continuous", "action": "cannot_attack", "target": "enemy_creature"}, "effect.static_target",
     "enemy_creatures"),
    ({"trigger": "continuous", "action": "modify_cost", "target": "own_creatures", "amount": -1},
     "effect.static_target", "opponent"),
    ({"trigger": "continuous", "action": "modify_cost", "target": "self", "amount": "one"}, "effect.bad_amount",
     "whole number"),
    ({"trigger": "continuous", "action": "reduce_damage", "target": "this"}, "effect.missing_amount", "amount"),
    ({"trigger": "on_phase", "action": "draw", "target": "self", "amount": 1}, "effect.missing_phase", "recruit"),
    ({"trigger": "on_phase", "phase": 3, "action": "draw", "target": "self", "amount": 1}, "effect.bad_phase",
     "phase name"),
    ({"trigger": "on_draw", "side": "mine", "action": "draw", "target": "self", "amount": 1},
     "effect.unknown_side", "opponent"),
    ({"trigger": "on_opponent_play", "played": {"colour": "red"}, "action": "draw", "target": "self", "amount": 1},
     "effect.unknown_filter", "kind"),
    ({"trigger": "on_play", "action": "modify_stats", "target": "this", "stats": {"strength": 1},
      "duration": "while_on_the_field"}, "effect.unknown_duration", "while_on_field"),
])
def test_each_broken_entry_is_an_error_naming_what_is_allowed(definitions, entry, code, named):
    problems = _codes(validate_card(definitions["warzone"], _creature([entry]), "t"))
    assert code in problems, problems
    assert named in problems[code].message and problems[code].severity == "error"


def test_the_new_entries_validate_clean(definitions):
    effects = [
        {"trigger": "on_damaged", "action": "damage", "target": "attacker", "amount": 100},
        {"trigger": "on_deal_damage", "action": "gain_life", "target": "self", "amount": 100},
        {"trigger": "on_enter", "action": "draw", "target": "self", "amount": 1},
        {"trigger": "on_draw", "side": "opponent", "action": "damage", "target": "opponent", "amount": 100},
        {"trigger": "on_opponent_play", "played": {"kind": "spell"}, "action": "draw", "target": "self", "amount": 1},
        {"trigger": "on_phase", "phase": ["war", "recruit"], "side": "each", "action": "heal", "target": "this",
         "amount": 100},
        {"trigger": "continuous", "action": "cannot_be_targeted", "target": "own_creatures", "filter": {"class": 2}},
        {"trigger": "continuous", "action": "reduce_damage", "target": "this", "amount": 100},
        {"trigger": "continuous", "action": "modify_cost", "target": "opponent", "amount": 1},
        {"trigger": "on_play", "action": "modify_stats", "target": "enemy_creature", "stats": {"strength": -100},
         "duration": "while_on_field"},
    ]
    assert _codes(validate_card(definitions["warzone"], _creature(effects), "t")) == {}


@pytest.mark.parametrize(("entries", "kind", "en", "zh"), [
    ([{"trigger": "on_damaged", "action": "damage", "target": "attacker", "amount": 1}], "monster",
     "When this takes damage, deal 1 damage to the creature that dealt it.", "此卡受到伤害时，给予造成伤害的生物1伤害。"),
    ([{"trigger": "continuous", "action": "cannot_be_targeted", "target": "own_creatures",
       "filter": {"keywords": "flight"}}], "monster",
     "Your creatures with keywords flight cannot be targeted.", "己方生物（keywords为flight）不能成为效果的对象。"),
    ([{"trigger": "continuous", "action": "modify_cost", "target": "self", "amount": -1,
       "filter": {"attribute": "fire"}}], "creature",
     "Your cards with attribute fire cost 1 less.", "己方的卡（attribute为fire）费用减少1。"),
    ([{"trigger": "continuous", "action": "double_damage", "target": "this"}], "creature",
     "This card deals double damage.", "此卡造成的伤害加倍。"),
    ([{"trigger": "continuous", "action": "reduce_damage", "target": "own_creatures", "amount": 100}], "area",
     "Your creatures take 100 less damage.", "己方生物受到的伤害减少100。"),
    ([{"trigger": "continuous", "action": "cannot_attack", "target": "enemy_creatures"}], "area",
     "Enemy creatures cannot attack.", "敌方生物不能攻击。"),
    ([{"trigger": "on_phase", "phase": "battle", "action": "draw", "target": "self", "amount": 1}], "creature",
     "At the start of your battle phase, draw 1 card.", "己方战斗阶段开始时，抽1张卡。"),
    ([{"trigger": "on_draw", "side": "opponent", "action": "damage", "target": "opponent", "amount": 1}], "creature",
     "Whenever the opponent draws a card, deal 1 damage to the opponent.", "对方每抽1张卡时，给予对手1伤害。"),
    ([{"trigger": "on_opponent_play", "played": {"kind": "magic"}, "action": "draw", "target": "self", "amount": 1}],
     "creature", "When the opponent plays a card with kind magic, draw 1 card.", "对方使用卡（kind为magic）时，抽1张卡。"),
    ([{"trigger": "on_enter", "action": "gain_life", "target": "self", "amount": 2}], "creature",
     "When this enters the field, gain 2 life.", "此卡登场时，回复2点生命。"),
    ([{"trigger": "on_play", "action": "modify_stats", "target": "enemy_creature", "stats": {"atk": -2},
       "duration": "while_on_field"}], "creature",
     "When this is summoned, an enemy creature gets -2 ATK while this is on the field.",
     "此卡召唤时，一只敌方生物此卡在场期间攻击力-2。"),
])
def test_each_new_construct_reads_as_a_sentence(entries, kind, en, zh):
    assert rules_text(entries, "en", kind) == en
    assert rules_text(entries, "zh", kind) == zh


def test_seth_skips_what_it_cannot_run_with_the_reason():
    for trigger in ("on_enter", "on_draw", "on_opponent_play"):
        entry = {"trigger": trigger, "action": "heal", "target": "this", "amount": 1}
        skipped = parse_effects("monster", [entry], SETH).skipped
        assert skipped and skipped[0].code == "effect.unsimulated" and trigger in skipped[0].reason
    for action in ("cannot_be_attacked", "cannot_be_blocked", "cannot_attack"):
        skipped = parse_effects("monster", [{"trigger": "continuous", "action": action}], SETH).skipped
        assert skipped and "does not run " + action in skipped[0].reason
    wrong_phase = {"trigger": "on_phase", "phase": "war", "action": "heal", "target": "this", "amount": 1}
    assert "seth has no phase war" in parse_effects("monster", [wrong_phase], SETH).skipped[0].reason
    moving = {"trigger": "continuous", "action": "cannot_be_targeted", "target": "own_creatures",
              "filter": {"health": {"max": 3}}}
    assert "cannot depend on what changes in play" in parse_effects("monster", [moving], SETH).skipped[0].reason


@pytest.mark.parametrize("caps", [WARZONE, SETH, FUSION], ids=lambda c: c.game)
def test_every_new_construct_runs_or_is_skipped_with_a_reason_never_silently(caps):
    kind = {"warzone": "creature", "seth": "monster", "fusion": "creature"}[caps.game]
    phase = sorted(caps.phases)[0]
    entries = [{"trigger": t, "action": "heal", "target": "this", "amount": 1} for t in NEW_TRIGGERS]
    entries[-1]["phase"] = phase
    entries += [{"trigger": "continuous", "action": a, **({"amount": 1} if ACTIONS[a].needs_amount else {})}
                for a in sorted(STATIC_ACTIONS)]
    parsed = parse_effects(kind, entries, caps)
    assert len(parsed.runnable) + len(parsed.skipped) == len(entries)
    assert all(s.code == "effect.unsimulated" and s.reason for s in parsed.skipped)


def test_an_entry_an_engine_cannot_run_is_a_save_time_warning_and_the_playtest_lists_the_card(definitions):
    from tests.domain.engines.seth_teams import DEFAULTS, decks
    from workbench.domain.engines.base import play_game
    from workbench.domain.engines.seth import ENGINE as SETH_ENGINE
    from workbench.services.checks import card_problems

    herald = {"id": "herald", "name": "Herald", "kind": "monster", "power": 4, "damage": 2, "health": 8,
              "speed": ["fast"], "race": "human", "element": "physical", "text": "When this enters the field, heal 1.",
              "effects": [{"trigger": "on_enter", "action": "heal", "target": "this", "amount": 1}]}
    warnings = [p for p in card_problems(definitions["seth"], herald, "herald") if p.code == "effect.unsimulated"]
    assert len(warnings) == 1 and "do not run on_enter" in warnings[0].message
    a, b = decks()
    a["team"][0] = herald
    state = SETH_ENGINE.new_game(a, b, DEFAULTS, 1)
    agents = [SETH_ENGINE.agents["heuristic"](1), SETH_ENGINE.agents["heuristic"](2)]
    play_game(state, agents)
    assert "herald" in state.stats.unsimulated
    cost = {"name": "Quartermaster", "kind": "creature", "class": 1, "degree": 1, "strength": 100, "resilience": 100,
            "effects": [{"trigger": "continuous", "action": "modify_cost", "target": "self", "amount": -1}]}
    warnings = [p for p in card_problems(definitions["warzone"], cost, "q") if p.code == "effect.unsimulated"]
    assert len(warnings) == 1 and "no cost to change" in warnings[0].message


def test_static_rules_are_computed_once_per_position_and_dropped_when_the_field_changes():
    """The layer the engines query is cached: the same table while nothing enters or leaves."""
    from workbench.domain.engines.fusion import ENGINE as FUSION_ENGINE
    from workbench.domain.engines.fusion.adapter import ADAPTER as FUSION_ADAPTER

    setup = {"turn": 6, "active": 0, "phase": "main1", "cards": {
        "mage": {"name": "隐身术士", "kind": "creature", "cost": 3, "stars": 3, "atk": 2, "def": 3,
                 "attribute": "dark", "subtype": "魔法师",
                 "effects": [{"trigger": "continuous", "action": "cannot_be_targeted", "target": "this"}]},
        "fish": {"name": "水鱼", "kind": "creature", "cost": 1, "stars": 1, "atk": 1, "def": 1,
                 "attribute": "water", "subtype": "鱼"}},
        "players": [{"creatures": [{"a-mage": "mage"}], "hand": [{"a-fish": "fish"}], "deck": [{"a-d1": "fish"}]},
                    {"deck": [{"b-d1": "fish"}]}]}
    state = FUSION_ENGINE.from_setup(setup, {}, 0)
    first = FUSION_ADAPTER.statics(state)
    assert first is not None and first.untargetable == {state.index["a-mage"]}
    assert FUSION_ADAPTER.statics(state) is first  # cached
    state.apply(next(a for a in state.legal_actions(0) if a.kind == "summon"))
    assert FUSION_ADAPTER.statics(state) is not first  # a creature entered: computed again
