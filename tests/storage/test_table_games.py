"""Saved game tables: capped per game, the oldest replays making room first."""

from __future__ import annotations

import pytest

from workbench.storage import table_games
from workbench.storage.table_games import TableLimit, TableStore


def table(n: int, kind: str = "game") -> dict:
    return {"id": f"20261201-10{n // 60:02d}{n % 60:02d}-000{n:04x}"[-23:], "kind": kind, "actions": []}


def ids(n: int) -> str:
    return table(n)["id"]


def test_at_the_cap_the_oldest_replays_make_room_and_games_are_kept(repo, monkeypatch):
    monkeypatch.setattr(table_games, "MAX_TABLES", 4)
    store = TableStore(repo)
    store.save("seth", table(0, "game"))
    store.save("seth", table(1, "replay"))
    store.save("seth", table(2, "replay"))
    store.save("seth", table(3, "game"))
    store.save("seth", table(4, "game"))  # the 5th: the oldest replay goes
    kept = {t["id"] for t in store.list("seth", every_owner=True)}
    assert kept == {ids(0), ids(2), ids(3), ids(4)}
    store.save("seth", table(5, "game"))
    assert {t["id"] for t in store.list("seth", every_owner=True)} == {ids(0), ids(3), ids(4), ids(5)}


def test_a_game_full_of_played_games_refuses_a_new_table_with_the_limit_named(repo, monkeypatch):
    monkeypatch.setattr(table_games, "MAX_TABLES", 2)
    store = TableStore(repo)
    store.save("seth", table(0))
    store.save("seth", table(1))
    with pytest.raises(TableLimit, match="already has 2 saved tables"):
        store.save("seth", table(2))
    store.save("seth", dict(table(1), actions=[{"x": 1}]))  # saving a move on an existing table still works
    assert store.get("seth", ids(1))["actions"] == [{"x": 1}]
    store.delete("seth", ids(0))
    store.save("seth", table(2))
    assert len(store.list("seth", every_owner=True)) == 2


def test_the_web_form_names_the_limit(client, repo, monkeypatch):
    monkeypatch.setattr(table_games, "MAX_TABLES", 1)
    from tests.web.pages_helpers import page_token

    token = page_token(client, "/games/seth/play")
    form = {"csrf_token": token, "deck_you": "rot-and-stone", "deck_opponent": "skyburn-blitz", "opponent": "random"}
    assert client.post("/games/seth/play", data=form).status_code == 303
    answer = client.post("/games/seth/play", data=form)
    assert answer.status_code == 400
    assert "already has 1 saved tables" in answer.get_data(as_text=True)
