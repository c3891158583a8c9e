"""The web UI in a real Chromium against a real server: create, validate, fix, save, reload, find;
build a deck until it is legal; the two-tab conflict; a CJK name typed and shown intact.
Screenshots of each main page go to test-output/screenshots/."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _api(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + path, timeout=5) as answer:
        return json.loads(answer.read())


def test_games_page_and_gallery(live_server, page, screenshot):
    page.goto(live_server + "/")
    expect(page.get_by_role("heading", name="Games")).to_be_visible()
    screenshot(page, "games")
    page.get_by_role("link", name="Warzone: Kings of Valor").click()
    expect(page.get_by_role("heading", name="Cards")).to_be_visible()
    page.get_by_label("Class", exact=True).select_option(label="Class 3 (long range)")
    page.wait_for_url("**f_class=3**")
    thumbs = page.locator("li.thumb")
    expect(thumbs.first).to_be_visible()
    assert thumbs.count() >= 3
    page.goto(live_server + "/games/warzone/cards")
    screenshot(page, "gallery", full_page=False)
    assert not page.console_errors, page.console_errors


def test_create_card_see_error_fix_save_reload_find(live_server, page, screenshot):
    page.goto(live_server + "/games/seth/cards")
    page.get_by_label("New card of kind").select_option("monster")
    page.get_by_role("button", name="New card").click()
    expect(page.get_by_role("heading", name="New card")).to_be_visible()
    page.get_by_label("Name").fill("Quartz Beetle")
    page.get_by_label("Power").fill("40")
    power_problems = page.locator("#problems-power")
    expect(power_problems).to_contain_text("29")  # the error sits next to the field and names the limit
    expect(page.get_by_label("Power")).to_have_attribute("aria-invalid", "true")
    page.get_by_label("Damage").fill("4")
    page.get_by_label("Health").fill("9")
    page.get_by_label("fast", exact=True).check()
    page.get_by_label("Race").fill("Insect")
    page.get_by_label("Element").select_option(label="physical")
    page.get_by_label("Flavor text").fill("It hums in a key only stones can hear.")
    expect(page.locator("#preview .pc-name")).to_have_text("Quartz Beetle")
    expect(page.locator("#problem-summary")).to_have_text("1 error, 0 warnings")  # only Power is left
    page.wait_for_load_state("networkidle", timeout=90_000)  # the rendered preview has arrived (it can queue on a busy machine)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "editor-error", full_page=False)
    page.get_by_label("Power").fill("5")
    expect(power_problems).to_be_empty()
    expect(page.locator("#problem-summary")).to_have_text("No problems")
    page.get_by_role("button", name="Create card").click()
    page.wait_for_url("**/games/seth/cards/quartz-beetle/edit")
    page.reload()
    expect(page.get_by_label("Power")).to_have_value("5")
    expect(page.get_by_label("Race")).to_have_value("Insect")
    screenshot(page, "editor", full_page=False)
    page.goto(live_server + "/games/seth/cards")
    page.get_by_label("Search names and text").fill("quartz")
    page.get_by_label("Search names and text").press("Enter")
    expect(page.locator("li.thumb")).to_have_count(1)
    expect(page.locator("li.thumb .thumb-name")).to_have_text("Quartz Beetle")
    stored = _api(live_server, "/api/games/seth/cards/quartz-beetle")["card"]
    assert stored["power"] == 5 and stored["speed"] == ["fast"] and stored["element"] == "physical"
    assert not page.console_errors, page.console_errors


def test_cjk_name_typed_and_shown_intact(live_server, page):
    name = "霜龙·试作 Ⅱ"
    page.goto(live_server + "/games/fusion/new-card?kind=magic")
    expect(page.locator("#problem-summary")).to_have_text(re.compile(r"^还有 \d+ 个必填字段$"))  # the script speaks Chinese too
    page.get_by_label("名称 Name").click()
    page.keyboard.type(name)
    page.get_by_label("卡牌编号").fill("shuang-long-test")  # fusion opens in Chinese (its game.yaml)
    page.get_by_label("费用 Mana cost").fill("X")
    page.get_by_label("类型 Subtype").select_option(label="速攻 Quick")
    page.get_by_label("效果 Effect text").fill("抽1张卡。")
    expect(page.locator("#preview .pc-name")).to_have_text(name)
    page.get_by_role("button", name="创建卡牌").click()
    page.wait_for_url("**/cards/shuang-long-test/edit")
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    assert _api(live_server, "/api/games/fusion/cards/shuang-long-test")["card"]["name"] == name
    page.goto(live_server + "/games/fusion/cards?q=霜龙")
    expect(page.locator("li.thumb .thumb-name")).to_have_text(name)
    assert not page.console_errors, page.console_errors


def test_build_a_deck_until_it_is_legal(live_server, page, screenshot):
    page.goto(live_server + "/games/seth/decks")
    page.get_by_label("New deck named").fill("Browser Five")
    page.get_by_role("button", name="Build a new deck").click()
    status = page.locator("#legal-status")
    expect(status).to_contain_text("Not legal")
    for card in ["Cinder Imp", "Glass Wasp", "Bog Lurker", "Moonlit Sprite", "Emberhorn Ram"]:
        page.get_by_label("Search cards").fill(card)
        # the debounced search re-renders the results: click only in the list that answers this query
        expect(page.locator("#card-results")).to_have_attribute("data-query", card)
        page.get_by_role("button", name=f"Add {card} to Team").click()
    expect(page.locator("#zone-team-count")).to_have_text("5")
    expect(status).to_have_text("Legal")
    expect(page.locator("#stats-body")).to_contain_text("Total Power")
    screenshot(page, "deck-builder", full_page=False)
    page.get_by_role("button", name="Create deck").click()
    page.wait_for_url("**/decks/browser-five/edit")
    saved = _api(live_server, "/api/games/seth/decks/browser-five")
    assert saved["legal"] and sum(saved["deck"]["zones"]["team"].values()) == 5
    assert not page.console_errors, page.console_errors


def test_fusion_deck_statistics_show_draw_odds(live_server, page, screenshot):
    page.goto(live_server + "/games/fusion/decks/pan-shi-chao-xi/edit")
    expect(page.locator("#legal-status")).to_have_text("合规")  # fusion's pages (and the script's messages) are in Chinese
    page.get_by_label("抽到的目标").select_option(label="任意 魔法 Magic")
    page.get_by_label("至少", exact=True).fill("2")
    page.get_by_label("至少", exact=True).press("Tab")
    expect(page.locator(".odds-plan")).to_contain_text("手中至少有 2 × 魔法 Magic 卡牌")
    expect(page.locator(".odds svg.chart")).to_be_visible()
    screenshot(page.locator(".builder-side"), "deck-stats")
    assert not page.console_errors, page.console_errors


def test_two_tabs_editing_the_same_card_lose_nothing(live_server, browser, screenshot):
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    try:
        first, second = context.new_page(), context.new_page()
        url = live_server + "/games/seth/cards/thornback-tortoise/edit"
        first.goto(url)
        second.goto(url)
        first.get_by_label("Flavor text").fill("Version from the first tab.")
        first.get_by_role("button", name="Save").click()
        expect(first.locator("#save-status")).to_contain_text("Saved")
        second.get_by_label("Health").fill("21")
        second.get_by_role("button", name="Save").click()
        panel = second.locator("#conflict-panel")
        expect(panel).to_be_visible()
        expect(panel).to_contain_text("Version from the first tab.")  # theirs, shown beside mine
        expect(panel.locator('tr[data-field="health"] td.mine')).to_contain_text("21")
        screenshot(second, "conflict", full_page=False)
        assert _api(live_server, "/api/games/seth/cards/thornback-tortoise")["card"]["flavor"] == "Version from the first tab."
        panel.locator('tr[data-field="flavor"]').get_by_label("saved").check()
        second.get_by_role("button", name="Merge the chosen fields into the editor").click()
        expect(panel).to_be_hidden()
        expect(second.get_by_label("Flavor text")).to_have_value("Version from the first tab.")
        expect(second.get_by_label("Health")).to_have_value("21")
        second.get_by_role("button", name="Save").click()
        expect(second.locator("#save-status")).to_contain_text("Saved")
        card = _api(live_server, "/api/games/seth/cards/thornback-tortoise")["card"]
        assert card["flavor"] == "Version from the first tab." and card["health"] == 21
    finally:
        context.close()


LEAVE_PROBE = """() => {
  const event = new Event("beforeunload", {cancelable: true});
  window.dispatchEvent(event);
  return event.defaultPrevented;
}"""


def test_leaving_with_unsaved_edits_asks_first(live_server, page):
    # The browser shows its "leave site?" prompt when beforeunload is cancelled; dispatching the
    # event checks that decision without the native dialog (which headless Chromium handles badly).
    page.goto(live_server + "/games/seth/cards/bog-lurker/edit")
    expect(page.locator("#problem-summary")).to_have_text("No problems")
    assert page.evaluate(LEAVE_PROBE) is False  # nothing changed yet: leave freely
    page.get_by_label("Race").fill("Amphibian king")
    assert page.evaluate(LEAVE_PROBE) is True
    page.keyboard.press("Control+s")  # keyboard save
    expect(page.locator("#save-status")).to_contain_text("Saved")
    assert page.evaluate(LEAVE_PROBE) is False
    page.goto(live_server + "/games/seth/decks/skyburn-blitz/edit")
    expect(page.locator("#legal-status")).to_have_text("Legal")
    page.get_by_role("button", name="One more Glass Wasp").click()
    assert page.evaluate(LEAVE_PROBE) is True  # the deck builder guards unsaved decks too


def test_a_new_card_shows_hints_not_errors_until_edited_or_saved(live_server, page):
    page.goto(live_server + "/games/warzone/new-card?kind=creature")
    summary = page.locator("#problem-summary")
    expect(summary).to_have_text(re.compile(r"^\d+ required fields? to fill$"))
    assert page.locator("[aria-invalid='true']").count() == 0
    assert page.locator(".field-problems .problem-error").count() == 0
    expect(page.locator("#problems-strength .problem-hint")).to_have_count(1)
    strength = page.locator("[data-field=strength] input")
    strength.fill("500")
    strength.fill("")  # edited and left empty: now it is an error next to the field
    expect(page.locator("#problems-strength .problem-error")).to_have_count(1)
    expect(strength).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#problems-degree .problem-hint")).to_have_count(1)  # the others are still hints
    page.get_by_role("button", name="Create card").click()  # trying to save shows every missing field
    expect(page.locator("#problems-degree .problem-error")).to_have_count(1)  # was a hint until now
    expect(page.locator(".field-problems .problem-hint")).to_have_count(0)
    expect(summary).to_have_text(re.compile(r"^\d+ errors?, \d+ warnings?$"))


def test_the_preview_stays_in_view_while_editing_on_a_phone_and_a_laptop(live_server, browser):
    for width, height in ((390, 844), (1280, 720)):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
        page = context.new_page()
        page.goto(live_server + "/games/seth/cards/bog-lurker/edit")
        flavor = page.get_by_label("Flavor text")
        flavor.scroll_into_view_if_needed()
        if width < 860:
            toggle = page.get_by_role("button", name="Show preview")
            toggle.click()
            expect(page.get_by_role("button", name="Hide preview")).to_have_attribute("aria-expanded", "true")
        flavor.fill("Seen while typing.")
        preview = page.locator("#preview-img:visible, #preview:visible").first
        expect(preview).to_be_visible()
        box = preview.bounding_box()
        for _ in range(50):  # the live preview swaps its image after the fill: look again until it has a box
            if box is not None:
                break
            page.wait_for_timeout(100)
            box = preview.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + 40 <= height, (width, box)  # on screen
        context.close()
