"""Warzone rule arithmetic (RULES.md §1): recruit limits, reach, battle order and outcomes,
Damage Cards; and the seed's worked example (§1.11) played through the engine."""

from __future__ import annotations

import pytest

from tests.domain.engines.warzone_fixtures import options
from workbench.domain.engines.base import Action
from workbench.domain.engines.warzone import ENGINE
from workbench.domain.engines.warzone.rules import (
    Config,
    OptionError,
    battle,
    can_direct,
    can_reach,
    can_recruit,
    damage_split,
)
from workbench.domain.errors import IllegalAction


def cfg(**overrides: object) -> Config:
    return Config(options(**overrides))


# ------------------------------------------------------------------ §1.6.2 recruit limits

def _recruit_all(c: Config, degrees: list[int]) -> int:
    """How many of ``degrees`` may be recruited in order in one turn."""
    count, highest, used = 0, -1, 0
    from workbench.domain.engines.warzone.rules import band_weight

    for d in degrees:
        if not can_recruit(c, count, highest, used, d):
            break
        count += 1
        highest = max(highest, d)
        used += band_weight(d)
    return count


@pytest.mark.parametrize("degrees, allowed", [
    ([0, 1, 0, 1], 3),      # up to 3 of Degree 0-1
    ([2, 3, 2], 2),         # up to 2 of Degree 2-3
    ([4, 0], 1),            # only 1 when it is Degree 4+
    ([0, 0, 2], 2),         # the Degree 2 raises the band: the limit is 2, already used
    ([0, 2, 0], 2),         # mixing never exceeds the lower limit (Decision)
    ([0, 6], 1),
])
def test_recruit_limit_is_set_by_the_highest_degree(degrees: list[int], allowed: int) -> None:
    assert _recruit_all(cfg(), degrees) == allowed


def test_recruit_limit_option_off_gives_each_band_its_own_quota() -> None:
    c = cfg(recruit_limit_by_highest_degree=False)
    assert _recruit_all(c, [0, 0, 2, 2, 5, 1]) == 6
    assert _recruit_all(c, [4, 6]) == 1
    assert _recruit_all(c, [2, 2, 3]) == 2


# ------------------------------------------------------------------ §1.7 reach

def test_reach_by_class() -> None:
    full = (1, 1, 1)
    assert can_reach(1, False, 1, full) and not can_reach(1, False, 2, full)
    assert can_reach(1, False, 2, (0, 1, 1)) and not can_reach(1, False, 3, (0, 1, 1))
    assert can_reach(1, False, 3, (0, 0, 1))
    assert can_reach(2, False, 1, full) and can_reach(2, False, 2, full)
    assert not can_reach(2, False, 3, full) and can_reach(2, False, 3, (0, 0, 2))
    assert all(can_reach(3, False, k, full) for k in (1, 2, 3))
    assert all(can_reach(1, True, k, full) for k in (1, 2, 3))


def test_direct_attack_needs_class_3_a_master_or_an_empty_field() -> None:
    assert can_direct(3, False, (1, 1, 1))
    assert can_direct(1, True, (1, 0, 0))
    assert not can_direct(1, False, (0, 0, 1)) and not can_direct(2, False, (1, 0, 0))
    assert can_direct(1, False, (0, 0, 0)) and can_direct(2, False, (0, 0, 0))


# ------------------------------------------------------------------ §1.9 battle

def test_higher_class_strikes_first_and_a_destroyed_lower_class_never_strikes_back() -> None:
    o = battle(cfg(), 3, 500, 300, 1, 400, 400, False)
    assert (o.att_left, o.def_left, o.att_dies, o.def_dies) == (300, -100, False, True)
    assert (o.to_attacker, o.to_defender) == (0, 100)
    o = battle(cfg(), 1, 600, 300, 2, 400, 300, False)  # the defender is the higher Class
    assert (o.att_left, o.def_left, o.to_attacker) == (-100, 300, 100)


def test_same_class_strikes_simultaneously_and_both_can_take_excess() -> None:
    o = battle(cfg(), 1, 500, 300, 1, 400, 200, False)
    assert (o.att_dies, o.def_dies, o.to_attacker, o.to_defender) == (True, True, 100, 300)


def test_exactly_zero_is_destroyed_without_battle_damage() -> None:
    o = battle(cfg(), 1, 200, 300, 1, 200, 200, False)  # the seed's 200/300 vs 200/200
    assert (o.att_dies, o.att_left, o.def_dies, o.to_defender) == (False, 100, True, 0)


def test_guarding_rules_and_the_attacker_excess_decision() -> None:
    o = battle(cfg(), 1, 300, 300, 1, 300, 300, True)
    assert (o.att_dies, o.def_dies) == (True, False)          # both at 0: only the attacker
    o = battle(cfg(), 1, 800, 500, 1, 300, 400, True)
    assert o.def_dies and o.to_defender == 0                   # no Battle Damage for a guard
    o = battle(cfg(), 1, 200, 300, 1, 700, 900, True)
    assert o.att_dies and o.to_attacker == 400                 # Decision §1.9.3
    o = battle(cfg(attacker_excess_battle_damage=False), 1, 200, 300, 1, 700, 900, True)
    assert o.att_dies and o.to_attacker == 0


# ------------------------------------------------------------------ §1.10 Damage Cards

@pytest.mark.parametrize("amount, split", [
    (750, (1, 250)), (1000, (2, 0)), (480, (0, 480)), (450, (0, 450)), (2100, (4, 100)),
    (0, (0, 0)),
])
def test_damage_cards_one_per_full_500(amount: int, split: tuple[int, int]) -> None:
    assert damage_split(cfg(), amount) == split


def test_damage_step_option_off_rounds_a_remainder_above_450_up() -> None:
    c = cfg(damage_step_single=False)
    assert damage_split(c, 480) == (1, 0)
    assert damage_split(c, 950) == (1, 450)
    assert damage_split(c, 999) == (2, 0)


def test_unusable_options_are_refused() -> None:
    with pytest.raises(OptionError):
        Config(options(start_life=0))
    with pytest.raises(OptionError):
        Config(options(interceptors_per_attack="one"))


# ------------------------------------------------------------------ §1.11 worked example

def _creature(name: str, cls: int, strength: int, res: int, pos: str) -> dict:
    return {"name": name, "class": cls, "degree": 0, "strength": strength, "resilience": res,
            "position": pos}


def worked_example():
    filler = [{"name": f"{side}-f{i}", "class": 1, "strength": 100, "resilience": 100}
              for side in "ab" for i in range(3)]
    setup = {
        "turn": 3, "active": 0, "phase": "war",
        "players": [
            {"deck": filler[:3], "field": [
                _creature("a-c1", 1, 600, 450, "battling"),
                _creature("a-c2", 2, 300, 300, "battling"),
                _creature("a-c3", 3, 150, 150, "battling")]},
            {"deck": filler[3:], "field": [
                _creature("b-c1", 1, 400, 650, "guarding"),
                _creature("b-c2", 2, 250, 350, "battling"),
                _creature("b-c3", 3, 150, 50, "battling")]},
        ],
    }
    return ENGINE.from_setup(setup, options(), 0)


def test_worked_example_holds_exactly() -> None:
    state = worked_example()
    state.apply(Action("attack", ("a-c3", "direct")))
    assert state.to_act() == (1,)
    legal = {a.args for a in state.legal_actions(1) if a.kind == "intercept"}
    assert legal == {("b-c1",), ("b-c2",), ("b-c3",)}  # a Direct Attack: any creature
    state.apply(Action("intercept", ("b-c3",)))
    snap = ENGINE.snapshot(state)
    assert [p["life"] for p in snap["players"]] == [2500, 2400]
    assert snap["players"][0]["rows"] == [["a-c1"], ["a-c2"], []]
    assert snap["players"][1]["rows"] == [["b-c1"], ["b-c2"], []]
    state.apply(Action("attack", ("a-c1", "b-c1")))
    assert state.to_act() == (0,)  # Class 1 target: no interception window
    snap = ENGINE.snapshot(state)
    assert snap["players"][0]["field"]["a-c1"]["left"] == 50
    assert snap["players"][1]["field"]["b-c1"]["left"] == 50
    state.apply(Action("attack", ("a-c2", "b-c1")))
    snap = ENGINE.snapshot(state)
    assert snap["players"][0]["rows"] == [["a-c1"], ["a-c2"], []]
    assert snap["players"][0]["field"]["a-c1"]["left"] == 50
    assert snap["players"][0]["field"]["a-c2"]["damage"] == 0
    assert snap["players"][1]["rows"] == [[], ["b-c2"], []]
    assert [p["life"] for p in snap["players"]] == [2500, 2400]
    assert any("declares a Direct Attack" in line for line in state.log)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = worked_example()
    before = ENGINE.snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(Action("attack", ("a-c1", "b-c2")))  # Class 1 cannot reach Class 2 here
    with pytest.raises(IllegalAction):
        state.apply(Action("attack", ("b-c1", "a-c1")))  # not its creature
    assert ENGINE.snapshot(state) == before


def test_engine_defaults_match_game_yaml() -> None:
    from tests.domain.engines.warzone_fixtures import default_options
    from workbench.domain.engines.warzone.rules import DEFAULT_OPTIONS

    yaml_defaults = default_options()
    assert {k: yaml_defaults[k] for k in DEFAULT_OPTIONS} == DEFAULT_OPTIONS


def test_copies_are_listed_once_but_any_copy_may_be_named() -> None:
    setup = {"turn": 2,
             "cards": {"x": {"name": "X", "class": 1, "degree": 0, "strength": 100,
                             "resilience": 100}},
             "players": [{"hand": ["x", "x"], "deck": ["x"]}, {"deck": ["x"]}]}
    state = ENGINE.from_setup(setup, options(), 0)
    recruits = [a.args for a in state.legal_actions(0) if a.kind == "recruit"]
    assert recruits == [("a-x-1", "battling"), ("a-x-1", "guarding")]
    state.apply(Action("recruit", ("a-x-2", "guarding")))
    snap = ENGINE.snapshot(state)["players"][0]
    assert list(snap["field"]) == ["a-x-2"] and snap["hand"] == ["a-x-1"]
    with pytest.raises(IllegalAction):
        state.apply(Action("recruit", ("a-x-9", "guarding")))


@pytest.mark.parametrize("setup", [
    {"players": [{"field": [{"name": "a-x", "positon": "guarding"}]}, {}]},  # a typo
    {"players": [{"field": [{"name": "a-x", "position": "sideways"}]}, {}]},
    {"players": [{"hand": ["nope"]}, {}]},                                   # not in cards
    {"players": [{}, {}], "phase": "night"},
    {"players": [{}]},
    {"players": [{}, {}], "weather": "rain"},
    {"players": [{}, {}], "deal": True},                                     # deal needs phase start
    {"players": [{"hand": [{"name": "a-x"}]}, {}], "phase": "start", "deal": True},  # deal draws the hand
])
def test_malformed_scenario_setups_are_refused(setup: dict) -> None:
    from workbench.domain.engines.warzone.setup import SetupError

    with pytest.raises(SetupError):
        ENGINE.from_setup(setup, options(), 0)
