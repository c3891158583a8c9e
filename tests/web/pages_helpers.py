"""Helpers for the page tests: read ids and tokens out of rendered HTML."""

from __future__ import annotations

import html
import json
import re


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
