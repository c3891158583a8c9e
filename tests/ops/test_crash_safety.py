"""SIGKILL a real server while clients save in a loop: every file still parses and holds the old
or the new version, every acknowledged save is there, and the next start sweeps temp files."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from http.client import HTTPException

import pytest

from tests.security.helpers import copy_data, http, running_server
from workbench.storage.repository import Repository, content_version
from workbench.storage.yamlio import parse_yaml

CARDS = ["glass-wasp", "bog-lurker", "cinder-imp", "ashen-drake"]
DECK = "skyburn-blitz"


class Writer(threading.Thread):
    """Saves one card (or deck) again and again; remembers what was acknowledged and what was in flight."""

    def __init__(self, url: str, path: str, key: str, payload: dict, version: str) -> None:
        super().__init__(daemon=True)
        self.url, self.path, self.key = url, path, key
        self.payload, self.version = payload, version
        self.acked: list[tuple[int, str]] = []  # (counter, version) the server answered 200 for
        self.in_flight: int | None = None
        self.stop = threading.Event()

    def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            n += 1
            self.in_flight = n
            body = dict(self.payload, **{self.key: f"save {n}"})
            try:
                status, headers, _ = http(self.url, "PUT", self.path, body, {"If-Match": self.version}, timeout=10)
            except (OSError, HTTPException):  # killed mid-answer: IncompleteRead
                return  # the server is gone; this save may or may not have landed
            if status != 200:
                return
            self.version = headers["etag"]
            self.acked.append((n, self.version.strip('"')))
            self.in_flight = None


class Creator(threading.Thread):
    """Creates new cards one after another; remembers which ones were acknowledged."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.acked: list[str] = []
        self.stop = threading.Event()

    def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            n += 1
            card_id = f"crash-card-{n}"
            try:
                status, _, _ = http(self.url, "POST", "/api/games/seth/cards",
                                    {"id": card_id, "name": f"Crash Card {n}", "kind": "monster"}, timeout=10)
            except (OSError, HTTPException):  # killed mid-answer: IncompleteRead
                return
            if status != 201:
                return
            self.acked.append(card_id)


@pytest.mark.slow
def test_sigkill_during_saves_loses_nothing_acknowledged(tmp_path):
    data = copy_data(tmp_path / "card_data")
    instance = tmp_path / "instance"
    writers: list[Writer] = []
    with running_server(data, instance) as server:
        for card in CARDS:
            _, headers, body = http(server.url, path=f"/api/games/seth/cards/{card}")
            writers.append(Writer(server.url, f"/api/games/seth/cards/{card}", "flavor",
                                  json.loads(body)["card"], headers["etag"]))
        _, headers, body = http(server.url, path=f"/api/games/seth/decks/{DECK}")
        writers.append(Writer(server.url, f"/api/games/seth/decks/{DECK}", "notes",
                              json.loads(body)["deck"], headers["etag"]))
        creator = Creator(server.url)
        for thread in [*writers, creator]:
            thread.start()
        deadline = time.monotonic() + 30
        while sum(len(w.acked) for w in writers) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        os.kill(server.proc.pid, signal.SIGKILL)  # no clean-up of any kind
        server.proc.wait(timeout=10)
        for thread in [*writers, creator]:
            thread.stop.set()
            thread.join(timeout=15)
    assert sum(len(w.acked) for w in writers) >= 40, "too few saves before the kill to prove anything"

    repo = Repository(data)
    for game in repo.list_games():  # every card and deck file parses (non-tolerant listing)
        assert repo.list_cards(game) and repo.list_decks(game)
    for writer in writers:
        raw = (data / f"seth/{writer.path.split('/')[-2]}/{writer.path.split('/')[-1]}.yaml").read_bytes()
        counter = int(parse_yaml(raw)[writer.key].split()[-1])
        last_acked, last_version = writer.acked[-1]
        # The newest acknowledged save, or the one in flight when the server died: nothing else.
        assert counter in {last_acked, writer.in_flight}, (writer.path, counter, last_acked, writer.in_flight)
        if counter == last_acked:
            assert content_version(raw) == last_version
    for card_id in creator.acked:
        assert repo.get_card("seth", card_id).data["name"].startswith("Crash Card")

    # The next start sweeps temp files left by writes the kill interrupted (one is planted, in
    # case the kill happened to fall between two writes).
    (data / "seth/cards/.tmp-planted.part").write_bytes(b"name: half writ")
    with running_server(data, instance) as server:
        assert http(server.url, path="/healthz")[0] == 200
        assert not list(data.rglob(".tmp-*"))
        status, _, body = http(server.url, path="/api/games/seth/cards")
        assert status == 200 and json.loads(body)["unreadable"] == []
