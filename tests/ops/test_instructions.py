"""benchmarks/instructions.py counts the instructions of each checkout's own heuristic games with
valgrind (installed by scripts/system-packages.sh): the same checkout on both sides plays the
same seeded games, so the counts agree to within the start-up's run-to-run wobble (a few hundred
thousand instructions: addresses differ between runs); so do the simulated cache misses and
mispredicted branches of ``--simulate``. No timing is asserted."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "instructions.py"


@pytest.mark.slow
def test_the_same_checkout_on_both_sides_counts_the_same_instructions_misses_and_branches() -> None:
    """``--simulate`` prints the instructions of both sides and, per game, the I1 and D1 misses
    and the mispredicted branches: the same games on both sides give the same figures to within
    run-to-run wobble (start-up addresses differ), and every event is counted (not zero). One
    run checks both outputs: each valgrind run is mostly start-up, the plain count of a separate
    run would double the test's time without checking anything more."""
    out = subprocess.run([sys.executable, str(SCRIPT), "--old", str(ROOT), "--game", "seth", "--games", "200",
                          "--simulate"], capture_output=True, text=True, timeout=900, check=True).stdout
    old, new, ratio = re.search(r"old ([\d,]+) M instructions, new ([\d,]+) M; instructions old ÷ new ([\d.]+)",
                                out).groups()
    assert int(new.replace(",", "")) > 100  # 200 games: hundreds of millions
    assert 0.99 <= float(ratio) <= 1.01
    rows = re.findall(r"^  (.+?)\s+a game: old\s+([\d,]+)\s+new\s+([\d,]+)\s+new ÷ old ([\d.]+)$", out, re.M)
    assert [name for name, *_ in rows] == ["I1 misses", "D1 misses", "mispredicted conditional branches",
                                           "mispredicted indirect branches"]
    for name, old_count, new_count, ratio in rows:
        assert int(old_count.replace(",", "")) > 1_000, name  # a seth game: thousands of each
        assert 0.97 <= float(ratio) <= 1.03, (name, ratio)
