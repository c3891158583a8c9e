"""Export and import in a real Chromium: export a spreadsheet and download it; upload a sheet, read
the dry run, confirm, and find the new card. Exports go to a private folder, never the checkout."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.live_server import copy_data, running_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def transfer_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A live server whose EXPORT_DIR is a temp folder; yields (base URL, exports folder)."""
    root = tmp_path_factory.mktemp("transfer")
    data = copy_data(root / "card_data")
    exports = root / "exports"
    with running_server(data, root / "instance", env_extra={"WORKBENCH_EXPORTS": str(exports)}) as server:
        yield server.url, exports


def test_export_then_download(transfer_server, page, screenshot):
    url, exports = transfer_server
    page.goto(url + "/games/seth/export")
    screenshot(page, "export-form")
    page.check("#format-csv")  # by id: its "how to load it (…)" link names the format too
    page.get_by_role("button", name="Export").click()
    expect(page.get_by_role("heading", name="Spreadsheet (CSV) of all cards")).to_be_visible()
    with page.expect_download() as info:
        page.locator("#download-main").click()
    content = Path(info.value.path()).read_bytes()
    assert content.startswith(b"\xef\xbb\xbfid,name,kind")
    assert (exports / "seth" / "csv" / "seth-cards.csv").is_file()
    assert not page.console_errors, page.console_errors


def test_import_dry_run_and_confirm(transfer_server, page, screenshot, tmp_path):
    url, _ = transfer_server
    sheet = tmp_path / "monsters.csv"
    sheet.write_text("Title,Power,Damage,Health,Speed,Race,Element\n"
                     "Browser Bat,2,3,4,\"fast, medium\",Bat,physical\nBad Row,x,1,1,fast,Bat,fire\n", encoding="utf-8")
    page.goto(url + "/games/seth/import")
    page.locator("#file").set_input_files(str(sheet))
    page.get_by_label("Column mapping (optional)").fill("Title=name")
    page.get_by_role("button", name="Dry run").click()
    expect(page.locator("#import-counts")).to_contain_text("1 to create")
    expect(page.locator("#import-rows")).to_contain_text("row 3, column B (Power): 'x' is not a whole number")
    screenshot(page, "import-dry-run")
    page.locator("#confirm-import").click()
    expect(page.locator("#import-result")).to_contain_text("1 created")
    page.goto(url + "/games/seth/cards/browser-bat/edit")
    assert "Browser Bat" in page.content()
    assert not page.console_errors, page.console_errors


def test_the_export_page_leads_to_the_lackey_install_steps(transfer_server, page, screenshot):
    """The install guide opens as a page of the app, at its section, from the Export page."""
    url, _ = transfer_server
    page.goto(url + "/games/fusion/export")
    page.get_by_role("link", name="安装 LackeyCCG 插件").click()  # fusion's pages are in Chinese
    heading = page.get_by_role("heading", name="Installing the plugin in LackeyCCG")
    expect(heading).to_be_visible()
    assert page.url.startswith(url + "/docs/exports") and page.url.endswith("#installing-the-plugin-in-lackeyccg")
    expect(page.locator("body")).to_contain_text("Unzip <game>.zip into Lackey's plugins/ folder")
    screenshot(page, "lackey-install-steps")
    assert not page.console_errors, page.console_errors
