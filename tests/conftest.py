"""Shared fixtures: a private copy of the bundled data folder, the app, its clients."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser_fixtures import browser, live_server, live_server_data, page, screenshot  # noqa: F401 - registered here once

PROJECT_ROOT = Path(__file__).resolve().parents[1]
BUNDLED_DATA = PROJECT_ROOT / "card_data"


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A writable copy of the bundled games, cards and decks."""
    target = tmp_path / "card_data"
    shutil.copytree(BUNDLED_DATA, target, ignore=shutil.ignore_patterns(".locks", ".tmp-*"))
    return target


@pytest.fixture
def repo(data_dir: Path):
    from workbench.storage.repository import Repository

    return Repository(data_dir)


@pytest.fixture
def app(data_dir: Path, tmp_path: Path):
    from workbench.web import create_app

    return create_app({
        "TESTING": True,
        "DATA_DIR": str(data_dir),
        "EXPORT_DIR": str(tmp_path / "exports"),
        "SECRET_KEY": "test-secret",
    })


@pytest.fixture
def client(app) -> Iterator:
    with app.test_client() as test_client:
        yield test_client


@pytest.fixture(scope="session")
def definitions():
    """The three bundled game definitions, parsed once."""
    from workbench.domain.gamedef import parse_definition
    from workbench.storage.yamlio import parse_yaml

    return {
        game: parse_definition(parse_yaml((BUNDLED_DATA / game / "game.yaml").read_bytes()), game)
        for game in ("warzone", "seth", "fusion")
    }
