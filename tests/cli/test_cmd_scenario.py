"""``workbench scenario``: PASS/FAIL lines with the first difference, exit codes 0/1/2."""

from __future__ import annotations

from pathlib import Path

import yaml

from workbench.cli import main

PROJECT = Path(__file__).resolve().parents[2]
SCENARIOS = PROJECT / "card_data" / "seth" / "scenarios"


def test_shipped_seth_scenarios_pass(capsys) -> None:
    assert main(["scenario", str(SCENARIOS), "--data", str(PROJECT / "card_data")]) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and "FAIL" not in out
    assert out.strip().endswith("0 failed")


def test_failure_prints_first_difference_and_exits_1(tmp_path: Path, capsys) -> None:
    scenario = yaml.safe_load((SCENARIOS / "07-last-monster-removed-wins.yaml").read_text(encoding="utf-8"))
    scenario["expect"] = {"players": {0: {"monsters": {"a-wolf": {"damage_taken": 4}}}}}
    path = tmp_path / "wrong.yaml"
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    assert main(["scenario", str(path), "--data", str(PROJECT / "card_data")]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out
    assert "players.0.monsters.a-wolf.damage_taken: expected 4, got 3" in out


def test_usage_errors_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["scenario", str(tmp_path / "missing.yaml")]) == 2
    assert main(["scenario", str(tmp_path)]) == 2  # an empty folder holds no scenarios
    assert "no scenario" in capsys.readouterr().err


def test_deck_card_and_pod_scenarios_run_and_fail_with_their_first_difference(tmp_path: Path, capsys) -> None:
    data = PROJECT / "card_data"
    shipped = [data / "warzone" / "scenarios" / "deck-rules.yaml", data / "fusion" / "scenarios" / "51-card-fields.yaml",
               data / "fusion" / "scenarios" / "46-pod-playtests.yaml"]
    assert main(["scenario", *map(str, shipped), "--data", str(data)]) == 0
    assert capsys.readouterr().out.strip().endswith("4 passed, 0 failed")
    deck = yaml.safe_load(shipped[0].read_text(encoding="utf-8"))
    deck["cases"][1]["problems"] = []
    path = tmp_path / "wrong-deck.yaml"
    path.write_text(yaml.safe_dump(deck, allow_unicode=True), encoding="utf-8")
    assert main(["scenario", str(path), "--data", str(data)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "case 2: unexpected problem deck.zone_min (main): Main deck has 59 cards" in out
