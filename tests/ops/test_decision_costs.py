"""benchmarks/decision_costs.py files the time of each checkout's heuristic games under the kind
of each decision. The same checkout on both sides plays the same seeded games, so every kind
shows the same decisions a game on both sides; no timing is asserted (only that it was clocked)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "decision_costs.py"
ROW = re.compile(r"^\s+(\S+)\s+([\d.]+)/([\d.]+)\s+(?:([\d.]+)/([\d.]+)\s+([\d.]+)/([\d.]+)\s+)?(\d+)/(\d+)\s+[+-]\d+$")


def test_the_same_checkout_on_both_sides_makes_the_same_decisions_of_each_kind() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--old", str(ROOT), "--game", "fusion",
                          "--games", "60", "--rounds", "1", "--cpu", "-1"],
                         capture_output=True, text=True, timeout=600, check=True).stdout
    rows = {m.group(1): m.groups() for m in map(ROW.match, out.splitlines()) if m}
    assert {"attack", "end", "all"} <= rows.keys(), out
    for kind, row in rows.items():
        assert row[1] == row[2], f"{kind}: {row[1]} decisions a game on one side, {row[2]} on the other"
    assert float(rows["all"][1]) > 50  # a fusion game takes about a hundred decisions
    assert int(rows["all"][7]) > 0 and int(rows["all"][8]) > 0  # both sides were clocked
