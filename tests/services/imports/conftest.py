"""Fixtures for the import tests: an empty copy of each bundled game (definition only)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from workbench.storage.repository import Repository

BUNDLED = Path(__file__).resolve().parents[3] / "card_data"


@pytest.fixture
def empty_repo(tmp_path: Path) -> Repository:
    """A data folder with the three games' definitions and no cards or decks."""
    root = tmp_path / "empty_data"
    for game in ("warzone", "seth", "fusion"):
        (root / game).mkdir(parents=True)
        shutil.copy(BUNDLED / game / "game.yaml", root / game / "game.yaml")
    return Repository(root)


def stored_cards(repo: Repository, game: str) -> dict[str, dict]:
    return {c.id: c.data for c in repo.list_cards(game)}
