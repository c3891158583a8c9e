"""Fast deck building in a real Chromium: a legal 60-card warzone deck from a pasted list in a
handful of actions (counted), the copy-limit button, keyboard focus kept on the row, duplicate,
and the links from a deck to where it goes next."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _api(base: str, path: str, body: dict | None = None) -> dict:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _sixty_card_list(base: str) -> str:
    cards = {c["id"]: c["card"] for c in _api(base, "/api/games/warzone/cards")["cards"]}
    deck = _api(base, "/api/games/warzone/decks/iron-bastion")["deck"]
    lines, total = [], 0
    for card_id, count in deck["zones"]["main"].items():
        count = min(count, 60 - total)
        if count <= 0:
            break
        lines.append(f"{count}x {cards[card_id]['name']}" if total % 2 else f"{count} {cards[card_id]['name']}")
        total += count
    assert total == 60
    lines.append("Areas:")
    lines += [f"1 {cards[card_id]['name']}" for card_id in deck["zones"]["area"]]
    return "\n".join(lines)


def test_a_legal_sixty_card_deck_in_at_most_twenty_actions(live_server, page, screenshot):
    text = _sixty_card_list(live_server)
    actions = 0

    def act(step):  # type: ignore[no-untyped-def]
        nonlocal actions
        actions += 1
        step()

    act(lambda: page.goto(live_server + "/games/warzone/new-deck"))
    act(lambda: page.get_by_label("Deck name").fill("Pasted Bastion"))
    act(lambda: page.get_by_text("Paste or import a list").click())
    act(lambda: page.get_by_label("Deck list").fill(text))
    act(lambda: page.get_by_role("button", name="Check the list").click())
    expect(page.locator("#list-report")).to_contain_text("63 cards found: 60 in Main deck, 3 in Areas")
    act(lambda: page.get_by_role("button", name="Replace the deck").click())
    expect(page.locator("#legal-status")).to_have_text("Legal")
    screenshot(page, "deck-pasted", full_page=False)
    act(lambda: page.get_by_role("button", name="Create deck").click())
    page.wait_for_url("**/games/warzone/decks/pasted-bastion/edit")
    assert actions <= 20, actions
    saved = _api(live_server, "/api/games/warzone/decks/pasted-bastion")["deck"]
    assert sum(saved["zones"]["main"].values()) == 60 and sum(saved["zones"]["area"].values()) == 3
    assert not page.console_errors, page.console_errors


def test_copy_limit_button_focus_duplicate_and_links(live_server, page):
    page.goto(live_server + "/games/warzone/decks/vanguard-rush/edit")
    for label in ("Print this deck", "Playtest this deck", "Export this deck", "Download as text"):
        expect(page.get_by_role("link", name=label, exact=True)).to_be_visible()
    page.get_by_label("Search cards").fill("Mudfoot")
    expect(page.locator("#card-results")).to_have_attribute("data-query", "Mudfoot")  # the debounced list
    page.get_by_role("button", name="4 copies of Mudfoot Recruit in Main deck (the most allowed)").click()
    expect(page.get_by_role("spinbutton", name="Copies of Mudfoot Recruit in Main deck")).to_have_value("4")
    minus = page.get_by_role("button", name="One fewer Mudfoot Recruit")
    minus.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("spinbutton", name="Copies of Mudfoot Recruit in Main deck")).to_have_value("3")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "One fewer Mudfoot Recruit"
    page.keyboard.press("Enter")  # focus stayed: a second press acts on the same row
    expect(page.get_by_role("spinbutton", name="Copies of Mudfoot Recruit in Main deck")).to_have_value("2")
    page.get_by_role("button", name="Duplicate").click()
    page.wait_for_url("**/decks/vanguard-rush-copy/edit")
    expect(page.get_by_label("Deck name")).to_have_value("Vanguard Rush (copy)")
    page.get_by_role("link", name="Playtest this deck").click()
    expect(page.locator("#deck_a")).to_have_value("vanguard-rush-copy")


def test_statistics_announce_only_what_changed(live_server, page):
    main = sum(_api(live_server, "/api/games/warzone/decks/iron-bastion")["deck"]["zones"]["main"].values())
    page.goto(live_server + "/games/warzone/decks/iron-bastion/edit")
    assert page.locator("#stats-body").get_attribute("aria-live") is None  # the panel is not re-read whole
    expect(page.locator("#stats-announce")).to_have_text("")
    page.get_by_role("button", name="One more Mudfoot Recruit").click()
    expect(page.locator("#stats-announce")).to_have_text(f"Main deck: {main + 1} cards")
