"""Shared helpers for the warzone engine tests: rule options from game.yaml, the sample decks."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).resolve().parents[3] / "card_data" / "warzone"


@lru_cache(maxsize=1)
def default_options() -> dict[str, Any]:
    """The rule options' defaults as game.yaml declares them."""
    game = yaml.safe_load((DATA / "game.yaml").read_text(encoding="utf-8"))
    return {name: spec["default"] for name, spec in game["options"].items()}


def options(**overrides: Any) -> dict[str, Any]:
    """Defaults with ``overrides`` applied (a fresh dict)."""
    merged = dict(default_options())
    merged.update(overrides)
    return merged


@lru_cache(maxsize=4)
def sample_deck(deck_id: str) -> dict[str, list[dict[str, Any]]]:
    """A sample deck resolved for play: zone -> one card mapping per copy (with ``id``)."""
    deck = yaml.safe_load((DATA / "decks" / f"{deck_id}.yaml").read_text(encoding="utf-8"))
    zones: dict[str, list[dict[str, Any]]] = {}
    for zone, cards in deck["zones"].items():
        copies: list[dict[str, Any]] = []
        for card_id, count in cards.items():
            card = yaml.safe_load((DATA / "cards" / f"{card_id}.yaml").read_text(encoding="utf-8"))
            card["id"] = card_id
            copies.extend([card] * count)
        zones[zone] = copies
    return zones


RUSH = "vanguard-rush"
BASTION = "iron-bastion"
