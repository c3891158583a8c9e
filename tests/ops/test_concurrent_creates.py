"""Fifty clients create a card or deck of one name at once (issue 13, item 16), on a real server.

The free id was looked up, then written, in two steps: 19 of 50 parallel creates got a spurious
409. Now each create without an id succeeds with an id of its own; one with an id given fails
only because that id is taken.
"""

from __future__ import annotations

import json

import pytest

from tests.ops.test_concurrency import _parallel
from tests.security.helpers import copy_data, http, running_server

CLIENTS = 50


@pytest.mark.slow
def test_fifty_parallel_creates_of_one_name_get_fifty_ids(tmp_path):
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance", threads=16) as server:

        def create_card(_i: int) -> tuple[int, str | None]:
            status, _, body = http(server.url, "POST", "/api/games/seth/cards",
                                   {"name": "Swarm Wasp", "kind": "monster"})
            return status, json.loads(body).get("id") if status == 201 else body.decode()[:200]

        def create_deck(_i: int) -> tuple[int, str | None]:
            status, _, body = http(server.url, "POST", "/api/games/seth/decks",
                                   {"name": "Swarm", "zones": {}})
            return status, json.loads(body).get("id") if status == 201 else body.decode()[:200]

        for work, folder in ((create_card, "cards"), (create_deck, "decks")):
            results = _parallel(CLIENTS, work)
            assert not [r for r in results if isinstance(r, Exception)], results
            refused = [r for r in results if r[0] != 201]
            assert not refused, f"{len(refused)} of {CLIENTS} creates failed: {refused[:3]}"
            ids = {item_id for _, item_id in results}
            assert len(ids) == CLIENTS, f"only {len(ids)} distinct ids"
            base = "swarm-wasp" if folder == "cards" else "swarm"
            assert ids == {base} | {f"{base}-{n}" for n in range(2, CLIENTS + 1)}
            assert all((data / "seth" / folder / f"{i}.yaml").is_file() for i in ids)

        # With the id given, exactly one create wins and the others hear that it exists.
        def create_given(_i: int) -> int:
            return http(server.url, "POST", "/api/games/seth/cards",
                        {"id": "one-wasp", "name": "One Wasp", "kind": "monster"})[0]

        statuses = _parallel(CLIENTS, create_given)
        assert sorted(statuses) == [201] + [409] * (CLIENTS - 1), statuses
