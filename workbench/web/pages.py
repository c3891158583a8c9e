"""HTML pages. The games page is the entry point; each feature adds its own blueprint."""

from __future__ import annotations

from flask import Blueprint, render_template

from workbench.web import get_repo

bp = Blueprint("pages", __name__)


@bp.get("/")
def index() -> str:
    """The games page: every game of the data folder with its counts."""
    repo = get_repo()
    games = []
    for game_id in repo.list_games():
        definition = repo.game(game_id)
        cards, _ = repo.list_cards_tolerant(game_id)
        decks, _ = repo.list_decks_tolerant(game_id)
        games.append({"id": game_id, "name": definition.name, "description": definition.description,
                      "cards": len(cards), "decks": len(decks)})
    return render_template("index.html", games=games)


@bp.get("/healthz")
def healthz() -> dict[str, object]:
    """Liveness: the data folder is readable."""
    return {"ok": True, "games": len(get_repo().list_games())}
