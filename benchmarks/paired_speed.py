"""Heuristic games/s of this checkout against another one (an older commit), measured in pairs.

Issue 16 item 1 compares the engine benchmarks' heuristic games/s of two commits "in the same
run". On a shared machine the speed of one process swings by a third from minute to minute, so
two benchmark runs one after the other say little. Here both checkouts play at once **on the
same core** (time-sliced by the kernel), so a slow spell of the machine slows both alike; each
reports only its own CPU seconds. Each round plays the same seeded heuristic games in both
(each checkout's own ``benchmarks/engine_<game>.py`` workload: its decks, its options) and prints
the ratio; the median over rounds is the figure. A rule change can make the games themselves
longer (more decisions a game), so it also prints the decisions a game of each and the ratio per
decision (decisions/s new ÷ old): what the players and the engine cost for each decision.

The sample decks change too (a deck gains a card that shows a new rule), and that alone can make
the games longer. ``--old-decks`` has the new checkout play the old checkout's deck lists (each
card as the new checkout defines it, under the new rules): the same deck lists on both sides, so
the ratio is the engines' and players' alone. The old side always plays its own workload.

Usage:
    git worktree add /tmp/old 62614cb   # or: mkdir /tmp/old && git archive 62614cb | tar -x -C /tmp/old
    python benchmarks/paired_speed.py --old /tmp/old [--game fusion|seth|warzone|all]
        [--games N] [--rounds R] [--cpu K] [--old-decks]

It prints, per game, each round's games/s of both and new ÷ old, then the median over rounds of
games/s new ÷ old and of decisions/s new ÷ old.
"""

from __future__ import annotations

import argparse
import atexit
import importlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# heuristic games per round: about a second of CPU each on the 2026 machines
GAMES = {"fusion": 600, "seth": 3000, "warzone": 600}


def _with_decks_of(root: str, game: str, decks_from: str) -> Path:
    """A temporary copy of ``root``'s ``card_data`` whose ``game`` deck lists are ``decks_from``'s
    (removed when the process ends). Raises SystemExit when a listed card has no file in ``root``."""
    import yaml

    overlay = Path(tempfile.mkdtemp(prefix="paired-decks-"))
    atexit.register(shutil.rmtree, overlay, True)
    shutil.copytree(Path(root, "card_data"), overlay / "card_data")
    decks = overlay / "card_data" / game / "decks"
    shutil.rmtree(decks)
    shutil.copytree(Path(decks_from, "card_data", game, "decks"), decks)
    for deck in sorted(decks.glob("*.yaml")):
        zones = (yaml.safe_load(deck.read_text(encoding="utf-8")) or {}).get("zones") or {}
        missing = [card for cards in zones.values() for card in (cards or {})
                   if not (overlay / "card_data" / game / "cards" / f"{card}.yaml").is_file()]
        if missing:
            raise SystemExit(f"--old-decks: {deck.name} lists {', '.join(missing)}, which {root} "
                             f"has no card file for")
    return overlay


def _workload(root: str, game: str, decks_from: str | None = None):
    """A function playing n heuristic-vs-heuristic games of ``root``'s own benchmark for ``game``
    (with ``decks_from``'s deck lists instead of its own, when given)."""
    sys.path.insert(0, os.path.join(root, "benchmarks"))
    sys.path.insert(0, root)
    bench = importlib.import_module(f"engine_{game}")
    engine_file = Path(sys.modules[f"workbench.domain.engines.{game}"].__file__ or "").resolve()
    if not engine_file.is_relative_to(Path(root).resolve()):
        raise SystemExit(f"{root}: its benchmark imported the engine from {engine_file}")
    if decks_from is not None:
        overlay = _with_decks_of(root, game, decks_from)
        if game == "warzone":  # its benchmark reads the decks through the test fixtures
            fixtures = importlib.import_module("tests.domain.engines.warzone_fixtures")
            fixtures.DATA = overlay / "card_data" / "warzone"
            fixtures.sample_deck.cache_clear()
        else:  # fusion and seth read ROOT / "card_data" when they load the decks
            bench.ROOT = overlay
    if game == "fusion":
        deck_a, deck_b, options, _ = bench.load_decks("card_data")
        options = {**options, "_log": False}  # the benchmark's headline figure: log off, as playtests run
        return lambda n: bench.run(("heuristic", "heuristic"), n, deck_a, deck_b, options)
    if game == "seth":
        deck_a, deck_b, options, _ = bench.load_decks()
        options = dict(options, _log=False)
        return lambda n: bench.run("heuristic", "heuristic", n, deck_a, deck_b, options)
    options = bench.options(_log=False)
    return lambda n: bench.speed("heuristic", n, options)


def worker(root: str, game: str, games: int, decks_from: str | None = None) -> None:
    """Warm up, then play ``games`` games and print the CPU seconds they took and the decisions
    a game (the benchmark's own figures: games/s and decisions/s come first in what it returns)."""
    play = _workload(root, game, decks_from)
    play(max(1, games // 20))  # imports, caches, the interpreter's specialisation
    start = time.process_time()
    figures = play(games)
    seconds = time.process_time() - start
    print(f"{seconds:.6f} {figures[1] / figures[0]:.4f}", flush=True)


def _pinned(cpu: int | None):
    if cpu is None or not hasattr(os, "sched_setaffinity"):
        return None
    return lambda: os.sched_setaffinity(0, {cpu})


def one_round(old: str, game: str, games: int, cpu: int | None,
              old_decks: bool = False) -> tuple[tuple[float, float], ...]:
    """(CPU seconds, decisions a game) of old and of new playing their games at once on core
    ``cpu`` (``old_decks``: the new one with the old one's deck lists)."""
    commands = [[sys.executable, __file__, "--worker", old, game, str(games)],
                [sys.executable, __file__, "--worker", str(ROOT), game, str(games)]]
    if old_decks:
        commands[1] += ["--decks-from", old]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True, preexec_fn=_pinned(cpu))
             for command in commands]
    figures = []
    for proc in procs:
        out, _ = proc.communicate()
        if proc.returncode != 0:
            raise SystemExit(f"a worker failed (exit {proc.returncode}); see its error above")
        seconds, decisions = out.split()[-2:]
        figures.append((float(seconds), float(decisions)))
    return figures[0], figures[1]


def comparison_parser(description: str, games: list[str], default_game: str, rounds: int,
                      cpu_help: str) -> argparse.ArgumentParser:
    """The options of a script comparing this checkout with ``--old`` on one game's heuristic
    games (this one's and decision_costs.py's), with the hidden ``--worker`` form it runs itself in."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--old", required=False, help="the other checkout (a directory)")
    parser.add_argument("--game", default=default_game, choices=games)
    parser.add_argument("--games", type=int, default=0, help="games per round (default: per game)")
    parser.add_argument("--rounds", type=int, default=rounds)
    parser.add_argument("--cpu", type=int, default=0, help=cpu_help)
    parser.add_argument("--old-decks", action="store_true",
                        help="the new checkout plays the old one's deck lists (same decks both sides)")
    parser.add_argument("--worker", nargs=3, metavar=("ROOT", "GAME", "GAMES"), help=argparse.SUPPRESS)
    parser.add_argument("--decks-from", help=argparse.SUPPRESS)
    return parser


def comparison_args(parser: argparse.ArgumentParser, run_worker: Callable[..., None]
                    ) -> tuple[argparse.Namespace, int | None] | None:
    """The parsed arguments and the core to pin to (None: not pinned), or None once a
    ``--worker`` process has run ``run_worker(root, game, games, decks_from)`` (its whole job).
    Exits through ``parser.error`` when ``--old`` is not a checkout with a benchmarks/ folder."""
    args = parser.parse_args()
    if args.worker:
        run_worker(args.worker[0], args.worker[1], int(args.worker[2]), args.decks_from)
        return None
    if not args.old or not Path(args.old, "benchmarks").is_dir():
        parser.error("--old must name a checkout with a benchmarks/ folder")
    return args, None if args.cpu < 0 else args.cpu


def main() -> None:
    parser = comparison_parser(__doc__.splitlines()[0], ["all", *GAMES], "all", 5,
                               "the core both run on (-1: not pinned)")
    parsed = comparison_args(parser, worker)
    if parsed is None:
        return
    args, cpu = parsed
    for game in GAMES if args.game == "all" else [args.game]:
        games = args.games or GAMES[game]
        ratios, per_decision = [], []
        print(f"{game}: {games} heuristic games a round, old {args.old} and new {ROOT} at once"
              f"{'' if cpu is None else f' on core {cpu}'}"
              f"{'; both with the old deck lists' if args.old_decks else ''}")
        for k in range(args.rounds):
            (old_s, old_d), (new_s, new_d) = one_round(args.old, game, games, cpu, args.old_decks)
            ratios.append(old_s / new_s)  # games/s new ÷ old
            per_decision.append(old_s / new_s * new_d / old_d)  # decisions/s new ÷ old
            print(f"  round {k + 1}: old {games / old_s:7.0f} games/s, new {games / new_s:7.0f} "
                  f"games/s: new ÷ old {old_s / new_s:.3f}; decisions a game old {old_d:.1f}, "
                  f"new {new_d:.1f}: decisions/s new ÷ old {per_decision[-1]:.3f}", flush=True)
        print(f"  {game}: median new ÷ old {statistics.median(ratios):.3f} "
              f"(lowest {min(ratios):.3f}, highest {max(ratios):.3f}, {len(ratios)} rounds); "
              f"per decision: median new ÷ old {statistics.median(per_decision):.3f}")


if __name__ == "__main__":
    main()
