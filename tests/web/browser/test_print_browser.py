"""The Print page in a real Chromium: the PDF a designer downloads has crop marks exactly when the
box is ticked, and then the same marks as the command line's PDF of the same deck."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pdfplumber
import pytest

from tests.live_server import PROJECT_ROOT

pytestmark = pytest.mark.browser


def _crop_mark_lines(pdf: Path) -> int:
    """Short straight lines on page 1 (crop marks are 2.5-5 mm ticks; faces have no such strokes)."""
    with pdfplumber.open(pdf) as doc:
        lines = doc.pages[0].lines
    return sum(1 for line in lines if line["width"] < 20 and line["height"] < 20
               and abs(line["x1"] - line["x0"]) + abs(line["bottom"] - line["top"]) > 5)


def _download_from_print_page(page, base: str, tmp_path: Path, ticked: bool) -> Path:
    page.goto(base + "/games/seth/print?deck=rot-and-stone")
    box = page.get_by_label("Crop marks", exact=False)
    box.set_checked(ticked)
    with page.expect_download(timeout=120_000) as download:
        page.get_by_role("button", name="Download PDF").click()
    target = tmp_path / f"web-{'marks' if ticked else 'plain'}.pdf"
    download.value.save_as(target)
    return target


def test_the_crop_marks_box_decides_what_the_downloaded_pdf_has(live_server, live_server_data, page, tmp_path):
    cli_pdf = tmp_path / "cli.pdf"
    subprocess.run([sys.executable, "-m", "workbench", "render", "seth", "--deck", "rot-and-stone", "--format", "pdf",
                    "-o", str(cli_pdf), "--data", str(live_server_data), "--no-progress"],
                   check=True, cwd=PROJECT_ROOT, capture_output=True)
    cli_marks = _crop_mark_lines(cli_pdf)
    assert cli_marks > 0  # the command line prints crop marks by default

    assert _crop_mark_lines(_download_from_print_page(page, live_server, tmp_path, ticked=True)) == cli_marks
    assert _crop_mark_lines(_download_from_print_page(page, live_server, tmp_path, ticked=False)) == 0
    assert not page.console_errors, page.console_errors


def test_preview_shows_the_first_sheet_and_follows_the_options(live_server, page, screenshot):
    page.goto(live_server + "/games/warzone/print?deck=iron-bastion")
    page.get_by_role("button", name="Preview the first sheet").click()
    images = page.locator("#preview-pages img")
    from playwright.sync_api import expect

    expect(images).to_have_count(2)  # fronts and duplex backs
    expect(images.first).to_have_attribute("alt", re.compile(r"Fronts of sheet 1: 9 cards on A4, with crop marks"))
    expect(page.locator("#preview-status")).to_contain_text("Sheet 1 of")
    screenshot(page.locator("#print-preview"), "print-preview")
    page.get_by_label("Card backs").select_option("none")
    page.get_by_label("Crop marks", exact=False).uncheck()
    expect(images).to_have_count(1)
    expect(images.first).to_have_attribute("alt", re.compile(r"no crop marks"))
    assert not page.console_errors, page.console_errors


def test_the_preview_speaks_chinese_on_fusion(live_server, page):
    """The script's messages come from the page's catalogue: fusion's pages are in Chinese."""
    from playwright.sync_api import expect

    page.goto(live_server + "/games/fusion/print")
    page.get_by_role("button", name="预览第一页").click()
    images = page.locator("#preview-pages img")
    expect(images.first).to_have_attribute("alt", re.compile(r"^第 1 页的正面：A4 纸上 \d+ 张卡牌，带裁切线$"))
    expect(page.locator("#preview-status")).to_contain_text(re.compile(r"第 1 页，共 \d+ 页：每页最多 \d+ 张"))
    expect(page.locator("#preview-pages figcaption").first).to_have_text("正面")
    assert not page.console_errors, page.console_errors
