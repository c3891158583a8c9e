"""Card and deck history: every saved version, field-by-field differences, restore, undo the last
save, and the recently deleted cards and decks of a game.

* ``GET  /games/<game>/<cards|decks>/<id>/history`` — the versions, newest first, each with what
  changed from the one before it.
* ``POST /games/<game>/<cards|decks>/<id>/restore`` — save a version again (a new save, so the
  version it replaces stays in the history); ``version=previous`` is "undo the last save".
* ``GET  /games/<game>/deleted`` — cards and decks deleted and not made again, each restorable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from workbench.domain.errors import Conflict, NotFound
from workbench.web import get_repo
from workbench.web.ui import all_fields, install_error_page

bp = Blueprint("history", __name__)
install_error_page(bp)
COLLECTIONS = {"cards": "card", "decks": "deck"}
DELETED_SHOWN = 200
"""Deleted cards (and decks) listed on the Recently deleted page, the most recent first; only
these are read. 1,500 deleted cards (11 s of one script) made the page take 0.5 s and 960 KB."""
HISTORY_PAGE = 100
"""Versions shown on one history page (newest first; ``?page=2`` the next 100): the page reads and
compares only these, so a card saved 20,000 times opens as fast as one saved 100 times."""


def field_changes(before: Mapping[str, Any] | None, after: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The fields whose values differ between two versions: ``{"field", "before", "after"}``, in
    the order of ``after`` then fields only ``before`` had."""
    before = before or {}
    after = after or {}
    names = list(after) + [k for k in before if k not in after]
    return [{"field": k, "before": before.get(k), "after": after.get(k)}
            for k in names if before.get(k) != after.get(k)]


def _editor_url(game: str, collection: str, item_id: str) -> str:
    if collection == "cards":
        return url_for("editor.edit_card", game=game, card_id=item_id)
    return url_for("decks.edit_deck", game=game, deck_id=item_id)


def _check(collection: str) -> None:
    if collection not in COLLECTIONS:
        abort(404)


@bp.get("/games/<game>/<collection>/<item_id>/history")
def history(game: str, collection: str, item_id: str) -> str:
    """Every kept version of a card or deck with what changed at each save."""
    _check(collection)
    repo = get_repo()
    definition = repo.game(game)
    page = max(1, request.args.get("page", 1, type=int) or 1)
    start = (page - 1) * HISTORY_PAGE
    # one more than shown: the oldest row's changes are measured against the version before it
    versions, total = repo.versions_window(game, collection, item_id, start, HISTORY_PAGE + 1)
    pages = max(1, -(-total // HISTORY_PAGE))
    if page > pages:  # past the end (?page=999999): the last page
        page = pages
        start = (page - 1) * HISTORY_PAGE
        versions, total = repo.versions_window(game, collection, item_id, start, HISTORY_PAGE + 1)
    try:
        current = repo.get_card(game, item_id) if collection == "cards" else repo.get_deck(game, item_id)
    except NotFound:
        current = None
    rows = []
    for index, entry in enumerate(versions[:HISTORY_PAGE]):
        older = next((v for v in versions[index + 1:] if v["data"] is not None), None)
        rows.append(dict(entry, changes=field_changes(older["data"] if older else None, entry["data"])
                         if entry["action"] != "delete" else [],
                         current=current is not None and entry["version"] == current.version))
    if not rows and current is None:
        raise NotFound(f"no {COLLECTIONS[collection]} {item_id!r} and no history of one")
    # the editor's words for the fields (game.yaml labels), not their keys
    labels = {fdef.name: fdef.label for fdef in all_fields(definition)} if collection == "cards" else {}
    return render_template("history.html", game=definition, game_id=game, collection=collection,
                           what=COLLECTIONS[collection], item_id=item_id, rows=rows, current=current, labels=labels,
                           page=page, pages=pages, total=total, first=start + 1,
                           editor_url=_editor_url(game, collection, item_id) if current else None,
                           nav_active="Gallery" if collection == "cards" else "Decks")


@bp.post("/games/<game>/<collection>/<item_id>/restore")
def restore(game: str, collection: str, item_id: str) -> Response:
    """Save a kept version again. ``version=previous`` restores the version before the current one."""
    _check(collection)
    repo = get_repo()
    repo.game(game)
    version = request.form.get("version", "")
    expected = request.form.get("current") or None
    if version == "previous":
        versions = [v for v in repo.versions(game, collection, item_id) if v["action"] != "delete"]
        if len(versions) < 2 or versions[0]["version"] != expected:
            flash(gettext("There is no earlier save to go back to."), "error")
            return redirect(_editor_url(game, collection, item_id))
        version = next((v["version"] for v in versions[1:] if v["version"] != expected), "")
        if not version:
            flash(gettext("There is no earlier save to go back to."), "error")
            return redirect(_editor_url(game, collection, item_id))
    try:
        stored = repo.restore_version(game, collection, item_id, version, expected)
    except Conflict:
        flash(gettext("The card was changed since you opened its history; nothing was restored. Here is its history now.")
              if collection == "cards" else
              gettext("The deck was changed since you opened its history; nothing was restored. Here is its history now."), "error")
        return redirect(url_for("history.history", game=game, collection=collection, item_id=item_id))
    flash(gettext("Restored the version of %(old)s: saved again as a new version (%(new)s); "
                  "the one it replaced is kept in the history.", old=version, new=stored.version), "success")
    return redirect(_editor_url(game, collection, item_id))


@bp.get("/games/<game>/deleted")
def deleted(game: str) -> str:
    """Cards and decks deleted and not made again, the most recent first."""
    repo = get_repo()
    definition = repo.game(game)
    # one more than shown tells whether there are older ones
    cards = repo.deleted_items(game, "cards", DELETED_SHOWN + 1)
    decks = repo.deleted_items(game, "decks", DELETED_SHOWN + 1)
    return render_template("deleted.html", game=definition, game_id=game, nav_active="Gallery",
                           cards=cards[:DELETED_SHOWN], decks=decks[:DELETED_SHOWN], shown=DELETED_SHOWN,
                           more={"cards": len(cards) > DELETED_SHOWN, "decks": len(decks) > DELETED_SHOWN})
