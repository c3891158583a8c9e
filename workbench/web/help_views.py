"""Help inside the app: the docs folder served as pages (``/docs/``, ``/docs/<page>``).

* ``GET /docs/`` — the README as the index, with the list of every help page.
* ``GET /docs/<page>`` — one page (``printing``, ``engines/seth``) with its table of contents.
* ``GET /docs/images/<name>`` — the docs' screenshots.

Every page of the app links to its own section through ``help_url()`` (the "Help" link in the
header), from the table ``HELP_FOR`` below: endpoint -> (page, section).
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, g, render_template, request, send_file, url_for
from werkzeug.wrappers import Response

from workbench.domain.errors import NotFound
from workbench.services.help import HelpBook
from workbench.storage.docs_files import DocsFolder

bp = Blueprint("help", __name__)

# A run's page by its kind: the report of a balance, gauntlet or pod run has its own section.
HELP_FOR_RUN: dict[str, tuple[str, str]] = {
    "balance": ("playtests", "balance-report-swap-the-card"),
    "gauntlet": ("playtests", "gauntlet-goldfish-variants"),
    "pod": ("playtests", "pods-three-or-four-players"),
    "variants": ("playtests", "gauntlet-goldfish-variants"),
}

HELP_FOR: dict[str, tuple[str, str]] = {
    "pages.index": ("web-ui", "games"),
    "pages.game_home": ("web-ui", "card-gallery"),
    "gallery.gallery": ("web-ui", "card-gallery"),
    "editor.edit_card": ("web-ui", "card-editor"),
    "editor.new_card": ("web-ui", "card-editor"),
    "editor.rename": ("web-ui", "card-editor"),
    "editor.delete_card": ("web-ui", "card-editor"),
    "decks.deck_list": ("web-ui", "deck-builder"),
    "decks.edit_deck": ("web-ui", "deck-builder"),
    "decks.new_deck": ("web-ui", "deck-builder"),
    "decks.delete_deck": ("web-ui", "deck-builder"),
    "render.print_page": ("printing", "quick-start"),
    "render.art_page": ("printing", "faces-and-text"),
    "transfer.export_page": ("exports", ""),
    "transfer.import_page": ("exports", "imports"),
    "transfer.export_run_view": ("exports", ""),  # the files written, or the form again
    "transfer.import_dry_run": ("exports", "imports"),
    "transfer.import_confirm": ("exports", "imports"),
    "playtest.index": ("playtests", ""),
    "playtest.report": ("playtests", "reading-the-report"),
    "playtest.replay": ("playtests", "reading-the-report"),
    "playtest.replay_play": ("playtests", "reading-the-report"),
    "playtest.start": ("playtests", ""),  # a refused start shows the form again
    "playtest.gauntlet_form": ("playtests", "gauntlet-goldfish-variants"),
    "playtest.gauntlet_start": ("playtests", "gauntlet-goldfish-variants"),
    "playtest.goldfish_page": ("playtests", "gauntlet-goldfish-variants"),
    "playtest.balance_form": ("playtests", "balance-report-swap-the-card"),
    "playtest.balance_start": ("playtests", "balance-report-swap-the-card"),
    "auth.login": ("team-server", ""),
    "overview.overview": ("web-ui", "set-overview"),
    "history.history": ("web-ui", "history-undo-and-restore"),
    "history.deleted": ("web-ui", "history-undo-and-restore"),
    "play.index": ("play", "starting-a-game"),
    "play.create": ("play", "starting-a-game"),
    "play.table": ("play", "at-the-table"),
}


def init_help(app: Flask, docs_root: Path, readme: Path) -> None:
    """Register the help pages for ``docs_root`` and the ``help_url`` template helper."""
    app.extensions["workbench.help"] = HelpBook(
        DocsFolder(docs_root, readme),
        page_url=lambda name: url_for("help.index") if name == "README" else url_for("help.page", name=name),
        image_url=lambda name: url_for("help.image", name=name),
    )
    app.register_blueprint(bp)
    app.jinja_env.globals["help_url"] = help_url


def _book() -> HelpBook:
    return current_app.extensions["workbench.help"]  # type: ignore[no-any-return]


def help_url(endpoint: str | None = None) -> str | None:
    """The help section of the page at ``endpoint`` (default: the current request's), or None."""
    target = HELP_FOR.get(endpoint or request.endpoint or "")
    if endpoint is None and g.get("help_section"):  # a view that knows better (a run's kind)
        target = g.help_section
    if target is None:
        return url_for("help.index") if (endpoint or request.endpoint or "").startswith("help.") else None
    page, section = target
    return url_for("help.page", name=page) + (f"#{section}" if section else "")


@bp.get("/docs/")
def index() -> str:
    """The README, then the list of every help page."""
    try:
        book = _book()
        return render_template("help/page.html", page=book.page("README"), pages=book.pages(), index=True)
    except NotFound:
        abort(404, description="the documentation is not installed beside the app")


@bp.get("/docs/<path:name>")
def page(name: str) -> str:
    """One help page with its table of contents."""
    try:
        book = _book()
        return render_template("help/page.html", page=book.page(name), pages=book.pages(), index=False)
    except NotFound as exc:
        abort(404, description=str(exc))


@bp.get("/docs/images/<name>")
def image(name: str) -> Response:
    """A screenshot or diagram of the docs."""
    try:
        path = _book().folder.image(name)
    except NotFound as exc:
        abort(404, description=str(exc))
    return send_file(path, max_age=3600)
