"""The game table (``/games/<game>/play``): play against the AI or hot-seat, undo, restart, resume,
and replays of playtest games on the same board (:mod:`workbench.services.table`).

Every change is a POST with the CSRF token; GETs only replay the kept decisions (milliseconds).
A table belongs to the user who started it (team mode): others get a 404. Viewers may play.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext
from jinja2 import Template
from werkzeug.exceptions import TooManyRequests

from workbench.domain.errors import NotFound, WorkbenchError
from workbench.services import table as tables
from workbench.services.playtest.runner import resolve_engine
from workbench.storage.playtest_runs import RunStore, check_run_id
from workbench.storage.table_games import TableStore, check_table_id
from workbench.web import get_repo
from workbench.web.auth import current_user_name
from workbench.web.game_text import engine_line_reader, phase_text, stat_label, zone_label
from workbench.web.replay_slots import RETRY_AFTER_SECONDS, ReplaysBusy, replay_slot, table_slot
from workbench.web.ui import face_url

bp = Blueprint("play", __name__)

MAX_SEED = 2**62


def _game_or_404(game: str) -> Any:
    try:
        return get_repo().game(game)
    except WorkbenchError:
        abort(404, description=f"no game {game!r}")


def _store() -> TableStore:
    return TableStore(get_repo())


def _table_or_404(game: str, table_id: str) -> dict[str, Any]:
    try:
        check_table_id(table_id)
        table = _store().get(game, table_id)
    except WorkbenchError:
        abort(404, description=f"no table {table_id!r}")
    if table.get("owner") != current_user_name():
        abort(404, description=f"no table {table_id!r}")  # another user's game: not even its existence
    return table


def _engine_or_404(definition: Any) -> Any:
    if not definition.engine:
        abort(404, description=f"game {definition.id!r} names no engine, so it has no table")
    try:
        return resolve_engine(definition.engine)
    except WorkbenchError as exc:
        abort(404, description=str(exc))


_ENGINE_BOARDS: dict[tuple[str, int], Template] = {}


def _engine_board(definition: Any) -> Template | None:
    """The layout an engine package ships (``Engine.board_template``), read again when it changes."""
    try:
        engine = resolve_engine(definition.engine) if definition.engine else None
    except WorkbenchError:
        return None
    path = getattr(engine, "board_template", None)
    if not path:
        return None
    file = Path(path)
    try:
        key = (str(file), file.stat().st_mtime_ns)
        if key not in _ENGINE_BOARDS:
            _ENGINE_BOARDS[key] = current_app.jinja_env.from_string(file.read_text(encoding="utf-8"))
    except OSError:  # a layout the engine names but did not ship: the templates below lay it out
        return None
    return _ENGINE_BOARDS[key]


def _board_templates(definition: Any) -> list[str | Template]:
    """The board layout: the engine package's own (``Engine.board_template``), else
    ``play/boards/<game>.html``, else ``<engine>.html``, else the generic one."""
    names: list[str | Template] = [f"play/boards/{definition.id}.html", f"play/boards/{definition.engine}.html",
                                   "play/boards/generic.html"]
    board = _engine_board(definition)
    return ([board] if board is not None else []) + names


def _viewer(table: dict[str, Any], position: tables.Position, asked: Any) -> tuple[int | None, bool]:
    """(seat to show, reveal all). A replay shows everything; otherwise a person's seat only: with
    one person at the table, theirs; hot-seat, the asked seat or whoever is to move."""
    if table.get("kind") == "replay":
        return None, True
    humans = [s for s, seat in enumerate(table["seats"]) if seat["player"] == tables.HUMAN]
    if not humans:
        return None, True
    if len(humans) == 1:
        return humans[0], False
    try:
        seat = int(asked)
    except (TypeError, ValueError):
        seat = -1
    if seat in humans:
        return seat, False
    nxt = tables.next_human(table, position)
    return (nxt if nxt is not None else humans[0]), False


def _payload(definition: Any, table: dict[str, Any], position: tables.Position, seat: int | None,
             reveal: bool) -> dict[str, Any]:
    game = definition.id
    data = tables.view(table, position, seat, reveal=reveal, face_url=lambda cid: face_url(game, cid),
                       say=gettext, engine_text=engine_line_reader())
    _in_words(data)
    data["board_html"] = render_template("play/_board.html", v=data, board_templates=_board_templates(definition),
                                         game=definition, card_data=table["card_data"])
    data["next_human"] = tables.next_human(table, position) if table.get("kind") != "replay" else None
    data["kind"] = table.get("kind", "game")
    data["id"] = table["id"]
    if table.get("kind") == "replay":  # the turn of every step, for "jump to turn"
        turns = table.get("turns")  # kept since the table was made (older tables: found again)
        if not isinstance(turns, list) or len(turns) != len(table["actions"]) + 1:
            turns = (position if position.step == len(table["actions"]) else _tracked(table)).turns
        data["turns"] = turns
    return data


def _in_words(data: dict[str, Any]) -> None:
    """The engine's zone, stat and phase names in the reader's language (the view keeps their keys)."""
    for player in data["board"]["players"]:
        for stat in player["stats"]:
            stat["label"] = stat_label(stat["key"], stat["label"])
        for zone in player["zones"]:
            zone["label"] = zone_label(zone["key"], zone["label"])
    data["phase"] = phase_text(data.get("phase"))


def _tracked(table: dict[str, Any], upto: int | None = None) -> tables.Position:
    try:
        return tables.replay(table, upto, track=True)
    except WorkbenchError as exc:
        abort(409, description=str(exc))


@bp.get("/games/<game>/play")
def index(game: str) -> str:
    """The table's set-up form (decks, opponent, seat, seed, format, options) and your games."""
    definition = _game_or_404(game)
    try:
        engine = resolve_engine(definition.engine) if definition.engine else None
    except WorkbenchError:
        engine = None
    decks, _ = get_repo().list_decks_tolerant(game)
    ids = [d.id for d in decks]
    form: dict[str, str] = {}
    chosen = request.args.get("deck", "")
    if chosen in ids:  # the deck builder's "Play with this deck": that deck is yours, another one the opponent's
        form = {"deck_you": chosen, "deck_opponent": next((i for i in ids if i != chosen), chosen)}
    return render_template(
        "play/index.html", game=definition, game_id=game, nav_active="Play",
        decks=[(d.id, str(d.data.get("name", d.id))) for d in decks],
        players=tables.player_choices(engine, gettext) if engine else [], no_engine=engine is None,
        formats=list(definition.formats.items()),
        options=list(definition.options.values()),
        saved=_store().list(game, current_user_name()),
        max_players=engine.max_players if engine else 2,
        error=None, form=form,
    )


@bp.post("/games/<game>/play")
def create(game: str) -> Any:
    """Start a new table from the form and open it."""
    definition = _game_or_404(game)
    engine = _engine_or_404(definition)
    form = request.form
    try:
        raw_seed = str(form.get("seed") or "").strip()
        if raw_seed:
            try:
                seed = int(raw_seed)
            except ValueError:
                raise WorkbenchError(gettext("the seed must be a whole number, not %(seed)s", seed=repr(raw_seed))) from None
            if not 0 <= seed < MAX_SEED:
                raise WorkbenchError(gettext("the seed must be 0 or more (and below 2⁶²)"))
        else:
            seed = random.SystemRandom().randrange(1_000_000_000)
        overrides = {}
        for name in definition.options:
            value = form.get(f"opt_{name}")
            if value not in (None, ""):
                definition.coerce_option(name, value)
                overrides[name] = value
        fmt = str(form.get("format") or "") or None
        seat = str(form.get("seat") or "first")
        you_first = seat == "first" if seat in ("first", "second") else random.SystemRandom().random() < 0.5
        store = _store()
        count = str(form.get("players") or "2")
        if not count.isdigit() or not 2 <= int(count) <= engine.max_players:
            raise WorkbenchError(f"{definition.name} seats 2 to {engine.max_players} players, not {count[:10]!r}")
        deck_opponent = str(form.get("deck_opponent") or "")
        # with three or four players: the other opponents' decks (empty: the opponent's deck)
        more = [str(form.get(f"deck_opponent_{k}") or "") or deck_opponent for k in range(2, int(count))]
        table = tables.new_table(
            get_repo(), game, str(form.get("deck_you") or ""), deck_opponent,
            opponent=str(form.get("opponent") or "random"), you_first=you_first, seed=seed,
            format_id=fmt, overrides=overrides, owner=current_user_name(), table_id=store.new_id(),
            more_opponents=more,
        )
        store.save(game, table)
    except WorkbenchError as exc:
        decks, _ = get_repo().list_decks_tolerant(game)
        return render_template(
            "play/index.html", game=definition, game_id=game, nav_active="Play",
            decks=[(d.id, str(d.data.get("name", d.id))) for d in decks],
            players=tables.player_choices(engine, gettext), formats=list(definition.formats.items()),
            options=list(definition.options.values()), saved=_store().list(game, current_user_name()),
            max_players=engine.max_players, error=str(exc), form=form,
        ), 400
    return redirect(url_for("play.table", game=game, table_id=table["id"]), code=303)


@bp.get("/games/<game>/play/<table_id>")
def table(game: str, table_id: str) -> str:
    """The table page: the board from your side, your legal moves, the log, undo and replay controls."""
    definition = _game_or_404(game)
    data = _table_or_404(game, table_id)
    upto = None
    if data.get("kind") == "replay":  # a replay opens at the start, or at ?step=
        upto = request.args.get("step", 0, type=int)
        upto = upto if 0 <= upto <= len(data["actions"]) else 0
    try:
        with table_slot(data):
            position = _tracked(data, upto)
            seat, reveal = _viewer(data, position, request.args.get("seat"))
            payload = _payload(definition, data, position, seat, reveal)
    except ReplaysBusy as exc:
        raise TooManyRequests(description=str(exc), retry_after=RETRY_AFTER_SECONDS) from None
    engine = _engine_or_404(definition)
    return render_template(
        "play/table.html", game=definition, game_id=game, nav_active="Play", t=data, v=payload,
        board_templates=_board_templates(definition), players=tables.player_choices(engine, gettext),
        hot_seat=all(s["player"] == tables.HUMAN for s in data["seats"]),
    )


@bp.get("/games/<game>/play/<table_id>/state")
def state(game: str, table_id: str) -> Response:
    """The view of one seat (``?seat=``) or, for a replay, of step ``?step=`` as JSON."""
    definition = _game_or_404(game)
    data = _table_or_404(game, table_id)
    upto = request.args.get("step", type=int) if data.get("kind") == "replay" else None
    if upto is not None and not 0 <= upto <= len(data["actions"]):  # JSON, as the table's script reads it
        return _json({"error": f"step must be between 0 and {len(data['actions'])}"}, 400)
    try:
        with table_slot(data):
            position = _tracked(data, upto)
            seat, reveal = _viewer(data, position, request.args.get("seat"))
            return jsonify(_payload(definition, data, position, seat, reveal))
    except ReplaysBusy as exc:
        return _busy(exc)


@bp.get("/games/<game>/play/<table_id>.json")
def download(game: str, table_id: str) -> Response:
    """The table file: seed, decks' cards, options and every decision (to check or replay elsewhere)."""
    _game_or_404(game)
    response = jsonify(_table_or_404(game, table_id))
    response.headers["Content-Disposition"] = f'attachment; filename="{game}-table-{table_id}.json"'
    return response


def _change(game: str, table_id: str, change: Any) -> Response:
    """Run ``change(table) -> (seat or None, position or None)`` under the table's lock, save, and
    answer with the new view: the view of that seat, drawn from the position the change played on
    (tracked), or from the table replayed when the change gives none (an undo)."""
    definition = _game_or_404(game)
    kept = _table_or_404(game, table_id)
    store = _store()
    body = request.get_json(silent=True) or {}
    try:
        with table_slot(kept), store.locked(game, table_id):
            data = _table_or_404(game, table_id)
            try:
                outcome = change(data, body)
            except tables.StaleTable as exc:
                position = _tracked(data)
                viewer, reveal = _viewer(data, position, body.get("seat"))
                answer = _payload(definition, data, position, viewer, reveal)
                answer["error"] = str(exc)
                return _json(answer, 409)
            except WorkbenchError as exc:
                return _json({"error": str(exc)}, 400)
            store.save(game, data)
            seat, moved = outcome
            position = moved if moved is not None else _tracked(data)
            viewer, reveal = _viewer(data, position, seat if seat is not None else body.get("seat"))
            return jsonify(_payload(definition, data, position, viewer, reveal))
    except ReplaysBusy as exc:
        return _busy(exc)


def _busy(exc: ReplaysBusy) -> Response:
    """429 with ``Retry-After`` and the limit named, as the table's script shows errors."""
    response = _json({"error": str(exc)}, 429)
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _json(data: dict[str, Any], status: int) -> Response:
    response = jsonify(data)
    response.status_code = status
    return response


def _int(body: dict[str, Any], key: str, default: int | None = None) -> int | None:
    value = body.get(key, default)
    if value is None:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise WorkbenchError(f"{key} must be a whole number") from None


@bp.post("/games/<game>/play/<table_id>/move")
def move(game: str, table_id: str) -> Response:
    """A person's move: JSON ``{seat, index, kind, expect}`` (``expect``: the decisions the page saw),
    or ``{seat, kind, args, expect}`` for a move the engine checks itself (seth's damage split)."""

    def change(data: dict[str, Any], body: dict[str, Any]) -> tuple[int, tables.Position]:
        seat = _int(body, "seat")
        if seat is None:
            raise WorkbenchError("say which seat moves")
        kind = body.get("kind")
        return seat, tables.human_move(data, seat, _int(body, "index", -1) or 0 if body.get("args") is None else -1,
                                       str(kind) if kind else None, _int(body, "expect"), body.get("args"))

    return _change(game, table_id, change)


@bp.post("/games/<game>/play/<table_id>/advance")
def advance(game: str, table_id: str) -> Response:
    """Let the AI take its next decision (the page calls this after a short delay, so it shows)."""

    def change(data: dict[str, Any], body: dict[str, Any]) -> tuple[None, tables.Position]:
        return None, tables.ai_move(data, _int(body, "expect"))

    return _change(game, table_id, change)


@bp.post("/games/<game>/play/<table_id>/undo")
def undo(game: str, table_id: str) -> Response:
    """Go back to just before decision ``{step}`` (the game replays from its seed); 0 restarts."""

    def change(data: dict[str, Any], body: dict[str, Any]) -> tuple[None, None]:
        step = _int(body, "step")
        if step is None:
            raise WorkbenchError("say which step to go back to")
        tables.undo_to(data, step)
        return None, None

    return _change(game, table_id, change)


@bp.post("/games/<game>/play/<table_id>/restart")
def restart(game: str, table_id: str) -> Response:
    """Start the same game again: same decks, options and seed, no decisions."""

    def change(data: dict[str, Any], body: dict[str, Any]) -> tuple[None, None]:
        tables.undo_to(data, 0)
        return None, None

    return _change(game, table_id, change)


@bp.post("/games/<game>/play/<table_id>/takeover")
def takeover(game: str, table_id: str) -> Any:
    """Continue a replay (or a game) yourself from a step, against an AI: a new table."""
    _game_or_404(game)
    data = _table_or_404(game, table_id)
    form = request.form if request.form else (request.get_json(silent=True) or {})
    try:
        step = int(form.get("step", len(data["actions"])))
        seat = int(form.get("seat", 0))
        store = _store()
        new = tables.take_over(data, step, seat, str(form.get("opponent") or "heuristic"),
                               owner=current_user_name(), table_id=store.new_id())
        store.save(game, new)
    except (WorkbenchError, ValueError, TypeError) as exc:
        abort(400, description=str(exc))
    return redirect(url_for("play.table", game=game, table_id=new["id"]), code=303)


@bp.post("/games/<game>/play/<table_id>/delete")
def delete(game: str, table_id: str) -> Any:
    """Forget a table."""
    _game_or_404(game)
    _table_or_404(game, table_id)
    try:
        _store().delete(game, table_id)
    except NotFound:
        pass
    tables.forget_position(table_id)
    return redirect(url_for("play.index", game=game), code=303)


@bp.post("/games/<game>/playtests/<run_id>/games/<int:index>/table")
def replay_create(game: str, run_id: str, index: int) -> Any:
    """Open game ``index`` of a playtest run on the table: played once with the run's agents here
    (a POST, as it can take a while with search players), then stepped through from the file."""
    _game_or_404(game)
    try:
        check_run_id(run_id)
        run = RunStore(get_repo()).get(game, run_id)
    except WorkbenchError:
        abort(404, description=f"no playtest run {run_id!r}")
    store = _store()
    try:
        # always a slot: even random players' games take seconds with decks at the size caps
        with replay_slot():
            data = tables.replay_table(run, index, owner=current_user_name(), table_id=store.new_id())
        store.save(game, data)
    except ReplaysBusy as exc:
        raise TooManyRequests(description=str(exc), retry_after=RETRY_AFTER_SECONDS) from None
    except WorkbenchError as exc:
        abort(409, description=str(exc))
    return redirect(url_for("play.table", game=game, table_id=data["id"]), code=303)
