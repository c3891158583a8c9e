"""The scenario runner (workbench.domain.scenarios) against a tiny two-player engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from workbench.domain.engines.base import Action, Engine, GameResult, GameStats, State
from workbench.domain.errors import IllegalAction
from workbench.domain.scenarios import first_difference, run_scenario

import random


class RaceState(State):
    """Players add 1 or 2 to their score in turn; at ``goal`` they win. Round 0 is a joint bid."""

    def __init__(self, scores: list[int], turn: int, goal: int, bid: bool) -> None:
        self.scores = scores
        self.turn = turn
        self.goal = goal
        self.bid = bid
        self.rng = random.Random(0)
        self.log: list[str] = []
        self.stats = GameStats()

    def to_act(self) -> tuple[int, ...]:
        if self.is_terminal():
            return ()
        return (0, 1) if self.bid else (self.turn,)

    def legal_actions(self, player: int) -> list[Action]:
        if player not in self.to_act():
            return []
        return [Action("add", (n,), f"add {n}") for n in (1, 2)]

    def apply(self, action: Action) -> None:
        if self.bid or action not in self.legal_actions(self.turn):
            raise IllegalAction(f"{action} is not legal")
        self.scores[self.turn] += action.args[0]
        self.turn = 1 - self.turn

    def apply_joint(self, actions: Mapping[int, Action]) -> None:
        if not self.bid:
            return super().apply_joint(actions)
        for player, action in actions.items():
            if action not in self.legal_actions(player):
                raise IllegalAction(f"{action} is not legal")
            self.scores[player] += action.args[0]
        self.bid = False

    def is_terminal(self) -> bool:
        return max(self.scores) >= self.goal

    def result(self) -> GameResult:
        winner = 0 if self.scores[0] >= self.goal else 1
        return GameResult(winner, "reached the goal", 0)

    def clone(self) -> RaceState:
        return RaceState(list(self.scores), self.turn, self.goal, self.bid)


def _from_setup(setup: Mapping[str, Any], options: Mapping[str, Any], seed: int) -> RaceState:
    return RaceState(list(setup.get("scores", [0, 0])), setup.get("turn", 0),
                     options.get("goal", 5), setup.get("bid", False))


def _snapshot(state: State) -> dict[str, Any]:
    assert isinstance(state, RaceState)
    result = None
    if state.is_terminal():
        r = state.result()
        result = {"winner": r.winner, "draw": r.draw, "reason": r.reason}
    return {"to_act": list(state.to_act()), "terminal": state.is_terminal(), "result": result,
            "players": [{"score": s} for s in state.scores]}


RACE = Engine(game="race", new_game=lambda a, b, o, s: RaceState([0, 0], 0, 5, False),
              agents={}, from_setup=_from_setup, snapshot=_snapshot)


def run(scenario: dict[str, Any], defaults: dict[str, Any] | None = None):
    return run_scenario(scenario, defaults or {"goal": 5}, engine_for=lambda name: RACE)


def base(**extra: Any) -> dict[str, Any]:
    scenario: dict[str, Any] = {"game": "race", "name": "t", "rule": "§9", "setup": {}}
    scenario.update(extra)
    return scenario


def test_passing_scenario_applies_actions_in_order() -> None:
    result = run(base(actions=[{"player": 0, "action": "add", "args": [2]},
                               {"player": 1, "action": "add", "args": [1]}],
                      expect={"players": {0: {"score": 2}, 1: {"score": 1}}, "to_act": [0]}))
    assert result.passed, result.message
    assert result.steps == 2


def test_first_difference_is_a_readable_path() -> None:
    result = run(base(actions=[{"action": "add", "args": [2]}],
                      expect={"players": {0: {"score": 3}}}))
    assert not result.passed
    assert result.message == "end: players.0.score: expected 3, got 2"


def test_refused_action_fails_with_reason_and_legal_list() -> None:
    result = run(base(actions=[{"player": 0, "action": "add", "args": [3]}],
                      expect={"terminal": False}))
    assert not result.passed
    assert "step 1" in result.message and "refused" in result.message and "add [1]" in result.message


def test_wrong_player_is_reported() -> None:
    result = run(base(actions=[{"player": 1, "action": "add", "args": [1]}], expect={}))
    assert not result.passed
    assert "player 1 cannot act now" in result.message


def test_joint_step_and_single_step_at_joint_node() -> None:
    ok = run(base(setup={"bid": True},
                  actions=[{"joint": {0: {"action": "add", "args": [1]}, 1: {"action": "add", "args": [2]}}}],
                  expect={"players": [{"score": 1}, {"score": 2}]}))
    assert ok.passed, ok.message
    bad = run(base(setup={"bid": True}, actions=[{"player": 0, "action": "add", "args": [1]}],
                   expect={}))
    assert not bad.passed and "joint" in bad.message


def test_expect_illegal_passes_only_when_refused() -> None:
    assert run(base(expect_illegal={"player": 0, "action": "add", "args": [5]})).passed
    legal = run(base(expect_illegal={"player": 0, "action": "add", "args": [1]}))
    assert not legal.passed and "but it is legal" in legal.message


def test_checkpoints_between_steps() -> None:
    result = run(base(actions=[{"action": "add", "args": [1]},
                               {"expect": {"players": {0: {"score": 2}}}},
                               {"action": "add", "args": [1]}]))
    assert not result.passed
    assert result.message.startswith("after step 1: players.0.score: expected 2, got 1")


def test_options_override_defaults_and_result_contains() -> None:
    result = run(base(options={"goal": 2}, actions=[{"action": "add", "args": [2]}],
                      expect={"terminal": True, "result": {"winner": 0, "reason": {"contains": "goal"}}}))
    assert result.passed, result.message
    # With the default goal of 5 the same move does not end the game.
    assert not run(base(actions=[{"action": "add", "args": [2]}], expect={"terminal": True})).passed


def test_malformed_scenarios_fail_with_a_message() -> None:
    assert "needs 'setup'" in run({"game": "race", "name": "x", "expect": {}}).message
    assert "unknown scenario keys: expekt" in run(base(expekt={})).message
    assert "cannot fail" in run(base(actions=[{"action": "add", "args": [1]}])).message


def test_engine_crash_is_a_failure_not_an_exception() -> None:
    def broken(setup, options, seed):
        raise KeyError("boom")

    engine = Engine(game="x", new_game=RACE.new_game, agents={}, from_setup=broken, snapshot=_snapshot)
    result = run_scenario(base(expect={}), {}, engine_for=lambda name: engine)
    assert not result.passed and "KeyError" in result.message


@pytest.mark.parametrize(
    ("expected", "actual", "difference"),
    [
        ({"a": 1}, {"a": 1, "b": 2}, None),
        ({"a": 1}, {"b": 2}, "a: missing (have: b)"),
        ([1, 2], [1, 2, 3], "(state): expected [1, 2], got [1, 2, 3]"),
        ({"x": {1: {"y": True}}}, {"x": [{"y": True}, {"y": 1}]}, "x.1.y: expected True, got 1"),
        ({"n": 2}, {"n": 2.0}, None),
        ({"r": {"contains": "all"}}, {"r": "all removed"}, None),
    ],
)
def test_first_difference(expected: Any, actual: Any, difference: str | None) -> None:
    assert first_difference(expected, actual) == difference
