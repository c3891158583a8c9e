"""A cancelled playtest stops within seconds, and its worker processes never outlive the server,
on a real server.

Before, a cancel was seen only when a chunk of games finished: a run of search players with a
budget of 10,000 still said "running" with 0 games done 5.5 minutes after its cancel, its two
worker processes at 63 % CPU each, and after the server was stopped (SIGTERM) they played on,
adopted by init. Now a cancel kills the workers mid-chunk, and each worker dies with its server.
"""

from __future__ import annotations

import json
import signal
import sys
import time

import pytest

from tests.processes import spawned_workers, wait_gone
from tests.security.helpers import copy_data, http, running_server

# Answer-time bounds (a cancel within 5 s): run alone after the parallel part of ./scripts/test.
pytestmark = [pytest.mark.slow, pytest.mark.solo,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")]

# The run of the report: one search decision takes seconds, so no chunk finishes for minutes.
SEARCH_RUN = {"deck_a": "lie-yan-ji-feng", "deck_b": "pan-shi-chao-xi", "games": 100_000, "workers": 64,
              "agent_a": "search", "budget_a": "10000", "agent_b": "search", "budget_b": "10000"}


def _wait(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _start(url: str) -> str:
    status, _, body = http(url, "POST", "/games/fusion/playtest", SEARCH_RUN)
    assert status == 202, body
    return str(json.loads(body)["id"])


def _progress(url: str, run_id: str) -> dict:
    return json.loads(http(url, path=f"/api/games/fusion/playtests/{run_id}/progress")[2])


def test_a_cancelled_search_run_stops_within_seconds_and_leaves_no_worker(tmp_path):
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance") as server:
        run_id = _start(server.url)
        workers = _wait(lambda: spawned_workers(server.proc.pid), 30, "the run's worker processes")
        time.sleep(3)  # they are deep in their first chunk now
        assert _progress(server.url, run_id)["status"] == "running"
        status, _, body = http(server.url, "POST", f"/api/games/fusion/playtests/{run_id}/cancel", {})
        assert status == 200, body
        asked = time.monotonic()
        stopped = _wait(lambda: (p := _progress(server.url, run_id))["status"] != "running" and p, 10, "the cancel")
        assert stopped["status"] == "cancelled" and stopped["resumable"]
        assert time.monotonic() - asked < 5
        assert wait_gone(workers, 5) == [] and spawned_workers(server.proc.pid) == []
        assert http(server.url, path="/healthz")[0] == 200


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_the_workers_of_a_running_playtest_end_with_the_server(tmp_path, stop):
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance") as server:
        _start(server.url)
        workers = _wait(lambda: spawned_workers(server.proc.pid), 30, "the run's worker processes")
        server.proc.send_signal(stop)
        server.proc.wait(10)
        assert wait_gone(workers, 5) == [], "worker processes outlived the server"
