"""The card editor page, and duplicate, rename and delete (with confirmation and CSRF)."""

from __future__ import annotations

import html
import re

import pytest

from tests.web.pages_helpers import json_block, make_readonly_client, page_token


@pytest.fixture(scope="module")
def ro(tmp_path_factory):
    return make_readonly_client(tmp_path_factory)


def _field(data, kind, name):
    return next(f for f in data["schema"]["kinds"][kind]["fields"] if f["name"] == name)


def test_editor_data_describes_each_field_with_the_right_control(ro):
    body = ro.get("/games/warzone/cards/archmage-torvin/edit").get_data(as_text=True)
    data = json_block(body, "editor-data")
    assert data["card_id"] == "archmage-torvin" and data["version"]
    assert data["card"]["name"] == "Archmage Torvin Greyveil"
    degree = _field(data, "creature", "degree")
    assert (degree["type"], degree["minimum"], degree["maximum"]) == ("integer", 0, 6)  # max from rule option
    klass = _field(data, "creature", "class")
    assert [c["value"] for c in klass["choices"]] == [1, 2, 3]
    assert klass["choices"][2]["label"] == "Class 3 (long range)" and klass["help"]
    assert _field(data, "creature", "strength")["step_hint"] == 50
    assert _field(data, "creature", "text")["type"] == "text"
    assert "class" not in [f["name"] for f in data["schema"]["kinds"]["spell"]["fields"]]
    assert data["urls"]["validate"] == "/api/games/warzone/validate"


def test_multi_value_fields_and_extra_allowed_values(ro):
    data = json_block(ro.get("/games/seth/new-card?kind=monster").get_data(as_text=True), "editor-data")
    speed = _field(data, "monster", "speed")
    assert speed["type"] == "list" and [c["value"] for c in speed["choices"]] == ["fast", "medium", "slow"]
    assert (speed["min_items"], speed["max_items"]) == (1, 2)
    fusion = json_block(ro.get("/games/fusion/new-card?kind=creature").get_data(as_text=True), "editor-data")
    cost = _field(fusion, "creature", "cost")
    assert cost["also_allowed"] == ["X"] and cost["maximum"] == 10
    assert _field(fusion, "creature", "attribute")["choices"][0]["label"] == "地 Earth"


def test_new_card_page_per_kind_and_unknown_kind(ro):
    body = ro.get("/games/warzone/new-card?kind=trap").get_data(as_text=True)
    assert json_block(body, "editor-data")["card"] == {"name": "", "kind": "trap"}
    assert '<option value="trap" selected>' in body and 'id="field-id"' in body
    creature = json_block(ro.get("/games/warzone/new-card?kind=creature").get_data(as_text=True), "editor-data")
    assert creature["card"]["class_master"] is False  # the definition's default
    answer = ro.get("/games/warzone/new-card?kind=dragon")
    assert answer.status_code == 404 and "dragon" in answer.get_data(as_text=True)


def test_duplicate_prefills_a_copy_without_an_id(ro):
    body = ro.get("/games/seth/new-card?from=glass-wasp").get_data(as_text=True)
    data = json_block(body, "editor-data")
    original = ro.get("/api/games/seth/cards/glass-wasp").json["card"]
    assert data["card_id"] is None and data["version"] is None
    assert data["card"] == dict(original, name="Glass Wasp (copy)")


def test_editor_shows_existing_problems_and_the_decks_using_the_card(ro):
    body = ro.get("/games/seth/cards/glass-wasp/edit").get_data(as_text=True)
    assert "Used in decks" in body and "Skyburn Blitz" in body


def test_script_in_a_card_name_is_escaped_in_the_editor(client):
    client.post("/api/games/seth/cards", json={"id": "xss", "name": "<script>alert(1)</script>", "kind": "monster",
                                               "power": 1, "damage": 1, "health": 1, "speed": ["fast"],
                                               "race": "Imp", "element": "fire"})
    body = client.get("/games/seth/cards/xss/edit").get_data(as_text=True)
    assert "<script>alert(" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert json_block(body, "editor-data")["card"]["name"] == "<script>alert(1)</script>"


def test_delete_asks_first_then_deletes_with_the_token(client, repo):
    page = client.get("/games/seth/cards/cinder-imp/delete").get_data(as_text=True)
    assert "Delete “Cinder Imp”?" in page and "Skyburn Blitz" in page  # names the deck that uses it
    token = page_token(client, "/games/seth/cards/cinder-imp/delete")
    version = re.search(r'name="version" value="([^"]+)"', page).group(1)
    answer = client.post("/games/seth/cards/cinder-imp/delete", data={"csrf_token": token, "version": version,
                                                                      "name": "Cinder Imp"})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/games/seth/cards")
    assert "Deleted Cinder Imp" in client.get("/games/seth/cards").get_data(as_text=True)
    assert client.get("/api/games/seth/cards/cinder-imp").status_code == 404


def test_delete_of_a_card_changed_meanwhile_is_refused(client):
    token = page_token(client, "/games/seth/cards/cinder-imp/delete")
    old = client.get("/api/games/seth/cards/cinder-imp").json
    no_token = client.put("/api/games/seth/cards/cinder-imp", json=dict(old["card"], health=6),
                          headers={"If-Match": old["version"]})
    assert no_token.status_code == 403  # the session cookie makes this browser-like: fetch needs the token too
    changed = client.put("/api/games/seth/cards/cinder-imp", json=dict(old["card"], health=6),
                         headers={"If-Match": old["version"], "X-CSRF-Token": token})
    assert changed.status_code == 200
    answer = client.post("/games/seth/cards/cinder-imp/delete", data={"csrf_token": token, "version": old["version"]},
                         follow_redirects=True)
    assert "nothing was deleted" in html.unescape(answer.get_data(as_text=True))
    assert client.get("/api/games/seth/cards/cinder-imp").json["card"]["health"] == 6


def test_rename_moves_the_card_and_updates_decks(client):
    token = page_token(client, "/games/seth/cards/cinder-imp/rename")
    version = client.get("/api/games/seth/cards/cinder-imp").json["version"]
    answer = client.post("/games/seth/cards/cinder-imp/rename",
                         data={"csrf_token": token, "version": version, "new_id": "ember-imp"})
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/games/seth/cards/ember-imp/edit")
    assert client.get("/api/games/seth/cards/cinder-imp").status_code == 404
    deck = client.get("/api/games/seth/decks/skyburn-blitz").json
    assert deck["deck"]["zones"]["team"]["ember-imp"] == 1 and deck["legal"]


def test_rename_to_a_bad_or_taken_id_explains_why(client):
    token = page_token(client, "/games/seth/cards/cinder-imp/rename")
    version = client.get("/api/games/seth/cards/cinder-imp").json["version"]
    bad = client.post("/games/seth/cards/cinder-imp/rename", data={"csrf_token": token, "version": version,
                                                                   "new_id": "../etc"})
    assert bad.status_code == 400 and "not allowed" in html.unescape(bad.get_data(as_text=True))
    taken = client.post("/games/seth/cards/cinder-imp/rename", data={"csrf_token": token, "version": version,
                                                                     "new_id": "glass-wasp"})
    assert taken.status_code == 400 and "exists already" in html.unescape(taken.get_data(as_text=True))
    assert client.get("/api/games/seth/cards/cinder-imp").status_code == 200


def test_rename_to_the_cards_own_id_says_it_is_already_its_id(client):
    token = page_token(client, "/games/seth/cards/cinder-imp/rename")
    version = client.get("/api/games/seth/cards/cinder-imp").json["version"]
    same = client.post("/games/seth/cards/cinder-imp/rename", data={"csrf_token": token, "version": version,
                                                                    "new_id": "cinder-imp"})
    page = html.unescape(same.get_data(as_text=True))
    assert same.status_code == 400 and "'cinder-imp' is already this card's id" in page
    assert "exists already" not in page
    chinese = client.post("/games/seth/cards/cinder-imp/rename", data={"csrf_token": token, "version": version,
                                                                       "new_id": "cinder-imp"},
                          headers={"Accept-Language": "zh"})
    assert "已经是这张卡牌的 id" in html.unescape(chinese.get_data(as_text=True))
