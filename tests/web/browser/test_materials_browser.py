"""The card editor's materials field (fusion's extra-deck creatures, RULES.md §3.10.2) in a real
Chromium: one material a line, a mapping as JSON, saved as the list the card file holds."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _card(base: str, card_id: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/games/fusion/cards/{card_id}", timeout=5) as answer:
        return json.loads(answer.read())["card"]


def test_materials_show_one_a_line_and_save_as_a_list(live_server, page):
    page.goto(live_server + "/games/fusion/cards/yan-feng-he-ti-long/edit")
    area = page.locator("#field-materials")
    expect(area).to_have_value('{"filter":{"attribute":"fire"}}\n{"filter":{"attribute":"wind"}}')
    expect(page.locator("#field-extra")).to_be_checked()
    area.fill('火花小鬼\n{"filter": {"attribute": "wind"}, "count": 2}')
    page.get_by_role("button", name="保存").click()
    expect(page.locator("#save-status")).to_have_class(re.compile(r"\bstatus-ok\b"))  # saved (networkidle may come first)
    card = _card(live_server, "yan-feng-he-ti-long")
    assert card["materials"] == ["火花小鬼", {"filter": {"attribute": "wind"}, "count": 2}]
    # put the bundled card back (the live server's data is shared by the session's browser tests)
    page.goto(live_server + "/games/fusion/cards/yan-feng-he-ti-long/edit")
    page.locator("#field-materials").fill('{"filter": {"attribute": "fire"}}\n{"filter": {"attribute": "wind"}}')
    page.get_by_role("button", name="保存").click()
    expect(page.locator("#save-status")).to_have_class(re.compile(r"\bstatus-ok\b"))
    assert _card(live_server, "yan-feng-he-ti-long")["materials"] == [
        {"filter": {"attribute": "fire"}}, {"filter": {"attribute": "wind"}}]
    assert not page.console_errors, page.console_errors
