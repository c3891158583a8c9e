"""Helpers shared by the security, auth and operations tests: team-mode apps, logins, snapshots,
URLs for every route of the app, and a real ``workbench serve`` process on a free port."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.live_server import Server, copy_data, free_port, running_server, wait_healthy  # noqa: F401 - shared

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PASSWORDS = {"alice": "alice-designs-cards", "vera": "vera-only-looks-on"}
ROLES = {"alice": "designer", "vera": "viewer"}
# Values used to build a URL for each route argument name (others get "x").
ROUTE_VALUES = {"game": "seth", "card_id": "glass-wasp", "deck_id": "skyburn-blitz",
                "filename": "css/app.css", "name": "x.png"}
# Cheaper scrypt parameters keep logins in tests fast; the default cost is tested in test_users.
TEST_HASH = "scrypt:1024:8:1"
CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')


def add_users(instance: Path) -> None:
    """Create the designer ``alice`` and the viewer ``vera`` in ``instance``."""
    from workbench.storage.users import UserStore

    store = UserStore(instance, hash_method=TEST_HASH)
    for name, role in ROLES.items():
        store.add(name, role, PASSWORDS[name])


def team_app(data_dir: Path, tmp_path: Path, **config: Any):
    """A team-mode app on ``data_dir`` with alice (designer) and vera (viewer)."""
    from workbench.web import create_app

    instance = tmp_path / "instance"
    if not (instance / "users.json").exists():
        add_users(instance)
    return create_app({
        "TESTING": True, "TEAM_MODE": True, "DATA_DIR": str(data_dir),
        "EXPORT_DIR": str(tmp_path / "exports"), "SECRET_KEY": "test-secret",
        "USERS_DIR": str(instance), **config,
    })


def csrf_from(client) -> str:
    """The CSRF token of the client's session (from the login page or the API)."""
    page = client.get("/login")
    match = CSRF_FIELD.search(page.get_data(as_text=True))
    if match:
        return match.group(1)
    return client.get("/api/csrf").json["csrf_token"]


def login(client, name: str, password: str | None = None, **kwargs: Any):
    """Log ``client`` in through the form (with its CSRF token); return the answer."""
    token = csrf_from(client)
    return client.post("/login", data={"name": name, "password": password or PASSWORDS[name],
                                       "csrf_token": token}, **kwargs)


def session_token(client) -> str:
    """The CSRF token of a logged-in session."""
    return client.get("/api/csrf").json["csrf_token"]


def snapshot(folder: Path) -> dict[str, str]:
    """Relative path -> SHA-256 of every file under ``folder`` (locks and the audit log left out)."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_file() and not rel.startswith((".locks", ".audit")):
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def route_calls(app) -> Iterator[tuple[str, str, str]]:
    """(endpoint, method, url) for every route and method of ``app`` (HEAD and OPTIONS left out)."""
    adapter = app.url_map.bind("localhost")
    for rule in app.url_map.iter_rules():
        values = {}
        for arg in rule.arguments:
            converter = rule._converters.get(arg)  # noqa: SLF001 - the converter decides the value type
            values[arg] = 1 if type(converter).__name__ in {"IntegerConverter", "FloatConverter"} \
                else ROUTE_VALUES.get(arg, "x")
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            yield rule.endpoint, method, adapter.build(rule.endpoint, values, method=method)


def http(url: str, method: str = "GET", path: str = "/", body: Any = None,
         headers: dict[str, str] | None = None, timeout: float = 30.0) -> tuple[int, dict[str, str], bytes]:
    """One request with http.client (no proxies from the environment); (status, headers, body)."""
    import http.client
    import json as _json
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        data = None
        sent = dict(headers or {})
        if body is not None:
            data = body if isinstance(body, bytes) else _json.dumps(body).encode("utf-8")
            sent.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=data, headers=sent)
        answer = conn.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        conn.close()
