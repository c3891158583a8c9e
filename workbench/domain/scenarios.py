"""Rule scenarios: set up a position, apply actions, compare the result (docs/scenarios.md).

A scenario is a plain mapping (parsed YAML). This module is pure: it builds the position with the
engine's ``from_setup``, applies the listed actions through the engine interface and compares
``engine.snapshot(state)`` against the ``expect`` blocks (subset match). The result names the
first difference as a readable path, e.g. ``players.1.life: expected 2400, got 2500``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from workbench.domain.engines import load_engine
from workbench.domain.engines.base import Action, Engine, State
from workbench.domain.errors import IllegalAction, WorkbenchError
from workbench.domain.gamedef import GameDefinition
from workbench.domain.legality_scenarios import run_legality_scenario
from workbench.domain.scenario_results import (
    ScenarioError,
    ScenarioResult,
    check_keys,
    check_options,
    first_difference,
    plain_value,
    scenario_header,
    shown_value,
)

STEP_KEYS = frozenset({"player", "action", "args", "joint", "expect", "expect_illegal", "note"})
TOP_KEYS = frozenset(
    {"game", "kind", "name", "rule", "description", "options", "seed", "setup", "actions", "expect",
     "expect_illegal"}
)
KINDS = ("play", "deck", "card", "pod")
"""Scenario kinds (key ``kind``, default ``play``): ``play`` sets up a position for the engine;
``deck`` and ``card`` run cases through the validator (``legality_scenarios``); ``pod`` runs a tiny
playtest pod (``workbench.services.playtest.pod_scenarios``, outside the pure domain)."""


def scenario_kind(scenario: Any) -> str:
    """The scenario's ``kind`` (``play`` when it names none)."""
    return str(scenario.get("kind") or "play") if isinstance(scenario, Mapping) else "play"


class _Mismatch(Exception):
    """Internal: the scenario ran but the state differs or an action was refused."""



# --------------------------------------------------------------------------- actions


def _args_match(wanted: Sequence[Any], actual: Sequence[Any]) -> bool:
    plain_wanted, plain_actual = plain_value(list(wanted)), plain_value(list(actual))
    if plain_wanted == plain_actual:
        return True
    # YAML may read "3" as 3 (or the other way round); compare the printed leaves too.
    return _strings(plain_wanted) == _strings(plain_actual)


def _strings(value: Any) -> Any:
    if isinstance(value, list):
        return [_strings(v) for v in value]
    return str(value)


def _tupled(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return tuple(_tupled(v) for v in value)
    return value


def _describe(step: Mapping[str, Any]) -> str:
    args = step.get("args")
    return f"{step.get('action')} {shown_value(args)}" if args is not None else str(step.get("action"))


def resolve_action(state: State, player: int, step: Mapping[str, Any]) -> Action:
    """Find the action a scenario step names among ``player``'s legal actions.

    Matches by kind and args (``args`` omitted: the only action of that kind). When no legal
    action matches, returns a new Action built from the step, so that the engine itself judges it
    (engines may accept moves their legal list only samples, such as any damage split).
    Raises ScenarioError when the step names no action or is ambiguous.
    """
    kind = step.get("action")
    if not isinstance(kind, str) or not kind:
        raise ScenarioError(f"a step needs 'action' (the action kind), got {step!r}")
    legal = state.legal_actions(player)
    if "args" in step:
        args = step["args"]
        if not isinstance(args, (list, tuple)):
            args = [args]
        for action in legal:
            if action.kind == kind and _args_match(args, action.args):
                return action
        return Action(kind, _tupled(args))
    same_kind = [a for a in legal if a.kind == kind]
    if len(same_kind) == 1:
        return same_kind[0]
    if len(same_kind) > 1:
        options = "; ".join(shown_value(a.args) for a in same_kind[:8])
        raise ScenarioError(f"action {kind!r} needs args: several are legal ({options})")
    return Action(kind)


def _legal_summary(state: State, player: int) -> str:
    legal = state.legal_actions(player)
    shown = ", ".join(f"{a.kind} {shown_value(a.args)}" if a.args else a.kind for a in legal[:10])
    more = f" … ({len(legal)} in all)" if len(legal) > 10 else ""
    return shown + more if shown else "none"


def _player_of(state: State, step: Mapping[str, Any], where: str) -> int:
    acting = state.to_act()
    if "player" in step:
        try:
            return int(step["player"])
        except (TypeError, ValueError) as exc:
            raise ScenarioError(f"{where}: player must be 0 or 1, got {step['player']!r}") from exc
    if len(acting) == 1:
        return acting[0]
    raise ScenarioError(f"{where}: say which player acts (players to act: {list(acting)})")


def _apply_single(state: State, step: Mapping[str, Any], index: int) -> None:
    player = _player_of(state, step, f"step {index}")
    acting = state.to_act()
    if player not in acting:
        raise _Mismatch(
            f"step {index}: player {player} cannot act now (players to act: {list(acting)}; "
            f"terminal: {state.is_terminal()})"
        )
    if len(acting) > 1:
        raise ScenarioError(
            f"step {index}: players {list(acting)} choose together here; write the step as joint"
        )
    action = resolve_action(state, player, step)
    try:
        state.apply(action)
    except IllegalAction as exc:
        raise _Mismatch(
            f"step {index}: player {player} {_describe(step)} was refused: {exc} "
            f"(legal: {_legal_summary(state, player)})"
        ) from exc


def _apply_joint(state: State, joint: Any, index: int) -> None:
    if not isinstance(joint, Mapping):
        raise ScenarioError(f"step {index}: joint must map each player to an action")
    acting = state.to_act()
    chosen: dict[int, Action] = {}
    for key, sub in joint.items():
        player = int(key)
        if not isinstance(sub, Mapping):
            raise ScenarioError(f"step {index}: joint.{key} must be a mapping with 'action'")
        if player not in acting:
            raise _Mismatch(f"step {index}: player {player} cannot act now (players to act: {list(acting)})")
        chosen[player] = resolve_action(state, player, sub)
    try:
        state.apply_joint(chosen)
    except IllegalAction as exc:
        raise _Mismatch(f"step {index}: joint choice was refused: {exc}") from exc


def _check_illegal(state: State, step: Any, index: int | str) -> None:
    if not isinstance(step, Mapping):
        raise ScenarioError(f"{index}: expect_illegal must be a mapping with 'action'")
    player = _player_of(state, step, str(index))
    kind = step.get("action")
    args = step.get("args", [])
    if not isinstance(args, (list, tuple)):
        args = [args]
    for action in state.legal_actions(player):
        if action.kind == kind and ("args" not in step or _args_match(args, action.args)):
            raise _Mismatch(f"{index}: expected {_describe(step)} by player {player} to be refused, but it is legal")
    if state.to_act() != (player,):
        return  # not this player's single turn: being absent from the legal list is the refusal
    trial = state.clone()
    try:
        trial.apply(Action(str(kind), _tupled(args)))
    except IllegalAction:
        return
    raise _Mismatch(f"{index}: expected {_describe(step)} by player {player} to be refused, but the engine applied it")


def _check_expect(engine: Engine, state: State, expected: Any, where: str) -> None:
    if not isinstance(expected, Mapping):
        raise ScenarioError(f"{where}: expect must be a mapping (a subset of the snapshot)")
    assert engine.snapshot is not None
    diff = first_difference(plain_value(expected), engine.snapshot(state))
    if diff:
        raise _Mismatch(f"{where}: {diff}")


# --------------------------------------------------------------------------- running


def check_scenario_shape(scenario: Any) -> None:
    """Raise ScenarioError unless ``scenario`` has the keys and shapes of docs/scenarios.md."""
    if not isinstance(scenario, Mapping):
        raise ScenarioError("a scenario must be a mapping")
    if scenario_kind(scenario) != "play":
        raise ScenarioError(f"kind {scenario_kind(scenario)!r} is not a play scenario")
    check_keys(scenario, TOP_KEYS, ("game", "name", "setup"), unknown="unknown scenario keys", needs="a scenario")
    if not isinstance(scenario["setup"], Mapping):
        raise ScenarioError("setup must be a mapping")
    actions = scenario.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("actions must be a list")
    for number, step in enumerate(actions, 1):
        if not isinstance(step, Mapping):
            raise ScenarioError(f"step {number} must be a mapping")
        extra = sorted(str(k) for k in step if k not in STEP_KEYS)
        if extra:
            raise ScenarioError(f"step {number}: unknown keys {', '.join(extra)}")
        if not any(k in step for k in ("action", "joint", "expect", "expect_illegal", "note")):
            raise ScenarioError(f"step {number} needs action, joint, expect, expect_illegal or note")
    has_check = "expect" in scenario or "expect_illegal" in scenario or any(
        "expect" in s or "expect_illegal" in s for s in actions
    )
    if not has_check:
        raise ScenarioError("a scenario needs at least one expect or expect_illegal (else it cannot fail)")
    check_options(scenario)


def run_scenario(
    scenario: Mapping[str, Any],
    option_defaults: Mapping[str, Any] | None = None,
    engine_for: Callable[[str], Engine] = load_engine,
    engine_name: str | None = None,
    definition: GameDefinition | None = None,
) -> ScenarioResult:
    """Run one scenario and return its result; never raises for a bad scenario or engine crash.

    ``option_defaults`` are the game's rule option defaults (game.yaml); the scenario's
    ``options`` override them. ``engine_name`` defaults to the scenario's ``game``. Deck and card
    scenarios (``kind: deck``/``card``) run through the validator of ``definition`` (the game's
    parsed game.yaml; without it they fail with an error); a ``pod`` scenario fails here with an
    error, as it runs with the playtest runner (``workbench.services.scenario_runs``).
    """
    name, game, rule = scenario_header(scenario)
    kind = scenario_kind(scenario)
    if kind in ("deck", "card"):
        return run_legality_scenario(scenario, definition)
    if kind != "play":
        why = ("runs with the playtest runner (workbench scenario, workbench.services.scenario_runs)"
               if kind == "pod" else f"is not a scenario kind; kinds: {', '.join(KINDS)}")
        return ScenarioResult(name, game, rule, False, f"error: kind {kind!r} {why}")
    steps_done = 0
    try:
        check_scenario_shape(scenario)
        engine = engine_for(engine_name or game)
        if engine.from_setup is None or engine.snapshot is None:
            raise ScenarioError(f"the {game} engine does not support scenarios (no from_setup/snapshot)")
        options = dict(option_defaults or {})
        options.update(scenario.get("options") or {})
        options.setdefault("_log", True)
        seed = int(scenario.get("seed", 0) or 0)
        state = engine.from_setup(scenario["setup"], options, seed)
        for number, step in enumerate(scenario.get("actions") or [], 1):
            if "expect" in step:
                _check_expect(engine, state, step["expect"], f"after step {steps_done}")
            if "expect_illegal" in step:
                _check_illegal(state, step["expect_illegal"], f"step {number}")
            if "joint" in step:
                _apply_joint(state, step["joint"], number)
                steps_done += 1
            elif "action" in step:
                _apply_single(state, step, number)
                steps_done += 1
        if "expect" in scenario:
            _check_expect(engine, state, scenario["expect"], "end")
        if "expect_illegal" in scenario:
            _check_illegal(state, scenario["expect_illegal"], "end")
    except _Mismatch as exc:
        return ScenarioResult(name, game, rule, False, str(exc), steps_done)
    except WorkbenchError as exc:
        return ScenarioResult(name, game, rule, False, f"error: {exc}", steps_done)
    except Exception as exc:  # an engine crash is a failed scenario, reported, not a traceback
        return ScenarioResult(
            name, game, rule, False, f"engine crash after step {steps_done}: {type(exc).__name__}: {exc}",
            steps_done,
        )
    return ScenarioResult(name, game, rule, True, "", steps_done)
