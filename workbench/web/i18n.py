"""The interface in English and Simplified Chinese (Flask-Babel, gettext catalogues).

Which language a page is in, first match wins:

1. the designer's choice from the language switch in the header (a cookie, per browser);
2. the game's own default, ``language: zh`` in its ``game.yaml`` (fusion), on that game's pages;
3. the browser's ``Accept-Language``;
4. English.

Catalogues live in ``workbench/translations/<lang>/LC_MESSAGES/messages.po`` (compiled ``.mo``
beside them); ``tests/web/test_i18n.py`` fails on any message of the templates that has no
translation. Terms follow the seed's own words; ``docs/glossary.md`` lists them.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, current_app, redirect, request
from flask_babel import Babel
from werkzeug.wrappers import Response

LANGUAGES = {"en": "English", "zh": "简体中文"}
COOKIE = "workbench_lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The language of the current request (see the module's order)."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    game = (request.view_args or {}).get("game")
    if isinstance(game, str):
        try:
            declared = current_app.extensions["workbench.repo"].game(game).raw.get("language")
        except Exception:  # noqa: BLE001 - an unknown or broken game falls back to the browser's choice
            declared = None
        if declared in LANGUAGES:
            return str(declared)
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


@bp.post("/language")
def choose_language() -> Response:
    """Remember the language picked in the header for this browser, then go back."""
    lang = request.form.get("lang", "")
    back = request.form.get("next", "") or "/"
    if not back.startswith("/") or back.startswith("//"):
        back = "/"  # only a path of this app: never an open redirect
    response = redirect(back)
    if lang in LANGUAGES:
        response.set_cookie(COOKIE, lang, max_age=COOKIE_MAX_AGE, samesite="Lax", httponly=True)
    return response


def init_i18n(app: Flask) -> None:
    """Install Flask-Babel with the workbench's locale order and the language switch."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_locale)
    app.register_blueprint(bp)
    from workbench.web.game_text import init_game_text

    init_game_text(app)

    @app.after_request
    def _error_text(response: Response) -> Response:
        """A JSON error answer gains ``error_text``, its ``error`` in the reader's language, which
        the pages' scripts show; ``error`` stays the English that scripts and the CLI match on."""
        if response.status_code < 400 or not response.is_json or response.direct_passthrough:
            return response
        from flask_babel import get_locale

        if str(get_locale() or "en").startswith("en"):
            return response
        data = response.get_json(silent=True)
        if isinstance(data, dict) and isinstance(data.get("error"), str):
            from workbench.web.transfer_text import transfer_text

            data["error_text"] = transfer_text(data["error"])
            response.set_data(current_app.json.dumps(data))
        return response

    @app.context_processor
    def _languages() -> dict[str, object]:
        from flask_babel import get_locale

        from workbench.web.js_messages import js_catalogue

        language = str(get_locale() or "en")
        return {"languages": LANGUAGES, "current_language": language, "js_messages": lambda: js_catalogue(language)}
