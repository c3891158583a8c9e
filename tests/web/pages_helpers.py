"""Helpers for the page tests: read ids and tokens out of rendered HTML."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser


def page_token(client, url: str = "/") -> str:
    """GET a page (starting the session) and return the CSRF token of its meta tag."""
    body = client.get(url).get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)"', body)
    assert match, "every page carries the CSRF token in a meta tag"
    return html.unescape(match.group(1))


def card_ids(body: str) -> list[str]:
    """Card ids of the gallery thumbnails, in page order."""
    return re.findall(r'<li class="thumb[^"]*" data-card-id="([^"]+)"', body)


def json_block(body: str, element_id: str) -> dict:
    """The JSON data block ``<script type="application/json" id=…>`` of a page."""
    match = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', body, re.S)
    assert match, f"no JSON block {element_id}"
    return json.loads(match.group(1))


def make_readonly_client(tmp_path_factory):
    """An app on a private data copy, shared by one module's tests that change nothing (fast)."""
    import shutil
    from pathlib import Path

    from workbench.web import create_app

    root = tmp_path_factory.mktemp("pages")
    data = root / "card_data"
    shutil.copytree(Path(__file__).resolve().parents[2] / "card_data", data,
                    ignore=shutil.ignore_patterns(".locks", ".tmp-*"))
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "EXPORT_DIR": str(root / "exports"),
                      "SECRET_KEY": "test-secret"})
    return app.test_client()


class _Visible(HTMLParser):
    """The visible text of a page's ``<main>`` and its labelling attributes, without ``<code>``
    (ids, option names and zones are data), scripts and styles."""

    SKIP = {"code", "script", "style", "template"}
    ATTRS = {"aria-label", "placeholder", "title", "alt"}

    def __init__(self) -> None:
        super().__init__()
        self.inside = 0
        self.skipping: list[str] = []
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):  # type: ignore[no-untyped-def]
        if tag == "main":
            self.inside += 1
        if tag in self.SKIP:
            self.skipping.append(tag)
        if self.inside and not self.skipping:
            self.texts += [v for k, v in attrs if k in self.ATTRS and v]

    def handle_endtag(self, tag):  # type: ignore[no-untyped-def]
        if tag == "main":
            self.inside -= 1
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data):  # type: ignore[no-untyped-def]
        if self.inside and not self.skipping and data.strip():
            self.texts.append(data)


_ENGLISH = re.compile(r"[A-Za-z]{2,}")
_RUN_ID = re.compile(r"\b\d{8}-\d{6}-[0-9a-f]{7}\b|\b[a-z_]+(?:\.[a-z_]+)+\b")  # run ids, game.yaml keys
# Words a Chinese page keeps: names of methods, formats and programs, and what the designer types.
KEPT_WORDS = {"JSON", "UTC", "GSPRT", "IWD", "AI", "ATK", "DEF", "yaml", "game", "balance", "vanilla", "workbench",
              "lands"}


def untranslated(body: str, data: tuple[str, ...] = ()) -> list[str]:
    """The texts with English words left on a page in another language: visible text and labels of ``<main>``
    outside ``<code>``, after removing ``data`` (card, deck and player names, option labels: the
    designer's own words) and the names in :data:`KEPT_WORDS`."""
    parser = _Visible()
    parser.feed(body)
    found = []
    for text in parser.texts:
        text = _RUN_ID.sub(" ", html.unescape(text))
        for name in sorted(data, key=len, reverse=True):
            text = text.replace(name, " ")
        if any(w not in KEPT_WORDS for w in _ENGLISH.findall(text)):
            found.append(" ".join(text.split()))
    return found
