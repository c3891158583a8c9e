"""Web security: secret key, CSRF, security headers, trusted hosts.

CSRF uses two layers. Browsers send Fetch Metadata (``Sec-Fetch-Site``) and ``Origin``; a
cross-site state change is refused on those alone. On top, any request that carries a cookie or
comes from a browser must present the session's CSRF token (form field ``csrf_token`` or header
``X-CSRF-Token``). Scripts with no cookie and no browser headers (curl, the test client) cannot
be a CSRF vector and need no token.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, Response, abort, request, session

SAFE_METHODS = {"GET", "HEAD", "OPTIONS", "TRACE"}
TOKEN_KEY = "csrf_token"
LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]", "::1"]
CSP = (
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


def load_or_create_secret_key(instance_path: Path) -> bytes:
    """Read the instance's secret key, creating it (owner-only permissions) on first run."""
    instance_path.mkdir(parents=True, exist_ok=True)
    key_file = instance_path / "secret_key"
    if key_file.exists():
        return key_file.read_bytes()
    key = secrets.token_bytes(32)
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key


def csrf_token() -> str:
    """The session's CSRF token (created on first use)."""
    token = session.get(TOKEN_KEY)
    if not token:
        token = secrets.token_urlsafe(32)
        session[TOKEN_KEY] = token
    return str(token)


def _same_origin(origin: str) -> bool:
    parts = urlsplit(origin)
    return bool(parts.netloc) and parts.netloc == request.host and parts.scheme == request.scheme


def check_csrf() -> None:
    """Abort with 403 when a state-changing request may come from another site."""
    if request.method in SAFE_METHODS:
        return
    site = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get("Origin")
    if site is not None and site not in {"same-origin", "none"}:
        abort(403, description=f"cross-site request refused (Sec-Fetch-Site: {site})")
    if origin is not None and origin != "null" and not _same_origin(origin):
        abort(403, description="cross-origin request refused (Origin does not match this server)")
    if origin == "null":
        abort(403, description="request from an opaque origin refused")
    referer = request.headers.get("Referer")
    if origin is None and site is None and referer and not _same_origin(referer):
        # A browser too old to send Origin or Fetch Metadata still sends Referer (this app's own
        # pages send it: Referrer-Policy same-origin); a page of another site names that site.
        abort(403, description="cross-site request refused (Referer does not match this server)")
    from_browser = (site is not None or origin is not None or referer is not None
                    or "Cookie" in request.headers)
    if not from_browser:
        return
    sent = request.headers.get("X-CSRF-Token") or request.form.get(TOKEN_KEY, "")
    expected = session.get(TOKEN_KEY, "")
    if not expected or not sent or not hmac.compare_digest(str(sent), str(expected)):
        abort(403, description="missing or wrong CSRF token; reload the page and try again")


def add_security_headers(response: Response) -> Response:
    """Content-Security-Policy without inline scripts, nosniff, no framing, no referrer leaks."""
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def _server_paths(app: Flask) -> list[tuple[bytes, bytes]]:
    """(absolute path, what to show instead) for the data, export and instance folders, longest
    first, each as configured and resolved: a file in the data folder shows as ``seth/cards/x.yaml``."""
    pairs: dict[str, str] = {}
    for key, name in (("DATA_DIR", ""), ("EXPORT_DIR", "exports/"), (None, "instance/")):
        configured = app.config.get(key) if key else app.instance_path
        if not configured:
            continue
        for form in {str(configured).rstrip("/"), str(Path(configured).resolve())}:
            if len(form) > 1:
                pairs[form + "/"] = name
                pairs[form] = name.rstrip("/") or "the data folder"
    return [(k.encode("utf-8"), v.encode("utf-8")) for k, v in sorted(pairs.items(), key=lambda kv: -len(kv[0]))]


def hide_server_paths(response: Response) -> Response:
    """Show paths in an error answer relative to the data folder (``exports/…``, ``instance/…``
    for the other two folders): a logged-in user never learns where the server keeps its data.
    Error answers only (status 400 and up); files and streams are left alone."""
    if response.status_code < 400 or response.direct_passthrough or response.is_streamed:
        return response
    if response.mimetype not in ("text/html", "application/json", "text/plain"):
        return response
    from flask import current_app

    pairs = current_app.extensions.get("workbench.server_paths")
    if pairs is None:
        pairs = current_app.extensions["workbench.server_paths"] = _server_paths(current_app)
    body = response.get_data()
    changed = body
    for absolute, shown in pairs:
        if absolute in changed:
            changed = changed.replace(absolute, shown)
    if changed is not body:
        response.set_data(changed)
    return response


def init_security(app: Flask) -> None:
    """Install the CSRF check, the headers, the server-path filter of error answers and the
    ``csrf_token()`` template helper."""
    app.before_request(check_csrf)
    app.after_request(add_security_headers)
    app.after_request(hide_server_paths)
    app.jinja_env.globals["csrf_token"] = csrf_token
