"""benchmarks/instructions.py counts the instructions of each checkout's own heuristic games with
valgrind (installed by scripts/system-packages.sh): the same checkout on both sides plays the
same seeded games, so the counts agree to within the start-up's run-to-run wobble (a few hundred
thousand instructions: addresses differ between runs). No timing is asserted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "instructions.py"


def test_the_same_checkout_on_both_sides_counts_the_same_instructions() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--old", str(ROOT), "--game", "seth", "--games", "200"],
                         capture_output=True, text=True, timeout=600, check=True).stdout
    old, new, ratio = re.search(r"old ([\d,]+) M instructions, new ([\d,]+) M; instructions old ÷ new ([\d.]+)",
                                out).groups()
    assert int(new.replace(",", "")) > 100  # 200 games: hundreds of millions
    assert 0.99 <= float(ratio) <= 1.01
