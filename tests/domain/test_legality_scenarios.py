"""Deck and card scenarios (workbench.domain.legality_scenarios): cases through the real validator,
exactly the listed problems, a readable first difference, and malformed scenarios refused."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.domain.legality_scenarios import compare_problems, run_legality_scenario
from workbench.domain.problems import Problem
from workbench.domain.scenarios import run_scenario

WOLF = {"name": "风刃狼", "kind": "creature", "cost": 2, "stars": 3, "atk": 4, "def": 2, "attribute": "wind",
        "subtype": "兽"}


def deck_scenario(**changes: Any) -> dict[str, Any]:
    scenario: dict[str, Any] = {
        "game": "fusion", "kind": "deck", "name": "forty cards", "rule": "§3.1.2",
        "cards": {"wolf": WOLF, "imp": dict(WOLF, name="火花小鬼", attribute="fire")},
        "cases": [{"deck": {"zones": {"main": {"wolf": 3, "imp": 3}}}, "options": {"main_min": 6}, "problems": []},
                  {"deck": {"zones": {"main": {"wolf": 3, "imp": 3}}},
                   "problems": [{"code": "deck.zone_min", "actual": 6, "limit": 40}]}],
    }
    scenario.update(changes)
    return scenario


def test_a_deck_scenario_passes_when_each_case_reports_exactly_its_problems(definitions) -> None:
    result = run_legality_scenario(deck_scenario(), definitions["fusion"])
    assert result.passed, result.message
    assert result.steps == 2 and result.rule == "§3.1.2"


def test_a_missing_or_an_unexpected_problem_fails_with_the_case_number(definitions) -> None:
    wrong_limit = deck_scenario()
    wrong_limit["cases"][1]["problems"] = [{"code": "deck.zone_min", "limit": 60}]
    result = run_legality_scenario(wrong_limit, definitions["fusion"])
    assert not result.passed and result.steps == 1
    assert result.message.startswith("case 2: expected problem {'code': 'deck.zone_min', 'limit': 60}, not reported")
    assert "deck.zone_min (main): " in result.message
    unexpected = deck_scenario()
    unexpected["cases"][1]["problems"] = []
    result = run_legality_scenario(unexpected, definitions["fusion"])
    assert result.message.startswith("case 2: unexpected problem deck.zone_min (main)")


def test_a_card_scenario_runs_validate_card_with_its_options(definitions) -> None:
    scenario = {"game": "warzone", "kind": "card", "name": "stat step", "rule": "§1.1", "cases": [
        {"card": {"name": "A", "kind": "creature", "class": 1, "degree": 0, "strength": 120, "resilience": 100},
         "problems": [{"code": "card.multiple_of", "severity": "warning", "field": "strength"}]},
        {"card": {"name": "A", "kind": "creature", "class": 1, "degree": 0, "strength": 120, "resilience": 100},
         "options": {"stat_step": 10}, "problems": []},
    ]}
    assert run_legality_scenario(scenario, definitions["warzone"]).passed
    scenario["cases"][1]["options"] = {}
    assert "case 2: unexpected problem card.multiple_of" in run_legality_scenario(scenario, definitions["warzone"]).message


def test_run_scenario_hands_deck_and_card_kinds_to_the_validator(definitions) -> None:
    assert run_scenario(deck_scenario(), definition=definitions["fusion"]).passed
    without = run_scenario(deck_scenario())
    assert not without.passed and "needs the game definition" in without.message
    pod = run_scenario({"game": "fusion", "kind": "pod", "name": "p"})
    assert not pod.passed and "playtest runner" in pod.message
    odd = run_scenario({"game": "fusion", "kind": "tournament", "name": "t"})
    assert not odd.passed and "not a scenario kind" in odd.message


@pytest.mark.parametrize("change, message", [
    ({"cases": []}, "cases must be a non-empty list"),
    ({"cases": [{"deck": {"zones": {}}}]}, "case 1 needs 'problems'"),
    ({"cases": [{"problems": []}]}, "case 1 needs 'deck'"),
    ({"cases": [{"deck": {}, "problems": [], "expect": {}}]}, "case 1: unknown keys expect"),
    ({"cases": [{"deck": {}, "problems": "deck.zone_min"}]}, "problems must be a list"),
    ({"setup": {}}, "unknown keys for a deck scenario: setup"),
    ({"cards": ["wolf"]}, "cards must map card ids"),
])
def test_malformed_legality_scenarios_are_errors(definitions, change: dict[str, Any], message: str) -> None:
    result = run_legality_scenario(deck_scenario(**change), definitions["fusion"])
    assert not result.passed and result.message.startswith("error: ") and message in result.message


def test_the_definition_must_be_the_scenarios_game(definitions) -> None:
    result = run_legality_scenario(deck_scenario(), definitions["seth"])
    assert not result.passed and "the definition is 'seth'" in result.message


def test_problems_match_as_a_multiset_in_any_order() -> None:
    a = Problem("error", "deck.max_copies", "x", actual=4)
    b = Problem("warning", "deck.max_copies", "y", actual=5)
    assert compare_problems([{"actual": 5}, "deck.max_copies"], [a, b]) is None
    assert compare_problems(["deck.max_copies"], [a, b]).startswith("unexpected problem deck.max_copies: y")
    assert compare_problems(["deck.max_copies"] * 3, [a, b]).startswith("expected problem 'deck.max_copies'")
    assert compare_problems([{"message": {"contains": "y"}}, {"severity": "error"}], [a, b]) is None
