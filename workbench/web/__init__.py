"""The Flask application factory.

``create_app(test_config)`` follows Flask's tutorial: defaults, then ``instance/config.py`` (or
the test config), then blueprints. Safe defaults: localhost-only trusted hosts, CSRF on every
state change, a CSP without inline scripts, a request size cap, autoescaped templates.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.exceptions import HTTPException

from workbench.storage.repository import Repository
from workbench.web.auth import init_auth
from workbench.web.request_body import WorkbenchRequest
from workbench.web.security import LOCAL_HOSTS, init_security, load_or_create_secret_key

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. Config keys: DATA_DIR, EXPORT_DIR, TRUSTED_HOSTS, MAX_CONTENT_LENGTH …

    Raises NotFound (a ValueError) when the data folder does not exist.
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(PROJECT_ROOT / "templates"),
        static_folder=str(PROJECT_ROOT / "static"),
        instance_path=os.environ.get("WORKBENCH_INSTANCE") or str(PROJECT_ROOT / "instance"),
    )
    app.config.from_mapping(
        DATA_DIR=os.environ.get("WORKBENCH_DATA", str(Path.cwd() / "card_data")),
        EXPORT_DIR=os.environ.get("WORKBENCH_EXPORTS", str(Path.cwd() / "exports")),
        TRUSTED_HOSTS=list(LOCAL_HOSTS),
        MAX_CONTENT_LENGTH=16 * 1024 * 1024,
        MAX_FORM_MEMORY_SIZE=2 * 1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        JSON_SORT_KEYS=False,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        extra_hosts = os.environ.get("WORKBENCH_TRUSTED_HOSTS")
        if extra_hosts:
            app.config["TRUSTED_HOSTS"] = list(LOCAL_HOSTS) + [h.strip() for h in extra_hosts.split(",") if h.strip()]
    else:
        app.config.update(test_config)
    # The Host check is workbench.web.auth.host_allowed's alone: Werkzeug 3.1.9's own check, which
    # Flask runs for TRUSTED_HOSTS, cuts "[::1]" at its first colon and refuses every IPv6 name.
    app.config["HOST_ALLOWLIST"] = app.config["TRUSTED_HOSTS"]
    app.config["TRUSTED_HOSTS"] = None
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_or_create_secret_key(Path(app.instance_path))
    app.request_class = WorkbenchRequest  # a too-deep JSON body is a 400, not a 500
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.ensure_ascii = False  # type: ignore[attr-defined]

    repo = Repository(Path(app.config["DATA_DIR"]))
    repo.list_games()  # fail fast with a clear message when the data folder is missing
    repo.sweep()
    app.extensions["workbench.repo"] = repo

    init_security(app)
    init_auth(app)  # team mode: login, roles, who changed what (workbench/web/auth.py)

    from workbench.web import api, pages

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(_blueprint("gallery_views"))
    app.register_blueprint(_blueprint("editor_views"))
    app.register_blueprint(_blueprint("deck_views"))
    app.register_blueprint(_blueprint("render_views"))
    app.register_blueprint(_blueprint("transfer_views"))
    app.register_blueprint(_blueprint("playtest_views"))
    app.register_blueprint(_blueprint("play_views"))
    app.register_blueprint(_blueprint("set_views"))
    app.register_blueprint(_blueprint("history_views"))
    from workbench.web.help_views import init_help
    from workbench.web.i18n import init_i18n

    init_i18n(app)
    from workbench.web.ui import text_with_symbols

    app.jinja_env.filters["with_symbols"] = text_with_symbols

    init_help(app, Path(app.config.get("DOCS_DIR") or PROJECT_ROOT / "docs"), PROJECT_ROOT / "README.md")
    app.register_error_handler(HTTPException, _http_error)
    from workbench.web.ui import storage_error_response

    app.register_error_handler(OSError, storage_error_response)  # full disk 507, read-only 503
    return app


def _blueprint(module: str) -> Any:
    """The ``bp`` of ``workbench.web.<module>`` (feature pages register with one line each)."""
    import importlib

    return importlib.import_module(f"workbench.web.{module}").bp


def _http_error(exc: HTTPException) -> Any:
    """JSON errors under /api (routes that did not match included); elsewhere the app's error page
    in the reader's language (werkzeug's own page is English only)."""
    from flask import request

    if request.path.startswith("/api/"):
        from workbench.web.api import error_response

        return error_response(exc.description or exc.name, exc.code or 400)
    if exc.response is not None or exc.code is None:  # a view's own answer (a plain-text refusal)
        return exc
    from workbench.web.ui import http_error_page

    return http_error_page(exc)


def get_repo() -> Repository:
    """The repository of the current app."""
    from flask import current_app

    return current_app.extensions["workbench.repo"]  # type: ignore[no-any-return]
