"""The warzone and seth sample content meets issue 2, acceptance point 3.

Designers open the workbench on these cards and decks, and the engines playtest them, so every
card must validate without errors, every deck must be legal, and the sets must cover what the
issue lists (classes, degrees, Class Masters, areas; elements, speeds, races, Flight, poison,
resistances). Effects may use only the vocabulary of docs/effects.md.
"""

from __future__ import annotations

import pathlib
import re
from collections import Counter
from typing import Any

import pytest
import yaml

from workbench.domain.effects.vocabulary import ACTIONS as VOCAB_ACTIONS
from workbench.domain.effects.vocabulary import DURATIONS as VOCAB_DURATIONS
from workbench.domain.effects.vocabulary import TARGETS as VOCAB_TARGETS
from workbench.domain.effects.vocabulary import TRIGGERS as VOCAB_TRIGGERS
from workbench.domain.gamedef import GameDefinition, parse_definition
from workbench.domain.ids import is_valid_id
from workbench.domain.validation import budget_limit, validate_card, validate_deck

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATA = ROOT / "card_data"
GAMES = ("warzone", "seth")

# The vocabulary of docs/effects.md, from its one table; test_vocabulary_is_documented keeps the two in step.
TRIGGERS = set(VOCAB_TRIGGERS)
ACTIONS = set(VOCAB_ACTIONS)
TARGETS = set(VOCAB_TARGETS)
AMOUNT_ACTIONS = {name for name, spec in VOCAB_ACTIONS.items() if spec.needs_amount}
DURATIONS = set(VOCAB_DURATIONS)


def _definition(game: str) -> GameDefinition:
    return parse_definition(yaml.safe_load((DATA / game / "game.yaml").read_text(encoding="utf-8")), game)


def _cards(game: str) -> dict[str, dict[str, Any]]:
    return {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))
            for p in sorted((DATA / game / "cards").glob("*.yaml"))}


def _decks(game: str) -> dict[str, dict[str, Any]]:
    return {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))
            for p in sorted((DATA / game / "decks").glob("*.yaml"))}


def _of_kind(cards: dict[str, dict[str, Any]], kind: str) -> dict[str, dict[str, Any]]:
    return {cid: c for cid, c in cards.items() if c.get("kind") == kind}


def _has_action(card: dict[str, Any], action: str) -> bool:
    return any(e.get("action") == action for e in card.get("effects") or [])


# ---------------------------------------------------------------- both games


@pytest.mark.parametrize("game", GAMES)
def test_every_card_validates_without_errors(game: str) -> None:
    definition = _definition(game)
    cards = _cards(game)
    errors = {cid: [p.message for p in validate_card(definition, c, cid) if p.is_error]
              for cid, c in cards.items()}
    assert {cid: msgs for cid, msgs in errors.items() if msgs} == {}


@pytest.mark.parametrize("game", GAMES)
def test_only_warnings_are_deliberate_budget_overruns(game: str) -> None:
    definition = _definition(game)
    cards = _cards(game)
    warnings = [(cid, p.code) for cid, c in cards.items()
                for p in validate_card(definition, c, cid) if not p.is_error]
    assert {code for _, code in warnings} == {"card.budget"}
    over = {cid for cid, _ in warnings}
    # One or two cards show designers the budget warning; the rest stay within budget.
    assert 1 <= len(over) <= 2, sorted(over)
    budgeted = [cid for cid, c in cards.items() if budget_limit(definition, c)]
    assert len(budgeted) - len(over) >= 0.9 * len(budgeted)


@pytest.mark.parametrize("game", GAMES)
def test_every_deck_is_legal(game: str) -> None:
    definition = _definition(game)
    cards = _cards(game)
    decks = _decks(game)
    assert len(decks) >= 2
    for deck_id, deck in decks.items():
        errors = [p.message for p in validate_deck(definition, deck, cards, deck_id) if p.is_error]
        assert errors == [], deck_id


@pytest.mark.parametrize("game", GAMES)
def test_ids_names_and_numbers_are_distinct(game: str) -> None:
    cards = _cards(game)
    assert all(is_valid_id(cid) for cid in cards)
    names = Counter(c["name"] for c in cards.values())
    assert [n for n, k in names.items() if k > 1] == []
    numbers = [c.get("number") for c in cards.values()]
    prefix = {"warzone": "WZ-", "seth": "SE-"}[game]
    assert all(isinstance(n, str) and n.startswith(prefix) for n in numbers)
    assert len(set(numbers)) == len(numbers)
    assert all(c.get("flavor") for c in cards.values()), "every sample card has flavor text"


@pytest.mark.parametrize("game", GAMES)
def test_effects_use_only_the_documented_vocabulary(game: str) -> None:
    definition = _definition(game)
    cards = _cards(game)
    stats_by_kind = {kind: {f.name for f in definition.fields_for(kind) if f.spec.get("stat")}
                     for kind in definition.kinds}
    all_stats = set().union(*stats_by_kind.values())
    for cid, card in cards.items():
        for effect in card.get("effects") or []:
            assert effect.get("trigger") in TRIGGERS, (cid, effect)
            assert effect.get("action") in ACTIONS, (cid, effect)
            from_zone = effect.get("action") == "move" and effect.get("from", "field") != "field"
            no_target = not VOCAB_ACTIONS[effect["action"]].takes_target  # choose, arrange (negate)
            assert from_zone or no_target or effect.get("target") in TARGETS, (cid, effect)
            if effect["action"] in AMOUNT_ACTIONS:
                assert isinstance(effect.get("amount"), int) and effect["amount"] > 0, (cid, effect)
            if effect["action"] == "modify_stats" and effect["trigger"] != "continuous":  # continuous: while in play
                assert effect.get("duration") in DURATIONS, (cid, effect)
                assert effect.get("stats") and set(effect["stats"]) <= all_stats, (cid, effect)
            if effect.get("target") == "attacker":
                assert card["kind"] == "trap" or effect["trigger"] in ("on_attacked", "on_block", "on_damaged"), (
                    cid, "only warzone traps, attack and damage triggers answer an attacker")


@pytest.mark.parametrize("game", GAMES)
def test_most_effect_texts_are_simulated_and_a_few_are_text_only(game: str) -> None:
    cards = _cards(game)
    with_text = {cid: c for cid, c in cards.items() if c.get("text")}
    text_only = [cid for cid, c in with_text.items() if not c.get("effects")]
    assert 1 <= len(text_only) <= len(with_text) // 4, text_only
    # An effects list without text would be a rule players cannot read.
    assert [cid for cid, c in cards.items() if c.get("effects") and not c.get("text")] == []


def test_vocabulary_is_documented() -> None:
    doc = (ROOT / "docs" / "effects.md").read_text(encoding="utf-8")
    for word in TRIGGERS | ACTIONS | TARGETS:
        assert f"`{word}`" in doc, word
    for word in DURATIONS:  # documented inside one code span: `duration: end_of_turn\|permanent`
        assert re.search(rf"duration: [^`]*\b{word}\b", doc), word


# ---------------------------------------------------------------- warzone


def test_warzone_card_pool_covers_the_issue() -> None:
    cards = _cards("warzone")
    creatures = _of_kind(cards, "creature")
    assert len(cards) >= 45
    assert {c["class"] for c in creatures.values()} == {1, 2, 3}
    assert {c["degree"] for c in creatures.values()} == set(range(7))
    for cls in (1, 2, 3):
        assert len({c["degree"] for c in creatures.values() if c["class"] == cls}) >= 5, cls
    masters = [cid for cid, c in creatures.items() if c.get("class_master") is True]
    assert len(masters) >= 6
    assert {creatures[m]["class"] for m in masters} == {1, 2, 3}
    assert len(_of_kind(cards, "area")) >= 8
    assert len(_of_kind(cards, "spell")) >= 3
    assert len(_of_kind(cards, "trap")) >= 3


def test_warzone_decks_have_side_decks_and_differ_in_style() -> None:
    cards = _cards("warzone")
    decks = _decks("warzone")
    for deck_id, deck in decks.items():
        zones = deck["zones"]
        assert 60 <= sum(zones["main"].values()) <= 85, deck_id
        assert sum(zones["area"].values()) == 3, deck_id
        assert sum(zones.get("side", {}).values()) >= 1, deck_id
        assert sum(zones.get("side_area", {}).values()) >= 1, deck_id

    def profile(deck: dict[str, Any]) -> tuple[float, float]:
        main = deck["zones"]["main"]
        creatures = [(cards[c], n) for c, n in main.items() if cards[c]["kind"] == "creature"]
        count = sum(n for _, n in creatures)
        degree = sum(c["degree"] * n for c, n in creatures) / count
        traps = sum(n for c, n in main.items() if cards[c]["kind"] == "trap") / sum(main.values())
        return degree, traps

    profiles = sorted(profile(d) for d in decks.values())
    low, high = profiles[0], profiles[-1]
    # The rush deck plays lower Degrees and fewer traps than the defensive deck.
    assert high[0] - low[0] >= 1.0
    assert high[1] > 2 * low[1]


# ---------------------------------------------------------------- seth


def test_seth_card_pool_covers_the_issue() -> None:
    monsters = _of_kind(_cards("seth"), "monster")
    assert len(monsters) >= 16
    assert {m["element"] for m in monsters.values()} == {"physical", "fire", "poison", "magical"}
    assert set().union(*(m["speed"] for m in monsters.values())) == {"fast", "medium", "slow"}
    two_speed = [cid for cid, m in monsters.items() if len(m["speed"]) == 2]
    assert len(two_speed) >= 3
    assert len({frozenset(monsters[c]["speed"]) for c in two_speed}) >= 3, "several speed pairs"
    assert len({m["race"] for m in monsters.values()}) >= 6
    assert len([m for m in monsters.values() if "flight" in (m.get("keywords") or [])]) >= 3
    assert len([m for m in monsters.values() if _has_action(m, "add_poison")]) >= 3
    assert len([m for m in monsters.values() if m.get("resist")]) >= 5
    assert len([m for m in monsters.values() if m.get("vulnerable")]) >= 5
    for element in ("physical", "fire", "poison", "magical"):
        assert any(element in (m.get("vulnerable") or []) for m in monsters.values()), element


def test_seth_lineups_differ_and_use_most_of_the_power_limit() -> None:
    definition = _definition("seth")
    cards = _cards("seth")
    limit = definition.default_options()["power_limit"]
    decks = _decks("seth")
    speeds = []
    for deck_id, deck in decks.items():
        team = deck["zones"]["team"]
        power = sum(cards[c]["power"] * n for c, n in team.items())
        assert limit - 8 <= power < limit, (deck_id, power)
        fast = sum(n for c, n in team.items() if "fast" in cards[c]["speed"])
        speeds.append(fast)
    # One line-up strikes in the Fast phase, the other waits for the Slow phase.
    assert max(speeds) >= 3 and min(speeds) == 0
    teams = [set(d["zones"]["team"]) for d in decks.values()]
    assert not set.intersection(*teams)
