"""Deck and card legality scenarios: cases run through the real validator (docs/scenarios.md).

Deck-construction and card-field rules (RULES.md §1.1, §1.2, §2.1, §3.1.2, §3.7 …) are the
validator's, not an engine's, so their scenarios give a deck or a card instead of a position:

    kind: deck                     # or: card
    cards: {wolf: {...}}           # deck scenarios: the card library the decks name
    cases:
      - deck: {zones: {main: {wolf: 39}}}
        problems: [deck.zone_min]  # exactly these problems ([]: legal)

Each case is checked with :func:`workbench.domain.validation.validate_deck` (or
``validate_card``) of the game's definition, and the problems it reports must be exactly those
listed: an entry is a problem code, or a mapping matched as a subset of the problem
(``{code: card.multiple_of, severity: warning, field: strength}``). This module is pure: the
caller passes the parsed game definition.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from workbench.domain.errors import WorkbenchError
from workbench.domain.gamedef import GameDefinition
from workbench.domain.problems import Problem
from workbench.domain.scenario_results import (
    ScenarioError,
    ScenarioResult,
    check_keys,
    check_options,
    first_difference,
    scenario_header,
)
from workbench.domain.validation import validate_card, validate_deck

LEGALITY_KINDS = frozenset({"deck", "card"})
TOP_KEYS = frozenset({"game", "kind", "name", "rule", "description", "options", "cards", "cases"})
CASE_KEYS = {
    "deck": frozenset({"deck", "options", "problems", "note"}),
    "card": frozenset({"card", "id", "options", "problems", "note"}),
}


class _CaseFailed(Exception):
    """Internal: a case's problems differ from the expected ones."""


def check_legality_shape(scenario: Any) -> None:
    """Raise ScenarioError unless ``scenario`` is a well-formed deck or card scenario."""
    if not isinstance(scenario, Mapping):
        raise ScenarioError("a scenario must be a mapping")
    kind = scenario.get("kind")
    if kind not in LEGALITY_KINDS:
        raise ScenarioError(f"kind must be deck or card here, not {kind!r}")
    check_keys(scenario, TOP_KEYS, ("game", "name", "cases"), unknown=f"unknown keys for a {kind} scenario",
               needs="a scenario")
    cards = scenario.get("cards", {})
    if not isinstance(cards, Mapping):
        raise ScenarioError("cards must map card ids to card mappings")
    if kind == "card" and "cards" in scenario:
        raise ScenarioError("a card scenario gives each card in its case (card: {...}), not a cards library")
    check_options(scenario)
    cases = scenario["cases"]
    if not isinstance(cases, list) or not cases:
        raise ScenarioError("cases must be a non-empty list")
    for number, case in enumerate(cases, 1):
        if not isinstance(case, Mapping):
            raise ScenarioError(f"case {number} must be a mapping")
        extra = sorted(str(k) for k in case if k not in CASE_KEYS[str(kind)])
        if extra:
            raise ScenarioError(f"case {number}: unknown keys {', '.join(extra)}")
        if kind not in case:
            raise ScenarioError(f"case {number} needs '{kind}'")
        if "problems" not in case:
            raise ScenarioError(f"case {number} needs 'problems' (the expected problem codes; [] for none)")
        if not isinstance(case["problems"], list):
            raise ScenarioError(f"case {number}: problems must be a list")
        for entry in case["problems"]:
            if not isinstance(entry, (str, Mapping)):
                raise ScenarioError(f"case {number}: a problem is a code or a mapping, not {entry!r}")
        case_options = case.get("options", {})
        if case_options is not None and not isinstance(case_options, Mapping):
            raise ScenarioError(f"case {number}: options must be a mapping")


def _shown(problem: Problem) -> str:
    where = problem.field or problem.zone
    return f"{problem.code}{f' ({where})' if where else ''}: {problem.message}"


def _matches(expected: str | Mapping[str, Any], problem: Problem) -> bool:
    if isinstance(expected, str):
        return problem.code == expected
    return first_difference(dict(expected), problem.to_dict()) is None


def compare_problems(expected: Sequence[str | Mapping[str, Any]], actual: Sequence[Problem]) -> str | None:
    """None when ``actual`` holds exactly the ``expected`` problems (in any order), else the first
    difference: an expected problem that is missing, or a problem nobody expected."""
    left = list(actual)
    for entry in expected:
        for index, problem in enumerate(left):
            if _matches(entry, problem):
                del left[index]
                break
        else:
            got = "; ".join(_shown(p) for p in actual) or "none"
            return f"expected problem {entry!r}, not reported (problems: {got})"
    if left:
        return "unexpected problem " + "; ".join(_shown(p) for p in left)
    return None


def _case_problems(kind: str, case: Mapping[str, Any], scenario: Mapping[str, Any],
                   definition: GameDefinition) -> list[Problem]:
    options = dict(scenario.get("options") or {})
    options.update(case.get("options") or {})
    if kind == "deck":
        deck = case["deck"]
        return validate_deck(definition, deck, dict(scenario.get("cards") or {}), "case", options)
    card = case["card"]
    return validate_card(definition, card, str(case.get("id", "card")), options)


def run_legality_scenario(scenario: Mapping[str, Any], definition: GameDefinition | None) -> ScenarioResult:
    """Run a deck or card scenario against the game's ``definition``; never raises.

    The result fails with the first case whose problems differ (``case 2: expected problem
    'deck.zone_min', not reported (problems: none)``), or with ``error: …`` for a malformed
    scenario or a missing definition.
    """
    name, game, rule = scenario_header(scenario)
    done = 0
    try:
        check_legality_shape(scenario)
        if definition is None:
            raise ScenarioError(f"a {scenario['kind']} scenario needs the game definition of {game!r}")
        if definition.id != game:
            raise ScenarioError(f"the scenario is for {game!r}, the definition is {definition.id!r}")
        kind = str(scenario["kind"])
        for number, case in enumerate(scenario["cases"], 1):
            problems = _case_problems(kind, case, scenario, definition)
            diff = compare_problems(case["problems"], problems)
            if diff:
                raise _CaseFailed(f"case {number}: {diff}")
            done += 1
    except _CaseFailed as exc:
        return ScenarioResult(name, game, rule, False, str(exc), done)
    except WorkbenchError as exc:
        return ScenarioResult(name, game, rule, False, f"error: {exc}", done)
    return ScenarioResult(name, game, rule, True, "", done)
