"""The games page, per-game navigation, kind colours, and the security every page gets."""

from __future__ import annotations

import re

import pytest

from tests.web.pages_helpers import make_readonly_client, page_token

MY_PAGES = [
    "/",
    "/games/warzone/cards",
    "/games/fusion/cards?q=火",
    "/games/warzone/new-card?kind=creature",
    "/games/seth/cards/glass-wasp/edit",
    "/games/seth/cards/glass-wasp/delete",
    "/games/seth/cards/glass-wasp/rename",
    "/games/warzone/decks",
    "/games/warzone/decks/iron-bastion/edit",
    "/games/fusion/new-deck",
    "/games/seth/decks/skyburn-blitz/delete",
]


@pytest.fixture(scope="module")
def ro(tmp_path_factory):
    return make_readonly_client(tmp_path_factory)


@pytest.fixture(scope="module")
def bundled():
    from workbench.storage.repository import Repository
    from tests.conftest import BUNDLED_DATA

    return Repository(BUNDLED_DATA)


def test_games_page_lists_every_game_with_counts_and_links(ro, bundled):
    body = ro.get("/").get_data(as_text=True)
    for game in bundled.list_games():
        definition = bundled.game(game)
        assert definition.name in body
        assert f'href="/games/{game}/cards"' in body
        assert f'href="/games/{game}/decks"' in body
        cards, _ = bundled.list_cards_tolerant(game)
        assert f"<strong>{len(cards)}</strong> cards" in body


def test_every_nav_link_of_a_game_page_answers(ro):
    body = ro.get("/games/warzone/cards").get_data(as_text=True)
    nav = body.split('<nav class="game-nav"', 1)[1].split("</nav>", 1)[0]
    links = re.findall(r'href="([^"]+)"', nav)
    assert "/games/warzone/cards" in links and "/games/warzone/decks" in links
    adapter = ro.application.url_map.bind("localhost")
    for link in links:
        endpoint, _ = adapter.match(link, method="GET")  # raises NotFound for a link to nowhere
        assert endpoint in ro.application.view_functions
    assert ro.get("/games/warzone/decks").status_code == 200


def test_game_home_redirects_to_its_gallery(ro):
    answer = ro.get("/games/seth")
    assert answer.status_code == 302 and answer.headers["Location"].endswith("/games/seth/cards")


def test_kinds_css_gives_each_kind_its_colour(ro, bundled):
    css = ro.get("/games/warzone/kinds.css")
    assert css.mimetype == "text/css"
    for kind_id, kind in bundled.game("warzone").kinds.items():
        assert f".kind-{kind_id} {{ --kind: {kind.color}; }}" in css.get_data(as_text=True)


@pytest.mark.parametrize("url", MY_PAGES)
def test_pages_send_security_headers_and_use_no_inline_script_or_style(ro, url):
    answer = ro.get(url)
    assert answer.status_code == 200
    csp = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    body = answer.get_data(as_text=True)
    for tag in re.findall(r"<script\b[^>]*>", body):
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"\sstyle=", body), "inline style attributes are blocked by the CSP"
    assert not re.search(r"\son[a-z]+=", body), "inline event handlers are blocked by the CSP"
    assert not unlabelled_controls(body)


def unlabelled_controls(body: str) -> list[str]:
    """Visible form controls with neither a <label for=…> nor an aria-label."""
    labelled = set(re.findall(r'<label[^>]*\bfor="([^"]+)"', body))
    missing = []
    for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", body):
        if 'type="hidden"' in tag or "aria-label=" in tag:
            continue
        control_id = re.search(r'\bid="([^"]+)"', tag)
        if not control_id or control_id.group(1) not in labelled:
            missing.append(tag)
    return missing


def test_unknown_host_is_refused(ro):
    assert ro.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert ro.get("/", headers={"Host": "localhost:5000"}).status_code == 200


def test_unknown_game_and_card_show_an_html_error_page(ro):
    answer = ro.get("/games/chess/cards")
    assert answer.status_code == 404 and "chess" in answer.get_data(as_text=True)
    assert answer.mimetype == "text/html"
    assert ro.get("/games/seth/cards/nobody/edit").status_code == 404
    assert ro.get("/games/seth/cards/..%2Fgame/edit").status_code in (400, 404)


def test_state_changing_page_requests_need_the_csrf_token(client):
    token = page_token(client, "/games/seth/cards/glass-wasp/delete")
    version = client.get("/api/games/seth/cards/glass-wasp").json["version"]
    refused = client.post("/games/seth/cards/glass-wasp/delete", data={"version": version})
    assert refused.status_code == 403
    assert client.get("/api/games/seth/cards/glass-wasp").status_code == 200
    cross_site = client.post("/games/seth/cards/glass-wasp/delete", data={"version": version, "csrf_token": token},
                             headers={"Sec-Fetch-Site": "cross-site"})
    assert cross_site.status_code == 403
    done = client.post("/games/seth/cards/glass-wasp/delete", data={"version": version, "csrf_token": token})
    assert done.status_code == 302
    assert client.get("/api/games/seth/cards/glass-wasp").status_code == 404
