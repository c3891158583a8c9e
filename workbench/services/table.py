"""The game table: a person plays a game against an AI player or a second person on the same screen,
and playtest games are replayed on the same board.

A table is plain data (:mod:`workbench.storage.table_games` keeps it as a file): the cards of every
deck (two; fusion seats up to four, RULES.md §3.9) as they were when it started, the rule options, the seed, who sits in each seat (``human``
or an agent name of the engine) and the list of decisions taken. A decision is one entry per
player who chose, ``{"by": {"0": [kind, args]}, "text": {...}}``; simultaneous choices (seth) are
one decision with two entries. The position is never stored in the file: :func:`replay` rebuilds
it from the seed and the decisions, which is what makes undo, restart, resume after a restart and
replays the same operation (a server process keeps the last position of recently used tables,
:mod:`~workbench.services.table_positions`, so a request replays only the decisions since it).
The AI's choice at decision ``n`` comes from an agent seeded with ``(seed, "agent", seat, n)``,
so it does not depend on what the server did before.

:func:`view` turns a position into what one seat may see: its own hand face up, the opponent's
hand as a count, no deck order, face-down cards hidden, and log lines and move texts in plain
words (deck names instead of P1/P2, card names instead of instance ids, effects numbered from 1
as the card editor counts them). The board is built from the engine's ``snapshot`` without
knowing the game; per-game templates only arrange its zones.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.domain.engines.base import Action, Engine, State
from workbench.domain.errors import IllegalAction, WorkbenchError
from workbench.domain.limits import check_deck_counts
from workbench.services import table_positions
from workbench.services.playtest import service as playtest_service
from workbench.services.playtest.runner import (
    a_seat, deck_seed, derive_seed, game_seed, new_state, resolve_engine, seats_as_decks,
)
from workbench.storage.repository import Repository

HUMAN = "human"
MAX_DECISIONS = 20_000

Say = Callable[..., str]
"""``say(message, **values)``: a table message with its values, in the caller's language."""


def N_(message: str) -> str:
    """Mark a message for the catalogues (``scripts/translations.py`` extracts it); the web passes
    its gettext as ``say`` to translate it."""
    return message


def english(message: str, **values: Any) -> str:
    """The default ``say``: the message as written, with its values."""
    return message % values if values else message


def as_written(text: str) -> str:
    """The default ``engine_text``: what the engine wrote, unchanged."""
    return text


class TableError(WorkbenchError):
    """A table cannot do what was asked (not your turn, unknown move, stale page …)."""


class StaleTable(TableError):
    """The page acted on an older position than the saved one (another tab, a double click)."""


# ------------------------------------------------------------------ building tables


def player_choices(engine: Engine, say: Say | None = None) -> list[tuple[str, str]]:
    """(value, label) for the opponent select: the engine's agents, then a second person."""
    say = say or english
    order = {"random": 0, "heuristic": 1, "search": 2}
    labels = {"random": N_("Random AI (any legal move)"), "heuristic": N_("Heuristic AI"),
              "search": N_("Search AI (the strongest; thinks longer)"), "montecarlo": N_("Monte Carlo AI (thinks longer)")}
    names = sorted(engine.agents, key=lambda n: (order.get(n, 2), n))
    return ([(n, say(labels[n]) if n in labels else say(N_("%(name)s AI"), name=n)) for n in names]
            + [(HUMAN, say(N_("A second person on this screen (hot-seat)")))])


def new_table(
    repo: Repository,
    game: str,
    deck_you: str,
    deck_opponent: str,
    *,
    opponent: str = "random",
    you_first: bool = True,
    seed: int | None = None,
    format_id: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    owner: str | None = None,
    table_id: str,
    more_opponents: Sequence[str] = (),
) -> dict[str, Any]:
    """A new table: you (a person) against ``opponent`` (an agent name or ``human``).

    ``more_opponents`` (deck ids) seat further AI opponents, played by ``opponent``, for engines
    that seat three or four (fusion, RULES.md §3.9); a second person (hot-seat) is for two
    players. Seats go round: you, then the opponents in order (you second: the first opponent,
    you, the others). Raises NotFound (deck), DefinitionError (option/format), PlaytestError (no
    engine), TableError.
    """
    seed = int(seed) if seed is not None else derive_seed("table", time.time_ns()) % 1_000_000_000
    if more_opponents:
        if opponent == HUMAN:
            raise TableError("a second person on this screen plays two-player games; with three or four "
                             "players the opponents are AI players")
        pod, facts = playtest_service.prepare_pod(repo, game, deck_you, [deck_opponent, *more_opponents],
                                                  format_id=format_id, overrides=overrides, seed=seed,
                                                  agents=("random", "random"))
        engine_name, options = pod.engine, dict(pod.options)
        sides = "abcd"[:pod.players]
    else:
        matchup, facts = playtest_service.prepare(repo, game, deck_you, deck_opponent, format_id=format_id,
                                                  overrides=overrides, seed=seed, agents=("random", "random"))
        engine_name, options = matchup.engine, dict(matchup.options)
        sides = "ab"
    engine = resolve_engine(engine_name)
    if opponent != HUMAN and opponent not in engine.agents:
        raise TableError(f"no AI player {opponent!r}; choose one of {', '.join(sorted(engine.agents))} or {HUMAN}")
    decks = [facts["decks"][side] for side in sides]
    lists = [facts["deck_lists"][side] for side in sides]
    players = [HUMAN] + [opponent] * (len(sides) - 1)
    if not you_first:  # the first opponent moves first, you second
        decks[0], decks[1] = decks[1], decks[0]
        lists[0], lists[1] = lists[1], lists[0]
        players[0], players[1] = players[1], players[0]
    table = {
        "id": table_id,
        "kind": "game",
        "game": game,
        "engine": engine_name,
        "created": _now(),
        "updated": _now(),
        "owner": owner,
        "seed": seed,
        "format": facts["format"],
        "overrides": facts["overrides"],
        "options": options,
        "seats": [{"player": players[s], "deck": decks[s]} for s in range(len(decks))],
        "deck_lists": lists,
        "card_data": facts["card_data"],
        "actions": [],
        "pending": {},
        "result": None,
    }
    check_decks(table)
    return table


def check_decks(table: Mapping[str, Any]) -> None:
    """Build the opening position once, so a deck the engine refuses is reported before saving.

    Raises TableError with the engine's message.
    """
    try:
        replay(table)
    except TableError:
        raise
    except (WorkbenchError, ValueError) as exc:
        raise TableError(f"these decks cannot be played: {_seats_as_decks(str(exc), table)}") from None


def _seats_as_decks(message: str, table: Mapping[str, Any]) -> str:
    """The engine's refusal with its seats named by the decks in them (see :func:`seats_as_decks`)."""
    names = [(seat.get("deck") or {}).get("name") or (seat.get("deck") or {}).get("id") for seat in table.get("seats") or []]
    return seats_as_decks(message, names)


def replay_table(run: Mapping[str, Any], index: int, *, owner: str | None, table_id: str) -> dict[str, Any]:
    """A replay table of game ``index`` of a stored playtest run: the game is played once with the
    run's agents (this is the expensive part, done on a POST) and every decision recorded.

    Raises PlaytestError when the run lacks what a replay needs, TableError for a bad index.
    """
    games = int((run.get("report") or {}).get("games", 0))
    if not 0 <= index < games:
        raise TableError(f"run {run.get('id')} has games 0–{games - 1}, not {index}")
    if run.get("kind") == "pod":
        return _pod_replay_table(run, index, owner=owner, table_id=table_id)
    matchup = playtest_service.matchup_from_run(run)
    seed = game_seed(matchup.seed, index)
    state, agents = new_state(matchup, index, log=False, seed=seed)
    engine_options = _playtest_options(matchup.options, seed, index)
    actions: list[dict[str, Any]] = []
    while not state.is_terminal():
        if len(actions) >= MAX_DECISIONS:
            raise TableError(f"the game did not end within {MAX_DECISIONS} decisions")
        acting = state.to_act()
        chosen = {p: agents[p].choose(state, p) for p in acting}
        if len(acting) == 1:
            state.apply(chosen[acting[0]])
        else:
            state.apply_joint(chosen)
        actions.append(_decision(chosen))
    seat_a = a_seat(index)
    names = {"a": run["decks"]["a"], "b": run["decks"]["b"]}
    lists = {"a": run["deck_lists"]["a"], "b": run["deck_lists"]["b"]}
    agent_of = {"a": str(run["agents"][0]), "b": str(run["agents"][1])}
    sides = ("a", "b") if seat_a == 0 else ("b", "a")
    table = {
        "id": table_id,
        "kind": "replay",
        "game": str(run["game"]),
        "engine": str(run["engine"]),
        "created": _now(),
        "updated": _now(),
        "owner": owner,
        "seed": seed,
        "format": run.get("format"),
        "overrides": dict(run.get("overrides") or {}),
        "options": engine_options,
        "seats": [{"player": agent_of[s], "deck": names[s], "side": s} for s in sides],
        "deck_lists": [lists[s] for s in sides],
        "card_data": run["card_data"],
        "actions": actions,
        "pending": {},
        "source": {"run": run.get("id"), "index": index},
    }
    _finish_replay_table(table)
    return table


def _pod_replay_table(run: Mapping[str, Any], index: int, *, owner: str | None, table_id: str) -> dict[str, Any]:
    """:func:`replay_table` for a game of a pod run (three or four players, RULES.md §3.9.6)."""
    from workbench.services.playtest.pod import SIDES, new_pod_state, pod_from_data, rotation_seed, seating

    pod = pod_from_data(run["pod"])
    state, agents, seats = new_pod_state(pod, index)
    seed = rotation_seed(pod.seed, index, pod.players)
    actions: list[dict[str, Any]] = []
    while not state.is_terminal():
        if len(actions) >= MAX_DECISIONS:
            raise TableError(f"the game did not end within {MAX_DECISIONS} decisions")
        (p,) = state.to_act()
        chosen = {p: agents[p].choose(state, p)}
        state.apply(chosen[p])
        actions.append(_decision(chosen))
    options = dict(pod.options)
    options.update(players=pod.players, _first_player=0,
                   _deck_seeds=[derive_seed(seed, "deck", SIDES[d]) for d in seating(index, pod.players)])
    lists, card_data = [], {}
    for d in seats:
        zones: dict[str, dict[str, int]] = {}
        for zone, cards in pod.decks[d].items():
            counts = zones.setdefault(str(zone), {})
            for card in cards:
                cid = str(card["id"])
                counts[cid] = counts.get(cid, 0) + 1
                card_data.setdefault(cid, {k: v for k, v in card.items() if k != "id"})
        lists.append(zones)
    decks = run.get("decks") or {}
    table = {
        "id": table_id, "kind": "replay", "game": str(run["game"]), "engine": pod.engine,
        "created": _now(), "updated": _now(), "owner": owner, "seed": seed,
        "format": run.get("format"), "overrides": dict(run.get("overrides") or {}), "options": options,
        "seats": [{"player": pod.agents[0 if d == 0 else 1], "side": SIDES[d],
                   "deck": decks.get(SIDES[d]) or {"id": pod.labels[d], "name": pod.labels[d], "version": None}}
                  for d in seats],
        "deck_lists": lists, "card_data": card_data, "actions": actions, "pending": {},
        "source": {"run": run.get("id"), "index": index},
    }
    _finish_replay_table(table)
    return table


def _finish_replay_table(table: dict[str, Any]) -> None:
    """Keep a replay table's result and the turn of every step ("jump to turn"), found by one
    replay now, so that opening the table replays only up to the step shown."""
    whole = replay(table, track=True)
    table["result"] = _result_data(table, whole.state)
    table["turns"] = whole.turns


def _playtest_options(options: Mapping[str, Any], seed: int, index: int) -> dict[str, Any]:
    """The options a playtest game is built with (runner.new_state): each deck shuffles from its
    own stream and seat 0 moves first. Checked by replaying the game in :func:`replay_table`."""
    sides = ("a", "b") if a_seat(index) == 0 else ("b", "a")
    data = dict(options)
    data["_deck_seeds"] = [deck_seed(seed, s) for s in sides]
    data["_first_player"] = 0
    return data


def take_over(table: Mapping[str, Any], step: int, seat: int, opponent: str, *, owner: str | None,
              table_id: str) -> dict[str, Any]:
    """A new game from decision ``step`` of ``table`` (a replay or a game): you play ``seat``,
    ``opponent`` (an agent or ``human``) the other one. Raises TableError."""
    if not 0 <= step <= len(table["actions"]):
        raise TableError(f"step {step} is not between 0 and {len(table['actions'])}")
    if not 0 <= seat < len(table["seats"]):
        raise TableError(f"seat must be 0 … {len(table['seats']) - 1}")
    engine = resolve_engine(str(table["engine"]))
    if opponent != HUMAN and opponent not in engine.agents:
        raise TableError(f"no AI player {opponent!r}")
    if opponent == HUMAN and len(table["seats"]) > 2:
        raise TableError("a second person on this screen plays two-player games")
    new = {k: v for k, v in table.items() if k not in ("source", "result")}
    seats = [dict(s) for s in table["seats"]]
    for other in seats:
        other["player"] = opponent
    seats[seat]["player"] = HUMAN
    new.update(id=table_id, kind="game", created=_now(), updated=_now(), owner=owner, seats=seats,
               actions=list(table["actions"][:step]), pending={}, result=None,
               taken_over={"table": table["id"], "step": step, **({"source": table["source"]} if "source" in table else {})})
    if replay(new).state.is_terminal():
        raise TableError("the game is already over at that step")
    return new


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# ------------------------------------------------------------------ actions as data


def to_data(value: Any) -> Any:
    """Action arguments as JSON data (tuples become lists)."""
    if isinstance(value, (tuple, list)):
        return [to_data(v) for v in value]
    return value


def from_data(value: Any) -> Any:
    """Action arguments back from JSON data (lists become tuples, as the engines build them)."""
    if isinstance(value, list):
        return tuple(from_data(v) for v in value)
    return value


def _decision(chosen: Mapping[int, Action]) -> dict[str, Any]:
    return {"by": {str(p): [a.kind, to_data(a.args)] for p, a in sorted(chosen.items())},
            "text": {str(p): str(a) for p, a in sorted(chosen.items())}}


def _find(state: State, player: int, kind: str, args: tuple[Any, ...]) -> Action:
    for action in state.legal_actions(player):
        if action.kind == kind and action.args == args:
            return action
    # Some engines accept moves they do not list (seth's free damage splits); apply checks them.
    return Action(kind, args)


# ------------------------------------------------------------------ replaying


@dataclass
class Position:
    """A table replayed up to some decision: the engine state and where each decision began."""

    engine: Engine
    state: State
    step: int
    log_marks: list[int] = field(default_factory=list)
    """``log_marks[i]``: the number of log lines before decision ``i`` (one more entry at the end)."""
    turns: list[Any] = field(default_factory=list)
    """``turns[i]``: the turn (or round) at which decision ``i`` was taken (one more at the end)."""


def decks_of(table: Mapping[str, Any]) -> list[dict[str, list[dict[str, Any]]]]:
    """The seats' decks resolved from the table's kept card data (zone -> one mapping per copy)."""
    cards = table["card_data"]

    def resolve(zones: Mapping[str, Mapping[str, int]]) -> dict[str, list[dict[str, Any]]]:
        check_deck_counts(zones, "the table's deck")  # a kept file: capped before expanding (TooMany)
        return {zone: [dict(cards[cid], id=cid) for cid, n in content.items() for _ in range(int(n))]
                for zone, content in zones.items()}

    return [resolve(zones) for zones in table["deck_lists"]]


def replay(table: Mapping[str, Any], upto: int | None = None, *, track: bool = False) -> Position:
    """The position after the first ``upto`` decisions (all when None), rebuilt from the seed.

    ``track`` also records the log length and turn before every decision (for replays and the undo
    list). A tracked replay starts from this process's kept position of the table when that is a
    beginning of the same game (:mod:`~workbench.services.table_positions`), and keeps the one it
    reaches. Raises TableError when a kept decision no longer applies (an engine changed its rules).
    """
    actions = table["actions"] if upto is None else table["actions"][:upto]
    key = table_positions.fingerprint(table)
    kept = table_positions.POSITIONS.usable(table, key, len(actions))
    if kept is not None:
        position = Position(kept.engine, kept.state.clone(), len(kept.decisions))
        if track:
            position.log_marks = list(kept.log_marks[:-1])  # the last mark is written again below
            position.turns = list(kept.turns[:-1])
    else:
        engine = resolve_engine(str(table["engine"]))
        options = dict(table["options"])
        options["_log"] = True
        if isinstance(options.get("_deck_seeds"), list):
            options["_deck_seeds"] = tuple(options["_deck_seeds"])
        position = Position(engine, engine.new_seated(decks_of(table), options, int(table["seed"])), 0)
    engine, state = position.engine, position.state
    for i in range(position.step, len(actions)):
        decision = actions[i]
        if track:
            position.log_marks.append(len(state.log))
            position.turns.append(turn_of(engine, state))
        try:
            chosen = {int(p): _find(state, int(p), str(kind), from_data(args)) for p, (kind, args) in decision["by"].items()}
            if len(chosen) == 1 and len(state.to_act()) == 1:
                state.apply(next(iter(chosen.values())))
            else:
                state.apply_joint(chosen)
        except (IllegalAction, KeyError, ValueError, TypeError) as exc:
            raise TableError(f"decision {i + 1} of this game no longer applies ({exc}); "
                             "the engine's rules changed since it was played") from None
        position.step = i + 1
    if track:
        position.log_marks.append(len(state.log))
        position.turns.append(turn_of(engine, state))
        _keep(table, position, key)
    return position


def _keep(table: Mapping[str, Any], position: Position, key: str | None = None) -> None:
    """Keep a copy of the tracked ``position`` of ``table`` (after its first ``position.step``
    decisions) for the next request: the caller may play on the position it has. An engine whose
    states cannot be copied (``clone`` not implemented: a new game's first engine may have no
    look-ahead) keeps nothing, and its tables replay from the seed."""
    try:
        copy = position.state.clone()
    except NotImplementedError:
        return
    table_positions.POSITIONS.keep(table, table_positions.KeptPosition(
        key or table_positions.fingerprint(table), tuple(table["actions"][:position.step]), position.engine,
        copy, tuple(position.log_marks), tuple(position.turns)))


def forget_position(table_id: str) -> None:
    """Drop this process's kept position of a table (it was deleted)."""
    table_positions.POSITIONS.forget(table_id)


def turn_of(engine: Engine, state: State) -> Any:
    """The turn (or round) number the game is in, from the engine's snapshot."""
    if engine.snapshot is None:
        return None
    snap = engine.snapshot(state)
    return snap.get("turn", snap.get("round"))


def agent_choice(table: Mapping[str, Any], position: Position, seat: int) -> Action:
    """What the AI in ``seat`` chooses now; seeded by the decision number, so a replay, an undo or
    another server process gets the same choice in the same position."""
    name = str(table["seats"][seat]["player"])
    agent = position.engine.agents[name](derive_seed(int(table["seed"]), "agent", seat, position.step))
    return agent.choose(position.state, seat)


# ------------------------------------------------------------------ playing


def _humans(table: Mapping[str, Any]) -> set[int]:
    return {s for s, seat in enumerate(table["seats"]) if seat["player"] == HUMAN}


def _check_step(table: Mapping[str, Any], expect: int | None) -> None:
    if expect is not None and int(expect) != len(table["actions"]):
        raise StaleTable(f"the page shows decision {expect} but the game is at decision {len(table['actions'])}")


def _record(table: dict[str, Any], position: Position, chosen: Mapping[int, Action]) -> None:
    state = position.state
    if len(chosen) == 1 and len(state.to_act()) == 1:
        state.apply(next(iter(chosen.values())))
    else:
        state.apply_joint(chosen)
    position.step += 1
    table["actions"].append(_decision(chosen))
    table["pending"] = {}
    table["updated"] = _now()
    table["result"] = _result_data(table, state) if state.is_terminal() else None
    if position.log_marks:  # a tracked position stays one: the log and turn after this decision
        position.log_marks.append(len(state.log))
        position.turns.append(turn_of(position.engine, state))
        _keep(table, position)  # the next request starts here


def human_move(table: dict[str, Any], seat: int, index: int, kind: str | None = None,
               expect: int | None = None, args: Any = None) -> Position:
    """Apply the move ``index`` of ``seat``'s legal moves (checked against ``kind``), or the move
    ``kind`` with ``args`` (a free-form move the engine checks, e.g. a damage split).

    In a simultaneous step the AI seats choose now, without knowing this choice; a second person's
    choice waits in ``pending`` (hidden from the first) until both have chosen. Returns the table's
    position after the move (tracked, as ``replay(table, track=True)`` gives it). Raises TableError.
    """
    if table.get("kind") == "replay":
        raise TableError("a replay cannot be played; take it over first")
    _check_step(table, expect)
    if seat not in _humans(table):
        raise TableError(f"seat {seat + 1} is not played by a person at this table")
    position = replay(table, track=True)  # tracked: the page's view is drawn from it afterwards
    state = position.state
    acting = state.to_act()
    if seat not in acting:
        raise TableError("it is not your move" if acting else "the game is over")
    if str(seat) in (table.get("pending") or {}):
        raise TableError("you have already chosen; waiting for the other player")
    if args is not None:
        if not kind:
            raise TableError("a free-form move needs its kind")
        action = Action(str(kind), from_data(args))
    else:
        legal = state.legal_actions(seat)
        if not 0 <= index < len(legal):
            raise TableError(f"there is no move {index} (there are {len(legal)})")
        action = legal[index]
        if kind is not None and action.kind != kind:
            raise StaleTable(f"move {index} is {action.kind!r} now, not {kind!r}")
    if len(acting) == 1:
        try:
            _record(table, position, {seat: action})
        except IllegalAction as exc:
            raise TableError(f"that move is not legal: {exc}") from None
        return position
    pending = {int(p): v for p, v in (table.get("pending") or {}).items()}
    chosen: dict[int, Action] = {int(p): _find(state, int(p), str(k), from_data(a)) for p, (k, a) in pending.items()}
    chosen[seat] = action
    for other in acting:
        if other not in chosen and other not in _humans(table):
            chosen[other] = agent_choice(table, position, other)
    if set(chosen) == set(acting):
        try:
            _record(table, position, chosen)
        except IllegalAction as exc:
            raise TableError(f"that move is not legal: {exc}") from None
    else:
        # Check the choice alone is legal before keeping it (so the other player is not kept waiting on a bad one).
        if args is not None and not any(a.kind == action.kind and a.args == action.args for a in state.legal_actions(seat)):
            probe = state.clone()
            trial = dict(chosen)
            for other in acting:
                trial.setdefault(other, state.legal_actions(other)[0])
            try:
                probe.apply_joint(trial)
            except IllegalAction as exc:
                raise TableError(f"that move is not legal: {exc}") from None
        table.setdefault("pending", {})[str(seat)] = [action.kind, to_data(action.args)]
        table["updated"] = _now()
    return position


def ai_move(table: dict[str, Any], expect: int | None = None) -> Position:
    """Let the AI seats take the next decision when it is theirs alone; returns the table's position
    after it (tracked, as ``replay(table, track=True)`` gives it). Raises TableError."""
    if table.get("kind") == "replay":
        raise TableError("a replay cannot be played; take it over first")
    _check_step(table, expect)
    position = replay(table, track=True)  # tracked: the page's view is drawn from it afterwards
    acting = position.state.to_act()
    if not acting:
        raise TableError("the game is over")
    if any(p in _humans(table) for p in acting):
        raise TableError("a person is to move")
    chosen = {p: agent_choice(table, position, p) for p in acting}
    _record(table, position, chosen)
    return position


def undo_to(table: dict[str, Any], step: int) -> None:
    """Go back to just before decision ``step`` (0: the start, same seed). Raises TableError."""
    if table.get("kind") == "replay":
        raise TableError("a replay cannot be changed; take it over first")
    if not 0 <= step <= len(table["actions"]):
        raise TableError(f"step {step} is not between 0 and {len(table['actions'])}")
    del table["actions"][step:]
    table["pending"] = {}
    table["updated"] = _now()
    table["result"] = None
    if step:
        state = replay(table).state
        table["result"] = _result_data(table, state) if state.is_terminal() else None


def _result_data(table: Mapping[str, Any], state: State) -> dict[str, Any]:
    result = state.result()
    winner = result.winner
    return {"winner": winner, "draw": winner is None, "reason": result.reason, "turns": result.turns,
            "winner_name": None if winner is None else seat_labels(table)[winner]}


# ------------------------------------------------------------------ what a seat sees


def seat_labels(table: Mapping[str, Any], say: Say | None = None) -> list[str]:
    """The deck names of the seats (with the seat when two decks have the same name)."""
    say = say or english
    names = [str((s.get("deck") or {}).get("name") or (s.get("deck") or {}).get("id") or say(N_("Player %(n)s"), n=i + 1))
             for i, s in enumerate(table["seats"])]
    if len(set(names)) < len(names):
        names = [say(N_("%(deck)s (seat %(n)s)"), deck=name, n=i + 1) if names.count(name) > 1 else name
                 for i, name in enumerate(names)]
    return names


def instance_cards(engine_name: str, state: State) -> dict[str, str]:
    """Instance name (as the snapshot and the action arguments write it) -> card id.

    Known for the bundled engines; for a new engine :func:`view` reads a top-level ``cards``
    mapping (instance -> card id) of its snapshot, entries with a ``card`` key, and names equal
    to card ids.
    """
    found: dict[str, str] = {}
    if engine_name == "warzone" and hasattr(state, "p"):
        for pl in state.p:  # type: ignore[attr-defined]
            for zone in (pl.deck, pl.hand, pl.pile, pl.discard, pl.exiled):
                for c in zone:
                    found[c.iid] = c.id
            for c, *_turn in getattr(pl, "traps", ()):  # set traps: (card, turn set)
                found[c.iid] = c.id
            for u in pl.field:
                found[u.iid] = u.card.id
            for a in pl.areas:
                if a is not None:
                    found[a.iid] = a.id
    elif engine_name == "seth" and hasattr(state, "teams"):
        for team in state.teams:  # type: ignore[attr-defined]
            for m in team:
                found[m.name] = m.card.id
    elif engine_name == "fusion" and hasattr(state, "names"):
        for i, name in enumerate(state.names):  # type: ignore[attr-defined]
            found[name] = state.cards[i].id  # type: ignore[attr-defined]
    return found


HIDDEN_ZONE_WORDS = ("deck", "library", "draw_pile")
"""Zones whose order nobody sees: shown as a count only."""
PRIVATE_ZONES = ("hand",)
"""Zones only their owner sees (a replay or a finished game shows them to everyone)."""
FLAG_KEYS = ("tapped", "face_down", "sick", "assigned", "attacked", "flight")
FACE_DOWN_PUBLIC = ("class", "position", "damage", "tapped", "attacked")
"""What the opponent still sees of a face-down card on the table: where it lies and what it went through."""
SKIP_STAT_KEYS = {"alive"}


def _labels(key: str) -> str:
    return key.replace("_count", "").replace("_", " ").capitalize()


@dataclass
class _Cards:
    """Instance bookkeeping for one view: card ids, names, who owns what, what is hidden."""

    ids: dict[str, str]
    names: dict[str, str]
    owner: dict[str, int] = field(default_factory=dict)
    hidden: set[str] = field(default_factory=set)
    face_down: set[str] = field(default_factory=set)
    zone: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    say: Say | None = None

    def unseen(self, inst: str) -> str:
        """How a hidden card is named: a face-down card on the table, else "a card"."""
        say = self.say or english
        return say(N_("a face-down card")) if inst in self.face_down else say(N_("a card"))


def view(
    table: Mapping[str, Any],
    position: Position,
    seat: int | None,
    *,
    reveal: bool = False,
    face_url: Any = None,
    say: Say | None = None,
    engine_text: Callable[[str], str] | None = None,
) -> dict[str, Any]:
    """What ``seat`` sees at ``position`` (``seat`` None with ``reveal``: a replay, both hands shown).

    ``face_url(card_id)`` gives the rendered face's URL (or None). Returns plain data: ``board``
    (players with stats and zones of cards), ``moves`` (the seat's legal moves, when it is to act),
    ``log`` (plain-words lines), ``status``, ``result``, ``to_act`` and the step.

    The words are English unless the caller passes its own: ``say(message, **values)`` for the
    table's messages (marked ``N_`` here, gettext-compatible) and ``engine_text(line)`` for what
    the engine wrote (log lines, moves, end reasons), applied before instance ids become names.
    """
    say = say or english
    engine_text = engine_text or as_written
    engine, state = position.engine, position.state
    snap = engine.snapshot(state) if engine.snapshot else {}
    labels = seat_labels(table, say)
    card_data = table["card_data"]
    ids = instance_cards(str(table["engine"]), state)
    named = snap.get("cards")  # a new engine may name its instances' cards in its snapshot
    if isinstance(named, Mapping):
        ids.update({str(k): str(v) for k, v in named.items() if isinstance(v, str)})
    names = {inst: str((card_data.get(cid) or {}).get("name", cid)) for inst, cid in ids.items()}
    for cid, data in card_data.items():
        names.setdefault(cid, str(data.get("name", cid)))
        ids.setdefault(cid, cid)
    cards = _Cards(ids, names, say=say)
    over = state.is_terminal()
    show_all = reveal or over
    seen = None if show_all or seat is None else observed_names(state, seat)
    players = []
    for p, psnap in enumerate(snap.get("players") or []):
        players.append(_player_view(p, psnap, cards, mine=(seat == p), show_all=show_all, face_url=face_url,
                                    label=labels[p], player=str(table["seats"][p]["player"]), seen=seen))
    _assign_labels(cards, players)
    acting = list(state.to_act())
    pending = table.get("pending") or {}
    moves: list[dict[str, Any]] = []
    if seat is not None and seat in acting and not reveal and str(seat) not in pending and table.get("kind") != "replay":
        for i, action in enumerate(state.legal_actions(seat)):
            moves.append(_move(i, action, cards, labels, engine_text))
        by_card: dict[str, list[int]] = {}
        for m in moves:
            for inst in m["cards"]:
                by_card.setdefault(inst, []).append(m["index"])
        for pv in players:
            for zone in pv["zones"]:
                for c in zone["cards"]:
                    if c.get("inst") in by_card:
                        c["moves"] = by_card[c["inst"]]
    split = None
    if moves and any(m["kind"] in ("split", "focus") for m in moves) and seat is not None:
        psnap = (snap.get("players") or [{}])[seat]
        total, targets = psnap.get("total"), psnap.get("targets")
        if isinstance(total, Mapping) and total and isinstance(targets, list) and targets:
            # A free split of damage among targets (seth §2.3): the engine checks the sums.
            split = {"total": {str(k): int(v) for k, v in total.items()},
                     "targets": [{"inst": t, "label": cards.labels.get(t, cards.names.get(t, t))} for t in targets]}
    log = [plain(engine_text(line), cards, labels) for line in state.log]
    shared = {k: v for k, v in snap.items() if k not in ("players", "to_act", "terminal", "result", "cards")}
    chain = [
        {"player": labels[int(link.get("player", 0))], "card": cards.names.get(str(link.get("instance") or link.get("card")), ""),
         "negated": bool(link.get("negated"))}
        for link in (snap.get("chain") or []) if isinstance(link, Mapping)
    ]
    attacks = [
        {"attacker": cards.labels.get(str(a.get("attacker")), str(a.get("attacker"))),
         "target": (_player_label(a.get("target"), cards.owner.get(str(a.get("attacker")), 0), labels)
                    if a.get("target") not in cards.ids else _card_label(cards, str(a.get("target")))),
         "blockers": [cards.labels.get(str(b), str(b)) for b in a.get("blockers") or []]}
        for a in (snap.get("attacks") or []) if isinstance(a, Mapping)
    ]
    result = table.get("result") if over else None
    if over and result is None:
        result = _result_data(table, state)
    if result:
        result = dict(result, reason=plain(engine_text(str(result.get("reason", ""))), cards, labels),
                      winner_name=None if result.get("winner") is None else labels[int(result["winner"])])
    return {
        "step": position.step,
        "decisions": len(table["actions"]),
        "seat": seat,
        "labels": labels,
        "players_kind": [str(s["player"]) for s in table["seats"]],
        "to_act": acting,
        "waiting_for": [p for p in acting if str(p) not in pending],
        "chosen": sorted(int(p) for p in pending),
        "over": over,
        "result": result,
        "turn": snap.get("turn", snap.get("round")),
        "turn_label": say(N_("Turn")) if "turn" in snap or "round" not in snap else say(N_("Round")),
        "phase": " · ".join(str(snap[k]) for k in ("phase", "step") if snap.get(k) not in (None, "")),
        "board": {"players": players, "chain": chain, "attacks": attacks,
                  "pending": _pending_text(snap.get("pending"), cards, labels, say)},
        "shared": {k: v for k, v in shared.items() if isinstance(v, (int, str, float, bool)) or v is None},
        "moves": moves,
        "split": split,
        "log": log,
        "status": _status(table, acting, pending, seat, over, result, labels, reveal, say),
        "undo": _undo_points(table, position, seat, cards, labels, engine_text, say) if position.turns and not reveal else [],
    }


def _player_label(target: Any, attacker_seat: int, labels: Sequence[str]) -> str:
    """An attack on a player: ``p2`` (three or more players) names the seat, anything else (two
    players' ``player``) the attacker's opponent."""
    text = str(target)
    if len(text) == 2 and text[0] == "p" and text[1].isdigit() and int(text[1]) < len(labels):
        return labels[int(text[1])]
    return labels[1 - attacker_seat] if len(labels) == 2 else text


def observed_names(state: State, seat: int) -> set[str] | None:
    """Every name in what ``seat`` may know (``State.observe``), or None when the engine does not
    say: then the table hides the opponent's hand and face-down cards by itself."""
    try:
        observation = state.observe(seat)
    except NotImplementedError:
        return None
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, Mapping):
            for k, v in value.items():
                walk(k)
                walk(v)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for v in value:
                walk(v)

    walk(observation.public)
    walk(observation.private)
    return found


def _player_view(p: int, psnap: Mapping[str, Any], cards: _Cards, *, mine: bool, show_all: bool,
                 face_url: Any, label: str, player: str, seen: set[str] | None = None) -> dict[str, Any]:
    zones: list[dict[str, Any]] = []
    stats: list[dict[str, Any]] = []
    counts = {k[: -len("_count")]: v for k, v in psnap.items() if k.endswith("_count") and isinstance(v, int)}
    for key, value in psnap.items():
        if key.endswith("_count") or key in SKIP_STAT_KEYS:
            continue
        if isinstance(value, (bool, int, float, str)) or value is None:
            if not isinstance(value, bool) and value is not None:  # None: nothing to show yet (a place)
                stats.append({"key": key, "label": _labels(key), "value": value})
            continue
        if isinstance(value, Mapping) and value and all(isinstance(v, Mapping) for v in value.values()) \
                and any(k in cards.ids or "card" in v for k, v in value.items()):
            entries = [(str(k), dict(v)) for k, v in value.items()]
        elif isinstance(value, list) and value and all(isinstance(v, str) or v is None for v in value) \
                and any(v in cards.ids for v in value if v):
            entries = [(v, {}) if v else (None, None) for v in value]  # type: ignore[misc]
        elif isinstance(value, list) and not value:
            entries = []
        elif isinstance(value, Mapping) and not value:
            entries = []
        else:
            continue
        secret = any(w in key for w in HIDDEN_ZONE_WORDS)
        private = key in PRIVATE_ZONES and not mine and not show_all
        zone_cards: list[dict[str, Any]] = []
        for inst, attrs in entries:
            if inst is None:
                zone_cards.append({"empty": True})
                continue
            card_id = str((attrs or {}).get("card") or cards.ids.get(inst) or inst)
            cards.ids.setdefault(inst, card_id)
            cards.owner[inst] = p
            cards.zone[inst] = key
            face_down = bool((attrs or {}).get("face_down"))
            hidden = secret or private or (face_down and not mine and not show_all)
            if seen is not None and inst not in seen:  # the engine's observe() does not show it to this seat
                hidden = True
            if hidden:
                cards.hidden.add(inst)
                if face_down:
                    cards.face_down.add(inst)
                back: dict[str, Any] = {"hidden": True, "face_down": face_down}
                if face_down and not secret and not private:
                    public = {k: v for k, v in (attrs or {}).items() if k in FACE_DOWN_PUBLIC and not isinstance(v, (dict, list))}
                    if public:
                        back["attrs"] = public
                zone_cards.append(back)
                continue
            flags = [f.replace("_", " ") for f in FLAG_KEYS if (attrs or {}).get(f) is True]
            shown = {k: v for k, v in (attrs or {}).items()
                     if k not in FLAG_KEYS and k not in ("card", "name") and isinstance(v, (int, float, str))
                     and not isinstance(v, bool)}
            zone_cards.append({
                "inst": inst, "card_id": card_id, "name": cards.names.get(inst) or cards.names.get(card_id, card_id),
                "face": face_url(card_id) if face_url else None, "attrs": shown, "flags": flags,
                "alive": (attrs or {}).get("alive", True), "moves": [],
            })
        count = counts.get(key, len(entries))
        zones.append({"key": key, "label": _labels(key), "cards": [] if secret else zone_cards,
                      "count": count, "secret": secret, "private": private})
    return {"seat": p, "label": label, "player": player, "you": mine, "stats": stats,
            "zones": zones, "zone": {z["key"]: z for z in zones}}


def _assign_labels(cards: _Cards, players: Sequence[Mapping[str, Any]]) -> None:
    """Card names for moves and logs; copies of one card in one zone get (1), (2) …"""
    seen: dict[tuple[int, str, str], list[str]] = {}
    for inst, owner in cards.owner.items():
        if inst in cards.hidden:
            continue
        seen.setdefault((owner, cards.zone.get(inst, ""), cards.names.get(inst, inst)), []).append(inst)
    for (_owner, _zone, name), insts in seen.items():
        if len(insts) == 1:
            cards.labels[insts[0]] = name
        else:
            for n, inst in enumerate(sorted(insts, key=_natural), 1):
                cards.labels[inst] = f"{name} ({n})"
    for pv in players:
        for zone in pv["zones"]:
            for c in zone["cards"]:
                if c.get("inst"):
                    c["label"] = cards.labels.get(c["inst"], c["name"])
                for key, value in (c.get("attrs") or {}).items():
                    if isinstance(value, str) and value in cards.owner:  # e.g. fusion's attached_to
                        c["attrs"][key] = (english if cards.say is None else cards.say)(N_("a face-down card")) \
                            if value in cards.hidden else cards.labels.get(value, value)


def _card_label(cards: _Cards, inst: str) -> str:
    """A card on the table by name, or as the hidden card it is (a face-down blocker, say)."""
    if inst in cards.hidden:
        return cards.unseen(inst)
    return cards.labels.get(inst) or cards.names.get(inst, inst)


def _natural(text: str) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", text)]


_TAG = re.compile(r" ?\((?P<inst>[A-Za-z0-9][A-Za-z0-9_-]*)(?P<extra>, [^)]*)?\)")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_PLAYER = re.compile(r"\bP([1-4])\b")
_EFFECT = re.compile(r"\b[Ee]ffect (\d+)")
_HASH_EFFECT = re.compile(r"#(\d+)\b")


def plain(text: str, cards: _Cards, labels: Sequence[str], *, effects: bool = True) -> str:
    """A log line or move text in plain words: card names for instance ids (hidden cards as "a
    face-down card" / "a card"), deck names for P1/P2, effects counted from 1."""

    def label(inst: str) -> str:
        if inst in cards.hidden:
            return cards.unseen(inst)
        return cards.labels.get(inst) or cards.names.get(inst, inst)

    out: list[str] = []
    pos = 0
    for m in _TAG.finditer(text):
        inst = m.group("inst")
        if inst not in cards.ids or inst == cards.ids.get(inst) and inst not in cards.owner:
            continue
        prefix = text[pos:m.start()]
        name = cards.names.get(inst, "")
        if name and prefix.endswith(name):
            prefix = prefix[: -len(name)]
        extra = m.group("extra") or ""
        shown = label(inst)
        if extra and inst not in cards.hidden:
            shown += f" ({extra[2:]})"
        out.append(prefix + shown)
        pos = m.end()
    out.append(text[pos:])
    text = "".join(out)
    text = _WORD.sub(lambda m: label(m.group(0)) if m.group(0) in cards.owner else m.group(0), text)
    text = _PLAYER.sub(lambda m: labels[int(m.group(1)) - 1] if int(m.group(1)) <= len(labels) else m.group(0), text)
    if effects:
        text = _EFFECT.sub(lambda m: f"Effect {int(m.group(1)) + 1}", text)
        text = _HASH_EFFECT.sub(lambda m: f"Effect {int(m.group(1)) + 1}", text)
    return text


def _flat(args: Iterable[Any]) -> Iterable[Any]:
    for a in args:
        if isinstance(a, (tuple, list)):
            yield from _flat(a)
        else:
            yield a


def _move(index: int, action: Action, cards: _Cards, labels: Sequence[str],
          engine_text: Callable[[str], str] | None = None) -> dict[str, Any]:
    insts = []
    for a in _flat(action.args):
        if isinstance(a, str) and a in cards.owner and a not in insts and a not in cards.hidden:
            insts.append(a)
    text = plain((engine_text or as_written)(str(action)), cards, labels)
    return {"index": index, "kind": action.kind, "text": text[:1].upper() + text[1:], "cards": insts}


def _pending_text(pending: Any, cards: _Cards, labels: Sequence[str], say: Say | None = None) -> str | None:
    """What the game waits for, in words (warzone's ``pending``: a defence, a chain, a target)."""
    if not isinstance(pending, Mapping):
        return None
    say = say or english

    def name(value: Any) -> str:
        text = str(value)
        if text in cards.hidden:
            return say(N_("a face-down card"))
        return cards.labels.get(text) or cards.names.get(text, text)

    kind = str(pending.get("kind", ""))
    if kind == "defend":
        target = pending.get("target")
        if target in (None, "direct"):
            return say(N_("%(attacker)s attacks directly: intercept, answer or let it through"),
                       attacker=name(pending.get("attacker")))
        return say(N_("%(attacker)s attacks %(target)s: intercept, answer or let it through"),
                   attacker=name(pending.get("attacker")), target=name(target))
    if kind == "chain":
        links = [say(N_("%(player)s's %(card)s"), player=labels[int(link.get("player", 0))], card=name(link.get("card")))
                 if str(link.get("kind")) != "attack"
                 else say(N_("%(player)s's attack"), player=labels[int(link.get("player", 0))])
                 for link in pending.get("links") or [] if isinstance(link, Mapping)]
        who = labels[int(pending["player"])] if isinstance(pending.get("player"), int) else say(N_("a player"))
        return say(N_("Chain: %(links)s — %(player)s may answer or let it resolve"),
                   links=say(N_(", ")).join(links) or say(N_("empty")), player=who)
    if kind == "target":
        return say(N_("%(card)s: choose a target"), card=name(pending.get("card")))
    if kind == "ask" and isinstance(pending.get("player"), int):  # a resolving effect asks (effects.asks)
        what = {"mode": N_("%(card)s: %(player)s chooses a mode"), "target": N_("%(card)s: %(player)s chooses a target"),
                "unless": N_("%(card)s: %(player)s decides whether to pay"),
                "arrange": N_("%(card)s: %(player)s orders the top cards of its deck"),
                "pick": N_("%(card)s: %(player)s chooses a card")}.get(str(pending.get("ask")), N_("%(card)s: %(player)s decides"))
        return say(what, card=pending.get("card"), player=labels[int(pending["player"])])
    if kind == "areas" and isinstance(pending.get("player"), int):  # warzone's start of game
        return say(N_("%(player)s places its Areas, one in each row (§1.3.2)"), player=labels[int(pending["player"])])
    if kind == "heal" and isinstance(pending.get("player"), int):  # a heal trigger's Damage Card
        return say(N_("%(player)s's heal trigger: choose a card of its Damage Pile to move to its Discard Pile "
                      "(§1.12.5)"), player=labels[int(pending["player"])])
    if isinstance(pending.get("player"), int):
        return f"{labels[int(pending['player'])]}: {kind}"
    return kind or None


def _status(table: Mapping[str, Any], acting: Sequence[int], pending: Mapping[str, Any], seat: int | None,
            over: bool, result: Mapping[str, Any] | None, labels: Sequence[str], reveal: bool,
            say: Say | None = None) -> str:
    say = say or english
    comma, both = say(N_(", ")), say(N_(" and "))
    if over and result:
        if result.get("draw"):
            return say(N_("Game over: a draw after %(turns)s turns — %(reason)s."), turns=result.get("turns"),
                       reason=result.get("reason"))
        return say(N_("Game over: %(winner)s won after %(turns)s turns — %(reason)s."),
                   winner=labels[int(result["winner"])], turns=result.get("turns"), reason=result.get("reason"))
    if reveal or table.get("kind") == "replay":
        return say(N_("Replay: %(players)s to move."), players=both.join(labels[p] for p in acting))
    players = [str(s["player"]) for s in table["seats"]]
    waiting = [p for p in acting if str(p) not in pending]
    if seat is not None and seat in waiting:
        if len(acting) > 1:
            return say(N_("Your move (%(player)s): choose without seeing the other choice."), player=labels[seat])
        return say(N_("Your move (%(player)s)."), player=labels[seat])
    if seat is not None and str(seat) in pending:
        return say(N_("You have chosen; waiting for %(players)s."), players=comma.join(labels[p] for p in waiting))
    ai = [p for p in waiting if players[p] != HUMAN]
    if ai:
        return say(N_("%(players)s (AI) is choosing…"), players=comma.join(labels[p] for p in ai))
    return say(N_("%(players)s to move."), players=comma.join(labels[p] for p in waiting))


def next_human(table: Mapping[str, Any], position: Position) -> int | None:
    """The seat of the person who should look at the screen now (hot-seat), or None."""
    pending = table.get("pending") or {}
    for p in position.state.to_act():
        if table["seats"][p]["player"] == HUMAN and str(p) not in pending:
            return p
    return None


def _undo_points(table: Mapping[str, Any], position: Position, seat: int | None, cards: _Cards,
                 labels: Sequence[str], engine_text: Callable[[str], str] | None = None,
                 say: Say | None = None) -> list[dict[str, Any]]:
    """Earlier decisions of the people at the table, newest first (step, turn, what was chosen), for
    the undo list; with one person, only their own moves (an AI move is undone with the move before it)."""
    humans = _humans(table)
    points = []
    for i, decision in enumerate(table["actions"]):
        mine = [p for p in decision["by"] if int(p) in humans and (seat is None or int(p) == seat or len(humans) == 2)]
        if not mine:
            continue
        texts = decision.get("text") or {}
        text = (say or english)(N_("; ")).join(plain((engine_text or as_written)(str(texts.get(p, ""))), cards, labels)
                                              for p in mine)
        points.append({"step": i, "who": (say or english)(N_(" and ")).join(labels[int(p)] for p in mine),
                       "text": text[:1].upper() + text[1:],
                       "turn": position.turns[i] if i < len(position.turns) else None})
    points.reverse()
    return points
