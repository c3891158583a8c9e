"""Deck pages: the list, the builder's data, the statistics panel (exact odds), delete."""

from __future__ import annotations

import re

import pytest

from tests.web.pages_helpers import json_block, make_readonly_client, page_token
from workbench.domain.deckstats import DrawPlan, prob_by_turn, prob_opening_hand


@pytest.fixture(scope="module")
def ro(tmp_path_factory):
    return make_readonly_client(tmp_path_factory)


def _stats(ro, game, body):
    token = page_token(ro, f"/games/{game}/decks")
    answer = ro.post(f"/games/{game}/deck-stats", json=body, headers={"X-CSRF-Token": token})
    assert answer.status_code == 200
    return answer.json["html"]


def _odds_column(html):
    return [float(v) for v in re.findall(r'data-odds="([0-9.e-]+)"', html)]


def test_deck_list_shows_sizes_and_legality(ro):
    body = ro.get("/games/warzone/decks").get_data(as_text=True)
    for deck in ro.get("/api/games/warzone/decks").json["decks"]:
        assert deck["deck"]["name"] in body
    assert body.count("badge-ok") == 2  # both sample decks are legal
    assert "Main deck <span class=\"chip-count\">" in body


def test_builder_data_has_zones_with_sizes_and_searchable_cards(ro):
    data = json_block(ro.get("/games/warzone/decks/iron-bastion/edit").get_data(as_text=True), "deck-data")
    zones = {z["id"]: z for z in data["zones"]}
    assert set(zones) == {"main", "side", "area", "side_area"}
    assert zones["main"]["size"] == "60–85" and zones["area"]["size"] == "exactly 3"
    assert zones["area"]["kinds"] == ["area"]
    assert data["deck"]["zones"]["main"]["archmage-torvin"] == 1 and data["version"]
    fusion = json_block(ro.get("/games/fusion/new-deck?name=Test").get_data(as_text=True), "deck-data")
    assert {z["id"] for z in fusion["zones"]} == {"main", "extra"} and fusion["deck"]["name"] == "Test"
    card = next(c for c in fusion["cards"] if c["id"] == "jin-huo-dan")
    assert "烬火弹" in card["search"] and "cinder shot" in card["search"]


def test_fusion_odds_follow_five_cards_skipped_draw_and_mulligans(ro):
    deck = ro.get("/api/games/fusion/decks/pan-shi-chao-xi").json["deck"]
    html = _stats(ro, "fusion", {"deck": deck, "kind": "magic", "k": 2, "turns": 4})
    main = deck["zones"]["main"]
    cards = {c["id"]: c["card"] for c in ro.get("/api/games/fusion/cards").json["cards"]}
    size = sum(main.values())
    magic = sum(n for cid, n in main.items() if cards[cid]["kind"] == "magic")
    plan = DrawPlan(opening_hand=5, draws_per_turn=1, first_player_skips_draw=True, mulligans=3)
    expected = [float(prob_by_turn(size, magic, 2, plan, t, True)) for t in range(1, 5)]
    assert _odds_column(html) == pytest.approx(expected)
    opening = float(re.search(r'data-odds-opening="([0-9.e-]+)"', html).group(1))
    assert opening == pytest.approx(float(prob_opening_hand(size, magic, 2, plan)))
    # fusion's pages are in Chinese (its game.yaml), the seed's terms: 初始手牌, 先攻/后攻, 重抽
    assert "<td>初始手牌 （重抽之后）</td><td>5</td>" in html  # the table starts with the hand
    assert "后攻" in html and "<td>1</td><td>5 / 6</td>" in html
    assert "最多重抽 3 次" in html and "<svg" in html and "费用 Mana cost 曲线" in html
    ro.set_cookie("workbench_lang", "en")  # the same panel in English, as the designer can choose
    try:
        html = _stats(ro, "fusion", {"deck": deck, "kind": "magic", "k": 2, "turns": 4})
    finally:
        ro.delete_cookie("workbench_lang")
    assert "<td>Opening hand (after mulligans)</td><td>5</td>" in html
    assert "Going second" in html and "<td>1</td><td>5 / 6</td>" in html
    assert "up to 3 mulligans" in html and "<svg" in html and "Mana cost curve" in html


def test_warzone_odds_count_two_draws_a_turn_for_one_card(ro):
    deck = ro.get("/api/games/warzone/decks/iron-bastion").json["deck"]
    html = _stats(ro, "warzone", {"deck": deck, "card": "ironbark-warden", "k": 1, "turns": 3})
    size = sum(deck["zones"]["main"].values())
    copies = deck["zones"]["main"]["ironbark-warden"]
    plan = DrawPlan(8, 2, False, 0)
    assert _odds_column(html) == pytest.approx([float(prob_by_turn(size, copies, 1, plan, t, True)) for t in (1, 2, 3)])
    assert "<td>1</td><td>10</td>" in html and "Going second" not in html  # no skipped draw: same both seats
    assert "Degree curve" in html and "Class curve" in html


def test_seth_shows_total_power_against_the_format_limit_and_no_draws(ro):
    deck = ro.get("/api/games/seth/decks/skyburn-blitz").json["deck"]
    cards = {c["id"]: c["card"] for c in ro.get("/api/games/seth/cards").json["cards"]}
    total = sum(cards[cid]["power"] * n for cid, n in deck["zones"]["team"].items())
    html = _stats(ro, "seth", {"deck": deck})
    assert f"Total Power: <strong class=\"text-ok\">{total}</strong>" in html and "/ 30" in html
    assert "has no draws" in html
    skirmish = _stats(ro, "seth", {"deck": dict(deck, format="skirmish")})
    assert "/ 20" in skirmish and "text-error" in skirmish  # the same team breaks the Power < 20 format


def test_stats_escape_card_names(client):
    client.post("/api/games/fusion/cards", json={"id": "xss", "name": "<img src=x onerror=alert(1)>", "kind": "magic",
                                                 "cost": 1, "subtype": "normal"})
    token = page_token(client, "/games/fusion/decks")
    html = client.post("/games/fusion/deck-stats", json={"deck": {"zones": {"main": {"xss": 3}}}, "card": "xss"},
                       headers={"X-CSRF-Token": token}).json["html"]
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_stats_need_the_token_and_a_deck(ro):
    page_token(ro, "/games/seth/decks")
    assert ro.post("/games/seth/deck-stats", json={"deck": {}}).status_code == 403
    token = page_token(ro, "/games/seth/decks")
    assert ro.post("/games/seth/deck-stats", json={"zones": {}}, headers={"X-CSRF-Token": token}).status_code == 400
    odd = ro.post("/games/seth/deck-stats", json={"deck": {"zones": ["not", "a", "mapping"]}},
                  headers={"X-CSRF-Token": token})
    assert odd.status_code == 200
    sprawl = ro.post("/games/seth/deck-stats", headers={"X-CSRF-Token": token},
                     json={"deck": {"zones": {"team": {f"card-{i}": 1 for i in range(10_001)}}}})
    assert sprawl.status_code == 400 and "10,001 card entries" in sprawl.json["error"]


def test_delete_deck_with_confirmation(client):
    page = client.get("/games/seth/decks/rot-and-stone/delete").get_data(as_text=True)
    version = re.search(r'name="version" value="([^"]+)"', page).group(1)
    token = page_token(client, "/games/seth/decks/rot-and-stone/delete")
    assert client.post("/games/seth/decks/rot-and-stone/delete", data={"version": version}).status_code == 403
    answer = client.post("/games/seth/decks/rot-and-stone/delete", data={"version": version, "csrf_token": token})
    assert answer.status_code == 302
    assert client.get("/api/games/seth/decks/rot-and-stone").status_code == 404
    assert client.get("/api/games/seth/cards/bog-lurker").status_code == 200  # cards stay


def test_deck_import_reads_a_list_without_saving_and_needs_the_token(client, repo) -> None:  # type: ignore[no-untyped-def]
    from .pages_helpers import page_token

    token = page_token(client, "/games/warzone/new-deck")
    before = {d.id for d in repo.list_decks("warzone")}
    answer = client.post("/games/warzone/deck-import", json={"text": "4x Mudfoot Recruit\n2 no such card\n"},
                         headers={"X-CSRF-Token": token})
    assert answer.status_code == 200
    assert answer.json["zones"] == {"main": {"mudfoot-recruit": 4}} and answer.json["cards"] == 4
    assert any("no such card" in p for p in answer.json["problems"])
    assert {d.id for d in repo.list_decks("warzone")} == before  # a dry run: nothing saved
    assert client.post("/games/warzone/deck-import", json={"text": "nothing"},
                       headers={"X-CSRF-Token": token}).status_code == 400
    assert client.post("/games/warzone/deck-import", json={"text": "4 x"},
                       headers={"Origin": "http://localhost"}).status_code == 403


def test_a_saved_deck_downloads_as_text_and_links_onwards(client) -> None:  # type: ignore[no-untyped-def]
    text = client.get("/games/warzone/decks/iron-bastion/list.txt")
    assert text.mimetype == "text/plain" and "Main deck:" in text.get_data(as_text=True)
    body = client.get("/games/warzone/decks/iron-bastion/edit").get_data(as_text=True)
    for href in ("/games/warzone/print?deck=iron-bastion", "/games/warzone/playtest?deck_a=iron-bastion",
                 "/games/warzone/export?deck=iron-bastion", "/games/warzone/decks/iron-bastion/list.txt"):
        assert f'href="{href}"' in body
    assert 'value="iron-bastion" selected' in client.get("/games/warzone/export?deck=iron-bastion").get_data(as_text=True)
