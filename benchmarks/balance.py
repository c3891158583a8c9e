"""Benchmark: the balance report of a 20-distinct-card deck, 1,000 pairs per card, on 2 workers.

    python benchmarks/balance.py [--pairs 1000] [--workers 2] [--game fusion --deck lie-yan-ji-feng
                                 --vs pan-shi-chao-xi] [--json]

Issue 14 sets the target: ≤ 60 s on 2 cores with the heuristic players (21 runs of 2,000 games:
the deck as built and once per distinct card). Prints the wall time, the CPU seconds used (this
process and its workers) and the load average: on a machine shared with other work wall time
grows but CPU time does not, so CPU seconds / workers estimates the wall time on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.services.playtest.balance import balance_report  # noqa: E402
from workbench.storage.repository import Repository  # noqa: E402

TARGET_S = 60.0


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="fusion")
    parser.add_argument("--deck", default="lie-yan-ji-feng")
    parser.add_argument("--vs", default="pan-shi-chao-xi")
    parser.add_argument("--pairs", type=int, default=1000, help="seed pairs per card (default 1000)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--data", default=str(ROOT / "card_data"))
    args = parser.parse_args()
    repo = Repository(Path(args.data))
    cpu_before, load_before = _cpu(), os.getloadavg()[0]
    started = time.perf_counter()
    result = balance_report(repo, args.game, args.deck, args.vs, 2 * args.pairs, seed=args.seed,
                            workers=args.workers)
    elapsed = time.perf_counter() - started
    cpu = _cpu() - cpu_before
    figures = {
        "game": args.game, "deck": args.deck, "vs": args.vs, "distinct_cards": len(result["cards"]),
        "pairs_per_card": args.pairs, "games": result["games"], "workers": args.workers,
        "wall_s": round(elapsed, 1), "cpu_s": round(cpu, 1), "cpu_s_per_worker": round(cpu / args.workers, 1),
        "games_per_s": round(result["games"] / elapsed, 1), "load_average": [round(load_before, 2),
                                                                             round(os.getloadavg()[0], 2)],
        "target_s": TARGET_S, "mean_width": result["mean_width"], "mean_unpaired_width": result["mean_unpaired_width"],
    }
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"balance of {args.deck} ({figures['distinct_cards']} distinct cards) against {args.vs}: "
              f"{figures['games']} games on {args.workers} workers")
        print(f"  wall {figures['wall_s']} s ({figures['games_per_s']} games/s), CPU {figures['cpu_s']} s "
              f"= {figures['cpu_s_per_worker']} s per worker (target ≤ {TARGET_S:.0f} s); "
              f"load average {figures['load_average'][0]} → {figures['load_average'][1]}")
        print(f"  mean interval width {100 * result['mean_width']:.1f} points paired, "
              f"{100 * result['mean_unpaired_width']:.1f} unpaired")
    return 0


if __name__ == "__main__":
    sys.exit(main())
