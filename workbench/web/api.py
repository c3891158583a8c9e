"""The JSON API: games, cards, decks, validation.

GET answers carry an ``ETag`` (the item's version). PUT and DELETE need ``If-Match``: 428 when
it is missing, 412 when it is stale. Bad input answers 4xx with ``{"error": …, "problems": […]}``
and never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from werkzeug.exceptions import HTTPException

from workbench.domain.errors import (
    AlreadyExists,
    Conflict,
    DataError,
    DefinitionError,
    InvalidId,
    NotFound,
    WorkbenchError,
)
from workbench.domain.effects.text import entry_text, rules_text
from workbench.domain.limits import find_non_finite
from workbench.domain.problems import Problem, has_errors
from workbench.services.checks import card_problems, deck_problems
from workbench.storage.repository import Stored
from workbench.web import get_repo
from workbench.web.auth import current_user_name
from workbench.web.game_text import with_texts
from workbench.web.request_body import MAX_PAYLOAD_DEPTH
from workbench.web.security import csrf_token

bp = Blueprint("api", __name__, url_prefix="/api")

FIELD_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,39}$")


class BadRequest(WorkbenchError):
    """The request body is not what the route needs."""


STATUS = {
    NotFound: 404,
    InvalidId: 400,
    AlreadyExists: 409,
    Conflict: 412,
    DataError: 400,
    DefinitionError: 400,
    BadRequest: 400,
}


def error_response(message: str, status: int, problems: list[Problem] | None = None, **extra: Any) -> Response:
    """A JSON error answer in the API's one shape."""
    body = {"error": message, "problems": with_texts([p.to_dict() for p in problems or []]), **extra}
    response = jsonify(body)
    response.status_code = status
    return response


@bp.errorhandler(WorkbenchError)
def _domain_error(exc: WorkbenchError) -> Response:
    status = next((code for cls, code in STATUS.items() if isinstance(exc, cls)), 400)
    extra = {}
    if isinstance(exc, Conflict) and exc.current_version:
        extra["current_version"] = exc.current_version
    return error_response(str(exc), status, **extra)


@bp.errorhandler(HTTPException)
def _http_error(exc: HTTPException) -> Response:
    return error_response(exc.description or exc.name, exc.code or 400)


@bp.errorhandler(OSError)
def _storage_error(exc: OSError) -> Response:
    """A full disk answers 507, a read-only data folder 503 (workbench.web.ui.storage_error)."""
    from workbench.web.ui import storage_error

    known = storage_error(exc)
    if known is None:
        return _unexpected(exc)
    response = error_response(known[2], known[0])
    if known[0] == 503:
        response.headers["Retry-After"] = "10"
    return response


@bp.errorhandler(Exception)
def _unexpected(exc: Exception) -> Response:  # pragma: no cover - last line of defence
    import logging

    logging.getLogger("workbench").exception("unexpected error in API")
    return error_response("internal error; the change was not applied", 500)


# ------------------------------------------------------------------ helpers


def _json_body() -> dict[str, Any]:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("the request body must be a JSON object")
    return data


def _check_payload(data: Any, what: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise BadRequest(f"the {what} must be a JSON object of fields")
    for key in data:
        if not isinstance(key, str) or not FIELD_NAME.fullmatch(key):
            raise BadRequest(f"field name {str(key)[:50]!r} is not allowed: use letters, digits and '_'")
    if _depth(data) > MAX_PAYLOAD_DEPTH:
        raise BadRequest(f"the {what} nests deeper than {MAX_PAYLOAD_DEPTH} levels")
    where = find_non_finite(data)
    if where is not None:  # Python's JSON reads 1e400 as infinity, and NaN and Infinity too
        raise BadRequest(f"{where[:80]} is not a finite number: 1e400, Infinity and NaN are refused")
    return data


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_PAYLOAD_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def _if_match() -> str:
    header = request.headers.get("If-Match")
    if not header:
        from werkzeug.exceptions import PreconditionRequired

        raise PreconditionRequired("If-Match with the version you edited is required")
    value = header.strip()
    if value.startswith("W/"):
        value = value[2:]
    return value.strip('"')


def _with_etag(response: Response, version: str) -> Response:
    response.set_etag(version)
    return response


def _rules_text(definition: Any, card: dict[str, Any]) -> dict[str, Any]:
    """What each effects field of ``card`` reads as (docs/effects.md "Rules text from the effects"):
    per entry and for the whole list, in English and Chinese, so the editor shows it live."""
    kind = card.get("kind")
    if kind not in definition.kinds:
        return {}
    out: dict[str, Any] = {}
    for fdef in definition.fields_for(str(kind)):
        entries = card.get(fdef.name)
        if fdef.type != "effects" or not isinstance(entries, list):
            continue
        out[fdef.name] = {
            "entries": [{lang: entry_text(e, lang, str(kind), definition) if isinstance(e, dict) else ""
                         for lang in ("en", "zh")} for e in entries],
            "en": rules_text(entries, "en", str(kind), definition), "zh": rules_text(entries, "zh", str(kind), definition)}
    return out


def _problems(problems: list[Problem]) -> list[dict[str, Any]]:
    """Problems as JSON: the domain's fields, and ``text`` in the reader's language (not English)."""
    return with_texts([p.to_dict() for p in problems])  # type: ignore[no-any-return]


def _card_body(game: str, item: Stored) -> dict[str, Any]:
    problems = card_problems(get_repo().game(game), item.data, item.id)
    return {"id": item.id, "version": item.version, "card": item.data, "problems": _problems(problems)}


def _deck_body(game: str, item: Stored) -> dict[str, Any]:
    problems = deck_problems(get_repo(), game, item.data, item.id)
    return {"id": item.id, "version": item.version, "deck": item.data,
            "legal": not has_errors(problems), "problems": _problems(problems)}


def _new_item_id(body: dict[str, Any]) -> str | None:
    item_id = body.pop("id", None)
    if item_id is not None and not isinstance(item_id, str):
        raise BadRequest("id must be text")
    return item_id


# ------------------------------------------------------------------ games


@bp.get("/csrf")
def csrf() -> Response:
    """The session's CSRF token, for scripted browser-like clients."""
    return jsonify({"csrf_token": csrf_token()})


@bp.get("/games")
def games() -> Response:
    """Every game with its name and counts; a game whose game.yaml cannot be read is listed with
    ``"problem": {file, line, message}`` (and no kinds or counts), after the others."""
    repo = get_repo()
    out: list[dict[str, Any]] = []
    good, broken = repo.games_checked()
    for game_id in good:
        definition = repo.game(game_id)
        cards, _ = repo.list_cards_tolerant(game_id)
        decks, _ = repo.list_decks_tolerant(game_id)
        out.append({"id": game_id, "name": definition.name, "description": definition.description,
                    "kinds": list(definition.kinds), "cards": len(cards), "decks": len(decks)})
    for game in broken:
        out.append({"id": game.id, "name": game.id, "description": "", "kinds": [], "cards": None, "decks": None,
                    "problem": {k: v for k, v in game.to_dict().items() if k != "game"}})
    return jsonify(out)


@bp.get("/games/<game>")
def game(game: str) -> Response:
    """The game's definition: kinds and fields, zones, rules, options, formats."""
    definition = get_repo().game(game)
    body = {
        "id": definition.id,
        "name": definition.name,
        "definition": definition.raw,
        "options": definition.default_options(),
        "kinds": {k: {"label": kd.label, "color": kd.color,
                      "fields": [{"name": f.name, "type": f.type, **f.spec, "label": f.label}
                                 for f in definition.fields_for(k)]}
                  for k, kd in definition.kinds.items()},
        "zones": {z: {"label": zd.label, "kinds": list(zd.kinds)} for z, zd in definition.zones.items()},
    }
    return jsonify(body)


# ------------------------------------------------------------------ cards


@bp.get("/games/<game>/cards")
def list_cards(game: str) -> Response:
    """Every card with its version and problem counts."""
    repo = get_repo()
    definition = repo.game(game)
    cards, unreadable = repo.list_cards_tolerant(game)
    out = []
    for item in cards:
        problems = card_problems(definition, item.data, item.id, with_layout=False)
        out.append({"id": item.id, "version": item.version, "card": item.data,
                    "errors": sum(p.is_error for p in problems),
                    "warnings": sum(not p.is_error for p in problems)})
    return jsonify({"cards": out, "unreadable": [{"id": i, "error": r} for i, r in unreadable]})


@bp.post("/games/<game>/cards")
def create_card(game: str) -> tuple[Response, int]:
    """Save a new card (drafts with errors are saved; the answer lists their problems)."""
    body = _check_payload(_json_body(), "card")
    item_id = _new_item_id(body)
    item = get_repo().create_card(game, body, item_id, actor=current_user_name())
    response = _with_etag(jsonify(_card_body(game, item)), item.version)
    response.headers["Location"] = url_for("api.get_card", game=game, card_id=item.id)
    return response, 201


@bp.get("/games/<game>/cards/<card_id>")
def get_card(game: str, card_id: str) -> Response:
    """One card, its version (also as ETag) and its problems."""
    item = get_repo().get_card(game, card_id)
    return _with_etag(jsonify(_card_body(game, item)), item.version)


@bp.put("/games/<game>/cards/<card_id>")
def put_card(game: str, card_id: str) -> Response:
    """Replace a card; needs If-Match with the version the change is based on."""
    version = _if_match()
    body = _check_payload(_json_body(), "card")
    body.pop("id", None)
    item = get_repo().update_card(game, card_id, body, version, actor=current_user_name())
    return _with_etag(jsonify(_card_body(game, item)), item.version)


@bp.delete("/games/<game>/cards/<card_id>")
def delete_card(game: str, card_id: str) -> tuple[str, int]:
    """Delete a card; needs If-Match."""
    version = _if_match()
    get_repo().delete_card(game, card_id, version, actor=current_user_name())
    return "", 204


# ------------------------------------------------------------------ decks


@bp.get("/games/<game>/decks")
def list_decks(game: str) -> Response:
    """Every deck with its version and legality."""
    repo = get_repo()
    decks, unreadable = repo.list_decks_tolerant(game)
    out = []
    for item in decks:
        problems = deck_problems(repo, game, item.data, item.id)
        out.append({"id": item.id, "version": item.version, "deck": item.data,
                    "legal": not has_errors(problems), "errors": sum(p.is_error for p in problems)})
    return jsonify({"decks": out, "unreadable": [{"id": i, "error": r} for i, r in unreadable]})


def _deck_payload() -> dict[str, Any]:
    body = _check_payload(_json_body(), "deck")
    zones = body.get("zones", {})
    if not isinstance(zones, Mapping):
        raise BadRequest("zones must be an object of zone -> {card id: count}")
    for zone, content in zones.items():
        if not isinstance(content, Mapping):
            raise BadRequest(f"zone {str(zone)[:40]!r} must be an object of card id -> count")
    return body


@bp.post("/games/<game>/decks")
def create_deck(game: str) -> tuple[Response, int]:
    """Save a new deck (illegal drafts are saved; the answer says why they are illegal)."""
    body = _deck_payload()
    item_id = _new_item_id(body)
    item = get_repo().create_deck(game, body, item_id, actor=current_user_name())
    response = _with_etag(jsonify(_deck_body(game, item)), item.version)
    response.headers["Location"] = url_for("api.get_deck", game=game, deck_id=item.id)
    return response, 201


@bp.get("/games/<game>/decks/<deck_id>")
def get_deck(game: str, deck_id: str) -> Response:
    """One deck with its version, legality and problems."""
    item = get_repo().get_deck(game, deck_id)
    return _with_etag(jsonify(_deck_body(game, item)), item.version)


@bp.put("/games/<game>/decks/<deck_id>")
def put_deck(game: str, deck_id: str) -> Response:
    """Replace a deck; needs If-Match."""
    version = _if_match()
    body = _deck_payload()
    body.pop("id", None)
    item = get_repo().update_deck(game, deck_id, body, version, actor=current_user_name())
    return _with_etag(jsonify(_deck_body(game, item)), item.version)


@bp.delete("/games/<game>/decks/<deck_id>")
def delete_deck(game: str, deck_id: str) -> tuple[str, int]:
    """Delete a deck; needs If-Match."""
    version = _if_match()
    get_repo().delete_deck(game, deck_id, version, actor=current_user_name())
    return "", 204


@bp.get("/games/<game>/decks/<deck_id>/problems")
def deck_problem_list(game: str, deck_id: str) -> Response:
    """The problems of a saved deck and whether it is legal."""
    repo = get_repo()
    item = repo.get_deck(game, deck_id)
    problems = deck_problems(repo, game, item.data, item.id)
    return _with_etag(jsonify({"legal": not has_errors(problems), "problems": _problems(problems)}), item.version)


# ------------------------------------------------------------------ validate


@bp.post("/games/<game>/validate")
def validate(game: str) -> Response:
    """Problems of a card or deck sent in the body (``{"card": …}`` or ``{"deck": …}``); saves nothing."""
    body = _json_body()
    repo = get_repo()
    definition = repo.game(game)
    if "card" in body:
        card = _check_payload(body["card"], "card")
        card_id = body.get("id") if isinstance(body.get("id"), str) else None
        problems = card_problems(definition, card, card_id)
        return jsonify({"legal": not has_errors(problems), "problems": _problems(problems),
                        "rules_text": _rules_text(definition, card)})
    elif "deck" in body:
        deck = _check_payload(body["deck"], "deck")
        problems = deck_problems(repo, game, deck, body.get("id") if isinstance(body.get("id"), str) else None)
    else:
        raise BadRequest('send {"card": {...}} or {"deck": {...}}')
    return jsonify({"legal": not has_errors(problems), "problems": _problems(problems)})
