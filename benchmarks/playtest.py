"""Benchmark: a 10,000-game matchup per game with heuristic players, on 1 and on 2 workers.

    python benchmarks/playtest.py [--games 10000] [--games-per-game seth=10000 ...] [--json]
    python benchmarks/playtest.py --game fusion --players 3 [--games 3000]   # a pod (RULES.md §3.9.6)

Prints, per game, the time on 1 worker and on 2 workers, the speed-up, and whether the two
reports are identical (they must be: results do not depend on the number of workers). It also
prints the CPU seconds used (this process plus its worker processes): on a machine shared with
other work, wall time grows but CPU time does not, so CPU time / workers estimates the wall time
on an idle machine. The parent's own CPU seconds during the 2-worker run (scheduling chunks,
adding up the workers' tallies, building the report) is the serial part of a run: the speed-up
on an idle machine is at most 2 x (1-worker time) / (1-worker time + 2 x parent CPU + tail).
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

from workbench.services.playtest.pod import run_pod  # noqa: E402
from workbench.services.playtest.runner import run_matchup  # noqa: E402
from workbench.services.playtest.service import prepare, prepare_pod  # noqa: E402
from workbench.storage.repository import Repository  # noqa: E402

TIMING = {"elapsed_s", "games_per_s", "workers"}


def bench(repo: Repository, game: str, games: int, seed: int, repeat: int = 1, players: int = 2) -> dict:
    """Time ``games`` games on 1 and on 2 workers, ``repeat`` rounds alternating 1, 2, 1, 2 …;
    the fastest run of each is reported (as timeit does: slower runs measure the machine's other
    work, not the runner), with every run's time kept in the JSON. ``players`` above 2: a pod of
    the game's first deck with the others in turn (fusion, docs/playtests.md#pods-three-or-four-players)."""
    decks = [d.id for d in repo.list_decks(game)][:2]
    if players > 2:
        pod, _ = prepare_pod(repo, game, decks[0], [decks[(k + 1) % len(decks)] for k in range(players - 1)], seed=seed)
        decks = list(pod.labels)

        def play(n: int, workers: int) -> dict:
            report = run_pod(pod, n, workers)
            report["win_rate_a"] = report["score_a"]  # deck A's share, for the row below
            return report
    else:
        matchup, _ = prepare(repo, game, decks[0], decks[1], seed=seed)

        def play(n: int, workers: int) -> dict:
            return run_matchup(matchup, n, workers)
    results: dict[int, tuple[float, dict]] = {}
    cpu = {}
    parent = {}
    runs: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(max(1, repeat)):
        for workers in (1, 2):
            cpu_before = _cpu()
            own_before = _cpu(children=False)
            started = time.perf_counter()
            report = play(games, workers)
            elapsed = time.perf_counter() - started
            runs[workers].append(round(elapsed, 2))
            if workers not in results or elapsed < results[workers][0]:
                results[workers] = (elapsed, report)
                cpu[workers] = _cpu() - cpu_before
                parent[workers] = _cpu(children=False) - own_before
            print(f"  {game}: {workers} worker(s): {elapsed:.1f} s "
                  f"({report['games'] / elapsed:.0f} games/s), {_cpu() - cpu_before:.1f} CPU s "
                  f"(parent {_cpu(children=False) - own_before:.2f}), load average {os.getloadavg()[0]:.2f}",
                  file=sys.stderr, flush=True)
    (t1, r1), (t2, r2) = results[1], results[2]
    same = {k: v for k, v in r1.items() if k not in TIMING} == {k: v for k, v in r2.items() if k not in TIMING}
    return {"game": game, "decks": decks, "games": r1["games"], "seconds_1_worker": round(t1, 2),
            "seconds_2_workers": round(t2, 2), "speedup": round(t1 / t2, 2), "identical": same,
            "cpu_seconds_1_worker": round(cpu[1], 2), "cpu_seconds_2_workers": round(cpu[2], 2),
            "idle_estimate_2_workers_s": round(cpu[2] / 2, 2),
            "parent_cpu_seconds_2_workers": round(parent[2], 3), "load_average": round(os.getloadavg()[0], 2),
            "win_rate_a": r1["win_rate_a"]["value"], "turns_mean": r1["turns"]["mean"],
            "runs_1_worker_s": runs[1], "runs_2_workers_s": runs[2]}


def _cpu(children: bool = True) -> float:
    """CPU seconds of this process and (unless ``children`` is False) of its finished children
    (the pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    total = own.ru_utime + own.ru_stime
    if children:
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        total += kids.ru_utime + kids.ru_stime
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--game", action="append", help="only these games (default: every game with an engine)")
    parser.add_argument("--data", default=str(ROOT / "card_data"))
    parser.add_argument("--repeat", type=int, default=1,
                        help="rounds of 1 and 2 workers; the fastest of each is reported (default 1)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4),
                        help="3 or 4: time a pod of that many players (engines that seat them: fusion)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    repo = Repository(Path(args.data))
    games = args.game or [g for g in repo.list_games() if repo.game(g).engine]
    rows = []
    for game in games:
        try:
            rows.append(bench(repo, game, args.games, args.seed, args.repeat, args.players))
        except Exception as exc:  # noqa: BLE001 - report the game and go on with the others
            rows.append({"game": game, "error": f"{type(exc).__name__}: {exc}"})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'game':<10}{'games':>8}{'1 worker':>11}{'2 workers':>11}{'speed-up':>10}  identical"
              f"{'CPU s (1)':>11}{'CPU s (2)':>11}{'idle est. (2)':>15}{'parent CPU (2)':>16}")
        for row in rows:
            if "error" in row:
                print(f"{row['game']:<10} error: {row['error']}")
                continue
            print(f"{row['game']:<10}{row['games']:>8}{row['seconds_1_worker']:>10.1f}s{row['seconds_2_workers']:>10.1f}s"
                  f"{row['speedup']:>9.2f}×  {str(row['identical']):<9}{row['cpu_seconds_1_worker']:>10.1f}"
                  f"{row['cpu_seconds_2_workers']:>11.1f}{row['idle_estimate_2_workers_s']:>14.1f}s"
                  f"{row['parent_cpu_seconds_2_workers']:>15.2f}s")
        print(f"load average {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
