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
