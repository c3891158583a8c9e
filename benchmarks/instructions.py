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
        [--simulate]

It prints, per game, millions of instructions of N games in each checkout, and old ÷ new (the
figure to set beside paired_speed's games/s new ÷ old: equal work gives 1.000 in both).

``--simulate`` also runs cachegrind's cache and branch-predictor simulation and prints, per game
played, the misses of the instruction cache (I1) and the data cache (D1) and the mispredicted
conditional and indirect branches of each checkout, new ÷ old. It answers what instructions
alone cannot: why the same work can take longer (session 18 found fusion's heuristic games run
3.9 % more instructions than 62614cb's but 14 % more mispredicted branches and 35 % more I1
misses, two thirds of the extra mispredictions inside the bytecode interpreter's own loop: no
Python function stands out). The simulation is a model of a CPU, not this machine's: compare the
two checkouts with it, do not quote its figures as this machine's.
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


# what cachegrind prints of each event, as the name it is printed under here
_EVENTS = {
    "instructions": r"I\s+refs:\s+([\d,]+)",
    "I1 misses": r"I1\s+misses:\s+([\d,]+)",
    "D1 misses": r"D1\s+misses:\s+([\d,]+)",
    "mispredicted conditional branches": r"Mispredicts:\s+[\d,]+\s+\(\s*([\d,]+) cond",
    "mispredicted indirect branches": r"Mispredicts:\s+[\d,]+\s+\(\s*[\d,]+ cond \+\s+([\d,]+) ind",
}
_SIMULATED = [name for name in _EVENTS if name != "instructions"]


def instructions(root: str, game: str, games: int) -> int:
    """Instructions cachegrind counts for ``games`` heuristic games of ``root`` (the program
    with ``WARM_UP`` games subtracted). Raises SystemExit when valgrind is missing or fails."""
    return events(root, game, games, simulate=False)["instructions"]


def events(root: str, game: str, games: int, simulate: bool) -> dict[str, int]:
    """What cachegrind counts for ``games`` heuristic games of ``root``, ``WARM_UP`` games
    subtracted: the instructions, and with ``simulate`` the cache misses and mispredicted branches
    of its simulated CPU (``_EVENTS``). Raises SystemExit when valgrind is missing or fails."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    wanted = _EVENTS if simulate else {"instructions": _EVENTS["instructions"]}
    sim = ["--cache-sim=yes", "--branch-sim=yes"] if simulate else ["--cache-sim=no"]

    def count(n: int) -> dict[str, int]:
        code = _PLAY.format(bench=str(ROOT / "benchmarks"), root=root, game=game, n=n)
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", *sim, "--cachegrind-out-file=/dev/null",
             sys.executable, "-c", code],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        found = {name: re.search(pattern, run.stderr) for name, pattern in wanted.items()}
        if run.returncode != 0 or any(m is None for m in found.values()):
            raise SystemExit(f"valgrind failed on {root} ({game}):\n{run.stderr[-2000:]}")
        return {name: int(m.group(1).replace(",", "")) for name, m in found.items() if m is not None}

    played, warm_up = count(WARM_UP + games), count(WARM_UP)
    return {name: played[name] - warm_up[name] for name in wanted}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the other checkout (a directory)")
    parser.add_argument("--game", default="all", choices=["all", *GAMES])
    parser.add_argument("--games", type=int, default=0, help="games counted (default: per game)")
    parser.add_argument("--simulate", action="store_true",
                        help="also simulate caches and branch prediction (slower): misses per game")
    args = parser.parse_args()
    for game in GAMES if args.game == "all" else [args.game]:
        games = args.games or GAMES[game]
        old_events = events(args.old, game, games, args.simulate)
        new_events = events(str(ROOT), game, games, args.simulate)
        old, new = old_events["instructions"], new_events["instructions"]
        print(f"{game}: {games} heuristic games: old {old / 1e6:,.0f} M instructions, new "
              f"{new / 1e6:,.0f} M; instructions old ÷ new {old / new:.3f} (compare paired_speed's "
              f"games/s new ÷ old)", flush=True)
        for name in _SIMULATED if args.simulate else ():
            o, n = old_events[name] / games, new_events[name] / games
            print(f"  {name:34} a game: old {o:10,.0f}  new {n:10,.0f}  new ÷ old "
                  f"{n / o if o else float('nan'):.3f}", flush=True)


if __name__ == "__main__":
    main()
