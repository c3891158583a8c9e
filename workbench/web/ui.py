"""Helpers the HTML pages share: links to optional routes, field metadata, card summaries, search.

Pages of other features (render, print, export, playtest) may or may not be installed; links to
them are built only when their route exists, so the UI never points at a 404.
"""

from __future__ import annotations

import errno
import functools
import logging
import re
import secrets
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import Any

from flask import Blueprint, current_app, g, jsonify, make_response, render_template, request, session, url_for
from flask_babel import gettext
from markupsafe import Markup, escape

from workbench.domain.errors import (
    AlreadyExists,
    Conflict,
    DataError,
    DefinitionError,
    InvalidId,
    NotFound,
    WorkbenchError,
)

from workbench.domain.gamedef import FieldDef, GameDefinition
from workbench.domain.validation import resolve_bound
from workbench.services.memo import MISSING, Memo
from workbench.web.security import csrf_token

# Per-game navigation: (label, candidate endpoints, candidate URL rules). The first that exists wins.
def N_(message: str) -> str:
    """Mark a message for the catalogues without translating it here (the page translates it)."""
    return message


NAV_ITEMS: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    (N_("Gallery"), ("gallery.gallery",), ("/games/<game>/cards",)),
    (N_("Decks"), ("decks.deck_list",), ("/games/<game>/decks",)),
    (N_("Print"), ("render.print_page", "render_views.print_page", "render.print_form"), ("/games/<game>/print",)),
    (N_("Export"), ("transfer.export_page", "transfer_views.export_page"), ("/games/<game>/export",)),
    (N_("Overview"), ("overview.overview",), ("/games/<game>/overview",)),
    (N_("Playtest"), ("playtest.index", "playtest_views.index", "playtest.playtest_page"),
     ("/games/<game>/playtest", "/games/<game>/playtests")),
    (N_("Play"), ("play.index",), ("/games/<game>/play",)),
]
FACE_RULE = "/games/<game>/cards/<card_id>/face.png"
_CSS_SAFE = re.compile(r"[a-z][a-z0-9_-]{0,40}")
PREVIEW_RULE = "/games/<game>/preview.png"


def endpoint_exists(endpoint: str) -> bool:
    """True when the app has a view function for ``endpoint``."""
    return endpoint in current_app.view_functions


def rule_url(rule: str, method: str = "GET", **values: Any) -> str | None:
    """The URL of the route written ``rule`` (e.g. ``/games/<game>/print``), or None when absent.

    Route arguments are matched by name, so another feature's converter choice does not matter.
    """
    endpoint = _rule_endpoint(rule, method)
    if endpoint is None:
        return None
    try:
        return url_for(endpoint, **values)
    except Exception:  # noqa: BLE001 - a route we cannot build is treated as absent
        return None


def _rule_endpoint(rule: str, method: str) -> str | None:
    """The endpoint of the first route written ``rule`` that answers ``method``, looked up once
    per app (the routes are fixed once the app serves; the gallery asks per thumbnail)."""
    known = current_app.extensions.setdefault("workbench.rule_endpoints", {})
    if (rule, method) not in known:
        known[(rule, method)] = next(
            (c.endpoint for c in current_app.url_map.iter_rules()
             if _plain_rule(c.rule) == rule and method in (c.methods or ())), None)
    return known[(rule, method)]  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=4096)  # called per rule per thumbnail: the gallery's hot spot under load
def _plain_rule(rule: str) -> str:
    # "/games/<string:game>/x" -> "/games/<game>/x"
    parts = []
    for piece in rule.split("/"):
        if piece.startswith("<") and ":" in piece:
            piece = "<" + piece[1:-1].split(":", 1)[1] + ">"
        parts.append(piece)
    return "/".join(parts)


def game_nav(game: str) -> list[dict[str, str]]:
    """The per-game links (Gallery · Decks · Print · Export · Playtest) whose pages exist.

    Built once per app, game and script root (every page's header shows them); a shared list,
    not to be changed by callers.
    """
    known = current_app.extensions.setdefault("workbench.game_nav", {})
    key = (game, request.script_root)
    if key not in known:
        if len(known) > 1024:
            known.clear()
        known[key] = _game_nav(game)
    return known[key]  # type: ignore[no-any-return]


def _game_nav(game: str) -> list[dict[str, str]]:
    links = []
    for label, endpoints, rules in NAV_ITEMS:
        url = None
        for endpoint in endpoints:
            if endpoint_exists(endpoint):
                try:
                    url = url_for(endpoint, game=game)
                    break
                except Exception:  # noqa: BLE001 - endpoint needs other arguments: try the rules
                    url = None
        if url is None:
            for rule in rules:
                url = rule_url(rule, game=game)
                if url:
                    break
        if url:
            links.append({"label": label, "url": url})
    return links


def face_url(game: str, card_id: str) -> str | None:
    """URL of the rendered card face PNG when the render feature is installed."""
    return rule_url(FACE_RULE, game=game, card_id=card_id)


def preview_url(game: str) -> str | None:
    """URL of the live preview PNG route (POST) when the render feature is installed."""
    return rule_url(PREVIEW_RULE, method="POST", game=game)


# ------------------------------------------------------------------ whole pages

# Stands in for the session's CSRF token in a remembered page; random, so no card text can hold it.
CSRF_SLOT = f"csrf-slot-{secrets.token_hex(16)}"
_pages = Memo(256)  # whole pages of ~50 kB: at most ~13 MB


def cached_page(key: Hashable, owner: Any, render: Callable[..., str]) -> str:
    """A page's HTML, remembered under ``key`` (all the page depends on) for ``owner`` (the game
    definition) and the logged-in user; the session's CSRF token is filled in on every answer.

    ``render(**context)`` must pass ``context`` to ``render_template``. A session with flashed
    messages waiting is rendered afresh: they are shown once.
    """
    if session.get("_flashes"):
        return render()
    user = g.get("user")
    from flask_babel import get_locale

    full_key = (key, request.script_root, getattr(user, "name", None), getattr(user, "role", None),
                str(get_locale()))  # the same page in another language is another page
    html = _pages.get(full_key, owner)
    if html is MISSING:
        html = _pages.put(full_key, render(csrf_token=lambda: CSRF_SLOT), owner)
    return html.replace(CSRF_SLOT, csrf_token())  # type: ignore[no-any-return]


# ------------------------------------------------------------------ error pages

ERROR_STATUS: list[tuple[type[WorkbenchError], int, str]] = [
    (NotFound, 404, N_("Not found")),
    (InvalidId, 400, N_("Not a valid id")),
    (AlreadyExists, 409, N_("Already exists")),
    (Conflict, 412, N_("Changed elsewhere")),
    (DataError, 400, N_("Unreadable data")),
    (DefinitionError, 500, N_("Broken game definition")),
]


def error_status(exc: WorkbenchError) -> int:
    """The HTTP status of a refusal (``ERROR_STATUS``; 400 for any other)."""
    return next((code for cls, code, _ in ERROR_STATUS if isinstance(exc, cls)), 400)


def error_page(exc: WorkbenchError) -> tuple[str, int]:
    """An HTML page naming what went wrong (the error's own message), with its HTTP status."""
    status, title = next(((code, t) for cls, code, t in ERROR_STATUS if isinstance(exc, cls)), (400, N_("Error")))
    return render_template("error.html", title=gettext(title), message=str(exc), status=status), status


HTTP_TITLES = {400: N_("Bad request"), 401: N_("Log in first"), 403: N_("Not allowed"), 404: N_("Not found"),
               405: N_("Method not allowed"), 409: N_("Conflict"), 412: N_("Changed elsewhere"),
               413: N_("Too large"), 429: N_("Too many requests"), 500: N_("Server error")}
"""The error page's title for an HTTP status (werkzeug's names are English only)."""


def http_error_page(exc: Any) -> Any:
    """An ``HTTPException`` (``abort(404, description=…)``) as the app's error page, in the
    reader's language, with the exception's own headers (Retry-After, Allow)."""
    status = int(exc.code)
    title = gettext(HTTP_TITLES[status]) if status in HTTP_TITLES else gettext("Error")
    page = render_template("error.html", title=title, message=exc.description or "", status=status)
    response = make_response(page, status)
    for name, value in exc.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


# Write failures of the machine, not of the request: a full disk is 507 (Insufficient Storage), a
# read-only or forbidden data folder and a busy lock are 503 (Service Unavailable).
_STORAGE_ERRORS = {
    errno.ENOSPC: (507, N_("Disk full"), N_("the disk that holds the data is full, so nothing was saved; free some "
                                           "space and try again")),
    errno.EDQUOT: (507, N_("Disk quota reached"), N_("the disk quota of the data folder is used up, so nothing was "
                                                    "saved; free some space and try again")),
    errno.EROFS: (503, N_("Read-only data folder"), N_("the data folder is read-only on this server, so nothing was "
                                                      "saved; make it writable (or ask the operator) and try again")),
    errno.EACCES: (503, N_("Cannot write"), N_("the server is not allowed to write to the data folder, so nothing was "
                                              "saved; check the folder's owner and permissions")),
    errno.EPERM: (503, N_("Cannot write"), N_("the server is not allowed to write to the data folder, so nothing was "
                                             "saved; check the folder's owner and permissions")),
}


def storage_error(exc: OSError) -> tuple[int, str, str] | None:
    """(status, title, message) for a failure of the disk or the data folder, or None."""
    if isinstance(exc, TimeoutError) and exc.errno is None:  # filelock.Timeout: another save holds the file
        return 503, N_("Busy"), N_("another save of the same file is still running; try again in a few seconds")
    return _STORAGE_ERRORS.get(exc.errno) if exc.errno is not None else None


def storage_error_response(exc: OSError) -> Any:
    """A clear 507/503 (JSON under /api and for scripts, a page otherwise) instead of a 500."""
    known = storage_error(exc)
    if known is None:
        raise exc
    status, title, message = known
    logging.getLogger("workbench").warning("storage error answered %s: %s (%s)", status, message, exc.strerror)
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
        response = jsonify({"error": message, "problems": []})
        response.status_code = status
    else:
        page = render_template("error.html", title=gettext(title), message=gettext(message), status=status)
        response = make_response(page, status)  # the page in the reader's language; JSON for scripts stays English
    if status == 503:
        response.headers["Retry-After"] = "10"
    return response


def install_error_page(bp: Blueprint) -> None:
    """Show domain errors raised in ``bp``'s pages as an HTML error page instead of a 500."""
    bp.register_error_handler(WorkbenchError, error_page)


# ------------------------------------------------------------------ fields


def all_fields(definition: GameDefinition) -> list[FieldDef]:
    """Every field of the game, once (the first definition of a name wins), common fields first."""
    seen: dict[str, FieldDef] = {}
    for fdef in list(definition.common_fields) + [f for k in definition.kinds.values() for f in k.fields]:
        seen.setdefault(fdef.name, fdef)
    return list(seen.values())


def value_label(fdef: FieldDef | None, value: Any) -> str:
    """A value as the designer reads it: the field's ``labels`` entry, else the value itself."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    labels = (fdef.spec.get("labels") or {}) if fdef else {}
    if value in labels:
        return str(labels[value])
    if str(value) in labels:
        return str(labels[str(value)])
    for key, label in labels.items():
        if str(key) == str(value):
            return str(label)
    return str(value)


def field_meta(fdef: FieldDef, options: Mapping[str, Any]) -> dict[str, Any]:
    """The editor's description of one field: control type, label, help, bounds resolved."""
    spec = fdef.spec
    items = spec.get("items") or {}
    enum = spec.get("enum")
    labels = spec.get("labels") or {}
    meta: dict[str, Any] = {
        "name": fdef.name,
        "type": fdef.type,
        "label": fdef.label,
        "help": fdef.help,
        "rule": str(spec.get("rule", "")),
        "required": fdef.required,
        "minimum": resolve_bound(spec.get("minimum"), options),
        "maximum": resolve_bound(spec.get("maximum"), options),
        "max_length": spec.get("max_length"),
        "also_allowed": list(spec.get("also_allowed") or []),
        "default": spec.get("default"),
        "min_items": spec.get("min_items"),
        "max_items": spec.get("max_items"),
        "stat": bool(spec.get("stat")),
    }
    values = enum if enum is not None else items.get("enum")
    if values is not None:
        meta["choices"] = [{"value": v, "label": value_label(fdef, v)} for v in values]
    if labels and values is None:
        meta["choices"] = [{"value": k, "label": str(v)} for k, v in labels.items()]
    step = spec.get("multiple_of")
    if isinstance(step, Mapping):
        meta["step_hint"] = resolve_bound(step, options) if "option" in step else step.get("value")
    elif isinstance(step, (int, float)):
        meta["step_hint"] = step
    if spec.get("required_when"):
        meta["required_when"] = dict(spec["required_when"])
    if spec.get("forbidden_when"):
        meta["forbidden_when"] = dict(spec["forbidden_when"])
    return meta


_EDITOR_SCHEMAS: dict[int, tuple[GameDefinition, dict[str, Any]]] = {}


def editor_schema(definition: GameDefinition) -> dict[str, Any]:
    """Kinds with their labels, colours and field metadata, for the card editor's script.

    Built once per definition object (the repository hands out a new one when game.yaml
    changes); the answer is shared, so callers must not change it.
    """
    cached = _EDITOR_SCHEMAS.get(id(definition))
    if cached is not None and cached[0] is definition:
        return cached[1]
    if len(_EDITOR_SCHEMAS) > 64:
        _EDITOR_SCHEMAS.clear()
    schema = _editor_schema(definition)
    _EDITOR_SCHEMAS[id(definition)] = (definition, schema)
    return schema


def _editor_schema(definition: GameDefinition) -> dict[str, Any]:
    options = definition.default_options()
    return {
        "id": definition.id,
        "name": definition.name,
        "kinds": {
            kid: {"label": kd.label, "color": kd.color,
                  "fields": [field_meta(f, options) for f in _editor_order(definition, kid) if f.name != "name"]}
            for kid, kd in definition.kinds.items()
        },
    }


def _editor_order(definition: GameDefinition, kind: str) -> list[FieldDef]:
    """Fields in the order a designer fills them: identity and stats, then text, then the rest."""
    own = {f.name for f in definition.kinds[kind].fields}

    def group(fdef: FieldDef) -> int:
        if fdef.type in {"integer", "number", "boolean"} or fdef.enum is not None:
            return 0 if fdef.type != "list" or fdef.name in own else 2
        if fdef.type == "string" and (fdef.name in own or fdef.name.startswith("name")):
            return 0
        if fdef.type == "text":
            return 1
        return 2

    return sorted(definition.fields_for(kind), key=group)  # sorted() is stable: game.yaml order within a group


def key_fields(definition: GameDefinition, kind: str) -> list[FieldDef]:
    """The fields a thumbnail shows for a kind: numbers, flags and enumerations, not text."""
    if kind not in definition.kinds:
        return []
    out = []
    for fdef in definition.fields_for(kind):
        if fdef.name in {"name", "number", "art"} or fdef.type in {"text", "effects"}:
            continue
        if fdef.type in {"integer", "number", "boolean"} or fdef.enum is not None:
            out.append(fdef)
        elif fdef.type == "string" and fdef.name in {f.name for f in definition.kinds[kind].fields}:
            out.append(fdef)  # a kind's own short text fields (race, type) identify the card
    return out


def card_summary(definition: GameDefinition, card: Mapping[str, Any]) -> list[dict[str, str]]:
    """Label/value pairs of a card's key stats, as shown on thumbnails and in the deck builder."""
    kind = str(card.get("kind", ""))
    out = []
    for fdef in key_fields(definition, kind):
        value = card.get(fdef.name)
        if value is None or value == [] or (fdef.type == "boolean" and value is False):
            continue
        if isinstance(value, list):
            shown = ", ".join(value_label(fdef, v) for v in value)
        elif fdef.type == "boolean":
            shown = "✓"
        else:
            shown = value_label(fdef, value)
        short = fdef.label if len(fdef.label) <= 14 else fdef.label.split(" ")[0]
        if shown.casefold().startswith(fdef.label.casefold()):
            short = ""  # "Class 3 (long range)" needs no "Class" in front
        out.append({"field": fdef.name, "label": short, "value": shown})
    return out


# ------------------------------------------------------------------ search


def fold(text: str) -> str:
    """Text folded for searching: NFKC (full-width to normal width) and case-folded."""
    return unicodedata.normalize("NFKC", text).casefold()


def search_text(card_id: str, card: Mapping[str, Any]) -> str:
    """Everything a search may match in a card: id, name, every text and list-of-text value."""
    parts: list[str] = [card_id]
    for value in card.values():
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, list):
            parts.extend(str(v) for v in value if isinstance(v, (str, int)))
    return fold("\n".join(parts))


def matches(haystack: str, query: str) -> bool:
    """True when every word of ``query`` occurs in ``haystack`` (both folded)."""
    return all(word in haystack for word in fold(query).split())


def sort_value_key(value: Any) -> tuple[int, Any]:
    """A key ordering numbers numerically, then text; missing values go last."""
    if value is None or value == "" or value == []:
        return (2, "")
    if isinstance(value, bool):
        return (0, int(value))
    if isinstance(value, (int, float)):
        return (0, value)
    if isinstance(value, list):
        return (1, fold(", ".join(str(v) for v in value)))
    return (1, fold(str(value)))


def unique(values: Iterable[Any]) -> list[Any]:
    """Distinct values in a stable, human order (numbers ascending, then text)."""
    seen: dict[str, Any] = {}
    for value in values:
        seen.setdefault(f"{type(value).__name__}:{value}", value)
    return sorted(seen.values(), key=sort_value_key)


def text_with_symbols(text: Any, game: str, limit: int | None = None) -> Markup:
    """Card text as HTML with the game's inline symbols (``{T}``) drawn as labelled badges;
    everything else escaped. ``limit`` cuts the text (in characters, a symbol counting as one)
    with an ellipsis, like Jinja's ``truncate``."""
    value = "" if text is None else str(text)
    try:
        symbols = current_app.extensions["workbench.repo"].game(game).symbols
    except Exception:  # noqa: BLE001 - a broken game.yaml shows its text plain
        symbols = None
    out: list[str] = []
    at = shown = 0
    uses = list(symbols.find(value)) if symbols else []
    for use in uses + [None]:
        end = use.start if use is not None else len(value)
        piece = value[at:end]
        if limit is not None and shown + len(piece) > limit:
            out.append(str(escape(piece[: max(0, limit - shown)].rstrip())) + "…")
            return Markup("".join(out))
        out.append(str(escape(piece)))
        shown += len(piece)
        if use is None:
            break
        s = use.symbol
        name = s.name if _CSS_SAFE.fullmatch(s.name) else "symbol"
        out.append(f'<span class="sym sym-{s.shape} sym-{name}" role="img" aria-label="{escape(symbols.spoken(use.written)[1:-1])}" '
                   f'title="{escape(use.written)}">{escape(s.drawn_text(use.token))}</span>')
        shown += 1
        at = use.end
    return Markup("".join(out))
