"""The checks service: card problems include effects the game's engine cannot run."""

from __future__ import annotations

from workbench.services.checks import card_problems


def _creature(effects):
    return {"name": "Test Pikeman", "kind": "creature", "class": 1, "degree": 1, "strength": 300,
            "resilience": 300, "effects": effects}


def test_an_action_the_engine_does_not_run_is_a_warning_naming_what_it_runs(definitions):
    card = _creature([{"trigger": "on_play", "action": "add_poison", "target": "enemy_creature", "amount": 2}])
    problems = [p for p in card_problems(definitions["warzone"], card, "t") if p.code == "effect.unsimulated"]
    assert len(problems) == 1
    warning = problems[0]
    assert warning.severity == "warning" and warning.card == "t" and warning.field == "effects"
    assert "warzone engine does not run add_poison" in warning.message and "return_to_hand" in warning.message


def test_actions_the_engine_runs_raise_no_warning(definitions):
    card = _creature([{"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 200}])
    assert not [p for p in card_problems(definitions["warzone"], card, "t") if p.code.startswith("effect.")]


def test_seth_runs_poison(definitions):
    monster = {"name": "M", "kind": "monster", "power": 2, "damage": 1, "health": 3, "speed": ["fast"],
               "race": "Beast", "element": "physical",
               "effects": [{"trigger": "on_play", "action": "add_poison", "target": "enemy_creature", "amount": 1}]}
    assert not [p for p in card_problems(definitions["seth"], monster, "m") if p.code.startswith("effect.")]


def test_the_warning_names_the_engines_own_reason_for_any_skipped_entry(definitions):
    # Not an unknown action: warzone runs draw, but has no mana, so the entry is skipped.
    card = _creature([{"trigger": "activated", "action": "draw", "target": "self", "amount": 1,
                       "cost": {"mana": 2}}])
    problems = [p for p in card_problems(definitions["warzone"], card, "t") if p.code == "effect.unsimulated"]
    assert len(problems) == 1
    assert problems[0].message.startswith("effect 1: warzone has no mana cost (it has: discard, ")
    assert "tap)" in problems[0].message
    spell = {"name": "Odd Spell", "kind": "spell", "effects": [
        {"trigger": "on_play", "action": "modify_stats", "target": "this", "stats": {"strength": 100}}]}
    problems = [p for p in card_problems(definitions["warzone"], spell, "s") if p.code == "effect.unsimulated"]
    assert len(problems) == 1 and "cannot affect itself" in problems[0].message


def test_a_broken_entry_is_the_validators_error_only(definitions):
    card = _creature([{"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": -1}])
    codes = [p.code for p in card_problems(definitions["warzone"], card, "t") if p.code.startswith("effect.")]
    assert codes == ["effect.bad_amount"]


def test_text_that_does_not_mention_the_effects_numbers_is_a_warning_with_the_generated_text(definitions):
    card = dict(_creature([{"trigger": "on_destroyed", "action": "damage", "target": "enemy_creatures", "amount": 200}]),
                text="When this is destroyed, deal 300 damage to each enemy creature.")
    problems = [p for p in card_problems(definitions["warzone"], card, "t") if p.code == "effect.text_differs"]
    assert len(problems) == 1 and problems[0].field == "text" and problems[0].severity == "warning"
    assert "does not mention 200" in problems[0].message
    assert "When this is destroyed, deal 200 damage to each enemy creature." in problems[0].message
    card["text"] = "When this is destroyed, deal 200 damage to each enemy creature."
    assert not [p for p in card_problems(definitions["warzone"], card, "t") if p.code == "effect.text_differs"]


def test_fusion_text_is_compared_with_the_chinese_rules_text(definitions):
    card = {"name": "凤凰", "kind": "creature", "cost": 4, "stars": 4, "atk": 4, "def": 4, "attribute": "fire",
            "subtype": "鸟", "text": "被破坏时，对手受到3点伤害。",
            "effects": [{"trigger": "on_destroyed", "action": "damage", "target": "opponent", "amount": 2}]}
    problems = [p for p in card_problems(definitions["fusion"], card, "f") if p.code == "effect.text_differs"]
    assert len(problems) == 1 and "此卡被破坏时，给予对手2伤害。" in problems[0].message
