"""A replay of a search player's game is never started by a GET, and only a few run at once."""

from __future__ import annotations

import threading

import pytest

from tests.web.pages_helpers import page_token
from tests.web.test_playtest_views import start, wait_done
from workbench.web import playtest_views, replay_slots


def test_only_random_and_heuristic_games_count_as_cheap():
    assert replay_slots.replay_is_cheap(["heuristic", "random"])
    assert not replay_slots.replay_is_cheap(["search:8", "heuristic"])
    assert not replay_slots.replay_is_cheap(["heuristic", "montecarlo"])
    assert not replay_slots.replay_is_cheap(["search:x"])  # unparsable: the POST path reports it


def test_a_get_of_a_search_game_offers_a_button_and_plays_nothing(client, monkeypatch):
    token = page_token(client, "/games/seth/playtest")
    run_id = start(client, token, agent_a="search", agent_b="heuristic", games="2")
    assert wait_done(client, "seth", run_id, timeout=120)["status"] == "done"

    played: list[int] = []
    real_play_one = playtest_views.play_one
    monkeypatch.setattr(playtest_views, "play_one", lambda *a, **k: played.append(1) or real_play_one(*a, **k))
    page = client.get(f"/games/seth/playtests/{run_id}/games/1")
    body = page.get_data(as_text=True)
    assert page.status_code == 200 and played == []
    assert 'id="replay-play"' in body and 'method="post"' in body and 'id="replay-log"' not in body

    replayed = client.post(f"/games/seth/playtests/{run_id}/games/1", data={"csrf_token": page_token(client, f"/games/seth/playtests/{run_id}/games/1")})
    text = replayed.get_data(as_text=True)
    assert replayed.status_code == 200 and played == [1]
    run = client.get(f"/api/games/seth/playtests/{run_id}").get_json()
    assert str(run["report"]["records"][1]["seed"]) in text and 'id="replay-log"' in text


def test_a_post_without_the_form_token_is_refused(client):
    token = page_token(client, "/games/seth/playtest")
    run_id = start(client, token, games="2")
    wait_done(client, "seth", run_id)
    assert client.post(f"/games/seth/playtests/{run_id}/games/0").status_code in (400, 403)


def test_replays_past_the_server_limit_are_refused_with_retry_after(client, monkeypatch):
    token = page_token(client, "/games/seth/playtest")
    run_id = start(client, token, games="2")
    wait_done(client, "seth", run_id)
    form_token = page_token(client, f"/games/seth/playtests/{run_id}/games/0")
    monkeypatch.setattr(replay_slots, "_slots", threading.BoundedSemaphore(1))
    with replay_slots.replay_slot():  # another client's replay holds the only slot
        busy = client.post(f"/games/seth/playtests/{run_id}/games/0", data={"csrf_token": form_token})
    assert busy.status_code == 429 and busy.headers["Retry-After"] == str(replay_slots.RETRY_AFTER_SECONDS)
    assert "replays are already being played" in busy.get_data(as_text=True)
    again = client.post(f"/games/seth/playtests/{run_id}/games/0", data={"csrf_token": form_token})
    assert again.status_code == 200


@pytest.mark.parametrize("index", [2, 99])
def test_a_game_past_the_run_is_404_on_post_too(client, index):
    token = page_token(client, "/games/seth/playtest")
    run_id = start(client, token, games="2")
    wait_done(client, "seth", run_id)
    answer = client.post(f"/games/seth/playtests/{run_id}/games/{index}", data={"csrf_token": token})
    assert answer.status_code == 404


def test_opening_a_search_game_on_the_table_also_needs_a_free_slot(client, monkeypatch):
    token = page_token(client, "/games/seth/playtest")
    run_id = start(client, token, agent_a="search", agent_b="heuristic", games="2")
    assert wait_done(client, "seth", run_id, timeout=120)["status"] == "done"
    form_token = page_token(client, f"/games/seth/playtests/{run_id}/games/0")
    monkeypatch.setattr(replay_slots, "_slots", threading.BoundedSemaphore(1))
    url = f"/games/seth/playtests/{run_id}/games/0/table"
    with replay_slots.replay_slot():
        busy = client.post(url, data={"csrf_token": form_token})
    assert busy.status_code == 429 and "Retry-After" in busy.headers
    assert client.post(url, data={"csrf_token": form_token}).status_code == 303


def test_a_get_replay_of_a_cheap_game_also_needs_a_free_slot(client, monkeypatch):
    """A random player's game with decks at the caps re-plays in seconds: GETs are bounded too."""
    token = page_token(client, "/games/seth/playtest")
    run_id = start(client, token, games="2")
    wait_done(client, "seth", run_id)
    monkeypatch.setattr(replay_slots, "_slots", threading.BoundedSemaphore(1))
    with replay_slots.replay_slot():  # another client's replay holds the only slot
        busy = client.get(f"/games/seth/playtests/{run_id}/games/0")
    assert busy.status_code == 429 and busy.headers["Retry-After"] == str(replay_slots.RETRY_AFTER_SECONDS)
    assert client.get(f"/games/seth/playtests/{run_id}/games/0").status_code == 200


def _replay_table(client) -> str:
    """A replay table of game 0 of a small seth run (random and heuristic players)."""
    token = page_token(client, "/games/seth/playtest")
    run_id = start(client, token, games="2")
    wait_done(client, "seth", run_id)
    answer = client.post(f"/games/seth/playtests/{run_id}/games/0/table", data={"csrf_token": token})
    assert answer.status_code == 303
    return answer.headers["Location"].rsplit("/", 1)[1]


def test_a_replay_table_keeps_its_turns_and_opens_replaying_only_the_step_shown(client, monkeypatch):
    from tests.web.pages_helpers import json_block
    from workbench.services import table as tables
    from workbench.web import play_views

    table_id = _replay_table(client)
    kept = play_views._store().get("seth", table_id)
    whole = tables.replay(kept, track=True)
    assert kept["turns"] == whole.turns and len(kept["turns"]) == len(kept["actions"]) + 1

    replayed: list[int | None] = []
    real_replay = tables.replay
    monkeypatch.setattr(tables, "replay", lambda table, upto=None, **k: replayed.append(upto) or real_replay(table, upto, **k))
    page = client.get(f"/games/seth/play/{table_id}")
    assert page.status_code == 200
    assert json_block(page.get_data(as_text=True), "pt-initial")["turns"] == whole.turns
    assert replayed == [0], "the page opens at step 0 and replays nothing more"


def test_the_views_and_moves_of_a_long_table_need_a_free_slot(client, monkeypatch):
    """A table past HEAVY_TABLE_DECISIONS re-plays for seconds at each view: its page, its state
    and its changes hold a replay slot (429 with Retry-After and the limit named when none is
    free); a shorter table is never held up."""
    from tests.web.test_play_views import post, start as start_table, token_of

    short = start_table(client, "seth")
    long = _replay_table(client)
    monkeypatch.setattr(replay_slots, "_slots", threading.BoundedSemaphore(1))
    monkeypatch.setattr(replay_slots, "HEAVY_TABLE_DECISIONS", 3)  # the replay's game is longer
    with replay_slots.replay_slot():  # another client's replay holds the only slot
        page = client.get(f"/games/seth/play/{long}")
        view = client.get(f"/games/seth/play/{long}/state", query_string={"step": 2})
        move = client.post(f"/games/seth/play/{long}/undo", json={"step": 1}, headers={"X-CSRF-Token": token_of(client)})
        assert client.get(f"/games/seth/play/{short}").status_code == 200
        assert post(client, "seth", short, "advance", {"expect": 0})["decisions"] >= 0
    assert page.status_code == 429 and page.headers["Retry-After"] == str(replay_slots.RETRY_AFTER_SECONDS)
    assert "replays are already being played" in page.get_data(as_text=True)
    for answer in (view, move):
        assert answer.status_code == 429 and answer.headers["Retry-After"] == str(replay_slots.RETRY_AFTER_SECONDS)
        assert "replays are already being played" in answer.get_json()["error"]
    assert client.get(f"/games/seth/play/{long}").status_code == 200
    assert client.get(f"/games/seth/play/{long}/state", query_string={"step": 2}).status_code == 200
