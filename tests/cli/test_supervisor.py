"""``workbench serve --processes 2``: two waitress workers on one port behave as one server.

A real server is started on a free port. Keep-alive connections stay with the worker that
accepted them, and ``/healthz`` names that worker, so a test can save through worker 1 and
read back through worker 2 (whose caches were warm before the save).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import time
import urllib.parse

import pytest

from tests.live_server import copy_data, running_server
from tests.security.helpers import CSRF_FIELD, add_users

# Answer-time bounds: run alone after the parallel part of ./scripts/test (see pyproject markers).
pytestmark = pytest.mark.solo

CARD = "/api/games/warzone/cards/ironbark-warden"


def _connect(url: str) -> http.client.HTTPConnection:
    parts = urllib.parse.urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)


def _get(conn: http.client.HTTPConnection, path: str, headers: dict | None = None):
    """(status, headers (case-insensitive), body text) of a GET on an open connection."""
    conn.request("GET", path, headers=headers or {})
    answer = conn.getresponse()
    return answer.status, answer.msg, answer.read().decode()


def _worker_of(conn: http.client.HTTPConnection) -> int:
    status, _, body = _get(conn, "/healthz")
    assert status == 200
    return int(json.loads(body)["worker"])


def connections_per_worker(url: str, workers: int = 2, tries: int = 60) -> dict[int, http.client.HTTPConnection]:
    """One open keep-alive connection to each worker (new connections land where they land)."""
    found: dict[int, http.client.HTTPConnection] = {}
    for _ in range(tries):
        conn = _connect(url)
        number = _worker_of(conn)
        if number in found:
            conn.close()
        else:
            found[number] = conn
        if len(found) == workers:
            return found
        time.sleep(0.02)
    raise AssertionError(f"only workers {sorted(found)} answered {tries} new connections")


def _children(pid: int) -> set[int]:
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.add(int(entry))
            except OSError:
                continue
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture
def two_workers(tmp_path):
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance", "--processes", "2", threads=2) as server:
        yield server


@pytest.mark.slow
def test_a_save_through_one_worker_shows_at_once_through_the_other(two_workers):
    url = two_workers.url
    conns = connections_per_worker(url)
    writer, reader = conns[1], conns[2]
    # Warm the reader's caches: the card, the gallery page and the card page.
    _, headers, body = _get(reader, CARD)
    card, version = json.loads(body)["card"], headers["ETag"]
    assert _get(reader, "/games/warzone/cards?per=96")[0] == 200
    assert "Ironbark Warden" in _get(reader, "/games/warzone/cards/ironbark-warden/edit")[2]

    card["name"], card["strength"] = "Ironbark Keeper", 750
    writer.request("PUT", CARD, body=json.dumps(card),
                   headers={"Content-Type": "application/json", "If-Match": version})
    saved = writer.getresponse()
    saved.read()
    assert saved.status == 200

    status, headers, body = _get(reader, CARD)
    assert status == 200 and json.loads(body)["card"]["name"] == "Ironbark Keeper"
    assert headers["ETag"] == saved.getheader("ETag")
    gallery = _get(reader, "/games/warzone/cards?per=96")[2]
    assert "Ironbark Keeper" in gallery and "Ironbark Warden" not in gallery
    assert "Ironbark Keeper" in _get(reader, "/games/warzone/cards/ironbark-warden/edit")[2]
    # Read back from many new connections too, whichever worker takes them.
    for _ in range(12):
        conn = _connect(url)
        assert json.loads(_get(conn, CARD)[2])["card"]["strength"] == 750
        conn.close()
    for conn in conns.values():
        conn.close()


@pytest.mark.slow
def test_sigterm_stops_every_worker_and_a_killed_worker_is_replaced(two_workers):
    parent = two_workers.proc
    workers = _children(parent.pid)
    assert len(workers) == 2
    victim = min(workers)
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (len(_children(parent.pid) - {victim}) < 2):
        time.sleep(0.1)
    replaced = _children(parent.pid) - {victim}
    assert len(replaced) == 2 and victim not in replaced
    assert set(connections_per_worker(two_workers.url)) == {1, 2}  # both answer again
    assert "worker_died" in two_workers.log_text()

    parent.send_signal(signal.SIGTERM)
    assert parent.wait(timeout=30) == 0
    assert not any(_alive(pid) for pid in replaced)
    assert "all workers stopped" in two_workers.log_text()


def _login(conn: http.client.HTTPConnection, password: str) -> int:
    status, headers, page = _get(conn, "/login")
    assert status == 200
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    token = CSRF_FIELD.search(page).group(1)
    form = urllib.parse.urlencode({"name": "alice", "password": password, "csrf_token": token})
    conn.request("POST", "/login", body=form, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    answer = conn.getresponse()
    answer.read()
    return answer.status


@pytest.mark.slow
def test_the_login_rate_limit_counts_failures_on_every_worker(tmp_path):
    data = copy_data(tmp_path / "card_data")
    add_users(tmp_path / "instance")
    with running_server(data, tmp_path / "instance", "--processes", "2", "--team", threads=2) as server:
        conns = connections_per_worker(server.url)
        for attempt in range(5):  # 5 failures, alternating workers: the limit is 5 per name and address
            assert _login(conns[1 + attempt % 2], "not-the-password") == 401
        assert _login(conns[1], "alice-designs-cards") == 429
        assert _login(conns[2], "alice-designs-cards") == 429


def test_processes_setting_is_checked(monkeypatch):
    from workbench.cli.cmd_serve import server_processes

    monkeypatch.delenv("WORKBENCH_PROCESSES", raising=False)
    assert server_processes(None, {}) == 1
    assert server_processes(None, {"TEAM_MODE": True}) == min(8, os.cpu_count() or 1)  # a team: every core
    assert server_processes(None, {"SERVER_PROCESSES": 3}) == 3
    assert server_processes(2, {"SERVER_PROCESSES": 3}) == 2  # the command line wins
    monkeypatch.setenv("WORKBENCH_PROCESSES", "4")
    assert server_processes(None, {}) == 4
    for bad in (0, 65, "two"):
        with pytest.raises(ValueError, match="server processes"):
            server_processes(bad, {})


@pytest.mark.slow
def test_a_burst_of_connections_is_shared_evenly_by_the_workers(two_workers):
    conns = [_connect(two_workers.url) for _ in range(16)]
    for conn in conns:  # all sixteen connected before any request, as a browser or load test does
        conn.connect()
    workers = [_worker_of(conn) for conn in conns]
    assert sorted(set(workers)) == [1, 2]
    assert abs(workers.count(1) - workers.count(2)) <= 2, workers
    for conn in conns:
        conn.close()


@pytest.mark.slow
def test_a_print_job_started_on_one_worker_is_followed_and_downloaded_on_the_other(two_workers):
    conns = connections_per_worker(two_workers.url)
    status, headers, page = _get(conns[1], "/games/seth/print")
    assert status == 200
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    token = re.search(r'<meta name="csrf-token" content="([^"]+)"', page).group(1)
    conns[1].request("POST", "/games/seth/print/jobs", body="what=all&paper=a4&backs=short", headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie, "X-CSRF-Token": token})
    started = conns[1].getresponse()
    job = json.loads(started.read())
    assert started.status == 202
    deadline = time.monotonic() + 90
    while job["state"] == "running":  # polled on the worker that is not rendering it
        assert time.monotonic() < deadline
        time.sleep(0.2)
        status, _, body = _get(conns[2], job["status_url"], {"Cookie": cookie})
        assert status == 200, body
        job = json.loads(body)
    assert job["state"] == "done", job
    conns[2].request("GET", job["download_url"], headers={"Cookie": cookie})
    download = conns[2].getresponse()
    assert download.status == 200 and download.read().startswith(b"%PDF")
