"""The effect vocabulary: every entry of a card's ``effects`` list is checked like any field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from workbench.domain.effects import ACTIONS, DURATIONS, TARGETS, TRIGGERS, vocabulary
from workbench.domain.effects.vocabulary import (
    CONDITIONS,
    COSTS,
    FILTER_STATES,
    PICKS,
    SIDES,
    STATIC_ACTIONS,
    ZONES,
)
from workbench.domain.validation import validate_card

DOCS = Path(__file__).resolve().parents[2] / "docs" / "effects.md"


def _warzone_creature(effects):
    return {"name": "Test Pikeman", "kind": "creature", "class": 1, "degree": 1, "strength": 300,
            "resilience": 300, "effects": effects}


def _codes(problems):
    return {p.code: p for p in problems if p.code.startswith("effect.")}


def test_the_docs_list_exactly_the_vocabulary():
    text = DOCS.read_text(encoding="utf-8")
    triggers = set(re.findall(r"^\| `(\w+)` \|", text.split("## Triggers")[1].split("##")[0], re.M))
    actions = set(re.findall(r"^\| `(\w+)` \|", text.split("## Actions")[1].split("##")[0], re.M))
    targets = set(re.findall(r"`(\w+)`", text.split("## Targets")[1].split("A single-target")[0])) - set(ACTIONS)
    assert triggers == set(TRIGGERS)
    assert actions == set(ACTIONS)
    assert targets == set(TARGETS)
    for title, header, table in (("## Zones", "| zone |", ZONES), ("## Zones", "| side |", SIDES),
                                 ("## Zones", "| pick |", PICKS), ("## Filters", "| state |", FILTER_STATES),
                                 ("## Conditions", "| condition |", CONDITIONS), ("## Costs", "| cost |", COSTS),
                                 ("## Static rules", "| rule |", STATIC_ACTIONS),
                                 ("## Durations", "| duration |", DURATIONS)):
        section = text.split(title)[1].split("\n## ")[0]
        rows = section.split(header)[1].split("\n\n")[0]
        assert set(re.findall(r"^\| `(\w+)` \|", rows, re.M)) == set(table), header


def test_a_well_formed_effect_list_has_no_problems(definitions):
    effects = [
        {"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 300},
        {"trigger": "activated", "cost": {"tap": True}, "action": "modify_stats", "target": "this",
         "stats": {"strength": 100}, "duration": "end_of_turn"},
    ]
    assert _codes(validate_card(definitions["warzone"], _warzone_creature(effects), "t")) == {}


@pytest.mark.parametrize(("entry", "code", "named"), [
    ({"trigger": "on_play", "action": "damge", "target": "opponent", "amount": 1}, "effect.unknown_action", "damage"),
    ({"trigger": "on_ply", "action": "draw", "target": "self", "amount": 1}, "effect.unknown_trigger", "on_play"),
    ({"action": "draw", "target": "self", "amount": 1}, "effect.missing_trigger", "on_play"),
    ({"trigger": "on_play", "target": "self"}, "effect.missing_action", "gain_life"),
    ({"trigger": "on_play", "action": "draw", "target": "everyone", "amount": 1}, "effect.unknown_target", "opponent"),
    ({"trigger": "on_play", "action": "draw", "target": "self"}, "effect.missing_amount", "amount"),
    ({"trigger": "on_play", "action": "draw", "target": "self", "amount": -2}, "effect.bad_amount", "-2"),
    ({"trigger": "on_play", "action": "draw", "target": "self", "amount": "X"}, "effect.amount_x", "mana: X"),
    ({"trigger": "on_play", "action": "modify_stats", "target": "this"}, "effect.missing_stats", "resilience: 1"),
    ({"trigger": "on_play", "action": "modify_stats", "target": "this", "stats": {"atk": 1}},
     "effect.unknown_stat", "resilience"),
    ({"trigger": "on_play", "action": "modify_stats", "target": "this", "stats": {"strength": "lots"}},
     "effect.bad_stats", "whole number"),
    ({"trigger": "on_play", "action": "modify_stats", "target": "this", "stats": {"strength": 1},
      "duration": "forever"}, "effect.unknown_duration", "permanent"),
    ({"trigger": "activated", "action": "draw", "target": "self", "amount": 1, "cost": {"gold": 1}},
     "effect.bad_cost", "pay_life"),
    ({"trigger": "activated", "action": "draw", "target": "self", "amount": 1, "speed": 4}, "effect.bad_speed", "3"),
    ({"trigger": "activated", "action": "draw", "target": "self", "amount": 1, "once_per_turn": "yes"},
     "effect.bad_once_per_turn", "true or false"),
    ("draw a card", "effect.shape", "mapping"),
])
def test_each_broken_entry_is_an_error_naming_what_is_allowed(definitions, entry, code, named):
    problems = _codes(validate_card(definitions["warzone"], _warzone_creature([entry]), "t"))
    assert code in problems, problems
    problem = problems[code]
    assert problem.severity == "error" and problem.field == "effects"
    assert named in problem.message and problem.message.startswith("effect 1:")
    assert problem.rule == "docs/effects.md"


def test_unknown_keys_and_misplaced_stats_are_warnings_only(definitions):
    entry = {"trigger": "on_play", "action": "draw", "target": "self", "amount": 1, "colour": "red",
             "duration": "permanent"}
    problems = _codes(validate_card(definitions["warzone"], _warzone_creature([entry]), "t"))
    assert problems["effect.unknown_key"].severity == "warning" and "'colour'" in problems["effect.unknown_key"].message
    assert problems["effect.unused_key"].severity == "warning"


def test_the_second_entry_is_named_as_effect_2(definitions):
    effects = [{"trigger": "on_play", "action": "draw", "target": "self", "amount": 1},
               {"trigger": "on_play", "action": "zap", "target": "self"}]
    problem = _codes(validate_card(definitions["warzone"], _warzone_creature(effects), "t"))["effect.unknown_action"]
    assert problem.message.startswith("effect 2:")


def test_stats_come_from_each_games_definition(definitions):
    seth = {"name": "M", "kind": "monster", "power": 2, "damage": 1, "health": 3, "speed": ["fast"],
            "race": "Beast", "element": "physical",
            "effects": [{"trigger": "on_play", "action": "modify_stats", "target": "this", "stats": {"health": 1}}]}
    assert _codes(validate_card(definitions["seth"], seth, "m")) == {}
    seth["effects"][0]["stats"] = {"strength": 1}
    assert "effect.unknown_stat" in _codes(validate_card(definitions["seth"], seth, "m"))


def test_vocabulary_is_plain_data_for_the_editor():
    data = vocabulary()
    assert set(data["actions"]) == set(ACTIONS) and set(data["durations"]) == set(DURATIONS)
    assert data["actions"]["modify_stats"]["needs_stats"] is True and data["speed"] == [1, 3]


def test_amount_x_reads_the_cards_own_x_cost(definitions):
    blast = {"name": "魔力爆发", "kind": "magic", "subtype": "normal", "cost": "X", "text": "对对方造成X点伤害。",
             "effects": [{"trigger": "on_play", "action": "damage", "target": "opponent", "amount": "X"}]}
    assert "effect.amount_x" not in _codes(validate_card(definitions["fusion"], blast, "b"))
    assert "effect.amount_x" in _codes(validate_card(definitions["fusion"], dict(blast, cost=2), "b"))


@pytest.mark.parametrize(("entry", "code", "named"), [
    ({"trigger": "on_play", "action": "move", "from": "deck", "to": "pocket"}, "effect.unknown_zone", "graveyard"),
    ({"trigger": "on_play", "action": "move", "from": "deck"}, "effect.missing_zone", "exile"),
    ({"trigger": "on_play", "action": "move", "from": "hand", "to": "graveyard", "side": "mine"},
     "effect.unknown_side", "opponent"),
    ({"trigger": "on_play", "action": "move", "from": "hand", "to": "graveyard", "pick": "worst"},
     "effect.unknown_pick", "random"),
    ({"trigger": "on_play", "action": "move", "from": "hand", "to": "graveyard", "look": 3},
     "effect.bad_look", "deck_top"),
    ({"trigger": "on_play", "action": "destroy", "target": "enemy_creature", "filter": {"colour": "red"}},
     "effect.unknown_filter", "position"),
    ({"trigger": "on_play", "action": "destroy", "target": "enemy_creature", "filter": {"strength": {"over": 3}}},
     "effect.bad_filter", "min: N"),
    ({"trigger": "on_play", "action": "draw", "target": "self", "amount": 1, "if": {"mood": "good"}},
     "effect.unknown_condition", "previous"),
    ({"trigger": "on_play", "action": "draw", "target": "self", "amount": 1, "if": {"life": {"side": "own"}}},
     "effect.bad_condition", "min"),
    ({"trigger": "on_play", "action": "draw", "target": "self", "amount": 1,
      "if": {"count": {"zone": "moon", "min": 1}}}, "effect.unknown_zone", "field"),
    ({"trigger": "on_play", "action": "destroy", "target": "enemy_creature", "count": 2}, "effect.bad_count",
     "random: true"),
    ({"trigger": "on_play", "action": "destroy", "target": "enemy_creature", "random": "yes"}, "effect.bad_random",
     "true or false"),
])
def test_each_broken_version_2_key_is_an_error_naming_what_is_allowed(definitions, entry, code, named):
    problems = _codes(validate_card(definitions["warzone"], _warzone_creature([entry]), "t"))
    assert code in problems, problems
    assert named in problems[code].message and problems[code].severity == "error"


def test_version_2_entries_that_validate_clean(definitions):
    effects = [
        {"trigger": "on_play", "action": "move", "from": "deck", "to": "hand", "filter": {"kind": "creature", "class": 2}},
        {"trigger": "on_play", "action": "move", "target": "enemy_creature", "to": "exile"},
        {"trigger": "on_play", "action": "move", "from": "deck_top", "look": 3, "to": "hand"},
        {"trigger": "on_play", "action": "draw", "target": "self", "amount": 1, "if": {"count": {"zone": "field", "min": 3}}},
        {"trigger": "on_play", "action": "damage", "target": "opponent", "amount": 100, "per": {"zone": "field"}},
        {"trigger": "on_play", "action": "destroy", "target": "enemy_creature", "random": True,
         "filter": {"position": "battling", "other": True}},
        {"trigger": "on_play", "action": "draw", "target": "each_player", "amount": 1, "if": {"previous": True}},
    ]
    assert _codes(validate_card(definitions["warzone"], _warzone_creature(effects), "t")) == {}


def test_what_an_engine_cannot_run_is_skipped_with_its_reason():
    from workbench.domain.effects import parse_effects
    from workbench.domain.engines.fusion.adapter import CAPABILITIES as FUSION
    from workbench.domain.engines.seth.adapter import CAPABILITIES as SETH
    from workbench.domain.engines.warzone.adapter import CAPABILITIES as WARZONE

    move = {"trigger": "on_play", "action": "move", "from": "graveyard", "to": "hand"}
    assert "seth engine does not run move" in parse_effects("monster", [move], SETH).skipped[0].reason
    pile = dict(move, **{"from": "damage_pile"})
    assert "fusion has no damage_pile zone" in parse_effects("magic", [pile], FUSION).skipped[0].reason
    assert parse_effects("spell", [pile], WARZONE).runnable
    tapped = {"trigger": "on_play", "action": "destroy", "target": "enemy_creature", "filter": {"tapped": True}}
    assert "does not filter by tapped" in parse_effects("spell", [tapped], WARZONE).skipped[0].reason
    first = {"trigger": "on_play", "action": "draw", "target": "self", "amount": 1, "if": {"previous": True}}
    assert "needs an entry before it" in parse_effects("spell", [first], WARZONE).skipped[0].reason
    aura = {"trigger": "continuous", "action": "modify_stats", "target": "own_creatures", "stats": {"strength": 100},
            "filter": {"class": 2}}
    assert not parse_effects("area", [aura], WARZONE).skipped  # runs: the matching creatures on every row
    moving = dict(aura, filter={"strength": {"min": 500}})
    assert "cannot depend on what changes in play" in parse_effects("area", [moving], WARZONE).skipped[0].reason


def test_every_trigger_and_target_has_a_designer_label():
    from workbench.domain.effects.vocabulary import LABELS

    assert set(LABELS["triggers"]) == set(TRIGGERS)
    assert set(LABELS["targets"]) == set(TARGETS)
    assert all(label[:1].isupper() and "_" not in label for part in LABELS.values() for label in part.values())


def test_same_targets_and_phases_are_checked_against_the_engine():
    from workbench.domain.effects import parse_effects
    from workbench.domain.engines.seth.adapter import CAPABILITIES as SETH
    from workbench.domain.engines.warzone.adapter import CAPABILITIES as WARZONE

    same = {"trigger": "on_play", "action": "destroy", "target": "same"}
    assert "needs a step before it" in parse_effects("spell", [same], WARZONE).skipped[0].reason
    damage = {"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 100}
    assert not parse_effects("spell", [damage, same], WARZONE).skipped
    monster = [dict(damage, trigger="activated"), dict(same, trigger="activated")]
    assert "cannot target same" in parse_effects("monster", monster, SETH).skipped[0].reason
    battle = dict(damage, **{"if": {"phase": "battle"}})
    assert "warzone has no phase battle" in parse_effects("spell", [battle], WARZONE).skipped[0].reason
    assert not parse_effects("spell", [dict(damage, **{"if": {"phase": ["war", "recruit"]}})], WARZONE).skipped


def test_each_effect_problem_carries_the_path_of_its_entry_not_only_a_message(definitions):
    """The editor places a problem next to its row by ``path`` (and ``code``), never by parsing the
    English "effect N: …", so the message can be translated without breaking the placement."""
    effects = [
        {"trigger": "on_play", "action": "draw", "amount": 1},
        {"trigger": "on_play", "action": "damage", "target": "opponent"},  # no amount
        {"trigger": "on_play", "action": "choose", "options": [
            {"action": "draw", "amount": 1},
            [{"action": "draw", "amount": 1}, {"action": "nonsense"}]]},
    ]
    problems = [p for p in validate_card(definitions["warzone"], _warzone_creature(effects), "t")
                if p.code.startswith("effect.")]
    by_code = {p.code: p for p in problems}
    assert by_code["effect.missing_amount"].path == (1,)
    assert by_code["effect.unknown_action"].path == (2, "options", 1, 1)  # option 2, its step 2
    assert by_code["effect.missing_amount"].to_dict()["path"] == (1,)
    assert all(p.path is not None and p.path[0] in (1, 2) for p in problems), problems
