"""The card gallery: every card of a game as a thumbnail, filtered, searched, sorted and paged.

Filtering, search and sorting happen on the server and only one page of thumbnails is sent, so
a game of thousands of cards stays quick (see ``benchmarks/gallery.py``).

Under load (``benchmarks/load.py``) the page must cost a few milliseconds, so everything derived
from the cards is remembered, never stale: the repository's snapshot of the cards folder
(re-checked with one ``lstat`` per file on every request, so a hand edit shows at once) has a
token that changes with any file; the page body is kept per (snapshot token, definition, query);
each thumbnail's HTML and problem counts per (card version, definition). Editing one card
re-renders only its thumbnail. Answers carry an ETag, so a browser's revalidation gets a 304.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, make_response, render_template, request
from flask_babel import get_locale, gettext
from markupsafe import Markup
from werkzeug.wrappers import Response

from workbench.domain.gamedef import FieldDef, GameDefinition
from workbench.services.checks import card_problems
from workbench.services.memo import MISSING, Memo
from workbench.storage.repository import Snapshot, Stored
from workbench.web import get_repo
from workbench.web.auth import can_edit
from workbench.web.ui import (
    all_fields,
    cached_page,
    card_summary,
    face_url,
    install_error_page,
    matches,
    search_text,
    sort_value_key,
    unique,
    value_label,
)

bp = Blueprint("gallery", __name__)
install_error_page(bp)

PAGE_SIZES = (24, 48, 96, 192)
# The gallery's and overview's query strings: a filter, a search, a sort and a page fit in a few
# hundred bytes. Without a cap one GET (any web page can send it to a local server) carried
# 250 kB of query: each such page was remembered with the query in its key and in every pager
# link (~6 MB each, 256 of them: 1.5 GB), and a 100,000-word search was folded and matched again
# for every card (0.8 s a request).
MAX_QUERY_BYTES = 4096
MAX_SEARCH_CHARS = 500
MAX_SEARCH_WORDS = 50
DEFAULT_PAGE_SIZE = 48
_CACHE_LIMIT = 50_000
# Keyed by card version (a hash of the file) and the definition object (a new one whenever
# game.yaml changes), owner-checked so a recycled id() cannot hit.
_summaries = Memo(_CACHE_LIMIT)
_haystacks = Memo(_CACHE_LIMIT)
_thumbs = Memo(20_000)  # ~1.5 kB of HTML each
# Page bodies per query: the few views a designer flips between, for the current card files.
_pages = Memo(256)


def problem_summary(game: str, definition: GameDefinition, item: Stored) -> dict[str, Any]:
    """Error and warning counts of a card plus its first messages, cached per card version."""
    key = (game, item.id, item.version, id(definition))
    hit = _summaries.get(key, definition)
    if hit is not MISSING:
        return hit  # type: ignore[no-any-return]
    problems = card_problems(definition, item.data, item.id, with_layout=False)
    summary = {
        "errors": sum(p.is_error for p in problems),
        "warnings": sum(not p.is_error for p in problems),
        "messages": [{"code": p.code, "message": p.message, "rule": p.rule} for p in problems[:6]],  # shown in the reader's language
    }
    return _summaries.put(key, summary, definition)  # type: ignore[no-any-return]


def _haystack(game: str, item: Stored) -> str:
    key = (game, item.id, item.version)
    hit = _haystacks.get(key)
    if hit is MISSING:
        hit = _haystacks.put(key, search_text(item.id, item.data))
    return hit  # type: ignore[no-any-return]


def filter_fields(definition: GameDefinition) -> list[FieldDef]:
    """Fields the gallery filters by: enumerations, lists of enumerated values, flags, and whole
    numbers that are not combat stats (Degree, mana cost, Power, stars)."""
    out = []
    for fdef in all_fields(definition):
        if fdef.name in {"name", "kind"}:
            continue
        if fdef.enum is not None or fdef.type == "boolean" or (
            fdef.type == "integer" and not fdef.spec.get("stat")
        ):
            out.append(fdef)
    return out


def sort_fields(definition: GameDefinition) -> list[tuple[str, str]]:
    """(key, label) of every sort order: name, id, kind, then every number field."""
    fields = [("name", gettext("Name")), ("id", gettext("Card id")), ("kind", gettext("Kind"))]
    fields += [(f.name, f.label) for f in all_fields(definition) if f.type in {"integer", "number"}]
    return fields


def _field_matches(value: Any, wanted: str) -> bool:
    if isinstance(value, list):
        return any(str(v) == wanted for v in value)
    if isinstance(value, bool):
        return wanted == ("true" if value else "false")
    return value is not None and str(value) == wanted


def _filter_options(definition: GameDefinition, cards: list[Stored], fields: list[FieldDef]) -> list[dict[str, Any]]:
    out = []
    for fdef in fields:
        values: list[Any] = []
        for item in cards:
            value = item.data.get(fdef.name)
            if isinstance(value, list):
                values.extend(v for v in value if isinstance(v, (str, int)))
            elif isinstance(value, (str, int, float, bool)):
                values.append(value)
        if not values:
            continue
        choices = []
        for value in unique(values):
            key = ("true" if value else "false") if isinstance(value, bool) else str(value)
            choices.append({"value": key, "label": value_label(fdef, value)})
        out.append({"name": fdef.name, "label": fdef.label, "choices": choices,
                    "selected": request.args.get(f"f_{fdef.name}", "")})
    return out


def check_query(args: Mapping[str, str]) -> None:
    """Abort 414/400 naming the limit when the query string, or its search, is longer than the
    gallery reads (before any card is matched or any page remembered)."""
    size = len(request.query_string)
    if size > MAX_QUERY_BYTES:
        abort(414, description=f"the query string is {size:,} bytes; the gallery and overview read "
                               f"at most {MAX_QUERY_BYTES:,}")
    query = args.get("q", "")
    if len(query) > MAX_SEARCH_CHARS or len(query.split()) > MAX_SEARCH_WORDS:
        abort(400, description=f"the search is too long: at most {MAX_SEARCH_CHARS} characters "
                               f"and {MAX_SEARCH_WORDS} words")


def query_cards(
    game: str, definition: GameDefinition, cards: list[Stored], args: Mapping[str, str]
) -> list[tuple[Stored, dict[str, Any]]]:
    """The cards matching the gallery's query string, sorted, each with its problem summary.

    Query keys: ``kind``, ``q`` (words, CJK included), ``f_<field>`` (value), ``problems``
    (``errors``, ``warnings``, ``clean``), ``sort`` (a field), ``order`` (``asc``/``desc``).
    """
    kind = args.get("kind", "")
    query = args.get("q", "").strip()
    wanted = {key[2:]: value for key, value in args.items() if key.startswith("f_") and value != ""}
    problems = args.get("problems", "")
    out = []
    for item in cards:
        data = item.data
        if kind and data.get("kind") != kind:
            continue
        if any(not _field_matches(data.get(name), value) for name, value in wanted.items()):
            continue
        if query and not matches(_haystack(game, item), query):
            continue
        summary = problem_summary(game, definition, item)
        if problems == "errors" and not summary["errors"]:
            continue
        if problems == "warnings" and not summary["warnings"]:
            continue
        if problems == "clean" and (summary["errors"] or summary["warnings"]):
            continue
        out.append((item, summary))
    sort = args.get("sort", "name")
    valid = {key for key, _ in sort_fields(definition)}
    sort = sort if sort in valid else "name"
    reverse = args.get("order") == "desc"

    def key(entry: tuple[Stored, dict[str, Any]]) -> tuple[Any, ...]:
        item = entry[0]
        value = item.id if sort == "id" else item.data.get(sort)
        primary = sort_value_key(value)
        return (primary, sort_value_key(item.data.get("name")), item.id)

    present, missing = [], []
    for entry in out:
        value = entry[0].id if sort == "id" else entry[0].data.get(sort)
        (missing if sort_value_key(value)[0] == 2 else present).append(entry)
    present.sort(key=key, reverse=reverse)
    missing.sort(key=lambda e: (sort_value_key(e[0].data.get("name")), e[0].id))
    return present + missing  # cards without the sorted stat stay last in either order


@bp.get("/games/<game>/cards")
def gallery(game: str) -> Response:
    """The card gallery page of a game (``304 Not Modified`` when the browser's copy is current)."""
    check_query(request.args)
    repo = get_repo()
    definition = repo.game(game)
    snap = repo.snapshot(game, "cards")
    key = (request.script_root, game, snap.token, id(definition), tuple(sorted(request.args.items(multi=True))),
           can_edit(), str(get_locale()))  # viewers get the page without the New card form; one per language
    content = _pages.get(key, definition)
    if content is MISSING:
        content = _pages.put(key, Markup(_content(game, definition, snap)), definition)
    page = cached_page(("gallery", key), definition, lambda **extra: render_template(
        "gallery.html", game=definition, game_id=game, content=content, **extra))
    response = make_response(page)
    # The page holds the session's CSRF token: private. no-cache: always revalidate, so a
    # changed card file is never hidden by a browser's copy; unchanged pages cost a 304.
    response.headers["Cache-Control"] = "private, no-cache"
    response.add_etag()
    return response.make_conditional(request)


def _content(game: str, definition: GameDefinition, snap: Snapshot) -> str:
    """The page body below the navigation: counts, filters, one page of thumbnails, the pager."""
    cards = list(snap.items)
    results = query_cards(game, definition, cards, request.args)
    try:
        per_page = int(request.args.get("per", DEFAULT_PAGE_SIZE))
    except ValueError:
        per_page = DEFAULT_PAGE_SIZE
    per_page = per_page if per_page in PAGE_SIZES else DEFAULT_PAGE_SIZE
    pages = max(1, math.ceil(len(results) / per_page))
    try:
        page = min(max(1, int(request.args.get("page", 1))), pages)
    except ValueError:
        page = 1
    shown = results[(page - 1) * per_page: page * per_page]
    base_args = {k: v for k, v in request.args.items() if k != "page"}
    return render_template(
        "gallery_content.html",
        game=definition,
        game_id=game,
        thumbs=[_thumb(game, definition, item, summary) for item, summary in shown],
        total=len(cards),
        matched=len(results),
        page=page,
        pages=pages,
        per_page=per_page,
        page_sizes=PAGE_SIZES,
        base_args=base_args,
        kinds=[{"id": k, "label": kd.label} for k, kd in definition.kinds.items()],
        filters=_filter_options(definition, cards, filter_fields(definition)),
        sorts=sort_fields(definition),
        args=request.args,
        unreadable=list(snap.unreadable),
        errors_total=sum(1 for _, s in results if s["errors"]),
    )


def _thumb(game: str, definition: GameDefinition, item: Stored, summary: dict[str, Any]) -> Markup:
    """One thumbnail's HTML, rendered once per card version, definition and language."""
    key = (request.script_root, game, item.id, item.version, id(definition), str(get_locale()))
    hit = _thumbs.get(key, definition)
    if hit is not MISSING:
        return hit  # type: ignore[no-any-return]
    kind = str(item.data.get("kind", ""))
    kind_def = definition.kinds.get(kind)
    thumb = {
        "id": item.id,
        "name": str(item.data.get("name") or item.id),
        "kind": kind,
        "kind_label": kind_def.label if kind_def else kind or "no kind",
        "stats": card_summary(definition, item.data),
        "text": str(item.data.get("text") or ""),
        "face": face_url(game, item.id),
        "version": item.version,
        **summary,
    }
    html = Markup(render_template("gallery_thumb.html", t=thumb, game_id=game))
    return _thumbs.put(key, html, definition)  # type: ignore[no-any-return]
