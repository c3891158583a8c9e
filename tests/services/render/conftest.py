"""Fixture cards for the render tests: one of each look, an overflowing card, a CJK card."""

from __future__ import annotations

import pytest

WARZONE_CARD = {
    "id": "test-sentry", "name": "Test Sentry", "kind": "creature", "class": 2, "degree": 3,
    "strength": 900, "resilience": 650, "class_master": True,
    "text": "When recruited, draw a card. Your creatures in Class 2 get +100 Strength.",
    "flavor": "Drawn for the render tests.", "number": "WZ-T01",
}
SETH_CARD = {
    "id": "test-wyrm", "name": "Test Wyrm", "kind": "monster", "power": 5, "damage": 6, "health": 9,
    "speed": ["fast", "slow"], "race": "Dragon", "element": "fire", "resist": ["fire"], "vulnerable": ["poison"],
    "keywords": ["flight"], "text": "Activate: deal 2 damage to a Slow monster.", "number": "SE-T01",
}
FUSION_CARD = {
    "id": "test-mage", "name": "测试魔导师", "name_en": "Test Magus", "kind": "creature", "cost": 4,
    "attribute": "fire", "subtype": "魔法师", "stars": 4, "atk": 5, "def": 3,
    "text": "召唤成功时，对对方一只生物造成3点伤害。", "text_en": "On summon: deal 3 damage.", "number": "FD-T01",
}


@pytest.fixture
def warzone_card() -> dict:
    return dict(WARZONE_CARD)


@pytest.fixture
def seth_card() -> dict:
    return dict(SETH_CARD)


@pytest.fixture
def fusion_card() -> dict:
    return dict(FUSION_CARD)


@pytest.fixture(scope="session")
def poker():
    from workbench.services.render.sizes import parse_card_size

    return parse_card_size("poker")
