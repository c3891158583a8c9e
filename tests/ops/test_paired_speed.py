"""benchmarks/paired_speed.py (issue 16 item 1's measurement) runs both checkouts' own
workloads and refuses a directory that is not a checkout. No timing is asserted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "paired_speed.py"


def test_it_plays_each_game_in_both_checkouts_and_prints_the_ratio() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--old", str(ROOT), "--games", "4", "--rounds", "1",
                          "--cpu", "-1"], capture_output=True, text=True, timeout=300, check=True).stdout
    for game in ("fusion", "seth", "warzone"):
        line = next(l for l in out.splitlines() if l.strip().startswith(f"{game}: median"))
        assert float(re.search(r"median new ÷ old ([\d.]+)", line).group(1)) > 0
        # the same checkout on both sides plays the same games: the same decisions a game
        rounds = [l for l in out.split(f"{game}: ")[1].splitlines() if "round 1" in l]
        old_d, new_d = re.search(r"decisions a game old ([\d.]+), new ([\d.]+)", rounds[0]).groups()
        assert float(old_d) == float(new_d) > 1
        assert float(re.search(r"per decision: median new ÷ old ([\d.]+)", line).group(1)) > 0


def test_it_refuses_an_old_directory_without_benchmarks(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--old", str(tmp_path)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert "--old must name a checkout" in done.stderr
