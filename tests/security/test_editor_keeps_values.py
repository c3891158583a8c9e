"""Issue 13 item 8: the card editor must never change a field the designer did not touch.

Saving a card after changing only its flavor text turned ``speed: [fast, hyper]`` into
``[fast]`` and deleted ``element: lightning`` (values outside the field's allowed list). Now an
unknown value is shown (ticked or selected, marked "not an allowed value") with its problem
next to it, and saved back exactly as it was. Drives the real editor in Chromium, with the
session's browser fixtures (registered once by tests/conftest.py).
"""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect


pytestmark = pytest.mark.browser

GAME = "seth"


def _api(base: str, path: str, body: dict | None = None, method: str = "GET") -> dict:
    request = urllib.request.Request(base + path, method=method,
                                     data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"} if body is not None else {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_saving_only_the_flavor_keeps_unknown_values_and_other_fields(live_server, page) -> None:
    card = {"id": "odd-wasp", "name": "Odd Wasp", "kind": "monster", "power": 4, "damage": 3, "health": "6",
            "speed": ["fast", "hyper"], "race": "Insect", "element": "lightning", "resist": ["poison", "sound"],
            "text": "Plain text.", "flavor": "Before.", "number": "SE-900", "from_a_tool": {"kept": True},
            "attribute": "fire"}  # a field of another game's kind: not on this kind's form
    _api(live_server, f"/api/games/{GAME}/cards", card, "POST")
    page.goto(live_server + f"/games/{GAME}/cards/odd-wasp/edit")
    element = page.get_by_label("Element")
    expect(element.locator("option:checked")).to_contain_text("lightning")  # shown, not blanked
    expect(page.locator("#problems-element")).to_contain_text("lightning")  # with its problem
    expect(page.get_by_label("hyper")).to_be_checked()
    expect(page.locator("#problems-speed")).not_to_be_empty()
    page.get_by_label("Flavor text").fill("After.")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    stored = _api(live_server, f"/api/games/{GAME}/cards/odd-wasp")["card"]
    assert stored["flavor"] == "After."
    for name in ("speed", "element", "resist", "health", "from_a_tool", "attribute", "power", "number"):
        assert stored.get(name) == card[name], (name, stored.get(name))
    assert not [e for e in page.console_errors if "status of 4" not in e], page.console_errors


def test_a_changed_list_keeps_its_unknown_value_until_unticked(live_server, page) -> None:
    card = {"id": "odd-moth", "name": "Odd Moth", "kind": "monster", "power": 2, "damage": 1, "health": 3,
            "speed": ["hyper"], "race": "Insect", "element": "fire"}
    _api(live_server, f"/api/games/{GAME}/cards", card, "POST")
    page.goto(live_server + f"/games/{GAME}/cards/odd-moth/edit")
    page.get_by_label("slow", exact=True).check()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    assert _api(live_server, f"/api/games/{GAME}/cards/odd-moth")["card"]["speed"] == ["slow", "hyper"]
    page.get_by_label("hyper").uncheck()
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#save-status")).to_contain_text("Saved")
    assert _api(live_server, f"/api/games/{GAME}/cards/odd-moth")["card"]["speed"] == ["slow"]
