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
