"""Fusion Duel sample content (issue 2, acceptance point 3).

The sample cards and decks in card_data/fusion are what a new designer opens first and what the
playtest engine simulates, so they must validate cleanly, cover every card kind and subtype the
game definition knows, speak Chinese with English glosses, and use only the effect vocabulary of
docs/effects.md.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from workbench.domain.effects.vocabulary import COSTS, KEYS

from workbench.domain.gamedef import GameDefinition, parse_definition
from workbench.domain.ids import is_valid_id
from workbench.domain.validation import budget_limit, validate_card, validate_deck

ROOT = Path(__file__).resolve().parents[1]
GAME_DIR = ROOT / "card_data" / "fusion"
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
NORMAL_CREATURE_TEXT = "通常生物"


def _load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def definition() -> GameDefinition:
    return parse_definition(_load(GAME_DIR / "game.yaml"), "fusion")


@pytest.fixture(scope="module")
def cards() -> dict[str, dict[str, Any]]:
    return {p.stem: _load(p) for p in sorted((GAME_DIR / "cards").glob("*.yaml"))}


@pytest.fixture(scope="module")
def decks() -> dict[str, dict[str, Any]]:
    return {p.stem: _load(p) for p in sorted((GAME_DIR / "decks").glob("*.yaml"))}


def _of_kind(cards: dict[str, dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {cid: c for cid, c in cards.items() if c.get("kind") == kind}


def _vocabulary() -> dict[str, set[str]]:
    """Triggers, actions and targets named in docs/effects.md (the engines' shared contract)."""
    doc = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    sections = re.split(r"^## ", doc, flags=re.M)
    found: dict[str, set[str]] = {}
    for section in sections:
        title, _, body = section.partition("\n")
        if title.strip() in ("Triggers", "Actions"):
            found[title.strip()] = set(re.findall(r"^\| `([a-z_]+)` \|", body, flags=re.M))
        elif title.strip() == "Targets":
            found["Targets"] = set(re.findall(r"`([a-z_]+)`", body.split("\nA single")[0]))
    return found


# ---------------------------------------------------------------- cards


def test_at_least_45_cards_with_valid_ids(cards: dict[str, dict[str, Any]]) -> None:
    assert len(cards) >= 45
    assert all(is_valid_id(cid) for cid in cards)


def test_every_card_validates_without_errors(definition: GameDefinition, cards: dict[str, dict[str, Any]]) -> None:
    errors = {cid: [p.message for p in validate_card(definition, c, cid) if p.severity == "error"]
              for cid, c in cards.items()}
    assert {cid: e for cid, e in errors.items() if e} == {}


def test_no_unknown_fields(definition: GameDefinition, cards: dict[str, dict[str, Any]]) -> None:
    unknown = [(cid, p.field) for cid, c in cards.items() for p in validate_card(definition, c, cid)
               if p.code == "card.unknown_field"]
    assert unknown == []


def test_names_and_texts_are_chinese_with_english_glosses(cards: dict[str, dict[str, Any]]) -> None:
    for cid, card in cards.items():
        assert CJK.search(card["name"]), cid
        assert card.get("name_en") and not CJK.search(card["name_en"]), cid
        assert CJK.search(card.get("text", "")), cid
        assert card.get("text_en"), cid


def test_cjk_is_written_as_is_not_escaped() -> None:
    for path in (GAME_DIR / "cards").glob("*.yaml"):
        raw = path.read_text(encoding="utf-8")
        assert "\\u" not in raw, path.name
        assert CJK.search(raw), path.name


def test_card_numbers_are_unique(cards: dict[str, dict[str, Any]]) -> None:
    numbers = [c.get("number") for c in cards.values()]
    assert all(n and n.startswith("FD") for n in numbers)
    assert len(set(numbers)) == len(numbers)


def test_creatures_cover_all_six_attributes(definition: GameDefinition, cards: dict[str, dict[str, Any]]) -> None:
    creatures = _of_kind(cards, "creature")
    attribute_field = next(f for f in definition.fields_for("creature") if f.name == "attribute")
    per_attribute = Counter(c["attribute"] for c in creatures.values())
    assert set(per_attribute) == set(attribute_field.spec["enum"])
    # several of each, so each attribute can carry a deck or a fusion material
    assert min(per_attribute.values()) >= 3


def test_creatures_span_stars_and_costs(cards: dict[str, dict[str, Any]]) -> None:
    creatures = list(_of_kind(cards, "creature").values())
    stars = {c["stars"] for c in creatures}
    costs = {c["cost"] for c in creatures}
    assert min(stars) <= 1 and max(stars) >= 10 and len(stars) >= 8
    assert min(costs) <= 1 and max(costs) >= 8 and len(costs) >= 8
    # both sides of the settable line (stars <= 4 may be set, §3.4.2)
    assert any(s <= 4 for s in stars) and any(s > 4 for s in stars)
    assert len({c["subtype"] for c in creatures}) >= 8


def test_magic_of_every_subtype(definition: GameDefinition, cards: dict[str, dict[str, Any]]) -> None:
    subtype_field = next(f for f in definition.fields_for("magic") if f.name == "subtype")
    subtypes = Counter(c["subtype"] for c in _of_kind(cards, "magic").values())
    assert set(subtypes) == set(subtype_field.spec["enum"])


def test_items_and_artifacts(definition: GameDefinition, cards: dict[str, dict[str, Any]]) -> None:
    subtype_field = next(f for f in definition.fields_for("item") if f.name == "subtype")
    items = _of_kind(cards, "item")
    assert {c["subtype"] for c in items.values()} == set(subtype_field.spec["enum"])
    artifact_creatures = [c for c in items.values() if c["subtype"] == "artifact_creature"]
    assert all(isinstance(c.get("atk"), int) and isinstance(c.get("def"), int) for c in artifact_creatures)


def test_taunt_keyword_is_used(cards: dict[str, dict[str, Any]]) -> None:
    taunting = [cid for cid, c in cards.items() if "taunt" in (c.get("keywords") or [])]
    assert len(taunting) >= 3
    assert all("嘲讽" in cards[cid]["text"] for cid in taunting)


# ---------------------------------------------------------------- effects


def test_effects_use_only_the_documented_vocabulary(definition: GameDefinition,
                                                    cards: dict[str, dict[str, Any]]) -> None:
    vocab = _vocabulary()
    assert {"on_play", "activated"} <= vocab["Triggers"] and "add_mana" in vocab["Actions"]
    stat_fields = {f.name for kind in definition.kinds for f in definition.fields_for(kind)
                   if f.spec.get("stat")}
    allowed_keys = set(KEYS)
    for cid, card in cards.items():
        for effect in card.get("effects") or []:
            where = f"{cid}: {effect}"
            assert set(effect) <= allowed_keys, where
            assert effect["trigger"] in vocab["Triggers"], where
            assert effect["action"] in vocab["Actions"], where
            from_zone = effect["action"] == "move" and effect.get("from", "field") != "field"
            assert from_zone or effect.get("target", "self") in vocab["Targets"], where
            if effect["action"] in ("draw", "damage", "heal", "gain_life", "add_mana"):
                assert isinstance(effect.get("amount"), int) and effect["amount"] > 0, where
            if effect["action"] == "modify_stats":
                assert effect["stats"] and set(effect["stats"]) <= stat_fields, where
                if effect["trigger"] != "continuous":  # a continuous change lasts while its card is in play
                    assert effect["duration"] in ("end_of_turn", "permanent", "until_your_next_turn",
                                                  "while_on_field"), where
            if effect["action"] == "add_poison":
                pytest.fail(f"poison is a seth rule, not fusion: {where}")
            if effect["trigger"] == "activated":
                assert set(effect.get("cost", {})) <= set(COSTS), where
            assert effect.get("speed", 1) in (1, 2, 3), where


def test_most_effect_texts_are_simulated_and_a_few_are_text_only(cards: dict[str, dict[str, Any]]) -> None:
    with_text = {cid: c for cid, c in cards.items()
                 if NORMAL_CREATURE_TEXT not in c["text"] and c.get("text", "").strip()}
    structured = [cid for cid, c in with_text.items() if c.get("effects") or c.get("keywords")]
    text_only = sorted(set(with_text) - set(structured))
    assert len(structured) >= 0.8 * len(with_text)
    assert 2 <= len(text_only) <= 8, text_only


def test_every_effect_action_of_fusion_appears(cards: dict[str, dict[str, Any]]) -> None:
    actions = {e["action"] for c in cards.values() for e in c.get("effects") or []}
    assert {"draw", "damage", "heal", "gain_life", "modify_stats", "destroy", "return_to_hand",
            "negate", "add_mana"} <= actions
    speeds = {e.get("speed") for c in cards.values() for e in c.get("effects") or []}
    assert 2 in speeds  # something answers in the opponent's turn besides quick magic


# ---------------------------------------------------------------- balance


def test_one_or_two_cards_deliberately_over_budget(definition: GameDefinition,
                                                   cards: dict[str, dict[str, Any]]) -> None:
    budgeted = {cid: budget_limit(definition, c) for cid, c in cards.items()}
    budgeted = {cid: v for cid, v in budgeted.items() if v}
    over = sorted(cid for cid, (total, limit) in budgeted.items() if total > limit)
    assert 1 <= len(over) <= 2, over
    warned = sorted(cid for cid, c in cards.items()
                    for p in validate_card(definition, c, cid) if p.code == "card.budget")
    assert warned == over
    # a mix of power levels: some creatures well under their budget, some at it
    slack = [limit - total for total, limit in budgeted.values()]
    assert any(s >= 2 for s in slack) and sum(1 for s in slack if s == 0) >= 5


# ---------------------------------------------------------------- decks


def test_two_legal_decks_with_extra_decks(definition: GameDefinition, cards: dict[str, dict[str, Any]],
                                          decks: dict[str, dict[str, Any]]) -> None:
    assert len(decks) >= 2
    for deck_id, deck in decks.items():
        problems = validate_deck(definition, deck, cards, deck_id)
        assert [p.message for p in problems if p.severity == "error"] == [], deck_id
        zones = deck["zones"]
        assert sum(zones["main"].values()) >= 40, deck_id
        assert 1 <= sum(zones["extra"].values()) <= 15, deck_id
        assert all(cid in cards for zone in zones.values() for cid in zone), deck_id
        assert CJK.search(deck["name"]) and deck.get("notes"), deck_id


def test_extra_decks_hold_fusion_creatures_and_main_decks_mix_kinds(
        cards: dict[str, dict[str, Any]], decks: dict[str, dict[str, Any]]) -> None:
    for deck_id, deck in decks.items():
        extra = deck["zones"]["extra"]
        assert all(cards[cid]["kind"] == "creature" and "融合" in cards[cid]["text"] for cid in extra), deck_id
        kinds = {cards[cid]["kind"] for cid in deck["zones"]["main"]}
        assert kinds == {"creature", "magic", "item"}, deck_id


def _profile(deck: dict[str, Any], cards: dict[str, dict[str, Any]]) -> tuple[float, float, int]:
    """(average mana cost, average DEF of creatures, taunt copies) of a deck's main zone."""
    main = deck["zones"]["main"]
    copies = sum(main.values())
    avg_cost = sum(cards[c]["cost"] * n for c, n in main.items()) / copies
    creatures = {c: n for c, n in main.items() if "def" in cards[c]}
    avg_def = sum(cards[c]["def"] * n for c, n in creatures.items()) / sum(creatures.values())
    taunt = sum(n for c, n in main.items() if "taunt" in (cards[c].get("keywords") or []))
    return avg_cost, avg_def, taunt


def test_the_two_decks_differ_in_style(cards: dict[str, dict[str, Any]], decks: dict[str, dict[str, Any]]) -> None:
    aggro = _profile(decks["lie-yan-ji-feng"], cards)
    control = _profile(decks["pan-shi-chao-xi"], cards)
    assert aggro[0] < control[0]          # cheaper curve
    assert aggro[1] + 1 < control[1]      # the control deck's creatures are much sturdier
    assert aggro[2] == 0 and control[2] >= 8  # walls of taunt only in the defensive deck
    main_a = set(decks["lie-yan-ji-feng"]["zones"]["main"])
    main_b = set(decks["pan-shi-chao-xi"]["zones"]["main"])
    assert len(main_a & main_b) <= 3


def test_decks_are_illegal_when_broken(definition: GameDefinition, cards: dict[str, dict[str, Any]],
                                       decks: dict[str, dict[str, Any]]) -> None:
    """The legality above is meaningful: trimming a sample deck to 39 or adding a 4th copy fails."""
    deck = decks["lie-yan-ji-feng"]
    main = dict(deck["zones"]["main"])
    first = next(iter(main))
    short = dict(main)
    while sum(short.values()) >= 40:
        key = next(k for k, v in short.items() if v > 0)
        short[key] -= 1
        if short[key] == 0:
            del short[key]
    codes = {p.code for p in validate_deck(definition, {**deck, "zones": {**deck["zones"], "main": short}},
                                           cards, "short") if p.severity == "error"}
    assert "deck.zone_min" in codes
    main[first] = 4
    codes = {p.code for p in validate_deck(definition, {**deck, "zones": {**deck["zones"], "main": main}},
                                           cards, "four") if p.severity == "error"}
    assert "deck.max_copies" in codes
