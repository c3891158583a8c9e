"""Pods: deck A with N−1 opponents for engines that seat three or four players (RULES.md §3.9.6).

The statistical unit is the **rotation**: N games on one seed in which deck A sits in every seat
once (game ``kN + r`` puts deck A in seat ``r`` and the opponents in the following seats in their
order), the first player being seat 0, so deck A moves first in exactly one game of each
rotation — the pod's version of the seat-swapped pair of two-player playtests
(docs/playtests.md). Every deck shuffles from its own stream of the rotation's seed, whatever its
seat. Deck A's score in a game is its share of the win (1, 0, or 1/k when k players share first
place, ``GameResult.score``); a rotation's score is the mean of its N games, and the report
compares deck A's mean over rotations, with a 95 % interval, to the fair share 1/N.

Seeds derive from (root seed, rotation) through SHA-256, so a game's outcome depends only on its
index, never on the number of workers.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.domain import stats
from workbench.domain.engines.base import DeckCards, Engine, State, agent_problem, make_agent, play_game
from workbench.domain.errors import WorkbenchError
from workbench.services.playtest.runner import (
    CancelledRun,
    PlaytestError,
    cancellable,
    derive_seed,
    resolve_engine,
)
from workbench.services.playtest.workers import WorkerPool

SIDES = "abcd"
"""Deck letters in a pod: ``a`` is deck A, ``b`` … the opponents in their order."""


@dataclass(frozen=True)
class Pod:
    """Everything a worker needs to play any game of a pod; plain data, so it pickles.

    ``decks`` holds deck A first, then the opponents (two or three of them); ``agents`` the agent
    names of deck A and of the opponents; ``labels`` one label per deck.
    """

    game: str
    engine: str
    decks: tuple[DeckCards, ...]
    options: Mapping[str, Any]
    agents: tuple[str, str] = ("heuristic", "heuristic")
    seed: int = 0
    labels: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)
    max_steps: int = 100_000

    @property
    def players(self) -> int:
        return len(self.decks)


def rotation_seed(root: int, index: int, players: int) -> int:
    """The seed of game ``index``: the ``players`` games of one rotation share it."""
    return derive_seed("pod", root, players, index // players)


def seating(index: int, players: int) -> list[int]:
    """The deck in each seat of game ``index``: deck A (0) in seat ``index mod players``, the
    opponents in the seats after it, in their order."""
    shift = index % players
    return [(seat - shift) % players for seat in range(players)]


def check_pod(pod: Pod) -> Engine:
    """The pod's engine; raises PlaytestError for an unknown engine or agent or a wrong size."""
    try:
        engine = resolve_engine(pod.engine)
    except WorkbenchError as exc:
        raise PlaytestError(f"game {pod.game!r} has no playable engine: {exc}") from exc
    if not 3 <= pod.players <= engine.max_players or engine.new_pod is None:
        seats = "2" if engine.new_pod is None else f"2 to {engine.max_players}"
        raise PlaytestError(f"a pod seats 3 or more players, and {pod.game} seats {seats}; got {pod.players}")
    for name in pod.agents:
        problem = agent_problem(engine, name)
        if problem:
            raise PlaytestError(problem)
    return engine


def new_pod_state(pod: Pod, index: int, log: bool = False, engine: Engine | None = None) -> tuple[State, list[Any], list[int]]:
    """Game ``index`` of the pod, ready to play: the state, one agent per seat, and the deck of
    each seat (0 is deck A)."""
    engine = engine or resolve_engine(pod.engine)
    n = pod.players
    seed = rotation_seed(pod.seed, index, n)
    seats = seating(index, n)
    options = dict(pod.options)
    options["_log"] = log
    options["players"] = n
    options["_deck_seeds"] = tuple(derive_seed(seed, "deck", SIDES[d]) for d in seats)
    options["_first_player"] = 0  # seat 0 moves first: deck A moves first once per rotation
    state = engine.new_seated([pod.decks[d] for d in seats], options, seed)
    try:
        agents = [make_agent(engine, pod.agents[0 if d == 0 else 1], derive_seed(seed, "agent", SIDES[d], s))
                  for s, d in enumerate(seats)]
    except ValueError as exc:
        raise PlaytestError(str(exc)) from None
    return state, agents, seats


def play_pod_game(pod: Pod, index: int, log: bool = False, engine: Engine | None = None,
                  should_cancel: Callable[[], bool] | None = None) -> tuple[dict[str, Any], State]:
    """Play game ``index`` to the end; return its record and final state. Raises CancelledRun
    between two decisions once ``should_cancel()`` says so.

    The record: ``index``, ``seed``, ``a_seat``, ``seats`` (deck letter per seat), ``winner``
    (the winning deck's letter, None for a draw), ``places`` (per deck letter), ``a_score``,
    ``turns``, ``reason``.
    """
    state, agents, seats = new_pod_state(pod, index, log, engine)
    if should_cancel is not None:
        agents = cancellable(agents, should_cancel)
    result = play_game(state, agents, pod.max_steps)
    a_seat = seats.index(0)
    places = result.places or tuple(1 if result.winner in (None, s) else 2 for s in range(pod.players))
    record = {
        "index": index,
        "seed": rotation_seed(pod.seed, index, pod.players),
        "a_seat": a_seat,
        "seats": [SIDES[d] for d in seats],
        "winner": None if result.winner is None else SIDES[seats[result.winner]],
        "places": {SIDES[d]: places[s] for s, d in enumerate(seats)},
        "a_score": result.score(a_seat),
        "turns": int(result.turns),
        "reason": result.reason,
    }
    return record, state


def play_pod_chunk(pod: Pod, start: int, stop: int,
                   should_cancel: Callable[[], bool] | None = None) -> list[dict[str, Any]]:
    """Records of games ``start`` … ``stop - 1`` (the worker function, spawn-safe). Raises
    CancelledRun between two decisions once ``should_cancel()`` says so (in-process runs: a
    worker is killed instead)."""
    engine = resolve_engine(pod.engine)
    return [play_pod_game(pod, index, engine=engine, should_cancel=should_cancel)[0] for index in range(start, stop)]


_WORKER_POD: Pod | None = None


def _init_worker(pod: Pod) -> None:
    global _WORKER_POD
    _WORKER_POD = pod


def _worker_chunk(start: int, stop: int) -> tuple[int, list[dict[str, Any]]]:
    if _WORKER_POD is None:  # pragma: no cover - the pool always runs the initializer first
        raise PlaytestError("pool worker started without a pod")
    return start, play_pod_chunk(_WORKER_POD, start, stop)


def _chunks(games: int, players: int, workers: int) -> list[tuple[int, int]]:
    """Chunks of whole rotations, about four per worker."""
    rotations = games // players
    per = max(1, min(250 // players, math.ceil(rotations / max(1, workers * 4))))
    return [(r * players, min(rotations, r + per) * players) for r in range(0, rotations, per)]


def run_pod(pod: Pod, games: int, workers: int | None = None, *,
            progress: Callable[[int, int], None] | None = None,
            should_cancel: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Play ``games`` games (rounded up to whole rotations) and return the pod report
    (:func:`pod_report`). Raises PlaytestError for a bad pod or game count; CancelledRun."""
    check_pod(pod)
    if games < 1:
        raise PlaytestError(f"a playtest needs at least 1 game, not {games}")
    n = pod.players
    games = math.ceil(games / n) * n
    count = max(1, workers if workers is not None else (os.cpu_count() or 1))
    chunks = _chunks(games, n, count)
    started = time.perf_counter()
    done: dict[int, list[dict[str, Any]]] = {}
    played = 0
    if progress:
        progress(0, games)
    if count == 1 or len(chunks) == 1:
        for start, stop in chunks:
            # A search player's chunk takes minutes: its players ask for a cancel between decisions.
            done[start] = play_pod_chunk(pod, start, stop, should_cancel)
            played += stop - start
            if progress:
                progress(played, games)
            if should_cancel and should_cancel():
                raise CancelledRun("the playtest was cancelled")
    else:
        # Workers die with this process, and a cancel kills them mid-chunk (see WorkerPool).
        with WorkerPool(min(count, len(chunks)), _init_worker, (pod,)) as pool:
            futures = [pool.submit(_worker_chunk, start, stop) for start, stop in chunks]
            for future in pool.as_completed(futures, should_cancel):
                start, records = future.result()
                done[start] = records
                played += len(records)
                if progress:
                    progress(played, games)
            if pool.stopped or (should_cancel and should_cancel()):
                raise CancelledRun("the playtest was cancelled")
    records = [r for start in sorted(done) for r in done[start]]
    elapsed = time.perf_counter() - started
    report = pod_report(pod, records)
    report.update({"elapsed_s": round(elapsed, 3), "games_per_s": round(len(records) / elapsed, 1) if elapsed > 0 else None,
                   "workers": count})
    return report


def mean_interval(values: Sequence[float], z: float = stats.Z95) -> dict[str, Any]:
    """Mean of ``values`` (scores in 0-1, one per rotation) with a Wilson interval over them, as
    the two-player report's pairs; ``n`` values.

    The Wilson interval bounds the spread of 0-1 scores by that of a proportion, so it never
    shrinks to nothing: a normal interval from the sample spread read 0.0 %–0.0 % when deck A
    lost every game of a short run, which says "certainly 0" after four rotations.
    """
    n = len(values)
    if not n:
        return {"value": None, "ci95": [0.0, 1.0], "n": 0}
    low, high = stats.wilson_interval(math.fsum(values), n, z)
    return {"value": statistics.fmean(values), "ci95": [low, high], "n": n}


def pod_report(pod: Pod, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The pod's statistics from its game records (in game order, whole rotations).

    ``score_a`` is deck A's mean score per rotation with its 95 % interval over rotations,
    ``fair_share`` 1/N, ``verdict`` ``above``/``below``/``even`` (the interval excludes the fair
    share or not) with a ``headline`` sentence for the top of the report.
    """
    n = pod.players
    fair = 1.0 / n
    rotations = [records[k:k + n] for k in range(0, len(records) - len(records) % n, n)]
    per_rotation = [statistics.fmean(float(r["a_score"]) for r in rot) for rot in rotations]
    score = mean_interval(per_rotation)
    low, high = score["ci95"]
    if score["n"] >= 2 and low > fair:
        verdict = "above"
    elif score["n"] >= 2 and high < fair:
        verdict = "below"
    else:
        verdict = "even"
    labels = list(pod.labels) or [SIDES[k] for k in range(n)]
    pct = (lambda x: f"{100 * x:.1f} %")
    headline = (f"{n}-player pod: deck A ({labels[0]}) against {n - 1} opponents "
                f"({', '.join(labels[1:])}), seats rotated so deck A sits in every seat equally often "
                f"({len(rotations)} rotations of {n} games). Deck A's share of the wins: "
                f"{pct(score['value']) if score['value'] is not None else '—'} (95 % interval {pct(low)}–{pct(high)}) "
                f"against the fair share 1/{n} = {pct(fair)}: "
                + {"above": "above the fair share", "below": "below the fair share",
                   "even": "within the interval of the fair share"}[verdict] + ".")
    seat_scores = []
    for s in range(n):
        mine = [float(r["a_score"]) for r in records if r["a_seat"] == s]
        seat_scores.append({"seat": s, **stats.rate(sum(mine), len(mine))})
    first_points = 0.0  # the first player (seat 0)'s share of the wins
    for r in records:
        deck0 = r["seats"][0]
        place = r["places"][deck0]
        firsts = sum(1 for p in r["places"].values() if p == 1)
        first_points += (1.0 / firsts) if place == 1 else 0.0
    places_a: Counter[int] = Counter(int(r["places"]["a"]) for r in records)
    decks = []
    for k in range(n):
        side = SIDES[k]
        points = 0.0
        for r in records:
            if r["places"][side] == 1:
                points += 1.0 / sum(1 for p in r["places"].values() if p == 1)
        decks.append({"deck": side, "label": labels[k], "wins": sum(1 for r in records if r["winner"] == side),
                      "score": stats.rate(points, len(records)),
                      "mean_place": statistics.fmean(int(r["places"][side]) for r in records) if records else None})
    turns = sorted(int(r["turns"]) for r in records)
    reasons: Counter[str] = Counter(stats.reason_key(str(r["reason"])) for r in records)
    return {
        "kind": "pod",
        "game": pod.game,
        "players": n,
        "deck_a": labels[0],
        "opponents": labels[1:],
        "seed": pod.seed,
        "agents": list(pod.agents),
        "options": {k: v for k, v in pod.options.items() if not k.startswith("_")},
        "games": len(records),
        "rotations": len(rotations),
        "unit": f"a rotation: {n} games on one seed, deck A in each seat once (seat 0 moves first)",
        "headline": headline,
        "score_a": score,
        "fair_share": fair,
        "verdict": verdict,
        "wins_a": sum(1 for r in records if r["winner"] == "a"),
        "draws": sum(1 for r in records if r["winner"] is None),
        "places_a": {str(p): places_a[p] for p in range(1, n + 1)},
        "score_a_by_seat": seat_scores,
        "first_player_score": stats.rate(first_points, len(records)),
        "decks": decks,
        "turns": {
            "mean": statistics.fmean(turns) if turns else None,
            "median": statistics.median(turns) if turns else None,
            "min": turns[0] if turns else None,
            "max": turns[-1] if turns else None,
            "histogram": stats.histogram(turns),
        },
        "end_reasons": dict(reasons.most_common()),
        "records": [dict(r) for r in records],
    }


def pod_to_data(pod: Pod) -> dict[str, Any]:
    """The pod as plain JSON data (a stored run keeps it, so any game replays)."""
    return {"game": pod.game, "engine": pod.engine, "decks": [dict(d) for d in pod.decks],
            "options": dict(pod.options), "agents": list(pod.agents), "seed": pod.seed,
            "labels": list(pod.labels), "names": dict(pod.names), "max_steps": pod.max_steps}


def pod_from_data(data: Mapping[str, Any]) -> Pod:
    """The pod :func:`pod_to_data` wrote. Raises PlaytestError for other data."""
    try:
        return Pod(game=str(data["game"]), engine=str(data["engine"]),
                   decks=tuple({str(z): [dict(c) for c in cards] for z, cards in d.items()} for d in data["decks"]),
                   options=dict(data["options"]), agents=(str(data["agents"][0]), str(data["agents"][1])),
                   seed=int(data["seed"]), labels=tuple(str(x) for x in data["labels"]),
                   names={str(k): str(v) for k, v in data["names"].items()}, max_steps=int(data["max_steps"]))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise PlaytestError(f"the kept pod cannot be read: {exc!r}") from None
