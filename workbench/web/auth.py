"""Team mode: login, roles and the gate every request passes.

Local mode (the default) needs no login and answers only this computer (loopback clients).
Team mode (config ``TEAM_MODE`` or ``workbench serve --team``) requires a login for every route
except :data:`PUBLIC_ENDPOINTS`. A *viewer* may use every GET route plus the endpoints of
:data:`VIEWER_WRITE_ALLOWLIST` — requests that only compute (validation, previews, statistics,
PDF and export downloads, playtests); every other POST/PUT/PATCH/DELETE is refused with 403. The
allowlist names endpoints by pattern, so a route added later is *denied* to viewers until it is
listed here on purpose.

Sessions are Flask's signed cookies (HttpOnly, SameSite=Lax, and Secure whenever the request came
over HTTPS — directly or through a proxy counted in ``TRUSTED_PROXIES``). Failed logins are
limited per user name and client address (:class:`LoginLimiter`).
"""

from __future__ import annotations

import fnmatch
import ipaddress
import logging
import os
import secrets
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    g,
    has_request_context,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.sessions import SecureCookieSessionInterface
from flask_babel import gettext
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response as WerkzeugResponse

from workbench.domain.accounts import AccountError, can_write
from workbench.storage.audit import reset_actor, set_actor
from workbench.storage.login_limits import MemoryFailureLog, SqliteFailureLog
from workbench.storage.users import User, UserStore
from workbench.web.security import SAFE_METHODS, TOKEN_KEY

bp = Blueprint("auth", __name__)
AUTH_LOGGER = logging.getLogger("workbench.auth")

PUBLIC_ENDPOINTS = frozenset({"auth.login", "static", "pages.healthz", "i18n.choose_language"})
# Endpoints a viewer may call with POST/PUT/PATCH/DELETE: each only computes or reads. Patterns
# are fnmatch patterns over "blueprint.function" names.
VIEWER_WRITE_ALLOWLIST: tuple[str, ...] = (
    "auth.logout",
    "i18n.choose_language",
    "api.validate",
    "*.validate",
    "*.preview",
    "*.preview_*",
    "*.deck_stats",
    "*.deck_import",
    "render*.print_preview",
    "render*.pdf",
    "render*.pdf_*",
    "render*.print_pdf*",
    "render*.download*",
    "transfer*.export",
    "transfer*.export_*",
    "transfer*.download*",
    # Viewers start playtests of every kind; cancel and resume check in the view that the run
    # is theirs (workbench/web/playtest_views.py, _may_control).
    "playtest*.start*",
    "playtest*.gauntlet_start",
    "playtest*.balance_start",
    "playtest*.cancel*",
    "playtest*.resume*",
    "playtest*.run*",
    "playtest*.goldfish*",
    # The game table: viewers may play; a table belongs to its user (workbench/web/play_views.py).
    "play.create",
    "play.move",
    "play.advance",
    "play.undo",
    "play.restart",
    "play.takeover",
    "play.delete",
    "play.replay_create",
)
SESSION_USER = "user"
SESSION_STAMP = "auth_stamp"
DEFAULT_LIFETIME_S = 12 * 3600


def default_instance_dir() -> Path:
    """The instance folder ``create_app`` uses: ``$WORKBENCH_INSTANCE`` or ``<project>/instance``."""
    env = os.environ.get("WORKBENCH_INSTANCE")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "instance"


def viewer_may(endpoint: str | None) -> bool:
    """True when a viewer may send a state-changing method to ``endpoint``."""
    return bool(endpoint) and any(fnmatch.fnmatchcase(str(endpoint), p) for p in VIEWER_WRITE_ALLOWLIST)


# ------------------------------------------------------------------ rate limit


class LoginLimiter:
    """Failed-login counter per (user name, client address) and per address.

    After ``per_user`` failures for one name from one address, or ``per_address`` failures from
    one address, within ``window_s`` seconds, further attempts are refused until the oldest
    failure leaves the window. A success clears the name's counter. The failures are kept in
    ``log``: in this process's memory by default; the app uses a file in the instance folder
    (:class:`~workbench.storage.login_limits.SqliteFailureLog`) so that every server process
    counts the same failures. Times are wall-clock seconds, which all processes share.
    """

    def __init__(self, per_user: int = 5, per_address: int = 30, window_s: float = 300.0,
                 max_keys: int = 10_000, log: MemoryFailureLog | SqliteFailureLog | None = None) -> None:
        self.per_user = per_user
        self.per_address = per_address
        self.window_s = window_s
        self.log = log if log is not None else MemoryFailureLog(max_keys)

    def _keys(self, name: str, address: str) -> tuple[tuple[str, int], tuple[str, int]]:
        return (f"u:{name.lower()}|{address}", self.per_user), (f"a:{address}", self.per_address)

    def retry_after(self, name: str, address: str, now: float | None = None) -> int:
        """Seconds until another attempt is allowed (0 when it is allowed now)."""
        now = time.time() if now is None else now
        wait = 0.0
        for key, limit in self._keys(name, address):
            count, earliest = self.log.window(key, now - self.window_s)
            if count >= limit and earliest is not None:
                wait = max(wait, self.window_s - (now - earliest))
        return int(wait) + 1 if wait > 0 else 0

    def reserve(self, name: str, address: str, now: float | None = None) -> tuple[int, float]:
        """Count and check an attempt in one step, before its password is checked: (seconds to
        wait, 0 when allowed; the attempt's time). An allowed attempt is counted as a failure at
        once — so parallel attempts cannot all pass the check before any failure is recorded —
        and :meth:`succeeded` with its time takes that back."""
        now = time.time() if now is None else now
        wait = self.log.reserve(self._keys(name, address), now, self.window_s)
        return (int(wait) + 1 if wait > 0 else 0), now

    def failed(self, name: str, address: str, now: float | None = None) -> None:
        """Count a failed attempt."""
        now = time.time() if now is None else now
        self.log.add([key for key, _ in self._keys(name, address)], now, self.window_s)

    def succeeded(self, name: str, address: str, reserved_at: float | None = None) -> None:
        """Forget the failures of this name from this address (and the address's count of the
        attempt reserved at ``reserved_at``)."""
        user_key, address_key = self._keys(name, address)
        self.log.clear(user_key[0])
        if reserved_at is not None:
            self.log.release(address_key[0], reserved_at)


# ------------------------------------------------------------------ sessions


class _SessionInterface(SecureCookieSessionInterface):
    """Signed-cookie sessions whose cookie is Secure whenever the request itself was HTTPS.

    The signing serializer is made once per secret key, not twice per request as Flask does
    (it derives nothing from the request, and making it was a tenth of a cached page's cost).
    """

    _serializer: tuple[Any, Any] | None = None

    def get_signing_serializer(self, app: Flask) -> Any:
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        cached = self._serializer
        if cached is None or cached[0] != keys:
            cached = self._serializer = (keys, super().get_signing_serializer(app))
        return cached[1]

    def get_cookie_secure(self, app: Flask) -> bool:
        configured = bool(app.config.get("SESSION_COOKIE_SECURE"))
        return configured or (has_request_context() and request.is_secure)


def users() -> UserStore:
    """The account store of the current app."""
    return current_app.extensions["workbench.users"]  # type: ignore[no-any-return]


def current_user() -> User | None:
    """The logged-in user of this request (None in local mode or before login)."""
    return g.get("user")


def current_user_name() -> str | None:
    """The logged-in user's name, for recording who changed what (None in local mode)."""
    user = g.get("user")
    return user.name if user else None


def _load_user() -> User | None:
    name = session.get(SESSION_USER)
    if not isinstance(name, str):
        return None
    user = users().get(name)
    # The stamp changes with the password: a removed account or a new password ends old sessions.
    if user is None or session.get(SESSION_STAMP) != user.stamp:
        session.pop(SESSION_USER, None)
        session.pop(SESSION_STAMP, None)
        return None
    return user


def user_of_cookie(app: Flask, cookie_header: str) -> User | None:
    """The account whose valid session a raw ``Cookie`` header carries, or None — checked as
    :func:`gate` checks it (signature, age, account, stamp), without a request. The server uses it
    to refuse a stranger's request body before reading it (:mod:`workbench.cli.server_limits`)."""
    from werkzeug.http import parse_cookie

    value = parse_cookie(cookie_header or "").get(app.config.get("SESSION_COOKIE_NAME") or "session")
    if not value:
        return None
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    try:
        data = serializer.loads(value, max_age=int(app.permanent_session_lifetime.total_seconds()))
    except Exception:  # noqa: BLE001 - a bad signature, an expired or garbled cookie: no session
        return None
    name = data.get(SESSION_USER) if isinstance(data, dict) else None
    user = app.extensions["workbench.users"].get(name) if isinstance(name, str) else None
    if user is None or data.get(SESSION_STAMP) != user.stamp:
        return None
    return user


def _is_loopback(address: str | None) -> bool:
    if not address:
        return False
    try:
        return ipaddress.ip_address(address.split("%")[0]).is_loopback
    except ValueError:
        return False


def _host_name(host: str) -> str:
    """The name part of a Host header: ``[::1]:5000`` -> ``::1``, ``localhost:5000`` -> ``localhost``."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_allowed(host: str, trusted: list[str] | None) -> bool:
    """Exact match of the Host header's name against the TRUSTED_HOSTS setting (no config: any host).

    Werkzeug's own check cuts IPv6 literals at their last colon, so ``[::2]`` passes as ``[::1]``;
    comparing whole names closes that gap.
    """
    if not trusted:
        return True
    names = {_host_name(t) for t in trusted if not t.startswith(".")}
    suffixes = tuple(t.lower() for t in trusted if t.startswith("."))
    name = _host_name(host)
    return name in names or bool(suffixes and name.endswith(suffixes))


def _wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def gate() -> WerkzeugResponse | None:
    """The first ``before_request`` hook: local-only in local mode; login and roles in team mode."""
    g.user = None
    if not host_allowed(request.host, current_app.config.get("HOST_ALLOWLIST")):
        abort(400, description="this Host header is not one this workbench answers to")
    if not current_app.config.get("TEAM_MODE"):
        if not _is_loopback(request.remote_addr):
            abort(403, description="this workbench runs in local mode and answers this computer only; "
                                   "start it with --team to share it")
        return None
    if request.endpoint in PUBLIC_ENDPOINTS:
        return None
    user = _load_user()
    if user is None:
        if request.method in SAFE_METHODS and not _wants_json():
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        abort(401, description="log in first (team mode)")
    g.user = user
    g.actor_token = set_actor(user.name)
    if request.method not in SAFE_METHODS and not can_write(user.role) and not viewer_may(request.endpoint):
        abort(403, description=f"{user.name} is a {user.role}: viewers may browse, render and playtest "
                               "but not change cards or decks")
    return None


def _forget_actor(_exc: BaseException | None) -> None:
    token = g.pop("actor_token", None)
    if token is not None:
        reset_actor(token)


def _safe_next(target: str | None) -> str:
    """A local path to return to after login; anything else (other hosts, ``//x``, ``\\``) goes home."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return url_for("pages.index")
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or any(ord(c) < 32 for c in target):
        return url_for("pages.index")
    return target


# ------------------------------------------------------------------ routes


@bp.route("/login", methods=["GET", "POST"])
def login() -> Any:
    """The login form; POST checks the password (rate-limited) and starts a fresh session."""
    if not current_app.config.get("TEAM_MODE"):
        return redirect(url_for("pages.index"))
    next_url = _safe_next(request.values.get("next"))
    if request.method == "GET":
        return render_template("auth/login.html", next_url=next_url, error=None, name="")
    name = request.form.get("name", "").strip()[:64]
    password = request.form.get("password", "")
    address = request.remote_addr or "?"
    limiter: LoginLimiter = current_app.extensions["workbench.login_limiter"]
    wait, attempt = limiter.reserve(name, address)  # counted and checked in one transaction
    if wait:
        AUTH_LOGGER.warning("login refused (rate limit) for %r from %s", name, address,
                            extra={"auth": {"event": "login_limited", "user": name, "address": address}})
        page = render_template("auth/login.html", next_url=next_url, name=name,
                               error=gettext("Too many failed logins. Try again in %(n)s seconds.", n=wait))
        return Response(page, status=429, headers={"Retry-After": str(wait)})
    user = users().verify(name, password)
    if user is None:  # reserve() has counted the failure already
        AUTH_LOGGER.warning("login failed for %r from %s", name, address,
                            extra={"auth": {"event": "login_failed", "user": name, "address": address}})
        page = render_template("auth/login.html", next_url=next_url, name=name,
                               error=gettext("Wrong user name or password."))
        return Response(page, status=401)
    limiter.succeeded(name, address, attempt)
    AUTH_LOGGER.info("login %s (%s) from %s", user.name, user.role, address,
                     extra={"auth": {"event": "login", "user": user.name, "role": user.role, "address": address}})
    # A fresh session (and CSRF token) on login: nothing set before it carries over.
    session.clear()
    session[SESSION_USER] = user.name
    session[SESSION_STAMP] = user.stamp
    session[TOKEN_KEY] = secrets.token_urlsafe(32)
    session.permanent = True
    return redirect(next_url)


@bp.post("/logout")
def logout() -> WerkzeugResponse:
    """End the session — on the server too: every cookie of this account stops working, on every
    browser (its session generation is raised) — and go back to the login page."""
    user = current_user()
    if user is not None:
        AUTH_LOGGER.info("logout %s", user.name, extra={"auth": {"event": "logout", "user": user.name}})
        try:
            users().end_sessions(user.name)
        except (AccountError, OSError) as exc:  # the cookie is still cleared below; say why the rest failed
            AUTH_LOGGER.error("logout %s: could not end the sessions on the server: %s", user.name, exc,
                              extra={"auth": {"event": "logout_failed", "user": user.name}})
    session.clear()
    if current_app.config.get("TEAM_MODE"):
        return redirect(url_for("auth.login"))
    return redirect(url_for("pages.index"))


def can_edit() -> bool:
    """True when this request's user may change cards and decks (always in local mode)."""
    if not current_app.config.get("TEAM_MODE"):
        return True
    user = current_user()
    return user is not None and can_write(user.role)


def _template_helpers() -> dict[str, Any]:
    # Pages hide what the gate would refuse: a viewer sees no Save, Delete or New buttons.
    return {"current_user": current_user(), "team_mode": bool(current_app.config.get("TEAM_MODE")),
            "can_edit": can_edit()}


def init_auth(app: Flask) -> None:
    """Install team mode: config defaults, the account store, the gate, login/logout routes.

    Config: ``TEAM_MODE`` (default: ``$WORKBENCH_TEAM`` is ``1``), ``USERS_DIR`` (default: the
    instance folder), ``TRUSTED_PROXIES`` (how many proxies in front set ``X-Forwarded-*``),
    ``LOGIN_MAX_FAILURES``, ``LOGIN_WINDOW_S``, ``SESSION_LIFETIME_S`` (default 12 h).
    """
    if app.config.get("TEAM_MODE") is None:
        app.config["TEAM_MODE"] = os.environ.get("WORKBENCH_TEAM") == "1"
    app.config["PERMANENT_SESSION_LIFETIME"] = int(app.config.get("SESSION_LIFETIME_S") or DEFAULT_LIFETIME_S)
    app.config.setdefault("SESSION_COOKIE_HTTPONLY", True)
    app.config.setdefault("SESSION_COOKIE_SAMESITE", "Lax")
    if app.config.get("PREFERRED_URL_SCHEME") == "https":
        app.config["SESSION_COOKIE_SECURE"] = True
    proxies = int(app.config.get("TRUSTED_PROXIES") or os.environ.get("WORKBENCH_TRUSTED_PROXIES") or 0)
    if proxies > 0:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies)  # type: ignore[method-assign]
    app.session_interface = _SessionInterface()
    users_dir = Path(app.config.get("USERS_DIR") or app.instance_path)
    app.extensions["workbench.users"] = UserStore(users_dir)
    # In a file next to the accounts: every server process (serve --processes N) counts the same.
    app.extensions["workbench.login_limiter"] = LoginLimiter(
        per_user=int(app.config.get("LOGIN_MAX_FAILURES", 5)),
        window_s=float(app.config.get("LOGIN_WINDOW_S", 300)),
        log=SqliteFailureLog(users_dir),
    )
    # First of all hooks: an anonymous request is answered 401 before anything else looks at it.
    app.before_request_funcs.setdefault(None, []).insert(0, gate)
    app.teardown_request(_forget_actor)
    app.context_processor(_template_helpers)
    app.register_blueprint(bp)
