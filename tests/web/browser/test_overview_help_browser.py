"""The set overview and the help pages in a real Chromium, on a laptop and on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

_OVERFLOW = "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > " \
            "window.innerWidth + 1 && !e.closest('pre, .help-body table, .chart')).map(e => e.tagName + '.' + e.className)"


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)])
def test_overview_and_help_fit_the_screen(live_server, browser, size, screenshot):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    for path in ("/games/warzone/overview", "/games/fusion/overview", "/docs/", "/docs/exports"):
        page.goto(live_server + path)
        assert page.evaluate(_OVERFLOW) == [], (path, size)
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0], (path, size)
    screenshot(page, f"help-exports-{size[0]}", full_page=False)
    page.goto(live_server + "/games/seth/overview")
    screenshot(page, f"overview-{size[0]}")
    assert errors == []
    context.close()


def test_a_dot_over_the_budget_opens_its_card_and_help_opens_the_section(live_server, page):
    page.goto(live_server + "/games/seth/overview")
    first_over = page.locator("#over-budget tbody a").first
    name = first_over.inner_text()
    page.locator("svg.scatter a:has(circle.dot-over)", has_text=name).first.click()
    page.wait_for_url("**/edit")
    expect(page.get_by_label("Name")).to_have_value(name)
    page.get_by_role("link", name="Help").click()
    page.wait_for_url("**/docs/web-ui#card-editor")
    expect(page.locator("#card-editor")).to_be_visible()
