"""A pod of three or four players from the playtest page (RULES.md §3.9.6): form, report, replay."""

from __future__ import annotations

import re

from tests.web.pages_helpers import page_token
from tests.web.test_playtest_views import wait_done

A, B = "lie-yan-ji-feng", "pan-shi-chao-xi"


def test_the_form_offers_three_or_four_players_only_where_the_engine_seats_them(client):
    client.set_cookie("workbench_lang", "en")
    body = client.get("/games/fusion/playtest").get_data(as_text=True)
    assert 'id="players"' in body and '<option value="4"' in body and 'name="deck_c"' in body and 'name="deck_d"' in body
    assert 'id="players"' not in client.get("/games/seth/playtest").get_data(as_text=True)


def test_a_three_player_pod_reports_deck_a_against_the_fair_share_and_replays_each_game(client):
    client.set_cookie("workbench_lang", "en")
    token = page_token(client, "/games/fusion/playtest")
    form = {"csrf_token": token, "deck_a": A, "deck_b": B, "deck_c": A, "players": "3", "agent_a": "heuristic",
            "agent_b": "random", "games": "9", "seed": "2", "workers": "1"}
    answer = client.post("/games/fusion/playtest", data=form)
    assert answer.status_code == 303, answer.get_data(as_text=True)[:800]
    run_id = re.search(r"/games/fusion/playtests/([0-9a-f-]+)$", answer.headers["Location"]).group(1)
    progress = wait_done(client, "fusion", run_id)
    assert progress["status"] == "done", progress
    run = client.get(f"/api/games/fusion/playtests/{run_id}").get_json()
    assert run["kind"] == "pod" and run["report"]["players"] == 3 and run["report"]["opponents"] == [B, A]
    body = client.get(f"/games/fusion/playtests/{run_id}").get_data(as_text=True)
    assert 'id="pod-verdict"' in body and "fair share 1/3" in body and "Pod of 3 players" in body
    # The decks by name as in a two-player report, not by id; and, as there, what the engine did
    # not play as written comes first (the pod report left it out though the run keeps it).
    names = {side: deck["name"] for side, deck in run["decks"].items()}
    assert f"Pod of 3 players: {names['a']}</h1>" in body
    assert f"Deck A ({names['a']}) played against 2 opponents ({names['b']}, {names['c']})" in body
    assert f"<td>B · {names['b']}</td>" in body
    assert run["unsimulated_reasons"] and 'id="not-played"' in body
    for card, why in run["unsimulated_reasons"].items():
        assert f"<code>{card}</code>" in body and why[0].split(":")[0] in body
        assert f"<strong>{run['card_data'][card]['name']}</strong> (<code>{card}</code>)" in body
    replay = client.get(f"/games/fusion/playtests/{run_id}/games/4").get_data(as_text=True)
    record = run["report"]["records"][4]
    assert 'id="replay-seats"' in replay and str(record["seed"]) in replay
    assert replay.count("<tr>") >= 4  # a row per seat
    assert "P3" in replay and "<li>" in replay
    assert f"A · {names['a']} (deck A)" in replay


def test_a_pod_refuses_the_two_player_extras(client):
    client.set_cookie("workbench_lang", "en")
    token = page_token(client, "/games/fusion/playtest")
    answer = client.post("/games/fusion/playtest", data={
        "csrf_token": token, "deck_a": A, "deck_b": B, "players": "4", "games": "8", "early_stop": "sprt"})
    assert answer.status_code == 400
    assert "pod of three or four players" in answer.get_data(as_text=True)


def test_a_pod_played_by_the_search_player_replays_on_the_button_and_says_it_is_a_pod(client):
    """A search player's game replays only on a POST; the page before it names the pod, not a duel
    of decks A and B (it used to say "Game 1: A vs B" for a pod of three)."""
    client.set_cookie("workbench_lang", "en")
    token = page_token(client, "/games/fusion/playtest")
    answer = client.post("/games/fusion/playtest", data={
        "csrf_token": token, "deck_a": A, "deck_b": A, "deck_c": A, "players": "3", "agent_a": "search",
        "agent_b": "random", "games": "3", "seed": "1", "workers": "1"})
    run_id = re.search(r"/games/fusion/playtests/([0-9a-f-]+)$", answer.headers["Location"]).group(1)
    assert wait_done(client, "fusion", run_id)["status"] == "done"
    url = f"/games/fusion/playtests/{run_id}/games/1"
    before = client.get(url).get_data(as_text=True)
    assert 'id="replay-play"' in before and "Game 1 of a pod of 3" in before and " vs " not in before.split("<h1>")[1].split("</h1>")[0]
    replayed = client.post(url, data={"csrf_token": page_token(client, url)})
    assert replayed.status_code == 200
    body = replayed.get_data(as_text=True)
    assert 'id="replay-seats"' in body and "Game 1 of a pod of 3" in body and "P3" in body
