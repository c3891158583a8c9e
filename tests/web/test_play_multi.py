"""The game table with three and four fusion players (RULES.md §3.9): AI opponents, what each
seat sees, and a pod's playtest game replayed on the table."""

from __future__ import annotations

import random
import re

import pytest

from tests.web.pages_helpers import json_block, page_token
from tests.web.test_play_views import play_out, post, start, state
from workbench.domain.engines import load_engine
from workbench.services import table as tables

A, B = "lie-yan-ji-feng", "pan-shi-chao-xi"


@pytest.fixture(autouse=True)
def english(client):  # type: ignore[no-untyped-def]
    """Fusion's pages open in Chinese; these tests read the English words (test_i18n_pages the Chinese)."""
    client.set_cookie("workbench_lang", "en")


def engine_places(table: dict) -> tuple:
    """Replay the table file's decisions straight through the engine (no table code)."""
    engine = load_engine(table["engine"])
    game = engine.new_seated(tables.decks_of(table), dict(table["options"]), int(table["seed"]))
    for decision in table["actions"]:
        ((p, (kind, args)),) = decision["by"].items()
        args = tables.from_data(args)
        game.apply(next(a for a in game.legal_actions(int(p)) if a.kind == kind and a.args == args))
    result = game.result()
    return result.winner, result.turns, result.places


def test_the_form_offers_more_players_for_fusion_only(client):
    body = client.get("/games/fusion/play").get_data(as_text=True)
    assert 'id="players"' in body and 'name="deck_opponent_2"' in body and 'name="deck_opponent_3"' in body
    assert 'id="players"' not in client.get("/games/seth/play").get_data(as_text=True)


def test_a_three_player_game_against_two_ai_players_plays_to_the_end(client):
    table_id = start(client, "fusion", players="3", deck_opponent_2=A, opponent="heuristic")
    page = client.get(f"/games/fusion/play/{table_id}").get_data(as_text=True)
    assert page.count('class="pt-side ') == 3 and "<script>" not in page
    view = state(client, "fusion", table_id)
    assert len(view["board"]["players"]) == 3 and view["seat"] == 0 and len(view["labels"]) == 3
    for other in view["board"]["players"][1:]:  # both opponents' hands are counts only
        assert not other["you"] and all(c.get("hidden") for c in other["zone"]["hand"]["cards"])
    table = client.get(f"/games/fusion/play/{table_id}.json").get_json()
    assert [s["player"] for s in table["seats"]] == ["human", "heuristic", "heuristic"]
    view = play_out(client, "fusion", table_id, random.Random(5))
    table = client.get(f"/games/fusion/play/{table_id}.json").get_json()
    winner, turns, places = engine_places(table)
    assert len(places) == 3
    assert view["result"]["winner"] == winner and view["result"]["turns"] == turns
    assert view["status"].startswith("Game over")


def test_four_players_and_hot_seat_is_for_two(client):
    table_id = start(client, "fusion", players="4", seat="second")
    table = client.get(f"/games/fusion/play/{table_id}.json").get_json()
    assert [s["player"] for s in table["seats"]] == ["random", "human", "random", "random"]
    assert state(client, "fusion", table_id)["seat"] == 1
    token = page_token(client, "/games/fusion/play")
    answer = client.post("/games/fusion/play", data={"csrf_token": token, "deck_you": A, "deck_opponent": B,
                                                     "opponent": "human", "players": "3", "seat": "first"})
    assert answer.status_code == 400 and "two-player games" in answer.get_data(as_text=True)


def test_a_pod_game_opens_on_the_table_with_every_seat(client):
    from tests.web.test_playtest_views import wait_done

    client.set_cookie("workbench_lang", "en")
    token = page_token(client, "/games/fusion/playtest")
    answer = client.post("/games/fusion/playtest", data={
        "csrf_token": token, "deck_a": A, "deck_b": B, "players": "3", "agent_a": "random", "agent_b": "random",
        "games": "3", "seed": "4", "workers": "1"})
    run_id = re.search(r"/playtests/([0-9a-f-]+)$", answer.headers["Location"]).group(1)
    assert wait_done(client, "fusion", run_id)["status"] == "done"
    replay = client.get(f"/games/fusion/playtests/{run_id}/games/2").get_data(as_text=True)
    assert 'id="open-on-table"' in replay
    opened = client.post(f"/games/fusion/playtests/{run_id}/games/2/table", data={"csrf_token": token})
    assert opened.status_code == 303, opened.get_data(as_text=True)[:500]
    table_id = opened.headers["Location"].rsplit("/", 1)[1]
    initial = json_block(client.get(f"/games/fusion/play/{table_id}").get_data(as_text=True), "pt-initial")
    assert initial["kind"] == "replay" and len(initial["board"]["players"]) == 3
    end = state(client, "fusion", table_id, step=initial["decisions"])
    run = client.get(f"/api/games/fusion/playtests/{run_id}").get_json()
    record = run["report"]["records"][2]
    winner_seat = None if record["winner"] is None else record["seats"].index(record["winner"])
    assert end["over"] and end["result"]["winner"] == winner_seat
    took = client.post(f"/games/fusion/play/{table_id}/takeover",
                       data={"csrf_token": token, "step": "2", "seat": "2", "opponent": "heuristic"})
    assert took.status_code == 303
    view = state(client, "fusion", took.headers["Location"].rsplit("/", 1)[1])
    assert view["seat"] == 2 and view["kind"] == "game"
    post(client, "fusion", table_id, "move", {"seat": 0, "index": 0, "expect": initial["decisions"]}, status=400)
