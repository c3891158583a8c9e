"""HTML pages shared by every feature: the games page, per-game navigation, kind colours, health.

Feature pages live in their own blueprints (gallery, editor, decks …); this one gives them the
``game_nav`` template helper and ``/games/<game>/kinds.css`` (each kind's frame colour as a CSS
class, because the Content-Security-Policy forbids inline styles).
"""

from __future__ import annotations

import os
import re

from flask import Blueprint, Response, redirect, render_template, url_for
from werkzeug.wrappers import Response as WerkzeugResponse

from workbench.web import get_repo
from workbench.web.ui import game_nav, install_error_page

bp = Blueprint("pages", __name__)
install_error_page(bp)
COLOR = re.compile(r"^#[0-9a-fA-F]{3,8}$")
CSS_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@bp.app_context_processor
def _template_helpers() -> dict[str, object]:
    return {"game_nav": game_nav}


@bp.get("/")
def index() -> str:
    """The games page: every game of the data folder with its counts and kinds."""
    repo = get_repo()
    games = []
    good, broken = repo.games_checked()  # a broken game.yaml is listed with its problem
    for game_id in good:
        definition = repo.game(game_id)
        cards, unreadable = repo.list_cards_tolerant(game_id)
        decks, _ = repo.list_decks_tolerant(game_id)
        by_kind = {k: 0 for k in definition.kinds}
        for item in cards:
            kind = str(item.data.get("kind"))
            if kind in by_kind:
                by_kind[kind] += 1
        games.append({
            "id": game_id, "name": definition.name, "description": definition.description,
            "cards": len(cards), "decks": len(decks), "unreadable": len(unreadable),
            "kinds": [{"id": k, "label": definition.kinds[k].label, "count": n} for k, n in by_kind.items()],
            "nav": game_nav(game_id),
        })
    return render_template("index.html", games=games, broken=[b.to_dict() for b in broken])


@bp.get("/games/<game>")
def game_home(game: str) -> WerkzeugResponse:
    """A game's home is its card gallery."""
    get_repo().game(game)
    return redirect(url_for("gallery.gallery", game=game))


@bp.get("/games/<game>/kinds.css")
def kinds_css(game: str) -> Response:
    """Each kind's colour as ``.kind-<id> { --kind: … }`` for thumbnails, badges and previews."""
    definition = get_repo().game(game)
    lines = []
    for kid, kind in definition.kinds.items():
        if not CSS_NAME.fullmatch(kid):
            continue
        color = kind.color if COLOR.fullmatch(kind.color) else "#555555"  # never echo arbitrary CSS
        lines.append(f".kind-{kid} {{ --kind: {color}; }}")
    for symbol in definition.symbols.symbols:  # colours are checked #rrggbb when game.yaml is read
        if CSS_NAME.fullmatch(symbol.name):
            lines.append(f".sym-{symbol.name} {{ background: {symbol.fill}; color: {symbol.color}; }}")
    response = Response("\n".join(lines) + "\n", mimetype="text/css")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/healthz")
def healthz() -> dict[str, object]:
    """Liveness: the data folder is readable. Under ``serve --processes N`` also which worker
    (1..N) answered, so an operator (or a test) can see every worker is alive. Games whose
    game.yaml cannot be read are listed under ``broken_games`` (file, line, message)."""
    good, broken = get_repo().games_checked()
    answer: dict[str, object] = {"ok": True, "games": len(good) + len(broken)}
    if broken:  # the server works; these games do not (their pages answer with the problem)
        answer["broken_games"] = [b.to_dict() for b in broken]
    worker = os.environ.get("WORKBENCH_WORKER")
    if worker:
        answer["worker"] = int(worker)
    return answer
