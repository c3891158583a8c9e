"""Export and import pages: ``/games/<game>/export`` and ``/games/<game>/import``.

Export: choose a format, a deck and a base URL; the files are written under ``exports/<game>/``
(a team-mode viewer's under ``exports/<game>/viewers/<name>/``, so a viewer never replaces the
designers' files) and offered for download. Import: upload a file (with an optional column mapping), read the dry
run, then confirm. The upload waits under a random token until the confirmation; the confirmation
runs the dry run again and writes only if it still plans exactly what the designer saw.
"""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import Any

from flask import Blueprint, abort, current_app, render_template, request, send_file
from flask_babel import gettext

from workbench.domain.errors import InvalidId, NotFound, WorkbenchError
from workbench.services.exports import run as export_run
from workbench.services.imports import plan as import_plan
from workbench.services.imports.tabular import MAX_FILE_BYTES
from workbench.storage import export_files
from workbench.web import get_repo
from workbench.web.auth import can_edit, current_user
from workbench.web.work_slots import WorkBusy, work_slot
from workbench.web.ui import N_

bp = Blueprint("transfer", __name__)

IMPORT_KIND_LABELS = {"csv": N_("CSV spreadsheet"), "xlsx": N_("XLSX workbook"),
                      "lackey": N_("Lackey card data (carddata.txt)"), "dek": N_("Lackey deck (.dek)"),
                      "cod": N_("Cockatrice deck (.cod)"), "decklist": N_("Deck list (text)")}
"""How the Import form names each file kind (the kind's id after it)."""

UPLOAD_SUFFIXES = {".csv", ".txt", ".tsv", ".xlsx", ".xlsm", ".dek", ".cod"}
VIEWER_FOLDER = "viewers"  # exports/<game>/viewers/<name>/<format>/: what a viewer exports


def _export_root() -> Path:
    return Path(current_app.config["EXPORT_DIR"])


def _game(game: str) -> Any:
    """The game's definition, or 404."""
    try:
        return get_repo().game(game)
    except (NotFound, InvalidId):
        abort(404, description=f"game {game!r} does not exist")


# Where each format's "how to load it into its program" steps are in docs/exports.md.
LOAD_STEPS: dict[str, str] = {
    "lackey": "installing-the-plugin-in-lackeyccg",
    "dvorak-lackey": "dvorak-wiki-formats-seth",
    "mush": "mushcode-pennmush-tinymux",
    "dvorak-mush": "dvorak-wiki-formats-seth",
    "cockatrice": "cockatrice",
    "tts": "tabletop-simulator",
    "csv": "spreadsheets-csv-xlsx",
    "xlsx": "spreadsheets-csv-xlsx",
}


def _decks(game: str) -> list[tuple[str, str]]:
    decks, _ = get_repo().list_decks_tolerant(game)
    return [(d.id, str(d.data.get("name") or d.id)) for d in decks]


def _rel(game: str, path: Path | None) -> str | None:
    """A written file's path relative to ``exports/<game>/`` (for download links)."""
    if path is None:
        return None
    base = export_files.game_export_dir(_export_root(), game).resolve()
    try:
        return path.resolve().relative_to(base).as_posix()
    except ValueError:
        return None


@bp.get("/games/<game>/export")
def export_page(game: str) -> str:
    """The export form."""
    definition = _game(game)
    chosen = request.args.get("deck", "")
    decks = _decks(game)
    form = {"deck": chosen} if any(deck_id == chosen for deck_id, _ in decks) else {}  # a deck page's link
    return render_template("transfer/export.html", game=definition, game_id=game, formats=export_run.FORMATS,
                           decks=decks, error=None, form=form, load_steps=LOAD_STEPS)


@bp.post("/games/<game>/export")
def export_run_view(game: str) -> Any:
    """Write the chosen export and show its files and notes (or the form with the error)."""
    definition = _game(game)
    form = request.form
    fmt = form.get("format", "")
    deck = form.get("deck") or None
    viewer = current_user() if not can_edit() else None
    try:
        # A viewer's export goes to a folder of their own: it never replaces the designers' files
        # (a plugin whose version.txt points Lackey's auto-updater somewhere else, say).
        out = (export_run.default_folder(_export_root(), game, fmt).parent / VIEWER_FOLDER / viewer.name / fmt
               if viewer is not None else None)
        with work_slot():
            result = export_run.run(
                get_repo(), game, fmt, export_root=_export_root(), out=out, deck_id=deck,
                base_url=form.get("base_url", "").strip() or None,
                server=form.get("server", "pennmush"), ascii_only=form.get("ascii") == "yes",
            )
    except WorkBusy as exc:  # the form comes back as it was sent, with the limit named
        return render_template("transfer/export.html", game=definition, game_id=game,
                               formats=export_run.FORMATS, decks=_decks(game), error=str(exc), form=form,
                               load_steps=LOAD_STEPS), 429, {"Retry-After": str(exc.retry_after)}
    except WorkbenchError as exc:
        return render_template("transfer/export.html", game=definition, game_id=game,
                               formats=export_run.FORMATS, decks=_decks(game), error=str(exc), form=form,
                               load_steps=LOAD_STEPS), 400
    files = [_rel(game, p) for p in result.files]
    return render_template("transfer/export_done.html", game=definition, game_id=game, result=result,
                           label=export_run.FORMATS[fmt], folder=f"exports/{game}/{_rel(game, result.folder)}", load_anchor=LOAD_STEPS.get(fmt, ""),
                           own_folder=viewer is not None, main=_rel(game, result.main),
                           archive=_rel(game, result.zip), files=[f for f in files if f][:200],
                           file_count=len(files))


@bp.get("/games/<game>/exports/<path:rel>")
def download(game: str, rel: str) -> Any:
    """One exported file, as an attachment."""
    _game(game)
    try:
        path = export_files.download_path(_export_root(), game, rel)
    except (InvalidId, NotFound) as exc:
        abort(404, description=str(exc))
    return send_file(path, as_attachment=True, download_name=PurePath(rel).name)


@bp.get("/games/<game>/import")
def import_page(game: str) -> str:
    """The upload form."""
    definition = _game(game)
    return render_template("transfer/import.html", game=definition, game_id=game, error=None, form={},
                           kinds=import_plan.FILE_KINDS, kind_labels=IMPORT_KIND_LABELS, limit=MAX_FILE_BYTES)


def _report(game: str, definition: Any, plan: import_plan.ImportPlan, token: str, form: Any,
            message: str | None = None) -> str:
    return render_template("transfer/import_report.html", game=definition, game_id=game, plan=plan,
                           counts=plan.counts(), token=token, digest=plan.digest(), form=form,
                           message=message)


@bp.post("/games/<game>/import")
def import_dry_run(game: str) -> Any:
    """Read the upload, keep it for the confirmation, and show the dry run."""
    definition = _game(game)
    form = request.form
    upload = request.files.get("file")

    def fail(message: str) -> Any:
        return render_template("transfer/import.html", game=definition, game_id=game, error=message, form=form,
                               kinds=import_plan.FILE_KINDS, kind_labels=IMPORT_KIND_LABELS, limit=MAX_FILE_BYTES), 400

    if upload is None or not upload.filename:
        return fail(gettext("Choose a file to import."))
    suffix = PurePath(upload.filename).suffix.lower()
    if suffix not in UPLOAD_SUFFIXES:
        what = suffix or gettext("a file without extension")
        return fail(gettext("%(what)s files cannot be imported; use %(suffixes)s", what=what,
                            suffixes=", ".join(sorted(UPLOAD_SUFFIXES))))
    data = upload.stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        return fail(gettext("The file is larger than %(n)s MB.", n=f"{MAX_FILE_BYTES / 1048576:g}"))
    try:
        plan = import_plan.dry_run(get_repo(), game, upload.filename, data, mapping=form.get("mapping") or None,
                                   kind=form.get("kind") or None, deck_id=form.get("deck_id") or None)
        token = export_files.stage_upload(_export_root(), game, data, suffix)
    except WorkbenchError as exc:
        return fail(str(exc))
    return _report(game, definition, plan, token, {**form, "filename": upload.filename})


@bp.post("/games/<game>/import/confirm")
def import_confirm(game: str) -> Any:
    """Write the confirmed import, if it still plans what the dry run showed."""
    definition = _game(game)
    form = request.form
    token = form.get("token", "")
    filename = PurePath(form.get("filename", "upload.csv")).name
    try:
        data, _ = export_files.read_staged(_export_root(), game, token)
        plan = import_plan.dry_run(get_repo(), game, filename, data, mapping=form.get("mapping") or None,
                                   kind=form.get("kind") or None, deck_id=form.get("deck_id") or None)
    except WorkbenchError as exc:
        return render_template("transfer/import.html", game=definition, game_id=game, error=str(exc), form={},
                               kinds=import_plan.FILE_KINDS, kind_labels=IMPORT_KIND_LABELS, limit=MAX_FILE_BYTES), 400
    if plan.digest() != form.get("digest"):
        return _report(game, definition, plan, token, form,
                       gettext("The cards changed since this dry run was made. Nothing was written: review the "
                               "new dry run below and confirm again.")), 409
    result = import_plan.apply(get_repo(), game, plan)
    export_files.discard_staged(_export_root(), game, token)
    return render_template("transfer/import_done.html", game=definition, game_id=game, result=result,
                           plan=plan)

