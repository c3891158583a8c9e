"""Pod scenarios (RULES.md §3.9.6): a tiny pod played by the real pod runner, its report compared
with the scenario's expect; and the runner that runs scenarios of every kind."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from workbench.services.playtest.pod import run_pod
from workbench.services.playtest.pod_scenarios import build_pod, run_pod_scenario
from workbench.services.scenario_runs import ScenarioRunner

ROOT = Path(__file__).resolve().parents[3]
WOLF = {"name": "风刃狼", "kind": "creature", "cost": 2, "stars": 3, "atk": 4, "def": 2, "attribute": "wind",
        "subtype": "兽"}
POD: dict[str, Any] = {
    "game": "fusion", "kind": "pod", "name": "three seats", "rule": "§3.9.6", "seed": 1,
    "cards": {"wolf": WOLF},
    "decks": [{"name": "A", "zones": {"main": {"wolf": 8}}}, {"zones": {"main": {"wolf": 8}}},
              {"zones": {"main": {"wolf": 8}}}],
    "games": 3,
    "expect": {"rotations": 1, "records": [{"a_seat": 0, "seats": ["a", "b", "c"]},
                                           {"a_seat": 1, "seats": ["c", "a", "b"]},
                                           {"a_seat": 2, "seats": ["b", "c", "a"]}]},
}


def pod(**changes: Any) -> dict[str, Any]:
    scenario = copy.deepcopy(POD)
    scenario.update(changes)
    return scenario


def test_a_pod_scenario_plays_the_pod_the_playtest_runner_plays(definitions) -> None:
    result = run_pod_scenario(pod(), definitions["fusion"])
    assert result.passed, result.message
    assert result.steps == 3
    built = build_pod(pod(), definitions["fusion"])
    assert built.players == 3 and built.labels == ("A", "b", "c") and built.options["players"] == 3
    assert built.agents == ("random", "random") and len(built.decks[0]["main"]) == 8
    report = run_pod(built, 3, workers=1)
    assert [r["seats"] for r in report["records"]] == [["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"]]


def test_a_wrong_expectation_fails_with_the_path_into_the_report(definitions) -> None:
    wrong = pod()
    wrong["expect"]["records"][1]["seats"] = ["b", "a", "c"]
    result = run_pod_scenario(wrong, definitions["fusion"])
    assert not result.passed
    assert result.message == "pod report: records.1.seats.0: expected 'b', got 'c'"


@pytest.mark.parametrize("change, message", [
    ({"games": 0}, "games must be a whole number from 1 to 48"),
    ({"games": 500}, "games must be a whole number from 1 to 48"),
    ({"expect": {}}, "expect must be a non-empty mapping"),
    ({"setup": {}}, "unknown keys for a pod scenario: setup"),
    ({"decks": [{"zones": {"main": {"bat": 3}}}] * 3}, "card 'bat' is not in the scenario's cards"),
    ({"decks": [{"zones": {"main": {"wolf": 8}}}] * 2}, "a pod seats 3 or more players"),
    ({"agents": ["random"]}, "agents must list two players"),
    ({"agents": ["random", "grandmaster"]}, "grandmaster"),
])
def test_malformed_pod_scenarios_are_errors(definitions, change: dict[str, Any], message: str) -> None:
    result = run_pod_scenario(pod(**change), definitions["fusion"])
    assert not result.passed and result.message.startswith("error: ") and message in result.message


def test_a_game_whose_engine_seats_two_refuses_a_pod(definitions) -> None:
    result = run_pod_scenario(pod(game="seth"), definitions["seth"])
    assert not result.passed and "seth seats 2" in result.message


def test_the_runner_runs_every_kind_and_reports_a_missing_game() -> None:
    runner = ScenarioRunner(ROOT / "card_data")
    assert runner.run(pod()).passed
    deck = {"game": "warzone", "kind": "card", "name": "c", "cases": [
        {"card": {"name": "S", "kind": "spell"}, "problems": []}]}
    assert runner.run(deck).passed
    missing = runner.run(dict(deck, game="chess"))
    assert not missing.passed and missing.message.startswith("error: ") and "chess" in missing.message
    assert not runner.run({"name": "no game"}).passed
