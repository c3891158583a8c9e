"""Rendered faces, the live editor preview, art upload and the print page with PDF downloads.

Routes (blueprint ``render``):

* ``GET  /games/<game>/cards/<id>/face.png`` — the card's face (cached; ETag = render key).
* ``POST /games/<game>/preview.png`` — JSON ``{"card": {...}}`` to PNG, nothing saved.
* ``GET  /games/<game>/print`` — the print form (set, deck or selection; every option).
* ``POST /games/<game>/print.pdf`` — the PDF, rendered while the browser waits (no script needed;
  POST with the CSRF token, so another site cannot start one).
* ``POST /games/<game>/print/preview`` — the first sheet (fronts and backs) as PNG images, JSON.
* ``POST /games/<game>/print/jobs`` — start a PDF in the background; ``GET .../jobs/<job>`` reports
  progress as JSON and ``GET .../jobs/<job>/download`` gives the file (the page's progress bar).
* ``GET/POST /games/<game>/cards/<id>/art`` — upload art (PNG/JPEG/WebP; checked and re-encoded).
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import TooManyRequests
from flask_babel import gettext

from workbench.domain.errors import Conflict, WorkbenchError
from workbench.domain.ids import check_id
from workbench.services.memo import MISSING, Memo
from workbench.services.render.art import clean_art
from workbench.services.render.cache import FaceRenderer
from workbench.services.render.jobs import art_loader, cache_for, select_cards
from workbench.services.render.pdf import BACKS, SheetOptions, plan_grid
from workbench.services.render.service import default_size, render_pdf
from workbench.services.render.sizes import CARD_SIZES, PAPER_SIZES, check_bleed, parse_card_size
from workbench.storage.art import write_art
from workbench.storage.atomic import atomic_write
from workbench.web import get_repo
from workbench.web.ui import error_page, error_status
from workbench.web.work_slots import WorkBusy, work_slot

bp = Blueprint("render", __name__)
_previews = Memo(48)  # face key -> PNG bytes of recent live previews (~150 kB each)

MAX_JOBS_KEPT = 20
MAX_RUNNING_JOBS = 2
JOB_ID = re.compile(r"^[0-9a-f]{16}$")


def _cache():  # type: ignore[no-untyped-def]
    return cache_for(current_app.config["EXPORT_DIR"])


def _actor() -> str | None:
    try:
        from workbench.web.auth import current_user_name
    except ImportError:  # pragma: no cover - auth is optional
        return None
    return current_user_name()


# ------------------------------------------------------------------ faces and preview


@bp.get("/games/<game>/cards/<card_id>/face.png")
def face(game: str, card_id: str) -> Response:
    """The rendered face of a saved card, revalidated by ETag so the gallery stays fast."""
    repo = get_repo()
    definition = repo.game(game)
    stored = repo.get_card(game, check_id(card_id, "card id"))
    card = dict(stored.data, id=stored.id)
    renderer = FaceRenderer(definition, default_size(definition), cache=_cache(), art_loader=art_loader(repo, game),
                            workers=1)
    key = renderer.key(card)
    if request.if_none_match.contains(key):
        response = Response(status=304)
    else:
        cache = _cache()
        png = cache.get(key, "png")
        if png is None:
            png = renderer.face(card).png()
            cache.put(key, png, "png")
        response = Response(png, mimetype="image/png")
    response.set_etag(key)
    response.headers["Cache-Control"] = "no-cache"  # always revalidate: an edit changes the key
    return response


@bp.post("/games/<game>/preview.png")
def preview(game: str) -> Response:
    """Render an unsaved card (JSON body ``{"card": {...}}``) for the editor's live preview."""
    repo = get_repo()
    definition = repo.game(game)
    body = request.get_json(silent=True)
    card = body.get("card") if isinstance(body, Mapping) else None
    if not isinstance(card, Mapping) or not all(isinstance(k, str) for k in card):
        return _json_error("send JSON {\"card\": {...}} with the card's fields", 400)
    if len(card) > 200:
        return _json_error("too many fields", 400)
    renderer = FaceRenderer(definition, default_size(definition), art_loader=art_loader(repo, game), workers=1)
    # The face key covers the card's content, the definition, the size, the template version and
    # the art file's bytes, so a remembered preview is exactly what drawing again would give. The
    # editor asks again for content it has shown before (page load, undo, switching back).
    key = renderer.key(dict(card))
    png = _previews.get(key)
    if png is MISSING:
        image = renderer.face(dict(card)).image()
        out = io.BytesIO()
        image.save(out, "PNG", compress_level=1)  # speed over size: it is shown once and thrown away
        png = _previews.put(key, out.getvalue())
    response = Response(png, mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/games/<game>/cards/<card_id>/art")
def art_page(game: str, card_id: str) -> str:
    """A small page to upload a card's art, showing the current face."""
    repo = get_repo()
    definition = repo.game(game)
    stored = repo.get_card(game, check_id(card_id, "card id"))
    return render_template("render/art.html", game_id=game, game=definition, card_id=stored.id,
                           card=stored.data, version=stored.version, editor_url=_editor_url(game, stored.id))


@bp.post("/games/<game>/cards/<card_id>/art")
def upload_art(game: str, card_id: str) -> Any:
    """Store an uploaded picture as the card's art (``art/<card-id>.png``) and point the card at it."""
    repo = get_repo()
    repo.game(game)
    stored = repo.get_card(game, check_id(card_id, "card id"))
    upload = request.files.get("art")
    wants_json = request.accept_mimetypes.best == "application/json"
    if upload is None or not upload.filename:
        if wants_json:
            return _json_error("choose a picture file (field 'art')", 400)
        flash(gettext("Choose a picture file first."), "error")
        return redirect(url_for("render.art_page", game=game, card_id=card_id))
    version = request.form.get("version") or stored.version
    if version != stored.version:
        # Checked before writing the file, so a stale form changes nothing at all.
        raise Conflict("the card changed since this page was loaded; reload it and upload again",
                       stored.version)
    data = upload.read()
    try:
        with work_slot():  # decoding and resizing a large picture: a second of CPU, ~190 MB
            png = clean_art(data)  # ArtRejected (a WorkbenchError) becomes an error page or JSON below
    except WorkBusy as exc:
        if wants_json:
            answer = _json_error(str(exc), 429)
            answer.headers["Retry-After"] = str(exc.retry_after)
            return answer
        raise TooManyRequests(description=str(exc), retry_after=exc.retry_after) from None
    name = f"{stored.id}.png"
    write_art(repo.game_dir(game), name, png)
    if stored.data.get("art") != name:
        stored = repo.update_card(game, card_id, dict(stored.data, art=name), version, actor=_actor())
    if wants_json:
        return jsonify({"art": name, "version": stored.version,
                        "face": url_for("render.face", game=game, card_id=card_id)})
    flash(gettext("Art saved as %(file)s.", file=name), "success")
    if request.form.get("return_to") == "art":
        return redirect(url_for("render.art_page", game=game, card_id=card_id))
    return redirect(_editor_url(game, card_id))


def _editor_url(game: str, card_id: str) -> str:
    try:
        return url_for("editor.edit_card", game=game, card_id=card_id)
    except Exception:  # noqa: BLE001 - the editor may not be installed
        return url_for("render.print_page", game=game, cards=card_id)


# ------------------------------------------------------------------ print form and PDFs


@dataclass
class PrintRequest:
    """What to print and how, parsed from a form or query string."""

    deck: str | None
    cards: list[str] | None
    all_cards: bool
    options: SheetOptions

    def filename(self, game: str) -> str:
        what = self.deck or ("set" if self.all_cards else "selection")
        return f"{game}-{what}-{self.options.size.name}-{self.options.paper}.pdf"


def _flag(values: Mapping[str, Any], name: str, default: bool) -> bool:
    """A checkbox's value. Forms send a hidden ``name=0`` before the checkbox (so a cleared box is
    told apart from a missing field); when the box is ticked both arrive, and the last one decides."""
    if name not in values:
        return default
    sent = values.getlist(name) if hasattr(values, "getlist") else [values.get(name)]
    return str(sent[-1] if sent else "").lower() in {"1", "true", "on", "yes"}


def _number(values: Mapping[str, Any], name: str, default: float = 0.0) -> float:
    raw = str(values.get(name) or "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):  # float() reads "nan" and "inf": a PDF cannot say either
        raise WorkbenchError(f"{name.replace('_', ' ')} must be a number of millimetres, not {raw[:40]!r}")
    return value


def parse_print_request(values: Any, definition: Any) -> PrintRequest:
    """Read the print form. Raises WorkbenchError (SizeError, PrintError) for impossible options."""
    what = values.get("what") or ("deck" if values.get("deck") else "cards" if values.get("cards") else "all")
    deck = values.get("deck") if what == "deck" else None
    cards: list[str] | None = None
    if what == "cards":
        listed = values.getlist("card") if hasattr(values, "getlist") else []
        text = values.get("cards") or ""
        cards = [c.strip() for c in listed + text.split(",") if c.strip()]
        if not cards:
            raise WorkbenchError("choose at least one card to print")
    size_text = values.get("card_size") or ""
    if size_text == "custom":
        width, height = (str(values.get(name) or "").strip() for name in ("custom_w", "custom_h"))
        if not width or not height:  # else the message would name a size nobody typed ('63xmm')
            raise WorkbenchError("a custom card size needs both a width and a height in mm, each 20-300 mm")
        size_text = f"{width}x{height}mm"
    size = parse_card_size(size_text) if size_text else default_size(definition)
    backs = values.get("backs") or "long"
    options = SheetOptions(
        size=size, paper=(values.get("paper") or "a4").lower(), bleed_mm=check_bleed(_number(values, "bleed")),
        backs=backs, crop_marks=_flag(values, "crop_marks", True),
        back_offset_x_mm=_number(values, "back_offset_x"), back_offset_y_mm=_number(values, "back_offset_y"),
        calibration=_flag(values, "calibration", False), title=f"{definition.name}: print sheets",
    )
    options.check()
    plan_grid(options.paper, options.size, options.bleed_mm, options.crop_marks)
    return PrintRequest(deck, cards, what == "all", options)


def _print_form(game: str, definition: Any, values: Mapping[str, Any] | None = None,
                error: str | None = None) -> str:
    """The print form. ``values`` (a posted form) refills every field as it was sent, so a refused
    PDF shows the form again with the problem above it and nothing the designer chose lost."""
    repo = get_repo()
    cards = sorted(((c.id, str(c.data.get("name", c.id)), str(c.data.get("number") or ""))
                    for c in repo.list_cards_tolerant(game)[0]), key=lambda c: (c[2] or "~", c[0]))
    decks = [(d.id, str(d.data.get("name", d.id))) for d in repo.list_decks_tolerant(game)[0]]
    if values is None:  # the GET: prefilled from the links of card and deck pages
        chosen = [c for c in (request.args.get("cards") or "").split(",") if c]
        deck = request.args.get("deck", "")
        what = "deck" if deck else "cards" if chosen else "all"
        sent: dict[str, Any] = {}
    else:
        listed = values.getlist("card") if hasattr(values, "getlist") else []
        chosen = [c.strip() for c in listed + str(values.get("cards") or "").split(",") if c.strip()]
        deck = str(values.get("deck") or "")
        what = str(values.get("what") or ("deck" if deck else "cards" if chosen else "all"))
        sent = {name: str(values.get(name) or "") for name in
                ("paper", "card_size", "custom_w", "custom_h", "bleed", "backs", "back_offset_x", "back_offset_y")}
        sent["crop_marks"] = _flag(values, "crop_marks", True)
        sent["calibration"] = _flag(values, "calibration", False)
    return render_template(
        "render/print.html", game_id=game, game=definition, nav_active="Print", cards=cards, decks=decks,
        chosen=set(chosen), deck=deck, what=what, sizes=CARD_SIZES, papers=PAPER_SIZES,
        backs=BACKS, default_size=default_size(definition).name, sent=sent, error=error,
    )


@bp.get("/games/<game>/print")
def print_page(game: str) -> str:
    """The print form, prefilled from ``?deck=`` or ``?cards=a,b`` (links from card and deck pages)."""
    return _print_form(game, get_repo().game(game))


@bp.post("/games/<game>/print.pdf")
def print_pdf(game: str) -> Any:
    """Render and send the PDF in this request (the form's fallback without JavaScript).

    POST only, so the CSRF check applies: a whole PDF costs seconds of CPU, and a GET would let
    any web page the designer visits start one (``<img src="…/print.pdf?…">``). A refused job
    (no card chosen, a bleed or paper that cannot be) shows the form again, every value kept,
    with the reason above it (400)."""
    repo = get_repo()
    definition = repo.game(game)
    values = request.values
    try:
        job = parse_print_request(values, definition)
        cards = select_cards(repo, game, deck_id=job.deck, card_ids=job.cards, all_cards=job.all_cards)
    except WorkbenchError as exc:
        status = error_status(exc)
        return _print_form(game, definition, values, error=str(exc)), status
    try:
        with work_slot():
            pdf = render_pdf(definition, cards, job.options, cache=_cache(), art_loader=art_loader(repo, game))
    except WorkBusy as exc:
        raise TooManyRequests(description=str(exc), retry_after=exc.retry_after) from None
    return _pdf_response(pdf, job.filename(game))


@bp.post("/games/<game>/print/preview")
def print_preview(game: str) -> Response:
    """The first sheet of the print form's job as PNG images (JSON with data URLs).

    POST with the CSRF token like the PDF itself: it renders up to one sheet of faces."""
    import base64

    from workbench.services.render.preview import preview_first_sheet

    repo = get_repo()
    definition = repo.game(game)
    job = parse_print_request(request.values, definition)
    cards = select_cards(repo, game, deck_id=job.deck, card_ids=job.cards, all_cards=job.all_cards)
    try:
        preview = preview_first_sheet(definition, cards, job.options, cache=_cache(), art_loader=art_loader(repo, game))
    except ValueError as exc:
        return jsonify(error=str(exc)), 400  # type: ignore[return-value]
    return jsonify(
        pages=[{"side": p.side, "width": p.width_px, "height": p.height_px,
                "src": "data:image/png;base64," + base64.b64encode(p.png).decode()} for p in preview.pages],
        cards_on_sheet=preview.cards_on_sheet, per_page=preview.per_page, sheets=preview.sheets,
        paper=job.options.paper, crop_marks=job.options.crop_marks, bleed_mm=job.options.bleed_mm,
        backs=job.options.backs,
    )


def _pdf_response(pdf: bytes, filename: str) -> Response:
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@dataclass
class Job:
    """A background PDF render and its progress."""

    id: str
    game: str
    filename: str
    state: str = "running"  # running | done | error
    stage: str = "faces"
    done: int = 0
    total: int = 0
    message: str = ""
    path: Path | None = None
    started: float = field(default_factory=time.time)
    finished: float | None = None
    status_file: Path | None = None  # where every server process reads the progress
    published: float = 0.0
    pid: int = field(default_factory=os.getpid)  # the server process rendering it


_jobs: dict[str, Job] = {}
_jobs_lock = threading.Lock()
PUBLISH_EVERY_S = 0.25
# A "running" status file not rewritten for this long belongs to a process that is gone.
STALE_AFTER_S = 600.0
_STATUS_KEYS = ("id", "game", "filename", "state", "stage", "done", "total", "message", "started", "finished", "pid")


def _publish(job: Job, force: bool = False) -> None:
    """Write the job's progress next to its PDF, so that any server process (``serve
    --processes N``) can answer the page's progress polls; at most every PUBLISH_EVERY_S."""
    now = time.time()
    if job.status_file is None or (not force and now - job.published < PUBLISH_EVERY_S):
        return
    job.published = now
    data = {key: getattr(job, key) for key in _STATUS_KEYS}
    atomic_write(job.status_file, json.dumps(data).encode(), durable=False)


def _published_job(status_file: Path) -> Job | None:
    """A job started by another server process, from its status file (None when unreadable)."""
    try:
        data = json.loads(status_file.read_bytes())
        job = Job(**{key: data[key] for key in _STATUS_KEYS})
        modified = status_file.stat().st_mtime
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if job.state == "done":
        job.path = status_file.with_suffix(".pdf")
    elif job.state == "running" and (time.time() - modified > STALE_AFTER_S or not _alive(job.pid)):
        job.state, job.message = "error", "the server process rendering this PDF stopped; start it again"
    return job


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a server restart or a dead worker ends its jobs)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _run_job(job: Job, repo: Any, definition: Any, request_: PrintRequest, cache: Any, out: Path) -> None:
    def progress(stage: str, done: int, total: int) -> None:
        job.stage, job.done, job.total = stage, done, total
        _publish(job)

    try:
        cards = select_cards(repo, job.game, deck_id=request_.deck, card_ids=request_.cards,
                             all_cards=request_.all_cards)
        pdf = render_pdf(definition, cards, request_.options, cache=cache, art_loader=art_loader(repo, job.game),
                         progress=progress)
        atomic_write(out, pdf)
        job.path = out
        job.state = "done"
    except WorkbenchError as exc:
        job.state, job.message = "error", str(exc)
    except Exception as exc:  # noqa: BLE001 - reported to the page; the server keeps running
        current = f"{type(exc).__name__}: {exc}"
        job.state, job.message = "error", f"the render failed ({current})"
    finally:
        job.finished = time.time()
        try:
            _publish(job, force=True)
        except OSError:
            pass  # this process still answers from memory


@bp.post("/games/<game>/print/jobs")
def pdf_job(game: str) -> tuple[Response, int]:
    """Start rendering a PDF in the background; answer the job's status URL."""
    repo = get_repo()
    definition = repo.game(game)
    request_ = parse_print_request(request.values, definition)
    # Fail now, not in the thread, when the deck or a card does not exist.
    select_cards(repo, game, deck_id=request_.deck, card_ids=request_.cards, all_cards=request_.all_cards)
    with _jobs_lock:
        running = sum(1 for j in _jobs.values() if j.state == "running")
        if running >= MAX_RUNNING_JOBS:
            return _json_error("two print jobs are already running; wait for one to finish", 429), 429
        for old in sorted(_jobs.values(), key=lambda j: j.started)[:-MAX_JOBS_KEPT or None]:
            if old.state != "running":
                _jobs.pop(old.id, None)
                if old.path:
                    old.path.unlink(missing_ok=True)
                if old.status_file:
                    old.status_file.unlink(missing_ok=True)
        job = Job(secrets.token_hex(8), game, request_.filename(game))
        _jobs[job.id] = job
    out = Path(current_app.config["EXPORT_DIR"]) / "prints" / f"{job.id}.pdf"
    job.status_file = out.with_suffix(".json")
    _publish(job, force=True)
    thread = threading.Thread(target=_run_job, args=(job, repo, definition, request_, _cache(), out),
                              name=f"print-{job.id}", daemon=True)
    thread.start()
    return jsonify(_job_json(job)), 202


def _job(game: str, job_id: str) -> Job:
    if not JOB_ID.fullmatch(job_id):
        abort(404)
    job = _jobs.get(job_id)
    if job is None:  # started by another server process (serve --processes N)?
        job = _published_job(Path(current_app.config["EXPORT_DIR"]) / "prints" / f"{job_id}.json")
    if job is None or job.game != game:
        abort(404, description="no such print job (jobs are kept until the server restarts)")
    return job


def _job_json(job: Job) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": job.id, "state": job.state, "stage": job.stage, "done": job.done, "total": job.total,
        "message": job.message, "status_url": url_for("render.pdf_job_status", game=job.game, job_id=job.id),
    }
    if job.state == "error" and job.message:
        from workbench.web.transfer_text import transfer_text

        data["message_text"] = transfer_text(job.message)  # the failure in the reader's language
    if job.state == "done":
        data["download_url"] = url_for("render.download_job", game=job.game, job_id=job.id)
        data["seconds"] = round((job.finished or time.time()) - job.started, 2)
    return data


@bp.get("/games/<game>/print/jobs/<job_id>")
def pdf_job_status(game: str, job_id: str) -> Response:
    """Progress of a background PDF as JSON (stage, done, total, state, download_url)."""
    return jsonify(_job_json(_job(game, job_id)))


@bp.get("/games/<game>/print/jobs/<job_id>/download")
def download_job(game: str, job_id: str) -> Response:
    """The finished PDF of a background job."""
    job = _job(game, job_id)
    if job.state != "done" or job.path is None or not job.path.is_file():
        abort(409, description="the PDF is not ready")
    return _pdf_response(job.path.read_bytes(), job.filename)


def _json_error(message: str, status: int) -> Response:
    response = jsonify({"error": message})
    response.status_code = status
    return response


@bp.errorhandler(WorkbenchError)
def _error(exc: WorkbenchError) -> Any:
    """JSON for the script-driven routes (preview, jobs, uploads asking for JSON), a page otherwise."""
    scripted = request.path.endswith(("/jobs", "/preview.png", "/print/preview")) or request.accept_mimetypes.best == "application/json"
    if scripted:
        status = error_status(exc)
        return _json_error(str(exc), status)
    return error_page(exc)
