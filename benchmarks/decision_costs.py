"""Where the time of heuristic games goes, per kind of decision, in this checkout and another one.

``paired_speed.py`` says how much slower or faster a whole game is; this says which decisions
made it so. Each checkout plays its own engine benchmark's heuristic games (``paired_speed``'s
workload: its decks, its options, its seeds) with two clocks added: around each player's
``choose`` and around each ``apply`` of the state. Both are filed under the kind of the action
chosen (``play``, ``attack``, ``pass``, ...), so a table shows, per kind, how many decisions a game
make it, what choosing one and applying it cost, and the microseconds a game they add up to, old
beside new. The clocks add about the same fraction to every call in both checkouts; the figures
are for comparing the two, not for quoting as speeds (``engine_<game>.py`` is the speed figure).

The checkouts run one after the other on one core (``--cpu``), ``--rounds`` times each, and every
figure is the median over rounds: a slow spell of the machine then moves one round, not the
table. Session 17 used it to find that warzone's gap is in the decisions its new rules add (chain
passes, Areas, setting face down) and that fusion's is spread over the ``apply`` of every kind and
the honest view of the opponent's face-down creatures (docs/engines/*.md, "Measured").

Usage:
    mkdir /tmp/old && git archive 62614cb | tar -x -C /tmp/old
    python benchmarks/decision_costs.py --old /tmp/old [--game fusion|seth|warzone]
        [--games N] [--rounds R] [--cpu K] [--old-decks]

Raises SystemExit when ``--old`` is not a checkout with a ``benchmarks/`` folder or a worker fails.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

# the same workload, defaults and options as paired_speed (this script's own folder)
from paired_speed import GAMES, _pinned, _workload, comparison_args, comparison_parser

ROOT = Path(__file__).resolve().parents[1]


class _Clocks:
    """Per action kind: decisions, seconds in ``choose``, seconds in ``apply``."""

    def __init__(self) -> None:
        self.by_kind: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
        self._inside = False  # an inner choose/apply (a player asking itself) is not counted again

    def wrap_choose(self, cls: type) -> None:
        choose = cls.choose
        clocks = self
        patched: set[type] = set()

        def timed_choose(agent: Any, state: Any, player: int) -> Any:
            if clocks._inside:
                return choose(agent, state, player)
            state_cls = type(state)
            if state_cls not in patched:
                patched.add(state_cls)
                clocks.wrap_apply(state_cls)
            clocks._inside = True
            start = time.perf_counter()
            try:
                action = choose(agent, state, player)
            finally:
                clocks._inside = False
            spent = time.perf_counter() - start
            row = clocks.by_kind[action.kind]
            row[0] += 1
            row[1] += spent
            return action

        cls.choose = timed_choose

    def wrap_apply(self, cls: type) -> None:
        apply = cls.apply
        clocks = self

        def timed_apply(state: Any, action: Any) -> Any:
            if clocks._inside:
                return apply(state, action)
            clocks._inside = True
            start = time.perf_counter()
            try:
                return apply(state, action)
            finally:
                clocks._inside = False
                clocks.by_kind[action.kind][2] += time.perf_counter() - start

        cls.apply = timed_apply


def worker(root: str, game: str, games: int, decks_from: str | None) -> None:
    """Play ``root``'s benchmark games with the clocks on; print {kind: [decisions a game, µs
    choose, µs apply]} as JSON (per decision, after a warm-up that is not counted)."""
    play = _workload(root, game, decks_from)
    engine = sys.modules[f"workbench.domain.engines.{game}"].ENGINE
    clocks = _Clocks()
    clocks.wrap_choose(type(engine.agents["heuristic"](0)))
    play(max(1, games // 20))  # imports, caches, the interpreter's specialisation
    clocks.by_kind.clear()
    play(games)
    out = {kind: [n / games, choose / n * 1e6, apply / n * 1e6]
           for kind, (n, choose, apply) in clocks.by_kind.items() if n}
    print(json.dumps(out), flush=True)


def _one(root: str, game: str, games: int, cpu: int | None, decks_from: str | None) -> dict[str, list[float]]:
    command = [sys.executable, __file__, "--worker", root, game, str(games)]
    if decks_from:
        command += ["--decks-from", decks_from]
    run = subprocess.run(command, capture_output=True, text=True, preexec_fn=_pinned(cpu))
    if run.returncode != 0:
        raise SystemExit(f"the worker for {root} failed (exit {run.returncode}):\n{run.stderr[-2000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def _median(rounds: list[dict[str, list[float]]]) -> dict[str, list[float]]:
    """Each kind's figures, the median over rounds (a kind missing in a round counts as 0)."""
    kinds = {kind for figures in rounds for kind in figures}
    return {kind: [statistics.median(r.get(kind, [0.0, 0.0, 0.0])[k] for r in rounds) for k in range(3)]
            for kind in kinds}


def table(old: dict[str, list[float]], new: dict[str, list[float]]) -> list[str]:
    """The lines of the comparison: one per kind, the largest change of µs a game first, then
    the totals."""
    def per_game(row: list[float]) -> float:
        return row[0] * (row[1] + row[2])

    zero = [0.0, 0.0, 0.0]
    kinds = sorted(set(old) | set(new), key=lambda k: -abs(per_game(new.get(k, zero)) - per_game(old.get(k, zero))))
    lines = [f"{'kind':<12} {'a game old/new':>15} {'choose µs old/new':>18} {'apply µs old/new':>17} "
             f"{'µs a game old/new':>18} {'change':>8}"]
    for kind in kinds:
        o, n = old.get(kind, zero), new.get(kind, zero)
        lines.append(f"{kind:<12} {o[0]:7.1f}/{n[0]:<7.1f} {o[1]:9.2f}/{n[1]:<8.2f} {o[2]:8.2f}/{n[2]:<8.2f} "
                     f"{per_game(o):9.0f}/{per_game(n):<8.0f} {per_game(n) - per_game(o):+8.0f}")
    total_old = sum(per_game(r) for r in old.values())
    total_new = sum(per_game(r) for r in new.values())
    lines.append(f"{'all':<12} {sum(r[0] for r in old.values()):7.1f}/{sum(r[0] for r in new.values()):<7.1f} "
                 f"{'':>18} {'':>17} {total_old:9.0f}/{total_new:<8.0f} {total_new - total_old:+8.0f}")
    return lines


def main() -> None:
    parser = comparison_parser(__doc__.splitlines()[0], list(GAMES), "fusion", 3,
                               "the core the games run on (-1: not pinned)")
    parsed = comparison_args(parser, worker)
    if parsed is None:
        return
    args, cpu = parsed
    games = args.games or GAMES[args.game]
    old_rounds, new_rounds = [], []
    for _ in range(args.rounds):
        old_rounds.append(_one(args.old, args.game, games, cpu, None))
        new_rounds.append(_one(str(ROOT), args.game, games, cpu, args.old if args.old_decks else None))
    print(f"{args.game}: {games} heuristic games a round, {args.rounds} rounds, old {args.old}, new {ROOT}"
          f"{'; both with the old deck lists' if args.old_decks else ''} (medians over rounds)")
    for line in table(_median(old_rounds), _median(new_rounds)):
        print("  " + line)


if __name__ == "__main__":
    main()
