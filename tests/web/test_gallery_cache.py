"""The hot pages remember what they derived, yet a hand edit shows on the very next request.

The gallery keeps page bodies and thumbnails, the card pages and the validate API keep card
problems; all of it is keyed by what it depends on (card file, game definition, query), so an
edit made on disk with a text editor is never hidden.
"""

from __future__ import annotations

import html

CARD = "ironbark-warden"


def _card_file(data_dir, card=CARD):
    return data_dir / "warzone" / "cards" / f"{card}.yaml"


def _edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")  # in place, like most editors


def _thumb(body: str, card: str) -> str:
    return body.split(f'data-card-id="{card}"', 1)[1].split("</li>", 1)[0]


def test_a_hand_edit_shows_in_the_gallery_on_the_next_request(client, data_dir):
    url = "/games/warzone/cards?per=96"
    first = client.get(url).get_data(as_text=True)
    assert "Ironbark Warden" in _thumb(first, CARD) and "<dd>700</dd>" in _thumb(first, CARD)
    assert client.get(url).get_data(as_text=True) == first  # served again from the cache
    _edit(_card_file(data_dir), "strength: 700", "strength: 750")
    _edit(_card_file(data_dir), "name: Ironbark Warden", "name: Ironbark Keeper")
    second = client.get(url).get_data(as_text=True)
    thumb = _thumb(second, CARD)
    assert "Ironbark Keeper" in thumb and "<dd>750</dd>" in thumb and "Ironbark Warden" not in second


def test_added_and_deleted_files_show_in_the_gallery_at_once(client, data_dir):
    url = "/games/warzone/cards?per=96"
    before = client.get(url).get_data(as_text=True)
    assert 'data-card-id="hand-made"' not in before
    (data_dir / "warzone" / "cards" / "hand-made.yaml").write_text(
        "name: Hand Made Spell\nkind: spell\ntext: Draw a card.\n", encoding="utf-8")
    _card_file(data_dir).unlink()
    after = client.get(url).get_data(as_text=True)
    assert 'data-card-id="hand-made"' in after and "Hand Made Spell" in after
    assert f'data-card-id="{CARD}"' not in after


def test_a_search_result_follows_a_hand_edit(client, data_dir):
    url = "/games/warzone/cards?q=keeper"
    assert f'data-card-id="{CARD}"' not in client.get(url).get_data(as_text=True)
    _edit(_card_file(data_dir), "name: Ironbark Warden", "name: Ironbark Keeper")
    assert f'data-card-id="{CARD}"' in client.get(url).get_data(as_text=True)


def test_problem_badges_follow_a_hand_edit(client, data_dir):
    url = "/games/warzone/cards?problems=errors&per=96"
    assert f'data-card-id="{CARD}"' not in client.get(url).get_data(as_text=True)
    _edit(_card_file(data_dir), "degree: 2", "degree: 9")  # above max_degree 6
    body = client.get(url).get_data(as_text=True)
    assert f'data-card-id="{CARD}"' in body and "badge-error" in _thumb(body, CARD)


def test_a_game_definition_edit_rerenders_the_thumbnails(client, data_dir):
    url = "/games/warzone/cards?per=96"
    assert "Creature ·" in _thumb(client.get(url).get_data(as_text=True), CARD)
    _edit(data_dir / "warzone" / "game.yaml", "label: Creature\n", "label: Soldier\n")
    thumb = _thumb(client.get(url).get_data(as_text=True), CARD)
    assert "Soldier ·" in thumb and "Creature ·" not in thumb


def test_an_unchanged_gallery_answers_304_and_a_changed_one_200(client, data_dir):
    url = "/games/warzone/cards"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and "no-cache" in first.headers["Cache-Control"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    other_query = client.get(url + "?sort=strength", headers={"If-None-Match": etag})
    assert other_query.status_code == 200
    _edit(_card_file(data_dir), "name: Ironbark Warden", "name: Ironbark Keeper")
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert "Ironbark Keeper" in changed.get_data(as_text=True)


def test_a_flashed_message_is_never_hidden_by_a_304(client, data_dir):
    url = "/games/warzone/cards"
    etag = client.get(url).headers["ETag"]
    with client.session_transaction() as session:
        session["_flashes"] = [("success", "Deleted Something.")]
    answer = client.get(url, headers={"If-None-Match": etag})
    assert answer.status_code == 200 and "Deleted Something." in answer.get_data(as_text=True)


def test_the_card_page_and_validate_api_follow_a_hand_edit(client, data_dir):
    page = client.get(f"/games/warzone/cards/{CARD}/edit").get_data(as_text=True)
    assert "the maximum is 6" not in html.unescape(page)
    card = client.get(f"/api/games/warzone/cards/{CARD}").json["card"]
    token = client.get("/api/csrf").json["csrf_token"]
    headers = {"X-CSRF-Token": token}
    legal = client.post("/api/games/warzone/validate", json={"card": card, "id": CARD}, headers=headers).json
    assert legal == client.post("/api/games/warzone/validate", json={"card": card, "id": CARD}, headers=headers).json
    assert not any(p["code"] == "card.maximum" for p in legal["problems"])

    _edit(_card_file(data_dir), "degree: 2", "degree: 9")
    assert client.get(f"/api/games/warzone/cards/{CARD}").json["card"]["degree"] == 9
    page = client.get(f"/games/warzone/cards/{CARD}/edit").get_data(as_text=True)
    assert "degree is 9; the maximum is 6" in html.unescape(page).lower()
    broken = client.post("/api/games/warzone/validate", json={"card": dict(card, degree=9), "id": CARD},
                         headers=headers).json
    assert not broken["legal"] and any(p["code"] == "card.maximum" for p in broken["problems"])


def _preview(client, card):
    token = client.get("/api/csrf").json["csrf_token"]
    answer = client.post("/games/warzone/preview.png", json={"card": card}, headers={"X-CSRF-Token": token})
    assert answer.status_code == 200 and answer.mimetype == "image/png"
    return answer.get_data()


def test_a_remembered_preview_follows_the_content_and_the_art_file(client, data_dir):
    from PIL import Image

    card = client.get(f"/api/games/warzone/cards/{CARD}").json["card"]
    first = _preview(client, card)
    assert _preview(client, card) == first
    assert _preview(client, dict(card, name="Ironbark Keeper")) != first

    art = data_dir / "warzone" / "art" / "hand-drawn.png"
    art.parent.mkdir(exist_ok=True)
    Image.new("RGB", (64, 64), (200, 30, 30)).save(art)
    with_art = dict(card, art="hand-drawn.png")
    red = _preview(client, with_art)
    assert red != first
    Image.new("RGB", (64, 64), (30, 30, 200)).save(art)  # the art file changed on disk
    assert _preview(client, with_art) != red


def test_remembered_pages_carry_each_sessions_own_csrf_token(app):
    import re

    tokens = []
    for _ in range(2):
        with app.test_client() as browser:
            for url in ("/games/warzone/cards", f"/games/warzone/cards/{CARD}/edit"):
                page = browser.get(url).get_data(as_text=True)
                shown = re.search(r'<meta name="csrf-token" content="([^"]+)">', page).group(1)
                assert shown == browser.get("/api/csrf").json["csrf_token"]
                assert "csrf-slot-" not in page
                tokens.append(shown)
    assert tokens[0] == tokens[1] and tokens[2] == tokens[3] and tokens[0] != tokens[2]


def test_the_card_page_follows_the_decks_that_use_the_card(client, data_dir):
    url = f"/games/warzone/cards/{CARD}/edit"
    assert "Hand Built Deck" not in client.get(url).get_data(as_text=True)
    (data_dir / "warzone" / "decks" / "hand-built.yaml").write_text(
        f"name: Hand Built Deck\nzones:\n  main:\n    {CARD}: 2\n", encoding="utf-8")
    assert "Hand Built Deck" in client.get(url).get_data(as_text=True)
