"""Rule-level tests of the seth engine (RULES.md §2) through the engine interface."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.domain.engines.seth_teams import DEFAULTS, EMBER, decks
from workbench.domain.engines.base import Action
from workbench.domain.engines.seth import ENGINE, IllegalLineup, SethState
from workbench.domain.errors import IllegalAction

GAME_YAML = Path(__file__).resolve().parents[3] / "card_data" / "seth" / "game.yaml"


@pytest.fixture(scope="module")
def options() -> dict[str, Any]:
    """The rule option defaults of card_data/seth/game.yaml (the same as RULES.md §2)."""
    spec = yaml.safe_load(GAME_YAML.read_text(encoding="utf-8"))["options"]
    return {name: value["default"] for name, value in spec.items()}


def test_game_yaml_defaults_match_the_rules(options: dict[str, Any]) -> None:
    assert {k: options[k] for k in DEFAULTS} == DEFAULTS


def monster(name: str, **fields: Any) -> dict[str, Any]:
    card = {"name": name, "power": 4, "damage": 2, "health": 6, "speed": ["fast"], "element": "physical"}
    card.update(fields)
    return card


def position(a: list[dict[str, Any]], b: list[dict[str, Any]], options: dict[str, Any], **setup: Any) -> SethState:
    state = ENGINE.from_setup({"players": [{"monsters": a}, {"monsters": b}], **setup}, options, 0)
    assert isinstance(state, SethState)
    return state


# ---------------------------------------------------------------- §2.2 line-ups


def test_line_up_must_have_exactly_team_size_monsters(options: dict[str, Any]) -> None:
    a, b = decks()
    a["team"] = a["team"][:4]
    with pytest.raises(IllegalLineup, match="exactly 5"):
        ENGINE.new_game(a, b, options, 1)


def test_total_power_must_be_strictly_below_the_limit(options: dict[str, Any]) -> None:
    a, _ = decks()
    b = {"team": [dict(c) for c in EMBER]}
    total = sum(c["power"] for c in EMBER)
    with pytest.raises(IllegalLineup, match="less than"):
        ENGINE.new_game(a, b, dict(options, power_limit=total), 1)
    ENGINE.new_game(a, b, dict(options, power_limit=total + 1), 1)  # strictly below: fine
    ENGINE.new_game(a, b, dict(options, power_limit=total, power_limit_strict=False), 1)


def test_copies_are_allowed_unless_max_copies_is_set(options: dict[str, Any]) -> None:
    a, b = decks()
    a["team"] = [dict(EMBER[0]) for _ in range(5)]  # five Ember Imps, Power 20
    ENGINE.new_game(a, b, options, 1)
    with pytest.raises(IllegalLineup, match="copies"):
        ENGINE.new_game(a, b, dict(options, max_copies=2), 1)


def test_duplicate_monsters_get_distinct_instance_names(options: dict[str, Any]) -> None:
    a, b = decks()
    a["team"] = [dict(EMBER[0]) for _ in range(3)] + [dict(EMBER[1]), dict(EMBER[2])]
    state = ENGINE.new_game(a, b, dict(options, power_limit=100), 1)
    names = [m.name for m in state.teams[0]]
    assert names[:3] == ["a-ember-imp", "a-ember-imp-2", "a-ember-imp-3"]


# ---------------------------------------------------------------- §2.3 rounds


def test_both_players_choose_assignments_together(options: dict[str, Any]) -> None:
    state = ENGINE.new_game(*decks(), options, 1)
    assert state.to_act() == (0, 1)
    with pytest.raises(IllegalAction, match="together"):
        state.apply(state.legal_actions(0)[0])
    with pytest.raises(IllegalAction):
        state.apply_joint({0: state.legal_actions(0)[0]})


def test_assignment_choices_are_every_subset_of_eligible_monsters(options: dict[str, Any]) -> None:
    state = ENGINE.new_game(*decks(), options, 1)
    fast = [m.name for m in state.teams[0] if 0 in m.card.phases]
    actions = state.legal_actions(0)
    assert len(actions) == 2 ** len(fast)
    assert {a.kind for a in actions} == {"assign"}
    assert Action("assign", ()) in [Action(a.kind, a.args) for a in actions]


def test_refused_joint_move_changes_nothing(options: dict[str, Any]) -> None:
    state = ENGINE.new_game(*decks(), options, 1)
    before = ENGINE.snapshot(state)
    with pytest.raises(IllegalAction, match="cannot be assigned"):
        state.apply_joint({0: Action("assign", ("a-ember-imp",)), 1: Action("assign", ("b-old-treant",))})
    assert ENGINE.snapshot(state) == before


def test_split_must_give_out_the_whole_total(options: dict[str, Any]) -> None:
    state = position([monster("a-wolf", damage=4)],
                     [monster("b-ox", damage=0, health=20), monster("b-toad", damage=0, health=20)], options)
    state.apply_joint({0: Action("assign", ("a-wolf",)), 1: Action("assign", ("b-ox", "b-toad"))})
    assert state.to_act() == (0,)
    for bad in ([("b-ox", "physical", 3)], [("b-ox", "physical", 5)], [("b-ox", "fire", 4)],
                [("a-wolf", "physical", 4)], [("b-ox", "physical", -1), ("b-toad", "physical", 5)]):
        with pytest.raises(IllegalAction):
            state.clone().apply(Action("split", tuple(bad)))
    state.apply(Action("split", (("b-ox", 1), ("b-toad", 3))))  # pairs are fine with one element
    ox, toad = state.by_name["b-ox"], state.by_name["b-toad"]
    assert (ox.damage_taken, toad.damage_taken) == (1, 3)


def test_split_suggestions_are_all_legal_and_include_focus_and_kill_splits(options: dict[str, Any]) -> None:
    state = position([monster("a-wolf", damage=7)],
                     [monster("b-ox", health=3), monster("b-toad", health=9), monster("b-elk", health=9)], options)
    state.apply_joint({0: Action("assign", ("a-wolf",)), 1: Action("assign", ("b-ox", "b-toad", "b-elk"))})
    actions = state.legal_actions(0)
    kinds = [a.kind for a in actions]
    assert kinds.count("focus") == 3
    assert Action("split", (("b-ox", "physical", 3), ("b-toad", "physical", 4))) in [
        Action(a.kind, a.args) for a in actions
    ]
    for action in actions:
        state.clone().apply(action)  # none is refused


def test_monster_removed_by_ability_deals_no_damage(options: dict[str, Any]) -> None:
    witch = monster("a-witch", damage=0, element="magical",
                    effects=[{"trigger": "activated", "action": "damage", "target": "enemy_creature", "amount": 3}])
    state = position([witch, monster("a-golem", speed=["slow"], health=20)],
                     [monster("b-imp", damage=5, health=3)], options)
    state.apply_joint({0: Action("assign", ("a-witch",)), 1: Action("assign", ("b-imp",))})
    state.apply(Action("activate", ("a-witch", 0, "b-imp")))
    assert state.is_terminal() and state.result().winner == 0
    assert state.by_name["a-witch"].damage_taken == 0


def test_modify_stats_until_end_of_round(options: dict[str, Any]) -> None:
    hexer = monster("a-hexer", damage=0, speed=["fast"],
                    effects=[{"trigger": "activated", "action": "modify_stats", "target": "enemy_creature",
                              "stats": {"damage": -2}, "duration": "end_of_turn"}])
    state = position([hexer, monster("a-golem", speed=["slow"], health=30)],
                     [monster("b-brute", damage=5, health=30, speed=["fast", "slow"])], options)
    state.apply_joint({0: Action("assign", ("a-hexer",)), 1: Action("assign", ())})
    state.apply(Action("activate", ("a-hexer", 0, "b-brute")))
    assert state.by_name["b-brute"].damage == 3
    # Slow phase: the brute hits for 3 this round
    state.apply_joint({0: Action("assign", ("a-golem",)), 1: Action("assign", ("b-brute",))})
    assert state.by_name["a-golem"].damage_taken == 3
    assert state.round == 2 and state.by_name["b-brute"].damage == 5


def test_on_destroyed_and_start_of_turn_triggers(options: dict[str, Any]) -> None:
    bomb = monster("b-bomb", damage=0, health=2,
                   effects=[{"trigger": "on_destroyed", "action": "add_poison", "target": "enemy_creatures", "amount": 1}])
    mender = monster("a-mender", damage=3, health=9, speed=["fast"],
                     effects=[{"trigger": "start_of_turn", "action": "heal", "target": "this", "amount": 2}])
    state = position([mender], [bomb, monster("b-ox", speed=["slow"], health=20, damage=3)], options)
    state.apply_joint({0: Action("assign", ("a-mender",)), 1: Action("assign", ("b-bomb",))})
    assert state.by_name["a-mender"].poison == 1
    # Slow: only P2 has a Slow monster; the ox hits the mender for 3 (P1 assigned nothing).
    assert (state.phase, state.to_act()) == (2, (1,))
    state.apply(Action("assign", ("b-ox",)))
    # At the start of round 2 the mender heals 2.
    assert state.round == 2
    assert state.by_name["a-mender"].damage_taken == 1


def test_unsimulated_cards_are_reported(options: dict[str, Any]) -> None:
    state = ENGINE.new_game(*decks(), options, 1)
    assert state.stats.unsimulated == {"stone-boar"}
    assert state.stats.drawn[0] == {c["id"] for c in EMBER}
    assert state.stats.played == [set(), set()]


def test_card_with_unknown_effect_is_unsimulated_but_plays(options: dict[str, Any]) -> None:
    a, b = decks()
    a["team"][0] = dict(EMBER[0], text="Draw a card.", effects=[{"trigger": "on_play", "action": "draw", "amount": 1}])
    state = ENGINE.new_game(a, b, options, 1)
    assert "ember-imp" in state.stats.unsimulated


def test_clone_is_independent(options: dict[str, Any]) -> None:
    state = ENGINE.new_game(*decks(), options, 1)
    copy = state.clone()
    copy.apply_joint({p: copy.legal_actions(p)[-1] for p in copy.to_act()})
    assert ENGINE.snapshot(state) != ENGINE.snapshot(copy)
    assert all(m.damage_taken == 0 and not m.assigned for t in state.teams for m in t)
    assert len(copy.log) > len(state.log)


def test_game_over_refuses_actions_and_snapshot_has_result(options: dict[str, Any]) -> None:
    state = position([monster("a-wolf", damage=9)], [monster("b-imp", health=3, damage=1)], options)
    state.apply_joint({0: Action("assign", ("a-wolf",)), 1: Action("assign", ("b-imp",))})
    snap = ENGINE.snapshot(state)
    assert snap["terminal"] and snap["result"]["winner"] == 0 and snap["to_act"] == []
    with pytest.raises(IllegalAction):
        state.apply(Action("assign", ()))
    assert state.legal_actions(0) == []


def test_ability_index_is_the_position_in_the_card_effects_list(options: dict[str, Any]) -> None:
    witch = monster("a-witch", damage=0, text="Draw a card. Activate: deal 2 damage.",
                    effects=[{"trigger": "on_play", "action": "draw", "amount": 1},
                             {"trigger": "activated", "action": "damage", "target": "enemy_creature", "amount": 2}])
    state = position([witch], [monster("b-ox", health=9, damage=0)], options)
    state.apply_joint({0: Action("assign", ("a-witch",)), 1: Action("assign", ("b-ox",))})
    picks = [a.args for a in state.legal_actions(0) if a.kind == "activate"]
    assert picks == [("a-witch", 1, "b-ox")]
    state.apply(Action("activate", ("a-witch", 1, "b-ox")))
    assert state.by_name["b-ox"].damage_taken == 2
    assert "a-witch" in state.stats.unsimulated


def test_any_split_is_accepted_and_lands_per_element(options: dict[str, Any]) -> None:
    import random

    rng = random.Random(7)
    attackers = [monster("a-imp", damage=5, element="fire"), monster("a-wolf", damage=4),
                 monster("a-mage", damage=3, element="magical")]
    defenders = [monster("b-ent", damage=0, health=99, resist=["physical"], vulnerable=["fire"]),
                 monster("b-golem", damage=0, health=99, resist=["fire", "magical"]),
                 monster("b-toad", damage=0, health=99)]
    for _ in range(60):
        state = position(attackers, defenders, options)
        state.apply_joint({0: Action("assign", ("a-imp", "a-wolf", "a-mage")),
                           1: Action("assign", ("b-ent", "b-golem", "b-toad"))})
        parts = []
        for element, amount in (("fire", 5), ("physical", 4), ("magical", 3)):
            cuts = sorted(rng.randint(0, amount) for _ in range(2))
            shares = [cuts[0], cuts[1] - cuts[0], amount - cuts[1]]
            parts += [(t, element, a) for t, a in zip(("b-ent", "b-golem", "b-toad"), shares)]
        rng.shuffle(parts)
        expected = {"b-ent": 0, "b-golem": 0, "b-toad": 0}
        factors = {("b-ent", "physical"): 0.5, ("b-ent", "fire"): 2, ("b-golem", "fire"): 0.5,
                   ("b-golem", "magical"): 0.5}
        for target, element, amount in parts:
            expected[target] += int(amount * factors.get((target, element), 1))
        state.apply(Action("split", tuple(parts)))
        assert {n: state.by_name[n].damage_taken for n in expected} == expected


def test_clone_does_not_deep_copy(options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    import copy

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("copy.deepcopy in the hot path")

    monkeypatch.setattr(copy, "deepcopy", refuse)
    state = ENGINE.new_game(*decks(), options, 1)
    copy_state = state.clone()
    assert ENGINE.snapshot(copy_state) == ENGINE.snapshot(state)


def test_an_on_play_trigger_with_no_legal_target_does_nothing_and_the_game_goes_on() -> None:
    """A must-pick on-play ability whose filter no enemy matches once left its player with no legal
    action at all (the game stalled, a random player crashed): it now does nothing, said in the log."""
    from workbench.domain.engines.base import RandomAgent

    a, b = decks()
    a["team"][0]["effects"] = [{"trigger": "on_play", "action": "destroy", "target": "enemy_creature",
                                "filter": {"health": {"max": 1}}}]
    state = ENGINE.new_game(a, b, DEFAULTS, 0)
    agent = RandomAgent(0)
    for _ in range(400):
        if state.is_terminal():
            break
        to_act = state.to_act()
        assert all(state.legal_actions(p) for p in to_act), state.where()
        state.apply_joint({p: agent.choose(state, p) for p in to_act})
    assert state.is_terminal()
    assert any("has no legal target and does nothing" in line for line in state.log)
