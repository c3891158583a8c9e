"""Card text that is markup: HTML, JavaScript URLs and reportlab paragraph markup. Pages show it
as text, renders draw it as text, and nothing is interpreted or executed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

MARKER = Path("/tmp/workbench-markup-pwned")
# CVE-2023-33733 style: reportlab once evaluated expressions in a <font color> attribute.
REPORTLAB_RCE = ("<para><font color=\"[[[getattr(pow, Word('__globals__'))['os'].system('touch "
                 f"{MARKER}') for Word in [ orgTypeFun( 'Word', (str,), {{ 'mutated': 1, 'startswith': "
                 "lambda self, x: 1 == 0, '__eq__': lambda self, x: self.mutated and self.mutated - 1 "
                 "}} ) ] ] and 'red'\">exploit</font></para>")
HOSTILE_CARD = {
    "name": "<script>alert(1)</script>",
    "kind": "monster", "power": 2, "damage": 1, "health": 3, "speed": ["fast"], "element": "air",
    "race": '"><img src=x onerror=alert(2)>',
    "text": '<a href="javascript:alert(3)">click</a> <b>bold</b> <font color="red">red</font> ' + REPORTLAB_RCE,
    "flavor": "javascript:alert(4) <img src=\"http://evil.example/track.png\"> <para>&amp;</para>",
}
RAW = ["<script>alert(1)</script>", "<img src=x onerror", 'href="javascript:', "<font color", "<para>"]


@pytest.fixture
def hostile(client):
    answer = client.post("/api/games/seth/cards", json=dict(HOSTILE_CARD, id="hostile-card"))
    assert answer.status_code == 201
    deck = client.post("/api/games/seth/decks", json={"id": "hostile-deck", "name": "<b>Deck</b><script>x</script>",
                                                      "zones": {"team": {"hostile-card": 1}},
                                                      "notes": "<script>alert(5)</script>"})
    assert deck.status_code == 201
    return client


@pytest.mark.parametrize("url", [
    "/games/seth/cards", "/games/seth/cards?q=script", "/games/seth/cards/hostile-card/edit",
    "/games/seth/decks", "/games/seth/decks/hostile-deck/edit", "/games/seth/cards/hostile-card/delete",
    "/games/seth/cards/hostile-card/art", "/games/seth/print", "/games/seth/export",
])
def test_pages_show_markup_as_text(hostile, url):
    answer = hostile.get(url)
    assert answer.status_code == 200, url
    page = answer.get_data(as_text=True)
    for raw in RAW:
        assert raw not in page, (url, raw)
    if "cards/hostile-card" in url or url.endswith("/cards"):
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_api_returns_the_text_unchanged_as_json(hostile):
    answer = hostile.get("/api/games/seth/cards/hostile-card")
    assert answer.json["card"]["text"] == HOSTILE_CARD["text"]
    assert answer.headers["Content-Type"].startswith("application/json")
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]


def test_faces_and_previews_draw_markup_as_text(hostile):
    face = hostile.get("/games/seth/cards/hostile-card/face.png")
    assert face.status_code == 200 and face.data.startswith(b"\x89PNG")
    token = hostile.get("/api/csrf").json["csrf_token"]
    preview = hostile.post("/games/seth/preview.png", json={"card": HOSTILE_CARD}, headers={"X-CSRF-Token": token})
    assert preview.status_code == 200 and preview.data.startswith(b"\x89PNG")
    assert not MARKER.exists()


def test_print_pdf_keeps_markup_literal_and_runs_nothing(repo):
    from pypdf import PdfReader

    from workbench.services.render.pdf import SheetOptions
    from workbench.services.render.service import default_size, render_pdf

    definition = repo.game("seth")
    card = dict(HOSTILE_CARD, id="hostile-card", name=REPORTLAB_RCE[:60])
    pdf = render_pdf(definition, [card], SheetOptions(size=default_size(definition), backs="none"))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "<para><font color=" in text  # drawn as the characters typed, not interpreted
    assert not MARKER.exists()


def test_render_problems_on_hostile_text_are_plain_warnings(repo):
    from workbench.services.render.service import render_problems

    problems = render_problems(repo.game("seth"), HOSTILE_CARD)
    assert all(p.severity == "warning" for p in problems)
    assert not MARKER.exists()
