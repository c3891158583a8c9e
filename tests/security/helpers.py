"""Helpers shared by the security, auth and operations tests: team-mode apps, logins, snapshots,
URLs for every route of the app, and a real ``workbench serve`` process on a free port."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def copy_data(target: Path) -> Path:
    """A private copy of the bundled data folder at ``target``."""
    shutil.copytree(PROJECT_ROOT / "card_data", target, ignore=shutil.ignore_patterns(".locks", ".tmp-*", ".audit"))
    return target


@dataclass
class Server:
    """A running ``workbench serve`` process."""

    proc: subprocess.Popen
    url: str
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = 30.0) -> None:
    """Poll ``/healthz`` until it answers 200; raise with the server log when it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"server did not answer within {timeout} s:\n{log.read_text(errors='replace')}")


@contextmanager
def running_server(data: Path, instance: Path, *extra: str, threads: int = 8) -> Iterator[Server]:
    """Start ``python -m workbench serve`` on a free port; stop it (terminate, then kill) afterwards."""
    port = free_port()
    instance.mkdir(parents=True, exist_ok=True)
    log = instance / f"server-{port}.log"
    env = dict(os.environ, WORKBENCH_INSTANCE=str(instance), PYTHONUNBUFFERED="1")
    for key in ("WORKBENCH_TRUSTED_HOSTS", "WORKBENCH_TEAM", "WORKBENCH_DATA"):
        env.pop(key, None)
    with open(log, "wb") as handle:
        proc = subprocess.Popen(
            [sys.executable, "-m", "workbench", "serve", "--port", str(port), "--data", str(data),
             "--threads", str(threads), *extra],
            cwd=PROJECT_ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
        )
    server = Server(proc, f"http://127.0.0.1:{port}", log)
    try:
        wait_healthy(server.url, proc, log)
        yield server
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


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
