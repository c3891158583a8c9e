"""Slow bodies and silent connections must not stop a real server (the connection audit).

Found on ``workbench serve`` in local mode: 1,100 sockets each sending a request header that
announces a 1,000,000-byte body and then one byte every 5 s kept every ``/healthz`` probe from
an answer for 60 s (the header deadline covered only the header, and a byte per < 30 s kept a
connection alive for ever, so 1,000 of them filled the connection limit); 1,100 sockets that
never send a byte, each reopened when the server closes it, did the same (a silent connection
lived 30 s, the header deadline starting at its first byte).

Now a request's header must be complete 10 s after the connection was accepted, its body must
average 16 KiB/s once 10 s have passed since its header, and near the connection limit the
server closes the connections nearest their deadline to let a waiting one in. These tests run
both attacks, on a server whose limit is lowered to 100 connections per process
(``SERVER_CONNECTION_LIMIT``) so that a few hundred sockets more than fill it.
"""

from __future__ import annotations

import os
import socket
import statistics
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.ops.slow_clients import SocketAttack, probe_health
from tests.security.helpers import PASSWORDS, add_users, copy_data, http, running_server
from workbench.cli.server_limits import BODY_GRACE_S, CLEANUP_INTERVAL_S, HEADER_TIMEOUT_S, MIN_BODY_RATE

# Answer-time bounds: run alone after the parallel part of ./scripts/test (see pyproject markers).
pytestmark = pytest.mark.solo

MIB = 1024 * 1024
SLACK_S = CLEANUP_INTERVAL_S + 1.5  # the deadlines are checked every CLEANUP_INTERVAL_S
LIMIT = 100  # connections per server process in the attack tests
HOLD_S = 20.0  # longer than both deadlines (10 s + the 2 s check): every attack socket is cut and reopened
PROBE_EVERY_S = 0.5
PROBE_LIMIT_S = 1.0


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 80


def _body_header(url: str, path: str = "/api/games/seth/validate", length: int = 1_000_000,
                 content_type: str = "application/json") -> bytes:
    host, port = _address(url)
    return (f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {length}\r\n\r\n").encode("latin-1")


def _status(answer: bytes) -> int | None:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.") else None


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_data(tmp_path_factory.mktemp("slow") / "card_data")


@pytest.mark.slow
def test_deadlines_cut_silent_sockets_slow_headers_and_slow_bodies_but_not_a_body_above_the_rate(data, tmp_path):
    with running_server(data, tmp_path / "instance") as server:
        address = _address(server.url)
        silent = socket.create_connection(address)
        opened = time.monotonic()
        slow_header = socket.create_connection(address)
        slow_header.sendall(b"GET / HTTP/1.1\r\n")
        slow_body = socket.create_connection(address)
        slow_body.sendall(_body_header(server.url) + b"{")
        steady = socket.create_connection(address)  # twice the minimum rate, past the grace time
        steady_length = int(2 * MIN_BODY_RATE * (BODY_GRACE_S + 4))
        steady.sendall(_body_header(server.url, length=steady_length))
        steady_sent = 0
        closed: dict[str, float] = {}
        sockets = {"silent": silent, "slow header": slow_header, "slow body": slow_body}
        for sock in sockets.values():
            sock.setblocking(False)
        deadline = opened + BODY_GRACE_S + 3 * SLACK_S
        while time.monotonic() < deadline and (len(closed) < len(sockets) or steady_sent < steady_length):
            elapsed = time.monotonic() - opened
            for name, sock in sockets.items():
                if name in closed:
                    continue
                try:
                    if sock.recv(4096) == b"":
                        closed[name] = elapsed
                        continue
                except BlockingIOError:
                    pass
                except ConnectionError:
                    closed[name] = elapsed
                    continue
                if name == "slow header":
                    sock.send(b"X-Slow: 1\r\n")  # a header line every 0.25 s: still cut at 10 s
                elif name == "slow body":
                    sock.send(b" ")  # four bytes a second: far below the minimum rate
            due = min(steady_length, int(2 * MIN_BODY_RATE * elapsed))
            if due > steady_sent:
                steady.sendall(b" " * (due - steady_sent))
                steady_sent = due
            time.sleep(0.25)
        assert set(closed) == set(sockets), f"still open after {deadline - opened:.0f} s: {set(sockets) - set(closed)}"
        for name in ("silent", "slow header"):
            assert HEADER_TIMEOUT_S - 0.5 <= closed[name] <= HEADER_TIMEOUT_S + SLACK_S, (name, closed)
        assert BODY_GRACE_S - 0.5 <= closed["slow body"] <= BODY_GRACE_S + SLACK_S, closed
        assert steady_sent == steady_length
        steady.settimeout(5)
        first = steady.recv(4096)
        assert _status(first) == 400, f"a body at twice the minimum rate got {first[:80]!r}"  # not JSON: the app's 400
        for sock in (*sockets.values(), steady):
            sock.close()
        print(f"\nclosed after (s): {', '.join(f'{k} {v:.1f}' for k, v in closed.items())}; "
              f"a {steady_length:,}-byte body over {time.monotonic() - opened:.1f} s was answered")


def _multipart(field: str, filename: str, content: bytes, content_type: str) -> tuple[bytes, dict[str, str]]:
    boundary = "workbench-test-boundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\n"
            f"Content-Type: {content_type}\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}", "Accept": "application/json"}


@pytest.mark.slow
def test_a_16_mib_upload_and_an_import_over_loopback_are_read(data, tmp_path):
    with running_server(data, tmp_path / "instance") as server:
        # Not a picture: the app reads all of it, then refuses it.
        body, headers = _multipart("art", "big.png", os.urandom(16 * MIB - 4096), "image/png")
        started = time.monotonic()
        status, _, answer = http(server.url, "POST", "/games/seth/cards/glass-wasp/art", body, headers, timeout=60)
        upload_s = time.monotonic() - started
        assert status == 400, (status, answer[:200])
        csv = "id,name\n" + "".join(f"c{i},Card {i}\n" for i in range(2_000))
        body, headers = _multipart("file", "cards.csv", csv.encode(), "text/csv")
        started = time.monotonic()
        status, _, answer = http(server.url, "POST", "/games/seth/import", body, headers, timeout=60)
        import_s = time.monotonic() - started
        assert status == 200, (status, answer.decode(errors="replace").split("class=\"error")[-1][:300])
        print(f"\na 16 MiB upload was answered in {upload_s:.2f} s, a {len(body):,}-byte import in {import_s:.2f} s")


class Attack(SocketAttack):
    """``count`` sockets, each either silent (connects and never sends a byte) or a slow body
    (a header announcing ``length`` bytes, then a byte every ``every_s``), each reopened as soon
    as the server closes it. ``opened`` after the attack: sockets opened in all."""

    def __init__(self, url: str, count: int, header: bytes, every_s: float = 2.0, silent_share: float = 0.5) -> None:
        super().__init__(url, count, every_s)
        self.header = header
        self.kinds = ["silent" if i < count * silent_share else "body" for i in range(count)]

    def first_bytes(self, index: int) -> bytes:
        return self.header + b"{" if self.kinds[index] == "body" else b""

    def trickle(self, index: int) -> bytes:
        return b" " if self.kinds[index] == "body" else b""


def _probe_while_attacked(url: str, attack: Attack, real_client: str) -> tuple[list[float], float]:
    """/healthz every PROBE_EVERY_S for HOLD_S (a failed probe counts as 99 s), then a real
    client's page: (the probes' seconds, the page's seconds)."""
    with attack:
        assert sum(s is not None for s in attack.sockets) >= len(attack.sockets) * 0.9
        latencies = probe_health(url, HOLD_S, PROBE_EVERY_S)
        started = time.monotonic()
        status, _, _ = http(url, path=real_client, timeout=5)
        page_s = time.monotonic() - started
        assert status == 200, f"a real client got {status} during the attack"
        opened = attack.opened
    assert opened > len(attack.sockets) * 1.5, f"the server closed too few attack sockets ({opened} opened)"
    return latencies, page_s


def _limited_instance(instance: Path) -> Path:
    instance.mkdir(parents=True, exist_ok=True)
    (instance / "config.py").write_text(f"SERVER_CONNECTION_LIMIT = {LIMIT}\n")
    return instance


def _report(name: str, latencies: list[float], page_s: float, log: str) -> None:
    slow = [round(t, 2) for t in latencies if t >= PROBE_LIMIT_S]
    closes = [line for line in log.splitlines() if "closed connections" in line]
    print(f"\n{name}: {len(latencies) - len(slow)} of {len(latencies)} probes under {PROBE_LIMIT_S} s, "
          f"p50 {statistics.median(latencies) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms; "
          f"real client {page_s:.2f} s; {len(closes)} 'closed connections' lines, last: "
          f"{closes[-1][-160:] if closes else None}")
    assert not slow, f"{len(slow)} of {len(latencies)} probes took {PROBE_LIMIT_S} s or more: {slow[:10]}"
    assert closes and "to make room" in log, log[-2000:]
    assert "connection limit" not in log, "waitress reached its own limit"  # it logs twice a pass


@pytest.mark.slow
def test_local_server_answers_while_silent_sockets_and_slow_bodies_overfill_its_limit(data, tmp_path):
    instance = _limited_instance(tmp_path / "instance")
    with running_server(data, instance) as server:
        attack = Attack(server.url, int(LIMIT * 1.6), _body_header(server.url))
        latencies, page_s = _probe_while_attacked(server.url, attack, "/games/seth/cards")
        log = server.log_text()
    _report("local mode", latencies, page_s, log)


@pytest.mark.slow
def test_team_server_with_two_processes_answers_while_silent_sockets_and_slow_logins_overfill_it(data, tmp_path):
    instance = _limited_instance(tmp_path / "instance")
    add_users(instance)
    with running_server(data, instance, "--team", "--processes", "2") as server:
        # A stranger may send a body only to /login (at most 16 KiB): the slow bodies go there.
        header = _body_header(server.url, "/login", 16_000, "application/x-www-form-urlencoded")
        attack = Attack(server.url, int(2 * LIMIT * 1.6), header)
        latencies, page_s = _probe_while_attacked(server.url, attack, "/login")
        body = f"name=alice&password={PASSWORDS['alice']}".encode()
        status, _, _ = http(server.url, "POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"})
        assert status in (302, 400), status  # answered (400: no CSRF token), not cut
        log = server.log_text()
    _report("team mode, 2 processes", latencies, page_s, log)
