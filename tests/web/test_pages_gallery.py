"""The card gallery: filters, CJK search, sorting, paging, problem badges, escaping."""

from __future__ import annotations

import html
import re

import pytest

from tests.web.pages_helpers import card_ids, make_readonly_client


@pytest.fixture(scope="module")
def ro(tmp_path_factory):
    return make_readonly_client(tmp_path_factory)


def _cards(ro, game):
    return {c["id"]: c["card"] for c in ro.get(f"/api/games/{game}/cards").json["cards"]}


def _ids(ro, url):
    answer = ro.get(url)
    assert answer.status_code == 200
    return card_ids(answer.get_data(as_text=True))


def test_gallery_shows_every_card_with_key_stats(ro):
    cards = _cards(ro, "seth")
    body = ro.get("/games/seth/cards?per=96").get_data(as_text=True)
    assert sorted(card_ids(body)) == sorted(cards)
    wasp = cards["glass-wasp"]
    thumb = body.split('data-card-id="glass-wasp"', 1)[1].split("</li>\n", 1)[0]
    assert wasp["name"] in thumb and f"<dd>{wasp['power']}</dd>" in thumb and "<dt>Power</dt>" in thumb


def test_filter_by_kind_and_enumerated_fields(ro):
    cards = _cards(ro, "warzone")
    spells = _ids(ro, "/games/warzone/cards?kind=spell&per=96")
    assert sorted(spells) == sorted(i for i, c in cards.items() if c["kind"] == "spell")
    long_range = _ids(ro, "/games/warzone/cards?f_class=3&per=96")
    assert long_range and sorted(long_range) == sorted(i for i, c in cards.items() if c.get("class") == 3)
    masters = _ids(ro, "/games/warzone/cards?f_class_master=true&per=96")
    assert sorted(masters) == sorted(i for i, c in cards.items() if c.get("class_master") is True)
    fast = _ids(ro, "/games/seth/cards?f_speed=fast&per=96")
    assert sorted(fast) == sorted(i for i, c in _cards(ro, "seth").items() if "fast" in c["speed"])


def test_filter_selects_list_the_values_with_their_labels(ro):
    body = ro.get("/games/fusion/cards").get_data(as_text=True)
    attribute = body.split('id="f_attribute"', 1)[1].split("</select>", 1)[0]
    assert '<option value="fire">炎 Fire</option>' in attribute
    assert 'id="f_cost"' in body  # mana cost: a whole number that is not a combat stat


def test_search_matches_chinese_names_and_text(ro):
    cards = _cards(ro, "fusion")
    found = _ids(ro, "/games/fusion/cards?q=火&per=96")
    expected = [i for i, c in cards.items() if any("火" in str(c.get(k, "")) for k in ("name", "text", "flavor"))]
    assert found and sorted(found) == sorted(expected)
    by_gloss = _ids(ro, "/games/fusion/cards?q=cinder+SHOT")
    assert by_gloss == ["jin-huo-dan"]


def test_sort_by_a_stat_both_ways(ro):
    cards = _cards(ro, "seth")
    down = _ids(ro, "/games/seth/cards?sort=power&order=desc&per=96")
    powers = [cards[i]["power"] for i in down]
    assert powers == sorted(powers, reverse=True)
    up = _ids(ro, "/games/seth/cards?sort=health&per=96")
    assert [cards[i]["health"] for i in up] == sorted(c["health"] for c in cards.values())


def test_cards_without_the_sorted_stat_stay_last(ro):
    cards = _cards(ro, "warzone")
    order = _ids(ro, "/games/warzone/cards?sort=degree&order=desc&per=96")
    with_degree = [i for i in order if "degree" in cards[i]]
    assert order[: len(with_degree)] == with_degree


def test_pages_split_the_results(ro):
    cards = _cards(ro, "warzone")
    pages = -(-len(cards) // 24)
    assert pages >= 3  # the bundled set spans several pages of 24
    first = _ids(ro, "/games/warzone/cards?per=24")
    last = _ids(ro, f"/games/warzone/cards?per=24&page={pages}")
    assert len(first) == 24 and len(last) == len(cards) - 24 * (pages - 1)
    assert not set(first) & set(last)
    every = [i for page in range(1, pages + 1) for i in _ids(ro, f"/games/warzone/cards?per=24&page={page}")]
    assert sorted(every) == sorted(cards)  # each card on exactly one page
    body = ro.get("/games/warzone/cards?per=24&kind=creature").get_data(as_text=True)
    next_link = html.unescape(re.search(r'<a class="button" rel="next" href="([^"]+)"', body).group(1))
    second = _ids(ro, next_link)
    assert second and all(cards[i]["kind"] == "creature" for i in second)  # the filter survives paging
    assert second == _ids(ro, "/games/warzone/cards?per=24&kind=creature&page=2")
    assert _ids(ro, "/games/warzone/cards?per=24&page=999") == last  # past the end: the last page


def test_problem_badges_and_problem_filter(client):
    client.post("/api/games/seth/cards", json={"name": "Broken Beast", "kind": "monster", "power": 99,
                                               "damage": 1, "health": 1, "speed": ["fast"], "race": "X",
                                               "element": "fire"})
    body = client.get("/games/seth/cards?problems=errors").get_data(as_text=True)
    assert card_ids(body) == ["broken-beast"]
    thumb = body.split('data-card-id="broken-beast"', 1)[1]
    assert "badge-error" in thumb and "1 error" in thumb and "29" in thumb  # the message names the limit
    clean = card_ids(client.get("/games/seth/cards?problems=clean&per=96").get_data(as_text=True))
    assert "broken-beast" not in clean and "glass-wasp" in clean


def test_a_card_named_like_a_script_shows_as_text(client):
    client.post("/api/games/seth/cards", json={"id": "xss", "name": "<script>alert(1)</script>", "kind": "monster",
                                               "power": 1, "damage": 1, "health": 1, "speed": ["fast"],
                                               "race": "<b>bold</b>", "element": "fire"})
    body = client.get("/games/seth/cards?per=96").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "<b>bold</b>" not in body


def test_unreadable_card_files_are_listed_not_fatal(client, data_dir):
    (data_dir / "seth" / "cards" / "mangled.yaml").write_text("name: [unclosed\n", encoding="utf-8")
    answer = client.get("/games/seth/cards")
    assert answer.status_code == 200
    assert "mangled" in answer.get_data(as_text=True) and "cannot be read" in answer.get_data(as_text=True)
