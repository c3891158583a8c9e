"""Machine instructions of heuristic games of this checkout and of another one, beside their CPU time.

``paired_speed.py`` compares CPU seconds. This counts instructions (valgrind's cachegrind, which
must be installed: Debian's package ``valgrind``) of the same seeded heuristic games of each
checkout's own engine benchmark (``paired_speed``'s workload), with start-up and warm-up taken
out (the count of ``games + 20`` games minus the count of 20). Instructions do not depend on the
machine's load, so they show whether a change made the games do less work; the CPU-time ratio
then shows whether the machine runs that work faster. Session 16 found the two disagree by ~8 %
for fusion and seth (see docs/engines/fusion.md, "Measured").

Usage:
    python benchmarks/instructions.py --old /tmp/old [--game fusion|seth|warzone|all] [--games N]

It prints, per game, millions of instructions of N games in each checkout, and old ÷ new (the
figure to set beside paired_speed's games/s new ÷ old: equal work gives 1.000 in both).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WARM_UP = 20
GAMES = {"fusion": 200, "seth": 1000, "warzone": 200}

_PLAY = (
    "import sys; sys.path.insert(0, {bench!r}); import paired_speed; "
    "play = paired_speed._workload({root!r}, {game!r}); play({n})"
)


def instructions(root: str, game: str, games: int) -> int:
    """Instructions cachegrind counts for ``games`` heuristic games of ``root`` (the program
    with ``WARM_UP`` games subtracted). Raises SystemExit when valgrind is missing or fails."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")

    def count(n: int) -> int:
        code = _PLAY.format(bench=str(ROOT / "benchmarks"), root=root, game=game, n=n)
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
             sys.executable, "-c", code],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
        if run.returncode != 0 or found is None:
            raise SystemExit(f"valgrind failed on {root} ({game}):\n{run.stderr[-2000:]}")
        return int(found.group(1).replace(",", ""))

    return count(WARM_UP + games) - count(WARM_UP)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the other checkout (a directory)")
    parser.add_argument("--game", default="all", choices=["all", *GAMES])
    parser.add_argument("--games", type=int, default=0, help="games counted (default: per game)")
    args = parser.parse_args()
    for game in GAMES if args.game == "all" else [args.game]:
        games = args.games or GAMES[game]
        old = instructions(args.old, game, games)
        new = instructions(str(ROOT), game, games)
        print(f"{game}: {games} heuristic games: old {old / 1e6:,.0f} M instructions, new "
              f"{new / 1e6:,.0f} M; instructions old ÷ new {old / new:.3f} (compare paired_speed's "
              f"games/s new ÷ old)", flush=True)


if __name__ == "__main__":
    main()
