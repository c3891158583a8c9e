"""Browser-test fixtures: a REAL workbench server on a free port and Debian's Chromium via Playwright.

Reuse these in any browser test (mark it ``@pytest.mark.browser``):

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
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[3]
SCREENSHOTS = PROJECT_ROOT / "test-output" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"workbench serve exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"workbench serve did not answer on {url}/healthz within {timeout:.0f} s")


@pytest.fixture(scope="session")
def live_server_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private, writable copy of the bundled data folder for the live server."""
    target = tmp_path_factory.mktemp("live") / "card_data"
    shutil.copytree(PROJECT_ROOT / "card_data", target, ignore=shutil.ignore_patterns(".locks", ".tmp-*"))
    return target


@pytest.fixture(scope="session")
def live_server(live_server_data: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``python -m workbench serve`` on a free port; yield its base URL; stop it at the end."""
    port = _free_port()
    instance = tmp_path_factory.mktemp("instance")
    log_path = instance / "server.log"
    env = dict(os.environ, WORKBENCH_INSTANCE=str(instance), PYTHONUNBUFFERED="1")
    env.pop("WORKBENCH_TRUSTED_HOSTS", None)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "workbench", "serve", "--port", str(port), "--data", str(live_server_data)],
            cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
    except RuntimeError as exc:
        proc.kill()
        proc.wait(timeout=10)
        raise RuntimeError(f"{exc}\n--- server log ---\n{log_path.read_text(errors='replace')}") from None
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


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
