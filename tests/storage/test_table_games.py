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


def test_one_account_cannot_fill_the_game_for_everyone(repo, monkeypatch):
    """Another account's tables are invisible (404), so before the per-account cap one viewer's
    500 tables (9 s of creates on a real server) stopped every account starting a table in that
    game until someone deleted the files by hand."""
    monkeypatch.setattr(table_games, "MAX_TABLES_PER_ACCOUNT", 2)
    store = TableStore(repo)
    store.save("seth", dict(table(0, "replay"), owner="mallory"))
    store.save("seth", dict(table(1), owner="mallory"))
    store.save("seth", dict(table(2), owner="mallory"))  # the account's oldest replay makes room
    assert {t["id"] for t in store.list("seth", "mallory")} == {ids(1), ids(2)}
    with pytest.raises(TableLimit, match="you already have 2 saved tables of game 'seth', the most one account keeps"):
        store.save("seth", dict(table(3), owner="mallory"))
    store.save("seth", dict(table(2), owner="mallory", actions=[{"x": 1}]))  # moves on a kept table still save
    store.save("seth", dict(table(4), owner="alice"))  # another account is not held up
    for n in range(5, 8):  # tables without a login (local mode) count only towards MAX_TABLES
        store.save("seth", table(n))
    assert len(store.list("seth")) == 3


def test_creates_at_once_do_not_pass_the_cap(repo, monkeypatch):
    """Counting and writing are one step: 4 clients creating at once on a real server left 501
    tables of a game (and 101 of one account) before."""
    import threading

    monkeypatch.setattr(table_games, "MAX_TABLES", 5)
    store = TableStore(repo)
    real_files = store._table_files
    barrier = threading.Barrier(12)

    def counted_together(game):  # every create counts before any of them writes
        files = real_files(game)
        try:
            barrier.wait(timeout=0.5)
        except threading.BrokenBarrierError:
            pass
        return files

    monkeypatch.setattr(store, "_table_files", counted_together)
    refused = []

    def create(n):
        try:
            store.save("seth", table(n))
        except TableLimit:
            refused.append(n)

    threads = [threading.Thread(target=create, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(real_files("seth")) == 5 and len(refused) == 7
