"""The JSON API, route by route: answers, ETags, If-Match, validation, errors."""

from __future__ import annotations

import pytest

NEW_MONSTER = {"name": "Mossback Toad", "kind": "monster", "power": 3, "damage": 2, "health": 7,
               "speed": ["slow"], "race": "Amphibian", "element": "poison"}


def test_games_list_and_detail(client):
    games = client.get("/api/games").json
    assert [g["id"] for g in games] == ["fusion", "seth", "warzone"]
    assert all(g["cards"] >= 16 and g["decks"] >= 2 for g in games)
    seth = client.get("/api/games/seth").json
    assert seth["zones"]["team"]["kinds"] == ["monster"]
    assert seth["options"]["power_limit"] == 30
    speed = next(f for f in seth["kinds"]["monster"]["fields"] if f["name"] == "speed")
    assert speed["max_items"] == 2


def test_unknown_game_is_404_json(client):
    answer = client.get("/api/games/chess")
    assert answer.status_code == 404 and "chess" in answer.json["error"]


def test_card_list_has_versions_and_problem_counts(client):
    cards = client.get("/api/games/seth/cards").json["cards"]
    assert len(cards) >= 16
    assert all(c["version"] and c["errors"] == 0 for c in cards)


def test_card_crud_with_etag_and_if_match(client, data_dir):
    created = client.post("/api/games/seth/cards", json=NEW_MONSTER)
    assert created.status_code == 201
    assert created.headers["Location"].endswith("/api/games/seth/cards/mossback-toad")
    version = created.json["version"]
    assert created.headers["ETag"] == f'"{version}"'

    got = client.get("/api/games/seth/cards/mossback-toad")
    assert got.json["card"] == NEW_MONSTER and got.headers["ETag"] == f'"{version}"'

    missing = client.put("/api/games/seth/cards/mossback-toad", json=NEW_MONSTER)
    assert missing.status_code == 428
    changed = client.put("/api/games/seth/cards/mossback-toad", json=dict(NEW_MONSTER, health=8),
                         headers={"If-Match": f'"{version}"'})
    assert changed.status_code == 200 and changed.json["card"]["health"] == 8
    stale = client.put("/api/games/seth/cards/mossback-toad", json=dict(NEW_MONSTER, health=9),
                       headers={"If-Match": f'"{version}"'})
    assert stale.status_code == 412 and stale.json["current_version"] == changed.json["version"]
    assert client.get("/api/games/seth/cards/mossback-toad").json["card"]["health"] == 8

    assert client.delete("/api/games/seth/cards/mossback-toad").status_code == 428
    assert client.delete("/api/games/seth/cards/mossback-toad", headers={"If-Match": version}).status_code == 412
    gone = client.delete("/api/games/seth/cards/mossback-toad", headers={"If-Match": changed.json["version"]})
    assert gone.status_code == 204
    assert client.get("/api/games/seth/cards/mossback-toad").status_code == 404
    assert not (data_dir / "seth/cards/mossback-toad.yaml").exists()


def test_creating_an_existing_id_is_409(client):
    answer = client.post("/api/games/seth/cards", json=dict(NEW_MONSTER, id="glass-wasp"))
    assert answer.status_code == 409


def test_a_draft_with_errors_is_saved_and_its_problems_returned(client):
    answer = client.post("/api/games/seth/cards", json={"name": "Draft", "kind": "monster", "power": 40})
    assert answer.status_code == 201
    codes = {p["code"] for p in answer.json["problems"]}
    assert {"card.required", "card.maximum"} <= codes
    maximum = next(p for p in answer.json["problems"] if p["code"] == "card.maximum")
    assert maximum["message"] == "Power is 40; the maximum is 29 (§2.1)"
    assert maximum["severity"] == "error" and maximum["field"] == "power" and maximum["card"] == "draft"


def test_validate_card_and_deck_without_saving(client, data_dir):
    before = sorted(p.name for p in (data_dir / "warzone/cards").iterdir())
    card = client.post("/api/games/warzone/validate", json={"card": {
        "name": "X", "kind": "creature", "class": 2, "degree": 9, "strength": 100, "resilience": 100}})
    assert card.status_code == 200 and card.json["legal"] is False
    assert card.json["problems"][0]["message"] == "Degree is 9; the maximum is 6 (§1.1)"
    deck = client.post("/api/games/warzone/validate", json={"deck": {"zones": {"main": {"mudfoot-recruit": 4}}}})
    messages = [p["message"] for p in deck.json["problems"]]
    assert "Main deck has 4 cards; the minimum is 60 (§1.2.1)" in messages
    assert "Areas has 0 cards; it must have exactly 3 (§1.2.2)" in messages
    assert sorted(p.name for p in (data_dir / "warzone/cards").iterdir()) == before


def test_deck_crud_and_problems(client):
    decks = client.get("/api/games/fusion/decks").json["decks"]
    assert {d["id"] for d in decks} >= {"lie-yan-ji-feng", "pan-shi-chao-xi"} and all(d["legal"] for d in decks)
    source = client.get("/api/games/fusion/decks/lie-yan-ji-feng").json
    assert source["legal"] is True
    draft = dict(source["deck"], name="试验卡组")
    draft["zones"] = {"main": dict(list(source["deck"]["zones"]["main"].items())[:3])}
    created = client.post("/api/games/fusion/decks", json=draft)
    assert created.status_code == 201 and created.json["legal"] is False
    deck_id = created.json["id"]
    problems = client.get(f"/api/games/fusion/decks/{deck_id}/problems")
    assert problems.json["legal"] is False and problems.headers["ETag"]
    assert any("the minimum is 40" in p["message"] for p in problems.json["problems"])
    updated = client.put(f"/api/games/fusion/decks/{deck_id}", json=source["deck"],
                         headers={"If-Match": created.json["version"]})
    assert updated.status_code == 200 and updated.json["legal"] is True
    assert client.delete(f"/api/games/fusion/decks/{deck_id}", headers={"If-Match": updated.json["version"]}).status_code == 204


@pytest.mark.parametrize("method,url,kwargs,status", [
    ("post", "/api/games/seth/cards", {"data": "not json", "content_type": "application/json"}, 400),
    ("post", "/api/games/seth/cards", {"json": ["a", "list"]}, 400),
    ("post", "/api/games/seth/cards", {"json": {"bad key!": 1}}, 400),
    ("post", "/api/games/seth/cards", {"json": {"name": "x", "id": "../../etc"}}, 400),
    ("post", "/api/games/seth/decks", {"json": {"zones": {"team": ["x"]}}}, 400),
    ("post", "/api/games/seth/validate", {"json": {"nothing": 1}}, 400),
    ("get", "/api/games/seth/cards/..%2F..%2Fgame", {}, 404),
    ("get", "/api/games/seth/cards/BAD", {}, 400),
    ("get", "/api/nope", {}, 404),
    ("patch", "/api/games/seth/cards/glass-wasp", {"json": {}}, 405),
])
def test_bad_input_answers_4xx_json_never_a_traceback(client, method, url, kwargs, status):
    answer = getattr(client, method)(url, **kwargs)
    assert answer.status_code == status
    assert set(answer.json) >= {"error", "problems"}
    assert "Traceback" not in answer.get_data(as_text=True)


def test_deep_payloads_are_refused(client):
    nested: dict = {}
    node = nested
    for _ in range(30):
        node["x"] = {}
        node = node["x"]
    answer = client.post("/api/games/seth/cards", json={"name": "n", "kind": "monster", "effects": [nested]})
    assert answer.status_code == 400 and "nests deeper" in answer.json["error"]


def test_cross_site_writes_are_refused(client):
    answer = client.post("/api/games/seth/cards", json=NEW_MONSTER,
                         headers={"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert answer.status_code == 403
    assert client.get("/api/games/seth/cards/mossback-toad").status_code == 404


def test_browser_writes_need_the_csrf_token(client):
    headers = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    refused = client.post("/api/games/seth/cards", json=NEW_MONSTER, headers=headers)
    assert refused.status_code == 403 and "CSRF" in refused.json["error"]
    token = client.get("/api/csrf").json["csrf_token"]
    accepted = client.post("/api/games/seth/cards", json=NEW_MONSTER, headers=dict(headers, **{"X-CSRF-Token": token}))
    assert accepted.status_code == 201


def test_untrusted_host_header_is_refused(client):
    assert client.get("/api/games", headers={"Host": "evil.example"}).status_code == 400


def test_unreadable_card_files_are_listed_not_fatal(client, data_dir):
    (data_dir / "seth/cards/broken.yaml").write_text("name: [oops\n")
    answer = client.get("/api/games/seth/cards").json
    assert [u["id"] for u in answer["unreadable"]] == ["broken"]
    assert client.get("/api/games/seth/cards/broken").status_code == 400
