"""Every card rule of RULES.md §1.1, §2.1 and §3.7: a card that keeps it, a card that breaks it."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.domain.validation import validate_card

WARZONE_CREATURE: dict[str, Any] = {
    "name": "Test Pikeman", "kind": "creature", "class": 1, "degree": 2,
    "strength": 600, "resilience": 450, "class_master": False, "text": "A test card.",
}
SETH_MONSTER: dict[str, Any] = {
    "name": "Test Wyrmling", "kind": "monster", "power": 5, "damage": 4, "health": 9,
    "speed": ["fast", "slow"], "race": "Dragon", "element": "fire",
    "resist": ["fire"], "vulnerable": ["magical"], "keywords": ["flight"],
}
FUSION_CREATURE: dict[str, Any] = {
    "name": "测试骑士", "kind": "creature", "cost": 3, "attribute": "light", "subtype": "战士",
    "stars": 4, "atk": 4, "def": 4, "text": "通常生物",
}
FUSION_MAGIC: dict[str, Any] = {"name": "测试魔法", "kind": "magic", "cost": 2, "subtype": "quick"}
FUSION_ARTIFACT_CREATURE: dict[str, Any] = {
    "name": "测试傀儡", "kind": "item", "cost": 3, "subtype": "artifact_creature", "atk": 3, "def": 3,
}

BASES = {
    "warzone": WARZONE_CREATURE,
    "seth": SETH_MONSTER,
    "fusion": FUSION_CREATURE,
}

# (game, base card, changes, expected code, field, words the message must contain)
BREAKS = [
    ("warzone", WARZONE_CREATURE, {"kind": "hero"}, "card.kind", "kind", ["hero", "creature"]),
    ("warzone", WARZONE_CREATURE, {"class": 4}, "card.enum", "class", ["4", "1, 2, 3", "§1.1"]),
    ("warzone", WARZONE_CREATURE, {"degree": 7}, "card.maximum", "degree", ["7", "maximum is 6"]),
    ("warzone", WARZONE_CREATURE, {"degree": -1}, "card.minimum", "degree", ["-1", "minimum is 0"]),
    ("warzone", WARZONE_CREATURE, {"strength": -50}, "card.minimum", "strength", ["-50"]),
    ("warzone", WARZONE_CREATURE, {"resilience": "lots"}, "card.type", "resilience", ["whole number"]),
    ("warzone", WARZONE_CREATURE, {"class_master": "yes"}, "card.type", "class_master", ["true or false"]),
    ("warzone", WARZONE_CREATURE, {"name": None}, "card.type", "name", []),
    ("warzone", WARZONE_CREATURE, {"name": "x" * 41}, "card.max_length", "name", ["40 characters"]),
    ("seth", SETH_MONSTER, {"speed": []}, "card.min_items", "speed", ["at least 1"]),
    ("seth", SETH_MONSTER, {"speed": ["fast", "medium", "slow"]}, "card.max_items", "speed", ["at most 2"]),
    ("seth", SETH_MONSTER, {"speed": ["fast", "fast"]}, "card.unique", "speed", ["repeat"]),
    ("seth", SETH_MONSTER, {"speed": ["quick"]}, "card.enum", "speed", ["fast, medium, slow"]),
    ("seth", SETH_MONSTER, {"element": "ice"}, "card.enum", "element", ["ice", "physical, fire, poison, magical"]),
    ("seth", SETH_MONSTER, {"resist": ["water"]}, "card.enum", "resist", ["water"]),
    ("seth", SETH_MONSTER, {"vulnerable": "fire"}, "card.type", "vulnerable", ["a list"]),
    ("seth", SETH_MONSTER, {"health": 0}, "card.minimum", "health", ["minimum is 1"]),
    ("seth", SETH_MONSTER, {"keywords": ["swim"]}, "card.enum", "keywords", ["flight"]),
    ("fusion", FUSION_CREATURE, {"attribute": "metal"}, "card.enum", "attribute", ["metal", "earth"]),
    ("fusion", FUSION_CREATURE, {"cost": 11}, "card.maximum", "cost", ["11", "maximum is 10"]),
    ("fusion", FUSION_CREATURE, {"cost": "Y"}, "card.type", "cost", ["or X"]),
    ("fusion", FUSION_CREATURE, {"stars": 0}, "card.minimum", "stars", ["minimum is 1"]),
    ("fusion", FUSION_MAGIC, {"subtype": "ritual"}, "card.enum", "subtype", ["ritual", "quick"]),
    ("fusion", FUSION_ARTIFACT_CREATURE, {"subtype": "relic"}, "card.enum", "subtype", ["artifact_creature"]),
]
MISSING = [
    ("warzone", WARZONE_CREATURE, "degree"),
    ("warzone", WARZONE_CREATURE, "class"),
    ("seth", SETH_MONSTER, "power"),
    ("seth", SETH_MONSTER, "speed"),
    ("seth", SETH_MONSTER, "element"),
    ("fusion", FUSION_CREATURE, "attribute"),
    ("fusion", FUSION_CREATURE, "stars"),
    ("fusion", FUSION_CREATURE, "name"),
    ("fusion", FUSION_ARTIFACT_CREATURE, "def"),
]


def _errors(problems):
    return [p for p in problems if p.is_error]


@pytest.mark.parametrize("card", [WARZONE_CREATURE, SETH_MONSTER, FUSION_CREATURE, FUSION_MAGIC,
                                  FUSION_ARTIFACT_CREATURE], ids=lambda c: c["name"])
def test_cards_that_keep_every_rule_have_no_problems(definitions, card):
    game = {"monster": "seth"}.get(card["kind"], "warzone" if card["name"].isascii() else "fusion")
    assert validate_card(definitions[game], card, "c") == []


@pytest.mark.parametrize("game,base,change,code,field,words", BREAKS,
                         ids=[f"{b[0]}-{b[4]}-{b[3]}" for b in BREAKS])
def test_breaking_a_card_rule_names_the_rule_value_and_limit(definitions, game, base, change, code, field, words):
    card = {**base, **change}
    problems = _errors(validate_card(definitions[game], card, "c"))
    matching = [p for p in problems if p.code == code and p.field == field]
    assert matching, f"expected {code} on {field}, got {[(p.code, p.field) for p in problems]}"
    for word in words:
        assert word in matching[0].message
    assert matching[0].card == "c"


@pytest.mark.parametrize("game,base,field", MISSING, ids=[f"{m[0]}-{m[2]}" for m in MISSING])
def test_a_missing_required_field_is_an_error(definitions, game, base, field):
    card = {k: v for k, v in base.items() if k != field}
    problems = _errors(validate_card(definitions[game], card))
    assert [(p.code, p.field) for p in problems] == [("card.required", field)]


def test_warzone_stat_off_the_50_step_is_a_warning_not_an_error(definitions):
    problems = validate_card(definitions["warzone"], {**WARZONE_CREATURE, "strength": 620})
    assert [(p.severity, p.code) for p in problems] == [("warning", "card.multiple_of")]
    assert "620" in problems[0].message and "multiple of 50" in problems[0].message


def test_warzone_max_degree_option_moves_the_limit(definitions):
    card = {**WARZONE_CREATURE, "degree": 7, "strength": 100, "resilience": 100}
    assert validate_card(definitions["warzone"], card, options={"max_degree": 8}) == []
    assert _errors(validate_card(definitions["warzone"], card, options={"max_degree": 6}))


def test_fusion_cost_x_is_allowed(definitions):
    assert validate_card(definitions["fusion"], {**FUSION_MAGIC, "cost": "X"}) == []


def test_fusion_normal_item_cannot_have_stats(definitions):
    card = {"name": "药水", "kind": "item", "cost": 1, "subtype": "normal", "atk": 2}
    problems = _errors(validate_card(definitions["fusion"], card))
    assert [(p.code, p.field) for p in problems] == [("card.forbidden", "atk")]
    assert "normal" in problems[0].message


@pytest.mark.parametrize("game,change,over", [
    ("warzone", {"degree": 0, "strength": 600, "resilience": 450}, 150),   # budget 900
    ("seth", {"power": 2, "damage": 6, "health": 6}, 2),                   # budget 10
    ("fusion", {"cost": 1, "atk": 4, "def": 3}, 3),                        # budget 4
])
def test_a_card_over_the_cost_budget_gets_a_warning_saying_by_how_much(definitions, game, change, over):
    card = {**BASES[game], **change}
    problems = validate_card(definitions[game], card)
    assert [(p.severity, p.code) for p in problems] == [("warning", "card.budget")]
    assert f"over by {over}" in problems[0].message


def test_unknown_fields_are_kept_and_reported_as_warnings(definitions):
    problems = validate_card(definitions["seth"], {**SETH_MONSTER, "mood": "grumpy"})
    assert [(p.severity, p.code, p.field) for p in problems] == [("warning", "card.unknown_field", "mood")]


def test_a_card_that_is_not_a_mapping_is_an_error_not_a_crash(definitions):
    problems = validate_card(definitions["seth"], ["not", "a", "card"])  # type: ignore[arg-type]
    assert problems[0].code == "card.shape"
