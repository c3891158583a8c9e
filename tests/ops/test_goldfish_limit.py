"""Goldfish runs play in the request, so a real server plays only one at a time per process.

Before, eight goldfish runs of the largest deck the input caps allow (fusion, ten cards x 999
copies, 300 games) at once took 150-178 s each and ``/healthz`` timed out for 150 s. Now one
plays (3 s) and the others are answered 429 with Retry-After at once, and the server stays healthy.
"""

from __future__ import annotations

import html
import re
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
import yaml

from tests.security.helpers import copy_data, http, running_server

# Answer-time bounds: run alone after the parallel part of ./scripts/test (see pyproject markers).
pytestmark = pytest.mark.solo

URL = "/games/fusion/playtest/goldfish"


def _largest_list(data: Path) -> str:
    names = [yaml.safe_load(p.read_text(encoding="utf-8"))["name"] for p in sorted((data / "fusion" / "cards").glob("*.yaml"))[:10]]
    return "\n".join(f"999 {name}" for name in names)


@pytest.mark.slow
def test_goldfish_runs_past_the_limit_are_refused_at_once_and_the_server_stays_healthy(tmp_path):
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance") as server:
        _, headers, body = http(server.url, path=URL)
        cookie = headers["set-cookie"].split(";")[0]  # the session, which holds the form token
        token = html.unescape(re.search(r'<meta name="csrf-token" content="([^"]+)"', body.decode()).group(1))
        form = urlencode({"csrf_token": token, "games": 300, "seed": 1, "text": _largest_list(data)}).encode()
        sent = {"Cookie": f"{cookie}; workbench_lang=en", "Content-Type": "application/x-www-form-urlencoded"}
        answers: list[tuple[int, dict, bytes, float]] = []

        def post() -> None:
            started = time.monotonic()
            status, got, text = http(server.url, "POST", URL, form, sent, timeout=120)
            answers.append((status, got, text, time.monotonic() - started))

        clients = [threading.Thread(target=post) for _ in range(6)]
        for client in clients:
            client.start()
        time.sleep(0.5)
        health = []
        while any(c.is_alive() for c in clients):
            started = time.monotonic()
            health.append((http(server.url, path="/healthz", timeout=30)[0], time.monotonic() - started))
            time.sleep(0.1)
        for client in clients:
            client.join()
    played = [a for a in answers if a[0] == 200]
    refused = [a for a in answers if a[0] == 429]
    assert len(played) + len(refused) == 6 and 1 <= len(played) <= 2, [a[0] for a in answers]
    assert all(b'id="goldfish-speed"' in a[2] for a in played)
    for _, got, text, seconds in refused:
        assert got["retry-after"] == "5" and seconds < 3
        assert b"as many goldfish runs as it plays at once (1 per server process)" in text
    assert health and all(status == 200 and seconds < 3 for status, seconds in health), health
