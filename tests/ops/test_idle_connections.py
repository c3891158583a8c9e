"""Idle and half-open connections must not stop a real server (issue 13, item 1).

An attacker opens many sockets, sends a partial request header on each and one more header line
every 10 s, and opens a new socket whenever the server closes one. Waitress's defaults (100
connections, 120 s idle timeout) let about 100 such sockets stop the server answering anyone.
Held for 30 s with 200 sockets, ``/healthz`` must answer every probe in under 1 s and a real
client must be served, in local mode and in team mode.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.ops.slow_clients import SocketAttack, probe_health
from tests.security.helpers import add_users, copy_data, http, running_server

# Answer-time bounds: run alone after the parallel part of ./scripts/test (see pyproject markers).
pytestmark = pytest.mark.solo

SOCKETS = 200
HOLD_S = 20.0  # twice the header deadline: every socket is cut and reopened under the probes
LINE_EVERY_S = 10.0
PROBE_EVERY_S = 0.5
LIMIT_S = 1.0
PARTIAL = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow\r\n"


class SlowClients(SocketAttack):
    """``count`` sockets that each keep a request header open: one more line every ``every_s``,
    and a fresh socket (with the partial header again) whenever the server closes one."""

    def first_bytes(self, index: int) -> bytes:
        return PARTIAL

    def trickle(self, index: int) -> bytes:
        return b"X-Slow: 1\r\n"


def _probe_while_attacked(url: str, real_client: str) -> list[float]:
    """Probe /healthz every PROBE_EVERY_S for HOLD_S under the attack; each probe's seconds
    (a refused or timed-out probe counts as 99 s). The real client is served at the end."""
    with SlowClients(url, SOCKETS, LINE_EVERY_S) as attack:
        open_sockets = sum(s is not None for s in attack.sockets)
        assert open_sockets >= SOCKETS * 0.9, f"only {open_sockets} attack sockets could connect"
        latencies = probe_health(url, HOLD_S, PROBE_EVERY_S)
        started = time.monotonic()
        status, _, _ = http(url, path=real_client, timeout=5)
        assert status == 200, f"a real client got {status} during the attack"
        assert time.monotonic() - started < 5
    return latencies


@pytest.mark.slow
def test_local_server_answers_while_200_sockets_hold_partial_headers(tmp_path):
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance") as server:
        latencies = _probe_while_attacked(server.url, "/games/seth/cards")
    slow = [round(t, 2) for t in latencies if t >= LIMIT_S]
    assert not slow, f"{len(slow)} of {len(latencies)} probes took 1 s or more: {slow[:10]}"


@pytest.mark.slow
def test_team_server_answers_while_200_sockets_hold_partial_headers(tmp_path):
    data = copy_data(tmp_path / "card_data")
    instance = tmp_path / "instance"
    add_users(instance)
    with running_server(data, instance, "--team") as server:
        latencies = _probe_while_attacked(server.url, "/login")
    slow = [round(t, 2) for t in latencies if t >= LIMIT_S]
    assert not slow, f"{len(slow)} of {len(latencies)} probes took 1 s or more: {slow[:10]}"


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads CPU times from /proc (Linux)")
def test_an_idle_server_with_two_workers_does_not_spin(tmp_path):
    """The wake-up that keeps balanced workers listening must not cost an idle server CPU (a
    loop timeout of 0.1 s, cast to 0 by waitress, once made each worker spin)."""
    data = copy_data(tmp_path / "card_data")
    instance = tmp_path / "instance"
    add_users(instance)
    with running_server(data, instance, "--team", "--processes", "2") as server:
        time.sleep(2)
        children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text().split()
        assert len(children) == 2, children
        before = sum(_cpu_seconds(int(pid)) for pid in children)
        time.sleep(10)
        used = sum(_cpu_seconds(int(pid)) for pid in children) - before
    assert used < 0.5, f"two idle workers used {used:.2f} CPU s in 10 s"
