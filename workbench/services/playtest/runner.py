"""The batch runner: deck A against deck B for N games, in chunks over a process pool.

Games come in seed pairs: game ``2k`` and ``2k+1`` share one seed, with deck A in seat 0 (moving
first) in the even game and in seat 1 in the odd one, so the first player's advantage is measured
rather than mixed into deck A's result. Every seed derives from (root seed, pair number) through
SHA-256, so a game's outcome depends only on its index — never on how many workers played it, or
in which chunk. Results are folded in game order, which also makes early stopping reproducible.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from workbench.domain import stats
from workbench.domain.engines import load_engine
from workbench.domain.engines.base import DeckCards, Engine, State, play_game
from workbench.domain.errors import WorkbenchError


class PlaytestError(WorkbenchError):
    """A playtest cannot run as asked (unknown agent, no engine, bad game count …)."""


@dataclass(frozen=True)
class Matchup:
    """Everything a worker needs to play any game of a batch; plain data, so it pickles.

    ``agents`` are the agent names for deck A and deck B. ``options`` are the resolved rule
    options. ``card_ids``/``names`` list the cards of the played zones for the per-card table.
    """

    game: str
    engine: str
    deck_a: DeckCards
    deck_b: DeckCards
    options: Mapping[str, Any]
    agents: tuple[str, str] = ("heuristic", "heuristic")
    seed: int = 0
    label_a: str = "A"
    label_b: str = "B"
    card_ids: Mapping[str, Sequence[str]] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    max_steps: int = 100_000


def derive_seed(*parts: Any) -> int:
    """A stable 63-bit seed from its parts (SHA-256; unlike ``hash()`` it never changes per run)."""
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def game_seed(root: int, index: int) -> int:
    """The seed of game ``index``: both games of a pair (2k, 2k+1) share it."""
    return derive_seed("playtest", root, index // 2)


def a_seat(index: int) -> int:
    """Deck A's seat in game ``index``: 0 (first player) in even games, 1 in odd ones."""
    return index % 2


def resolve_engine(name: str) -> Engine:
    """The engine called ``name``: a game engine id, or ``package.module:ATTR`` for an engine
    defined elsewhere (tests, engines under development). Raises EngineNotFound / PlaytestError."""
    if ":" not in name:
        return load_engine(name)
    module_name, _, attr = name.partition(":")
    try:
        engine = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise PlaytestError(f"no engine at {name!r}: {exc}") from None
    if not isinstance(engine, Engine):
        raise PlaytestError(f"{name!r} is not an Engine")
    return engine


def check_matchup(matchup: Matchup) -> None:
    """Raise PlaytestError when the engine is missing or an agent name is unknown."""
    try:
        engine = resolve_engine(matchup.engine)
    except WorkbenchError as exc:
        raise PlaytestError(f"game {matchup.game!r} has no playable engine: {exc}") from exc
    for name in matchup.agents:
        if name not in engine.agents:
            raise PlaytestError(
                f"engine {matchup.engine!r} has no agent {name!r}; agents: {', '.join(sorted(engine.agents))}"
            )


def new_state(matchup: Matchup, index: int, log: bool = False) -> tuple[State, list[Any]]:
    """Build game ``index`` of the batch (state and one agent per seat), ready to play.

    Raises PlaytestError for an unknown agent, and whatever the engine raises for illegal decks.
    """
    engine = resolve_engine(matchup.engine)
    seed = game_seed(matchup.seed, index)
    seat = a_seat(index)
    decks = (matchup.deck_a, matchup.deck_b) if seat == 0 else (matchup.deck_b, matchup.deck_a)
    options = dict(matchup.options)
    options["_log"] = log
    state = engine.new_game(decks[0], decks[1], options, seed)
    # Agent seeds follow the deck, not the seat, so both games of a pair use common random numbers.
    names = {"a": matchup.agents[0], "b": matchup.agents[1]}
    sides = ("a", "b") if seat == 0 else ("b", "a")
    try:
        agents = [engine.agents[names[s]](derive_seed(seed, "agent", s)) for s in sides]
    except KeyError as exc:
        raise PlaytestError(f"unknown agent {exc.args[0]!r}") from None
    return state, agents


def play_one(matchup: Matchup, index: int, log: bool = False) -> tuple[dict[str, Any], State]:
    """Play game ``index`` to the end; return its record (see stats.game_record_keys) and state."""
    state, agents = new_state(matchup, index, log)
    result = play_game(state, agents, matchup.max_steps)
    seat = a_seat(index)
    first = int(getattr(state, "first", 0) or 0)
    if result.winner is None:
        winner, first_won = None, None
    else:
        winner = "a" if result.winner == seat else "b"
        first_won = result.winner == first
    game_stats = state.stats
    side_of_seat = {seat: "a", 1 - seat: "b"}
    cards = {
        side_of_seat[p]: {"drawn": sorted(game_stats.drawn[p]), "played": sorted(game_stats.played[p])}
        for p in (0, 1)
    }
    record = {
        "index": index,
        "seed": game_seed(matchup.seed, index),
        "a_seat": seat,
        "winner": winner,
        "first_won": first_won,
        "turns": int(result.turns),
        "reason": result.reason,
        "cards": cards,
        "unsimulated": sorted(game_stats.unsimulated),
    }
    return record, state


def play_chunk(matchup: Matchup, start: int, stop: int) -> list[dict[str, Any]]:
    """Play games ``start`` … ``stop - 1``; the top-level worker function (spawn-safe)."""
    return [play_one(matchup, i)[0] for i in range(start, stop)]


# ---------------------------------------------------------------- back-ends


class Backend(Protocol):
    """Runs chunks somewhere and yields ((start, stop), records) as they finish."""

    workers: int

    def run(self, matchup: Matchup, chunks: Sequence[tuple[int, int]]) -> Iterator[tuple[tuple[int, int], list[dict[str, Any]]]]: ...


class InlineBackend:
    """Plays every chunk in this process, in order (for one worker and for tests)."""

    workers = 1

    def run(self, matchup: Matchup, chunks: Sequence[tuple[int, int]]) -> Iterator[tuple[tuple[int, int], list[dict[str, Any]]]]:
        for start, stop in chunks:
            yield (start, stop), play_chunk(matchup, start, stop)


class ProcessBackend:
    """A ``ProcessPoolExecutor`` over chunks of games.

    Start method: ``fork`` when this process runs a single thread (the CLI, benchmarks: workers
    start in milliseconds), else ``spawn`` (safe inside a threaded web server; workers import
    the engine afresh). Leaving the iterator early (early stop, cancel) cancels the chunks not
    yet started.
    """

    def __init__(self, workers: int | None = None, start_method: str | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.start_method = start_method

    def run(self, matchup: Matchup, chunks: Sequence[tuple[int, int]]) -> Iterator[tuple[tuple[int, int], list[dict[str, Any]]]]:
        import multiprocessing
        import threading

        method = self.start_method
        if method is None:
            single = threading.active_count() == 1
            method = "fork" if single and "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        if method == "fork":
            # Forked workers share the parent's heap; freezing it keeps their garbage collector
            # from walking (and copying) every object the parent holds, e.g. earlier reports.
            gc.freeze()
        pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        try:
            pending: dict[Future[list[dict[str, Any]]], tuple[int, int]] = {
                pool.submit(play_chunk, matchup, start, stop): (start, stop) for start, stop in chunks
            }
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                # Yield finished chunks in game order so callers see a stable sequence.
                for future in sorted(done, key=lambda f: pending[f]):
                    chunk = pending.pop(future)
                    yield chunk, future.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            if method == "fork":
                gc.unfreeze()


def make_backend(workers: int | None) -> Backend:
    """One worker → in-process; more (or None = every core) → a process pool."""
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count < 1:
        raise PlaytestError(f"workers must be at least 1, not {count}")
    return InlineBackend() if count == 1 else ProcessBackend(count)


# ---------------------------------------------------------------- the batch


def plan_chunks(games: int, workers: int, chunk_size: int | None = None) -> list[tuple[int, int]]:
    """Split games 0 … games-1 into chunks of whole seed pairs.

    By default about eight chunks per worker (so a slow chunk does not leave cores idle), between
    2 and 250 games each.
    """
    if chunk_size is None:
        chunk_size = math.ceil(games / max(1, workers * 8))
        chunk_size = min(250, max(2, chunk_size))
    chunk_size += chunk_size % 2
    return [(start, min(games, start + chunk_size)) for start in range(0, games, chunk_size)]


ProgressFn = Callable[[int, int], None]


class _OrderedFold:
    """Collects chunks as they arrive and walks the contiguous prefix in game order."""

    def __init__(self, rule: stats.IntervalRule | stats.SPRT | None) -> None:
        self.rule = rule
        self.waiting: dict[int, list[dict[str, Any]]] = {}
        self.records: list[dict[str, Any]] = []
        self.next_index = 0
        self.points = 0.0
        self.stop: stats.StopDecision | None = None

    def add(self, start: int, records: list[dict[str, Any]]) -> None:
        self.waiting[start] = records
        while self.stop is None and self.next_index in self.waiting:
            chunk = self.waiting.pop(self.next_index)
            for record in chunk:
                self.records.append(record)
                self.points += stats.a_points(record)
                games = len(self.records)
                if self.rule is not None and games % 2 == 0:
                    self.stop = self.rule.check(self.points, games)
                    if self.stop is not None:
                        break
            self.next_index += len(chunk)


def run_matchup(
    matchup: Matchup,
    games: int,
    workers: int | None = None,
    *,
    backend: Backend | None = None,
    chunk_size: int | None = None,
    stop_rule: stats.IntervalRule | stats.SPRT | None = None,
    progress: ProgressFn | None = None,
    should_cancel: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (rounded up to whole seed pairs) and return the report.

    The report is :func:`workbench.domain.stats.aggregate` plus ``game``, ``deck_a``, ``deck_b``,
    ``seed``, ``agents``, ``options``, ``games_requested``, ``early_stop``, ``elapsed_s``,
    ``games_per_s``, ``workers`` and ``records`` (one short line per game, for replays).
    Raises PlaytestError for a bad game count or agent; CancelledRun when ``should_cancel`` says so.
    """
    if games < 1:
        raise PlaytestError(f"a playtest needs at least 1 game, not {games}")
    check_matchup(matchup)
    games += games % 2
    backend = backend or make_backend(workers)
    chunks = plan_chunks(games, backend.workers, chunk_size)
    fold = _OrderedFold(stop_rule)
    started = time.perf_counter()
    done = 0
    if progress:
        progress(0, games)
    iterator = backend.run(matchup, chunks)
    try:
        for (start, stop), records in iterator:
            fold.add(start, records)
            done += stop - start
            if progress:
                progress(min(done, games), games)
            if fold.stop is not None:
                break
            if should_cancel and should_cancel():
                raise CancelledRun("the playtest was cancelled")
    finally:
        close = getattr(iterator, "close", None)
        if close:
            close()
    elapsed = time.perf_counter() - started
    records = fold.records
    report = stats.aggregate(records, matchup.card_ids, matchup.names)
    report = {
        "game": matchup.game,
        "deck_a": matchup.label_a,
        "deck_b": matchup.label_b,
        "seed": matchup.seed,
        "agents": list(matchup.agents),
        "options": {k: v for k, v in matchup.options.items() if not k.startswith("_")},
        "games_requested": games,
        **report,
        "early_stop": None if stop_rule is None else {
            "rule": type(stop_rule).__name__,
            "margin": stop_rule.margin,
            "stopped": fold.stop is not None,
            "verdict": fold.stop.verdict if fold.stop else None,
            "games": len(records),
            "reason": fold.stop.reason if fold.stop else "no verdict before the last game",
        },
        "elapsed_s": round(elapsed, 3),
        "games_per_s": round(len(records) / elapsed, 1) if elapsed > 0 else None,
        "workers": backend.workers,
        "records": [short_record(r) for r in records],
    }
    return report


class CancelledRun(PlaytestError):
    """The run was cancelled before it finished."""


def short_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """A game record without its card lists: what the report keeps for the replay links."""
    return {k: record[k] for k in ("index", "seed", "a_seat", "winner", "turns", "reason") if k in record}


def with_options(matchup: Matchup, options: Mapping[str, Any]) -> Matchup:
    """The same matchup (same decks, agents and seeds) under other rule options."""
    return replace(matchup, options=dict(options))


def deck_ids(deck: DeckCards, zones: Iterable[str] | None = None) -> list[str]:
    """Distinct card ids of a resolved deck (only ``zones`` when given), sorted."""
    wanted = set(zones) if zones is not None else None
    return sorted({str(card["id"]) for zone, cards in deck.items() if wanted is None or zone in wanted for card in cards})
