"""Many clients at once against a real waitress server: one winner per version, nothing torn."""

from __future__ import annotations

import json
import threading

import pytest

from tests.security.helpers import copy_data, http, running_server
from workbench.storage.repository import Repository
from workbench.storage.yamlio import parse_yaml

CLIENTS = 50


def _parallel(count: int, work) -> list:
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work(i)
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


@pytest.mark.slow
def test_fifty_clients_saving_one_card_with_one_version(tmp_path):
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance") as server:
        status, headers, body = http(server.url, path="/api/games/seth/cards/glass-wasp")
        card = json.loads(body)["card"]
        version = headers["etag"]

        def save(i: int) -> tuple[int, dict]:
            status, _, answer = http(server.url, "PUT", "/api/games/seth/cards/glass-wasp",
                                     dict(card, flavor=f"client {i} was here"), {"If-Match": version})
            return status, json.loads(answer) if answer else {}

        results = _parallel(CLIENTS, save)
        assert not [r for r in results if isinstance(r, Exception)], results
        statuses = sorted(s for s, _ in results)
        assert statuses.count(200) == 1 and statuses.count(412) == CLIENTS - 1, statuses
        winner = next(body for s, body in results if s == 200)
        assert all("current_version" in body for s, body in results if s == 412)

        stored = parse_yaml((data / "seth/cards/glass-wasp.yaml").read_bytes())
        assert stored == winner["card"] and stored["flavor"].startswith("client ")
        assert http(server.url, path="/healthz")[0] == 200
    updates = [e for e in Repository(data).audit.entries() if e["id"] == "glass-wasp"]
    assert len(updates) == 1 and updates[0]["old_version"] == version.strip('"')


@pytest.mark.slow
def test_concurrent_saves_to_different_cards_all_succeed(tmp_path):
    data = copy_data(tmp_path / "card_data")
    repo = Repository(data)
    cards = repo.list_cards("warzone")[:40]
    with running_server(data, tmp_path / "instance") as server:

        def save(i: int) -> int:
            item = cards[i]
            status, _, _ = http(server.url, "PUT", f"/api/games/warzone/cards/{item.id}",
                                dict(item.data, flavor=f"edited by client {i}"), {"If-Match": f'"{item.version}"'})
            return status

        def create(i: int) -> int:
            status, _, _ = http(server.url, "POST", "/api/games/seth/cards",
                                {"id": f"new-card-{i}", "name": f"New Card {i}", "kind": "monster"})
            return status

        assert _parallel(len(cards), save) == [200] * len(cards)
        assert _parallel(CLIENTS, create) == [201] * CLIENTS
    fresh = Repository(data)
    for i, item in enumerate(cards):
        assert fresh.get_card("warzone", item.id).data["flavor"] == f"edited by client {i}"
    assert {f"new-card-{i}" for i in range(CLIENTS)} <= {c.id for c in fresh.list_cards("seth")}
    assert not list(data.rglob(".tmp-*"))
