"""Playtests are limited per server and per user, and the viewer policy for runs is one rule
(issue 13, items 4 and 17), on a real team server.

Before, any number of runs could play, each with up to 64 worker processes, a viewer could cancel
a designer's run, and the gauntlet the docs offer viewers was refused them. Now: at most
PLAYTEST_MAX_RUNS (2) runs play on the server and PLAYTEST_MAX_RUNS_PER_USER (1) per account, a
refused start answers 429 with why and Retry-After, a run gets at most the machine's cores as
workers, and viewers start runs of every kind but cancel or resume only their own.
"""

from __future__ import annotations

import json
import os
import re
import time
from urllib.parse import urlencode

import pytest

from tests.security.helpers import PASSWORDS, TEST_HASH, add_users, copy_data, http, running_server
from workbench.storage.users import UserStore

LONG = 100_000  # games: the runs must still be playing while the test looks at them


class Browser:
    """A logged-in account talking to the server as a script does (cookie and CSRF token)."""

    def __init__(self, url: str, name: str, password: str) -> None:
        self.url = url
        body = urlencode({"name": name, "password": password}).encode()
        status, headers, _ = http(url, "POST", "/login", body, {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 302, status
        self.cookie = headers["set-cookie"].split(";")[0]
        self.token = json.loads(http(url, path="/api/csrf", headers={"Cookie": self.cookie})[2])["csrf_token"]

    def post(self, path: str, body: dict | None = None, form: dict | None = None):
        headers = {"Cookie": self.cookie, "X-CSRF-Token": self.token}
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            return http(self.url, "POST", path, urlencode(form).encode(), headers)
        return http(self.url, "POST", path, body if body is not None else {}, headers)

    def start(self, workers: int = 64):
        return self.post("/games/seth/playtest", {"deck_a": "rot-and-stone", "deck_b": "skyburn-blitz",
                                                   "games": LONG, "seed": 1, "workers": workers})

    def progress(self, run_id: str) -> dict:
        return json.loads(http(self.url, path=f"/api/games/seth/playtests/{run_id}/progress",
                               headers={"Cookie": self.cookie})[2])

    def cancel(self, run_id: str) -> int:
        return self.post(f"/api/games/seth/playtests/{run_id}/cancel")[0]


def _wait_stopped(browser: Browser, run_id: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if browser.progress(run_id)["status"] != "running":
            return
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} did not stop")


@pytest.mark.slow
def test_runs_are_limited_per_server_and_user_and_viewers_control_only_their_own(tmp_path):
    data = copy_data(tmp_path / "card_data")
    instance = tmp_path / "instance"
    add_users(instance)
    UserStore(instance, hash_method=TEST_HASH).add("dan", "designer", "dan-designs-too-ok")
    with running_server(data, instance, "--team", "--processes", "2") as server:
        alice = Browser(server.url, "alice", PASSWORDS["alice"])
        vera = Browser(server.url, "vera", PASSWORDS["vera"])
        dan = Browser(server.url, "dan", "dan-designs-too-ok")
        started: list[tuple[Browser, str]] = []
        try:
            # A viewer may start a gauntlet (the docs allow it; it was refused with 403).
            status, headers, body = vera.post("/games/seth/playtest/gauntlet",
                                              form={"deck": "rot-and-stone", "games": LONG, "seed": 1,
                                                    "workers": 64, "csrf_token": vera.token})
            assert status == 303, (status, body[:300])
            gauntlet = re.search(r"/playtests/([0-9a-f-]+)$", headers["location"]).group(1)
            started.append((vera, gauntlet))

            # One run per account: vera's second start is refused with why and when to retry.
            status, headers, body = vera.start()
            assert status == 429, (status, body[:300])
            error = json.loads(body)["error"]
            assert "PLAYTEST_MAX_RUNS_PER_USER = 1" in error and "Try again" in error and gauntlet in error
            assert int(headers["retry-after"]) >= 1

            # Alice's run gets at most this machine's cores as workers, whatever she asks.
            status, _, body = alice.start(workers=64)
            assert status == 202, body[:300]
            run = json.loads(body)["id"]
            started.append((alice, run))
            spec = json.loads((data / "seth/playtests/live" / f"{run}.spec.json").read_text())
            assert spec["workers"] == os.cpu_count()
            assert alice.progress(run)["by"] == "alice"

            # Two runs play: the server's limit refuses a third account too.
            status, headers, body = dan.start()
            assert status == 429, (status, body[:300])
            assert "PLAYTEST_MAX_RUNS = 2" in json.loads(body)["error"]
            assert int(headers["retry-after"]) >= 1

            # A viewer cancels only her own run; a designer's is refused with a reason.
            status, _, body = vera.post(f"/api/games/seth/playtests/{run}/cancel")
            assert status == 403 and b"only the playtests they started" in body
            assert alice.progress(run)["status"] == "running"
            assert vera.cancel(gauntlet) == 200
            _wait_stopped(vera, gauntlet)

            # With a run slot free again, dan starts, and a designer may cancel anyone's run.
            status, _, body = dan.start()
            assert status == 202, body[:300]
            started.append((dan, json.loads(body)["id"]))
            assert alice.cancel(started[-1][1]) == 200
        finally:
            for owner, run_id in started:
                owner.cancel(run_id)
