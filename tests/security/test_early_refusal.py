"""Request bodies are refused before they are read (issue 13, item 6), on a real server.

Waitress used to spool up to 1 GiB of a request to disk before the app's 16 MiB cap or the
team-mode login check could refuse it. Each test sends only a request header that announces a
body and waits: the answer must come at once, with none of the body sent.
"""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

import pytest

from tests.security.helpers import PASSWORDS, add_users, copy_data, http, running_server

# Answer-time bounds: run alone after the parallel part of ./scripts/test (see pyproject markers).
pytestmark = pytest.mark.solo

MIB = 1024 * 1024


def _announce(url: str, method: str, path: str, length: int, headers: dict[str, str] | None = None,
              wait_s: float = 3.0) -> tuple[int | None, bytes, float]:
    """Send a header announcing ``length`` body bytes, send none of them, and wait up to
    ``wait_s`` for an answer: (status or None when none came, the answer, seconds)."""
    parts = urlsplit(url)
    lines = [f"{method} {path} HTTP/1.1", f"Host: {parts.hostname}:{parts.port}",
             f"Content-Length: {length}", "Content-Type: application/json"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    started = time.monotonic()
    with socket.create_connection((parts.hostname, parts.port), timeout=wait_s) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        answer = b""
        try:
            while b"\r\n" not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except TimeoutError:
            return None, answer, time.monotonic() - started
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else None
    return status, answer, time.monotonic() - started


def _login_cookie(url: str, name: str) -> str:
    body = f"name={name}&password={PASSWORDS[name]}".encode()
    status, headers, _ = http(url, "POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"})
    assert status == 302
    return headers["set-cookie"].split(";")[0]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory):
    return copy_data(tmp_path_factory.mktemp("bodies") / "card_data")


def test_an_oversized_body_is_refused_from_its_header(data, tmp_path):
    with running_server(data, tmp_path / "instance") as server:
        for expect in ({}, {"Expect": "100-continue"}):  # curl asks so for bodies over 1 MiB
            status, answer, seconds = _announce(server.url, "POST", "/api/games/seth/cards", 300 * MIB, expect)
            assert status == 413, f"no 413 within 3 s of the header (answer: {answer[:80]!r})"
            assert seconds < 2
        # A body within the cap is still read and answered by the app.
        status, _, _ = http(server.url, "POST", "/api/games/seth/cards", b"{" * 1000)
        assert status == 400


def test_team_mode_refuses_a_strangers_body_before_reading_it(data, tmp_path):
    instance = tmp_path / "instance"
    add_users(instance)
    with running_server(data, instance, "--team") as server:
        for path, expect in (("/api/games/seth/cards", {}), ("/games/seth/import", {"Expect": "100-continue"}),
                             ("/nowhere", {})):
            status, answer, seconds = _announce(server.url, "POST", path, 1 * MIB, expect)
            assert status == 401, f"{path}: no 401 within 3 s of the header (answer: {answer[:80]!r})"
            assert seconds < 2
        forged = "session=eyJ1c2VyIjoiYWxpY2UifQ.forged.signature"
        status, _, _ = _announce(server.url, "POST", "/api/games/seth/cards", 1 * MIB, {"Cookie": forged})
        assert status == 401
        # The login form is small: a large one is refused from its header too.
        status, _, _ = _announce(server.url, "POST", "/login", 1 * MIB)
        assert status == 413
        # A logged-in designer's body is read: the server waits for it instead of answering.
        cookie = _login_cookie(server.url, "alice")
        status, _, _ = _announce(server.url, "POST", "/api/games/seth/cards", 1 * MIB, {"Cookie": cookie},
                                 wait_s=1.5)
        assert status is None
        # And a login still works with an ordinary form.
        assert _login_cookie(server.url, "vera")
