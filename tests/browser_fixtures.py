"""Browser-test fixtures: a REAL workbench server on a free port and Debian's Chromium via Playwright.

They are registered once, by the root ``tests/conftest.py``, so a browser test in any folder
(``tests/web/browser/``, ``tests/security/``) shares the one server and the one Chromium of the
session; importing them into a test module instead would start a second Playwright beside the
first, which fails every later browser test. Use them in any browser test (mark it
``@pytest.mark.browser``):

- ``live_server``: base URL (``http://127.0.0.1:<port>``) of ``python -m workbench serve`` started
  once per session on a private copy of ``card_data`` (so tests may create and delete freely);
  ``live_server_data`` is that copy's path.
- ``browser``: one Chromium per session (``/usr/bin/chromium``, headless).
- ``page``: a fresh browser context and page per test, closed afterwards; console errors
  (for example a CSP violation) are collected in ``page.console_errors``.
- ``screenshot``: ``screenshot(page, "name")`` saves ``test-output/screenshots/name.png``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.live_server import copy_data, running_server

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = PROJECT_ROOT / "test-output" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


@pytest.fixture(scope="session")
def live_server_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private, writable copy of the bundled data folder for the live server."""
    return copy_data(tmp_path_factory.mktemp("live") / "card_data")


@pytest.fixture(scope="session")
def live_server(live_server_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``python -m workbench serve`` on a free port; yield its base URL; stop it at the end."""
    with running_server(live_server_data, tmp_path_factory.mktemp("instance")) as server:
        yield server.url


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """One headless Debian Chromium for the whole session."""
    from playwright.sync_api import sync_playwright

    if not os.access(CHROMIUM, os.X_OK):
        raise RuntimeError(f"{CHROMIUM} is missing: run scripts/system-packages.sh (the test set-up does)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser) -> Iterator:
    """A fresh context and page; console errors are collected in ``page.console_errors``."""
    context = browser.new_context(viewport={"width": 1360, "height": 900}, locale="en-GB")
    from playwright.sync_api import expect

    # Generous: CI machines are shared, and a cold render of a preview can take seconds there.
    context.set_default_timeout(30_000)
    expect.set_options(timeout=20_000)
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    new_page.on("pageerror", lambda exc: errors.append(str(exc)))
    new_page.console_errors = errors  # type: ignore[attr-defined]
    yield new_page
    context.close()


@pytest.fixture
def screenshot() -> Callable[..., Path]:
    """``screenshot(page_or_locator, name, full_page=True)``: save a PNG under test-output/screenshots/."""

    def take(target, name: str, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        extra = {"full_page": full_page} if hasattr(target, "goto") else {}  # a page, not a locator
        target.screenshot(path=str(path), **extra)
        return path

    return take
