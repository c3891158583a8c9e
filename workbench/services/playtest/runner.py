"""The batch runner: deck A against deck B for N games, in chunks over a process pool.

Games come in seed pairs: game ``2k`` and ``2k+1`` share one seed, with deck A in seat 0 (moving
first) in the even game and in seat 1 in the odd one, so the first player's advantage is measured
rather than mixed into deck A's result. Every seed derives from (root seed, pair number) through
SHA-256, so a game's outcome depends only on its index — never on how many workers played it, or
in which chunk. Results are folded in game order, which also makes early stopping reproducible.
"""

from __future__ import annotations

import hashlib
import importlib
import math
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from workbench.domain import stats
from workbench.domain.engines import load_engine
from workbench.domain.engines.base import (
    DeckCards,
    Engine,
    State,
    agent_problem,
    make_agent,
    play_game,
)
from workbench.domain.errors import WorkbenchError
from workbench.domain.limits import check_runs
from workbench.services.playtest.tally import Tally
from workbench.services.playtest.workers import STOP_POLL_S, WorkerPool


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


def matchup_to_data(matchup: Matchup) -> dict[str, Any]:
    """The matchup as plain JSON data (a web run keeps it to resume after a restart).

    Decks are written as runs of ``[card id, copies]`` with each card's data once, so the copies
    come back as separate mappings in the same order. Raises PlaytestError when two copies of a
    card differ (a deck the runner never builds).
    """
    cards: dict[str, dict[str, Any]] = {}

    def deck(cards_by_zone: DeckCards) -> dict[str, list[list[Any]]]:
        zones: dict[str, list[list[Any]]] = {}
        for zone, copies in cards_by_zone.items():
            runs: list[list[Any]] = []
            for card in copies:
                card_id = str(card["id"])
                known = cards.setdefault(card_id, dict(card))
                if known != card:
                    raise PlaytestError(f"two copies of card {card_id!r} differ; this matchup cannot be kept")
                if runs and runs[-1][0] == card_id:
                    runs[-1][1] += 1
                else:
                    runs.append([card_id, 1])
            zones[str(zone)] = runs
        return zones

    return {
        "game": matchup.game, "engine": matchup.engine,
        "deck_a": deck(matchup.deck_a), "deck_b": deck(matchup.deck_b), "cards": cards,
        "options": dict(matchup.options), "agents": list(matchup.agents), "seed": matchup.seed,
        "label_a": matchup.label_a, "label_b": matchup.label_b,
        "card_ids": {side: list(ids) for side, ids in matchup.card_ids.items()},
        "names": dict(matchup.names), "max_steps": matchup.max_steps,
    }


def matchup_from_data(data: Mapping[str, Any]) -> Matchup:
    """The matchup :func:`matchup_to_data` wrote. Raises PlaytestError for other data."""
    try:
        cards = data["cards"]

        def deck(zones: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
            # A run file is data from disk: its counts are checked before they are expanded.
            check_runs([run for runs in zones.values() for run in runs], "the kept matchup")
            return {zone: [dict(cards[card_id]) for card_id, count in runs for _ in range(int(count))]
                    for zone, runs in zones.items()}

        return Matchup(
            game=str(data["game"]), engine=str(data["engine"]),
            deck_a=deck(data["deck_a"]), deck_b=deck(data["deck_b"]),
            options=dict(data["options"]), agents=(str(data["agents"][0]), str(data["agents"][1])),
            seed=int(data["seed"]), label_a=str(data["label_a"]), label_b=str(data["label_b"]),
            card_ids={str(side): [str(c) for c in ids] for side, ids in data["card_ids"].items()},
            names={str(k): str(v) for k, v in data["names"].items()}, max_steps=int(data["max_steps"]),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise PlaytestError(f"the kept matchup cannot be read: {exc!r}") from None


def derive_seed(*parts: Any) -> int:
    """A stable 63-bit seed from its parts (SHA-256; unlike ``hash()`` it never changes per run)."""
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def game_seed(root: int, index: int) -> int:
    """The seed of game ``index``: both games of a pair (2k, 2k+1) share it."""
    return derive_seed("playtest", root, index // 2)


def deck_seed(seed: int, side: str) -> int:
    """The shuffle seed of deck ``side`` ("a" or "b") in both games of the pair with ``seed``."""
    return derive_seed(seed, "deck", side)


def agent_seed(seed: int, side: str, seat: int) -> int:
    """The seed of the player of deck ``side`` sitting in ``seat`` in a game with ``seed``."""
    return derive_seed(seed, "agent", side, seat)


def first_seat(state: State) -> int:
    """The seat that moved first: the state's ``first`` (fusion), else seat 0 (warzone's first
    turn; seth's simultaneous phases, where P1's triggers resolve first)."""
    return int(getattr(state, "first", 0) or 0)


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
        problem = agent_problem(engine, name)
        if problem:
            raise PlaytestError(problem)


def check_playable(matchup: Matchup, deck_names: tuple[str, str] | None = None) -> None:
    """Build the first game's opening position once, so decks the engine refuses (a seth line-up
    that is not five monsters, …) are refused before a run starts, as the game table refuses them,
    rather than starting a run that fails with the engine's exception. The engine's seats (``P1``)
    are named by their decks: ``deck_names`` (deck A's, deck B's), else the matchup's labels."""
    try:
        new_state(matchup, 0)
    except PlaytestError:
        raise
    except (WorkbenchError, ValueError) as exc:
        a, b = deck_names or (matchup.label_a, matchup.label_b)
        seats = [a, b] if a_seat(0) == 0 else [b, a]
        raise PlaytestError(f"these decks cannot be played: {seats_as_decks(str(exc), seats)}") from None


def seats_as_decks(message: str, decks: Sequence[str | None]) -> str:
    """An engine's refusal with its seats (``P1 brings 0 monsters``, ``P2's total Power``) named by
    the deck in that seat (``deck 'Rot and Stone' brings …``, ``decks[0]`` in P1): the designer
    chose decks, not seats. A seat without a deck stays as the engine wrote it."""

    def deck(match: re.Match[str]) -> str:
        seat = int(match.group(1)) - 1
        name = decks[seat] if 0 <= seat < len(decks) else None
        return f"deck {str(name)!r}" if name else match.group(0)

    return re.sub(r"\bP(\d+)(?=(?:'s)? )", deck, message)


def new_state(matchup: Matchup, index: int, log: bool = False, engine: Engine | None = None,
              seed: int | None = None) -> tuple[State, list[Any]]:
    """Build game ``index`` of the batch (state and one agent per seat), ready to play.

    ``engine`` and ``seed`` (the game's seed) may be given when the caller has them already.
    Raises PlaytestError for an unknown agent, and whatever the engine raises for illegal decks.
    """
    engine = engine or resolve_engine(matchup.engine)
    seed = game_seed(matchup.seed, index) if seed is None else seed
    seat = a_seat(index)
    decks = (matchup.deck_a, matchup.deck_b) if seat == 0 else (matchup.deck_b, matchup.deck_a)
    sides = ("a", "b") if seat == 0 else ("b", "a")
    options = dict(matchup.options)
    options["_log"] = log
    # A real pair: each deck shuffles from its own stream (the same order in both games of the
    # pair, whatever its seat), and the player in seat 0 moves first, so deck A moves first in
    # exactly one game of the pair (engines without a coin toss ignore _first_player).
    options["_deck_seeds"] = tuple(deck_seed(seed, s) for s in sides)
    options["_first_player"] = 0
    state = engine.new_game(decks[0], decks[1], options, seed)
    # The players' own generators differ between the two games of a pair (seeded by deck and
    # seat): with one seed per deck, a game without chance (seth) would replay as a mirror.
    names = {"a": matchup.agents[0], "b": matchup.agents[1]}
    try:
        agents = [make_agent(engine, names[s], agent_seed(seed, s, p)) for p, s in enumerate(sides)]
    except ValueError as exc:
        raise PlaytestError(str(exc)) from None
    return state, agents


class _Cancellable:
    """A player that first asks whether the run was cancelled (at most every STOP_POLL_S, since
    asking may read a file) and raises CancelledRun when it was: one search decision takes
    seconds, a whole game minutes, so an in-process run is stopped between decisions."""

    def __init__(self, agent: Any, should_cancel: Callable[[], bool]) -> None:
        self.agent = agent
        self.should_cancel = should_cancel
        self.next_check = 0.0

    def choose(self, state: State, player: int) -> Any:
        now = time.monotonic()
        if now >= self.next_check:
            self.next_check = now + STOP_POLL_S
            if self.should_cancel():
                raise CancelledRun("the playtest was cancelled")
        return self.agent.choose(state, player)


def cancellable(agents: Sequence[Any], should_cancel: Callable[[], bool]) -> list[Any]:
    """``agents`` each asking ``should_cancel`` before deciding (at most every ``STOP_POLL_S``);
    a player raises CancelledRun once it says so."""
    return [_Cancellable(agent, should_cancel) for agent in agents]


def play_one(matchup: Matchup, index: int, log: bool = False, engine: Engine | None = None,
             should_cancel: Callable[[], bool] | None = None) -> tuple[dict[str, Any], State]:
    """Play game ``index`` to the end; return its record (see stats.game_record_keys) and state.

    Raises CancelledRun between two decisions once ``should_cancel()`` says so.
    """
    seed = game_seed(matchup.seed, index)
    state, agents = new_state(matchup, index, log, engine, seed)
    if should_cancel is not None:
        agents = cancellable(agents, should_cancel)
    result = play_game(state, agents, matchup.max_steps)
    seat = a_seat(index)
    first = first_seat(state)
    if result.winner is None:
        winner, first_won = None, None
    else:
        winner = "a" if result.winner == seat else "b"
        first_won = result.winner == first
    game_stats = state.stats
    side_of_seat = {seat: "a", 1 - seat: "b"}
    cards = {}
    for p in (0, 1):
        seen: dict[str, Any] = {"drawn": sorted(game_stats.drawn[p]), "played": sorted(game_stats.played[p]),
                                "opening": sorted(game_stats.opening[p])}
        if game_stats.facts[p]:
            seen["facts"] = {fact: sorted(ids) for fact, ids in sorted(game_stats.facts[p].items())}
        cards[side_of_seat[p]] = seen
    record = {
        "index": index,
        "seed": seed,
        "a_seat": seat,
        "a_first": first == seat,
        "winner": winner,
        "first_won": first_won,
        "turns": int(result.turns),
        "reason": result.reason,
        "cards": cards,
        "unsimulated": sorted(game_stats.unsimulated),
    }
    return record, state


@dataclass
class ChunkResult:
    """What a worker sends back for games ``start`` … ``start + len(games) - 1``.

    ``games`` holds one short ``(winner, turns, reason)`` tuple per game (what the report's game
    list and the early-stop check need); ``tally`` sums up the chunk, so per-card lists never cross
    the process boundary. ``records`` (the full records) comes only when asked for: an early stop
    may end the run inside a chunk, and then the parent tallies just the games before it.
    """

    start: int
    games: list[tuple[str | None, int, str]]
    tally: Tally
    records: list[dict[str, Any]] | None = None


def play_chunk(matchup: Matchup, start: int, stop: int, keep_records: bool = False,
               should_cancel: Callable[[], bool] | None = None) -> ChunkResult:
    """Play games ``start`` … ``stop - 1`` and summarise them; the top-level worker function (spawn-safe).

    Raises CancelledRun (between decisions) once ``should_cancel()`` says so; workers pass none:
    their pool kills them instead.
    """
    tally = Tally()
    games: list[tuple[str | None, int, str]] = []
    kept: list[dict[str, Any]] | None = [] if keep_records else None
    reasons: dict[str, str] = {}  # one string object per reason text, so pickling shares it
    engine = resolve_engine(matchup.engine)
    for index in range(start, stop):
        record = play_one(matchup, index, engine=engine, should_cancel=should_cancel)[0]
        tally.add(record)
        reason = str(record["reason"])
        games.append((record["winner"], record["turns"], reasons.setdefault(reason, reason)))
        if kept is not None:
            kept.append(record)
    return ChunkResult(start, games, tally, kept)


# A pool worker keeps the matchup it was started with, so the decks cross the process boundary
# once per worker (not once per chunk) and the engines' per-deck caches stay warm between chunks.
_WORKER_MATCHUP: Matchup | None = None


def _init_worker(matchup: Matchup) -> None:
    global _WORKER_MATCHUP
    _WORKER_MATCHUP = matchup


def _play_worker_chunk(start: int, stop: int, keep_records: bool) -> ChunkResult:
    if _WORKER_MATCHUP is None:  # pragma: no cover - the pool always runs the initializer first
        raise PlaytestError("pool worker started without a matchup")
    return play_chunk(_WORKER_MATCHUP, start, stop, keep_records)


# ---------------------------------------------------------------- back-ends

Chunks = Sequence[tuple[int, int]]


class Backend(Protocol):
    """Runs chunks somewhere and yields their results (in any order) as they finish.

    ``should_cancel``, when given, is asked while chunks play; once it says so the back-end stops
    them as soon as it can and raises CancelledRun.
    """

    workers: int

    def run(self, matchup: Matchup, chunks: Chunks, keep_records: bool = False,
            should_cancel: Callable[[], bool] | None = None) -> Iterator[ChunkResult]: ...


class InlineBackend:
    """Plays every chunk in this process, in order (for one worker and for tests); a cancel stops
    it between two decisions."""

    workers = 1

    def run(self, matchup: Matchup, chunks: Chunks, keep_records: bool = False,
            should_cancel: Callable[[], bool] | None = None) -> Iterator[ChunkResult]:
        for start, stop in chunks:
            yield play_chunk(matchup, start, stop, keep_records, should_cancel)


class ProcessBackend:
    """A process pool (:class:`workbench.services.playtest.workers.WorkerPool`) over chunks of games.

    Start method: see :func:`workbench.services.playtest.workers.start_method` (or as given).
    Each worker receives the matchup once, when it starts. The pool hands a worker its next chunk
    when it finishes one, so a slow chunk does not hold up the others. A cancel kills the workers
    mid-chunk (within ``STOP_POLL_S``), and so does leaving the iterator early (early stop); the
    workers also die with this process.
    """

    def __init__(self, workers: int | None = None, start_method: str | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.start_method = start_method

    def run(self, matchup: Matchup, chunks: Chunks, keep_records: bool = False,
            should_cancel: Callable[[], bool] | None = None) -> Iterator[ChunkResult]:
        if not chunks:
            return
        with WorkerPool(min(self.workers, len(chunks)), _init_worker, (matchup,), self.start_method) as pool:
            futures = [pool.submit(_play_worker_chunk, start, stop, keep_records) for start, stop in chunks]
            for future in pool.as_completed(futures, should_cancel):
                yield future.result()
            if pool.stopped:
                raise CancelledRun("the playtest was cancelled")


def make_backend(workers: int | None) -> Backend:
    """One worker → in-process; more (or None = every core) → a process pool."""
    count = workers if workers is not None else (os.cpu_count() or 1)
    if count < 1:
        raise PlaytestError(f"workers must be at least 1, not {count}")
    return InlineBackend() if count == 1 else ProcessBackend(count)


# ---------------------------------------------------------------- the batch


AGENT_CHECK_GAMES = 200
"""Games the second kind of player plays by default (the first pairs of the run's seeds)."""

MAX_CHUNK = 250
MIN_CHUNK = 8


def plan_chunks(games: int, workers: int, chunk_size: int | None = None, start: int = 0) -> list[tuple[int, int]]:
    """Split games ``start`` … ``games - 1`` into chunks of whole seed pairs (``start`` is even).

    By default the chunks shrink towards the end (each about a quarter of what is left per worker,
    between MIN_CHUNK and MAX_CHUNK games), so the workers finish together instead of one core
    idling while the other plays a last big chunk. ``chunk_size`` fixes the size instead.
    """
    chunks = []
    position = start
    while position < games:
        if chunk_size is None:
            size = min(MAX_CHUNK, max(MIN_CHUNK, math.ceil((games - position) / max(1, workers * 4))))
        else:
            size = max(2, chunk_size)
        size += size % 2
        chunks.append((position, min(games, position + size)))
        position += size
    return chunks


ProgressFn = Callable[[int, int], None]


@dataclass
class Partial:
    """The games folded so far (a prefix in game order): enough to resume the run exactly.

    ``games`` holds the short ``(winner, turns, reason)`` tuple of each game; ``elapsed_s`` the
    playing time so far. Passed to a ``checkpoint`` callback, it is only valid during the call.
    """

    tally: Tally = field(default_factory=Tally)
    games: list[tuple[str | None, int, str]] = field(default_factory=list)
    elapsed_s: float = 0.0

    @property
    def done(self) -> int:
        """How many games (from game 0 on) are folded in."""
        return len(self.games)

    def to_data(self) -> dict[str, Any]:
        """Plain JSON data; :meth:`from_data` reads it back."""
        return {"done": self.done, "elapsed_s": round(self.elapsed_s, 3), "tally": self.tally.to_data(),
                "games": [list(g) for g in self.games]}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Partial:
        """The partial saved by :meth:`to_data`. Raises PlaytestError for anything else."""
        try:
            games = [(None if w is None else str(w), int(t), str(r)) for w, t, r in data["games"]]
            partial = cls(Tally.from_data(data["tally"]), games, float(data.get("elapsed_s") or 0.0))
        except (KeyError, TypeError, ValueError) as exc:
            raise PlaytestError(f"the saved progress of this run cannot be read: {exc!r}") from None
        if partial.tally.games != partial.done or partial.done % 2:
            raise PlaytestError("the saved progress of this run is inconsistent")
        return partial


class _OrderedFold:
    """Collects chunks as they arrive and folds the contiguous prefix in game order."""

    def __init__(self, rule: stats.IntervalRule | stats.SPRT | None, partial: Partial) -> None:
        self.rule = rule
        self.waiting: dict[int, ChunkResult] = {}
        self.partial = partial
        self.next_index = partial.done
        self.stop: stats.StopDecision | None = None

    def add(self, chunk: ChunkResult) -> bool:
        """Take a finished chunk; return True when the folded prefix grew."""
        self.waiting[chunk.start] = chunk
        grew = False
        while self.stop is None and self.next_index in self.waiting:
            chunk = self.waiting.pop(self.next_index)
            cut = len(chunk.games)
            if self.rule is not None:
                cut = self._check_stop(chunk)
            tally = self.partial.tally
            if cut == len(chunk.games):
                tally.merge(chunk.tally)
            else:  # the stop falls inside the chunk: count only the games before it
                if chunk.records is None:
                    raise PlaytestError("an early stop inside a chunk needs the chunk's records")
                for record in chunk.records[:cut]:
                    tally.add(record)
            self.partial.games.extend(chunk.games[:cut])
            self.next_index += len(chunk.games)
            grew = True
        return grew

    def _check_stop(self, chunk: ChunkResult) -> int:
        """Walk the chunk's games; at the end of each seed pair ask the rule. Return the games kept."""
        assert self.rule is not None
        counts = list(self.partial.tally.pairs)
        half = 0.0
        for i, (winner, _, _) in enumerate(chunk.games):
            points = 1.0 if winner == "a" else 0.0 if winner == "b" else 0.5
            if i % 2 == 0:  # chunks start at even games
                half = points
                continue
            counts[stats.pair_index(half + points)] += 1
            self.stop = self.rule.check(counts)
            if self.stop is not None:
                return i + 1
        return len(chunk.games)


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
    resume: Partial | None = None,
    checkpoint: Callable[[Partial], None] | None = None,
    agent_check: Sequence[str] | None = None,
    agent_check_games: int = AGENT_CHECK_GAMES,
) -> dict[str, Any]:
    """Play ``games`` games (rounded up to whole seed pairs) and return the report.

    The report is :func:`workbench.domain.stats.aggregate` plus ``game``, ``deck_a``, ``deck_b``,
    ``seed``, ``agents``, ``options``, ``games_requested``, ``early_stop``, ``elapsed_s``,
    ``games_per_s``, ``workers`` and ``records`` (one short line per game, for replays).
    ``resume`` continues from games already played (a :class:`Partial` from ``checkpoint``, which
    is called each time the folded prefix grows); the report equals an uninterrupted run's.
    ``agent_check`` (two agent names) also plays the first ``agent_check_games`` games with
    those players and adds ``agent_check`` to the report (:func:`check_agents`).
    Raises PlaytestError for a bad game count or agent; CancelledRun when ``should_cancel`` says so.
    """
    if agent_check:
        check_matchup(replace(matchup, agents=(str(agent_check[0]), str(agent_check[-1]))))
    if games < 1:
        raise PlaytestError(f"a playtest needs at least 1 game, not {games}")
    check_matchup(matchup)
    games += games % 2
    partial = resume or Partial()
    if partial.done > games:
        raise PlaytestError(f"cannot resume: {partial.done} games were played of {games}")
    backend = backend or make_backend(workers)
    chunks = plan_chunks(games, backend.workers, chunk_size, start=partial.done)
    fold = _OrderedFold(stop_rule, partial)
    started = time.perf_counter()
    before = partial.elapsed_s
    if progress:
        progress(partial.done, games)
    # An early stop may cut a chunk; only then does the parent need the chunk's full records.
    iterator = backend.run(matchup, chunks, stop_rule is not None, should_cancel)
    try:
        for chunk in iterator:
            if fold.add(chunk):
                partial.elapsed_s = before + time.perf_counter() - started
                if checkpoint:
                    checkpoint(partial)
                if progress:
                    progress(partial.done, games)
            if fold.stop is not None:
                break
            if should_cancel and should_cancel():
                raise CancelledRun("the playtest was cancelled")
    finally:
        close = getattr(iterator, "close", None)
        if close:
            close()
    elapsed = before + time.perf_counter() - started
    played = partial.done
    report = partial.tally.report(matchup.card_ids, matchup.names)
    return {
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
            "error_rates": stop_rule.error_rates() if isinstance(stop_rule, stats.SPRT) else None,
            "stopped": fold.stop is not None,
            "verdict": fold.stop.verdict if fold.stop else None,
            "games": played,
            "reason": fold.stop.reason if fold.stop else "no verdict before the last game",
        },
        "elapsed_s": round(elapsed, 3),
        "games_per_s": round(played / elapsed, 1) if elapsed > 0 else None,
        "workers": backend.workers,
        "records": short_records(matchup.seed, partial.games),
        "agent_check": None if not agent_check else check_agents(
            matchup, report["win_rate_a"], partial.games, agent_check, agent_check_games, backend=backend,
            should_cancel=should_cancel),
    }


AGENT_CHECK_MESSAGE = "the result depends on the AI: treat it with care"


def check_agents(matchup: Matchup, main_rate: Mapping[str, Any], main_games: Sequence[tuple[str | None, int, str]],
                 agents: Sequence[str], games: int = AGENT_CHECK_GAMES, *, backend: Backend | None = None,
                 should_cancel: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Play the run's first ``games`` games again with another kind of player and compare.

    Returns ``{"agents", "games", "win_rate_a", "difference", "disagree", "message"}``:
    ``difference`` is the check's score minus the main run's on the same seed pairs, with its
    95 % interval; ``disagree`` is True when that interval excludes 0, i.e. the two players
    reach different results beyond their intervals.
    """
    other = replace(matchup, agents=(str(agents[0]), str(agents[-1])))
    games = max(2, min(games, len(main_games)))
    games -= games % 2
    report = run_matchup(other, games, backend=backend, should_cancel=should_cancel)
    mine = stats.pair_scores([stats.a_points({"winner": w}) for w, _, _ in main_games[:games]])
    theirs = stats.pair_scores([stats.a_points(r) for r in report["records"]])
    difference = stats.paired_difference(theirs, mine)
    ci = difference["ci95"]
    disagree = bool(ci) and not ci[0] <= 0 <= ci[1]
    return {
        "agents": list(other.agents),
        "games": report["games"],
        "win_rate_a": report["win_rate_a"],
        "main_win_rate_a": dict(main_rate),
        "difference": difference,
        "disagree": disagree,
        "message": AGENT_CHECK_MESSAGE if disagree else "the second kind of player agrees within the intervals",
    }


def short_records(root: int, games: Sequence[tuple[str | None, int, str]]) -> list[dict[str, Any]]:
    """The report's game list: ``index``, ``seed``, ``a_seat``, ``winner``, ``turns``, ``reason``."""
    records = []
    seed = 0
    for index, (winner, turns, reason) in enumerate(games):
        if index % 2 == 0:
            seed = game_seed(root, index)
        records.append({"index": index, "seed": seed, "a_seat": a_seat(index), "winner": winner,
                        "turns": turns, "reason": reason})
    return records


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
