"""A playtest in a real Chromium against a real server: start it, watch the live progress bar, read
the report with its charts, sort the card table, replay one game step by step."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_start_watch_progress_read_report_sort_and_replay(live_server, page, screenshot):
    page.goto(live_server + "/games/fusion/playtest")
    expect(page.get_by_role("heading", name="Playtest")).to_be_visible()
    page.get_by_label("Games").fill("600")
    page.get_by_label("Seed").fill("11")
    page.get_by_label("Worker processes").fill("1")
    screenshot(page, "playtest-form", full_page=False)
    page.get_by_role("button", name="Start playtest").click()

    # The live progress page: the bar moves while the server plays (fusion: ~100 games/s here).
    bar = page.locator("#pt-bar")
    expect(bar).to_be_visible()
    expect(page.locator("#pt-status")).to_contain_text(re.compile(r"[1-9][0-9]* of 600 games"), timeout=30_000)
    assert 0 < float(bar.get_attribute("value") or 0) <= 600
    screenshot(page, "playtest-progress", full_page=False)

    # The page reloads itself into the report when the run is done.
    expect(page.locator("#chart-win-rate")).to_be_visible(timeout=90_000)
    expect(page.locator("#chart-length rect").first).to_be_attached()
    assert page.locator("#summary").inner_text().count("%") >= 2
    screenshot(page, "playtest-report", full_page=False)

    # Sort the card table by impact: biggest first, empty values last.
    page.get_by_role("button", name="Impact").click()
    values = page.locator("#card-table tbody tr td:nth-child(7)").evaluate_all(
        "cells => cells.map(c => c.getAttribute('data-value')).filter(v => v !== '').map(Number)")
    assert values == sorted(values, reverse=True) and len(values) > 3
    expect(page.locator("#card-table th[aria-sort='descending']")).to_have_count(1)

    # Replay one game step by step.
    page.locator("a.replay-link").nth(1).click()
    expect(page.locator("#replay-log")).to_be_visible()
    expect(page.locator("#step-count")).to_contain_text("Step 1 of")
    page.get_by_role("button", name="Step ▶").click()
    page.get_by_role("button", name="Step ▶").click()
    expect(page.locator("#step-count")).to_contain_text("Step 3 of")
    assert page.locator("#replay-log li:not([hidden])").count() == 3
    page.get_by_role("button", name="End ⏭").click()
    expect(page.get_by_role("button", name="Step ▶")).to_be_disabled()
    screenshot(page, "playtest-replay", full_page=False)
    assert not page.console_errors, page.console_errors
