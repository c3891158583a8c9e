"""A playtest in a real Chromium against a real server: start it, watch the live progress bar, read
the report with its charts, sort the card table, replay one game step by step."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def english(page, server: str) -> None:
    """Read fusion's pages in English (the language switch's cookie): they open in Chinese."""
    page.context.add_cookies([{"name": "workbench_lang", "value": "en", "url": server}])


def test_start_watch_progress_read_report_sort_and_replay(live_server, page, screenshot):
    english(page, live_server)
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

    # Sort the card table by improvement when drawn: biggest first, empty values last.
    page.get_by_role("button", name="Improvement when drawn").click()
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
    page.get_by_role("button", name="End", exact=True).click()
    expect(page.get_by_role("button", name="Step ▶")).to_be_disabled()
    screenshot(page, "playtest-replay", full_page=False)
    assert not page.console_errors, page.console_errors


def test_compare_with_a_variant_shows_both_win_rates_side_by_side(live_server, page, screenshot):
    page.goto(live_server + "/games/seth/playtest")
    page.get_by_label("Games").fill("40")
    page.get_by_label("Seed").fill("3")
    page.get_by_label("Worker processes").fill("1")
    page.locator("#pt-variant summary").click()
    page.get_by_label("Compare with this variant").check()
    page.get_by_label("Variant: Rounds before a draw").fill("2")
    page.get_by_role("button", name="Start playtest").click()

    table = page.locator("#variant-table")
    expect(table).to_be_visible(timeout=60_000)
    expect(page.locator("#report-title")).to_contain_text("two rule variants")
    row = page.locator("#variant-win-rate")
    assert row.inner_text().count("%") >= 6  # two rates, each with its interval
    expect(page.locator("#variant-delta")).to_contain_text("points")
    expect(table).to_contain_text("max_rounds=2")
    expect(page.locator("#chart-variants circle")).to_have_count(2)
    screenshot(page, "playtest-variants", full_page=False)
    assert not page.console_errors, page.console_errors


def test_an_interrupted_run_is_resumed_from_its_page(live_server, live_server_data, page):
    from tests.services.playtest.test_jobs import crashed_run
    from workbench.services.playtest import service
    from workbench.storage.repository import Repository

    repo = Repository(live_server_data)
    matchup, facts = service.prepare(repo, "seth", "rot-and-stone", "skyburn-blitz", seed=4)
    run_id = crashed_run(repo, matchup, 60, kept=20, facts=facts)  # as a killed server leaves it

    page.goto(live_server + f"/games/seth/playtests/{run_id}")
    expect(page.get_by_role("heading", name="Playtest interrupted")).to_be_visible()
    expect(page.locator("#pt-kept")).to_have_text("20 of 60 games")
    page.get_by_role("button", name="Resume").click()
    expect(page.locator("#chart-win-rate")).to_be_visible(timeout=60_000)
    expect(page.locator("#summary")).to_contain_text("wins")
    assert "60 games" in page.locator(".lede").first.inner_text()
    assert not page.console_errors, page.console_errors


def test_a_balance_report_shows_its_progress_then_one_row_per_card(live_server, page, screenshot):
    english(page, live_server)
    page.goto(live_server + "/games/fusion/playtest")
    page.locator("#balance-link").click()
    expect(page.get_by_role("heading", name="Balance: what each card is worth")).to_be_visible()
    page.get_by_label("Games per card").fill("60")
    page.get_by_label("Worker processes").fill("1")
    page.get_by_role("button", name="Start balance report").click()
    # One run of 60 fusion games for the deck as built, then one per distinct card swapped out.
    status = page.locator("#pt-status")
    expect(status).to_contain_text(re.compile(r"[1-9][0-9,]* of [0-9,]+ games"), timeout=30_000)
    total = int(re.search(r"of ([0-9,]+) games", status.inner_text()).group(1).replace(",", ""))
    assert total % 60 == 0 and total // 60 >= 20, total
    expect(page.locator("#balance-table")).to_be_visible(timeout=180_000)
    rows = page.locator("#balance-table tbody tr")
    expect(rows).to_have_count(total // 60 - 1)
    values = page.locator("#balance-table tbody tr td:nth-child(3)").evaluate_all(
        "cells => cells.map(c => Number(c.getAttribute('data-value')))")
    assert values == sorted(values, reverse=True)
    screenshot(page, "playtest-balance", full_page=False)
