"""Every deck rule of RULES.md §1.2, §2.2 and §3.1: a deck that keeps it, a deck that breaks it.

Decks are built from small synthetic card pools so each test changes exactly one thing.
"""

from __future__ import annotations

from typing import Any

import pytest

from workbench.domain.validation import validate_deck


def wz_creature(i: int, **extra: Any) -> dict[str, Any]:
    return {"name": f"Soldier {i}", "kind": "creature", "class": 1 + i % 3, "degree": i % 2,
            "strength": 300, "resilience": 300, "class_master": False, **extra}


def warzone_pool() -> dict[str, dict[str, Any]]:
    cards = {f"c{i}": wz_creature(i) for i in range(30)}
    cards.update({f"m{i}": wz_creature(100 + i, class_master=True, name=f"Master {i}") for i in range(7)})
    cards.update({f"a{i}": {"name": f"Area {i}", "kind": "area"} for i in range(6)})
    cards["spell"] = {"name": "Spark", "kind": "spell"}
    return cards


def warzone_deck(main_cards: int = 60, **zones: Any) -> dict[str, Any]:
    main: dict[str, int] = {}
    for i in range(main_cards):
        main[f"c{i % 30}"] = main.get(f"c{i % 30}", 0) + 1
    deck = {"name": "Test", "zones": {"main": main, "area": {"a0": 1, "a1": 1, "a2": 1}, "side": {}, "side_area": {}}}
    deck["zones"].update(zones)
    return deck


def codes(problems) -> list[str]:
    return [p.code for p in problems if p.is_error]


# ------------------------------------------------------------------ warzone §1.2


def test_warzone_legal_deck_has_no_problems(definitions):
    assert validate_deck(definitions["warzone"], warzone_deck(), warzone_pool()) == []


@pytest.mark.parametrize("size,code,words", [
    (59, "deck.zone_min", "Main deck has 59 cards; the minimum is 60 (§1.2.1)"),
    (86, "deck.zone_max", "Main deck has 86 cards; the maximum is 85 (§1.2.1)"),
])
def test_warzone_main_deck_size_1_2_1(definitions, size, code, words):
    pool = warzone_pool()
    # 86 cards over 30 names needs more than 4 copies of some names; look only at the size rule here.
    problems = validate_deck(definitions["warzone"], warzone_deck(size), pool)
    sized = [p for p in problems if p.code == code]
    assert sized and sized[0].message == words
    assert sized[0].actual == size and sized[0].zone == "main"


def test_warzone_main_deck_85_is_the_upper_edge(definitions):
    pool = warzone_pool()
    pool.update({f"x{i}": wz_creature(200 + i, name=f"Extra {i}") for i in range(30)})
    main = {f"c{i}": 2 for i in range(30)} | {f"x{i}": 1 for i in range(25)}
    deck = warzone_deck()
    deck["zones"]["main"] = main
    assert sum(main.values()) == 85
    assert codes(validate_deck(definitions["warzone"], deck, pool)) == []


@pytest.mark.parametrize("areas,ok", [({"a0": 1, "a1": 1, "a2": 1}, True), ({"a0": 1, "a1": 1}, False),
                                      ({"a0": 1, "a1": 1, "a2": 1, "a3": 1}, False)])
def test_warzone_exactly_three_areas_1_2_2(definitions, areas, ok):
    problems = validate_deck(definitions["warzone"], warzone_deck(area=areas), warzone_pool())
    assert (codes(problems) == []) is ok
    if not ok:
        assert codes(problems) == ["deck.zone_exact"]
        assert "must have exactly 3" in problems[0].message


def test_warzone_side_deck_at_most_25_and_two_side_areas_1_2_3(definitions):
    pool = warzone_pool()
    ok = warzone_deck(side={f"c{i}": 1 for i in range(25)}, side_area={"a3": 1, "a4": 1})
    assert codes(validate_deck(definitions["warzone"], ok, pool)) == []
    too_many = warzone_deck(side={f"c{i}": 1 for i in range(26)}, side_area={"a3": 1, "a4": 1, "a5": 1})
    problems = validate_deck(definitions["warzone"], too_many, pool)
    assert sorted(codes(problems)) == ["deck.zone_max", "deck.zone_max"]
    messages = " ".join(p.message for p in problems)
    assert "Side deck has 26 cards; the maximum is 25" in messages
    assert "Side areas has 3 cards; the maximum is 2" in messages


def test_warzone_four_copies_across_main_and_side_1_2_4(definitions):
    pool = warzone_pool()
    ok = warzone_deck(side={"spell": 4})
    assert codes(validate_deck(definitions["warzone"], ok, pool)) == []
    deck = warzone_deck(side={"c0": 2})  # c0 has 2 in main (60 over 30 names) + 2 = 4: fine
    assert codes(validate_deck(definitions["warzone"], deck, pool)) == []
    deck = warzone_deck(side={"c0": 3})
    problems = [p for p in validate_deck(definitions["warzone"], deck, pool) if p.is_error]
    assert codes(problems) == ["deck.max_copies"]
    assert problems[0].message == "Soldier 0 has 5 copies across Main deck + Side deck; the maximum is 4 (§1.2.4)"


def test_warzone_copies_count_by_name_not_by_id(definitions):
    pool = warzone_pool()
    pool["c0b"] = dict(pool["c0"])  # same name, different file
    deck = warzone_deck(side={"c0b": 3})
    assert codes(validate_deck(definitions["warzone"], deck, pool)) == ["deck.max_copies"]


def test_warzone_at_most_five_class_masters_1_2_5(definitions):
    pool = warzone_pool()
    ok = warzone_deck(side={"m0": 1, "m1": 1, "m2": 1, "m3": 1, "m4": 1})
    assert codes(validate_deck(definitions["warzone"], ok, pool)) == []
    bad = warzone_deck(side={"m0": 2, "m1": 2, "m2": 2})
    problems = [p for p in validate_deck(definitions["warzone"], bad, pool) if p.is_error]
    assert codes(problems) == ["deck.max_matching"]
    assert "6 Class Master cards" in problems[0].message and "maximum is 5" in problems[0].message


def test_warzone_areas_not_in_main_and_creatures_not_in_area_slots_1_2_6(definitions):
    pool = warzone_pool()
    deck = warzone_deck(59)
    deck["zones"]["main"]["a5"] = 1
    deck["zones"]["area"] = {"a0": 1, "a1": 1, "c29": 1}
    problems = [p for p in validate_deck(definitions["warzone"], deck, pool) if p.is_error]
    assert sorted(codes(problems)) == ["deck.zone_kind", "deck.zone_kind"]
    by_zone = {p.zone: p.message for p in problems}
    assert "Area 5 is an Area/Location card; Main deck takes only Creature, Spell, Trap" in by_zone["main"]
    assert "Areas takes only Area/Location" in by_zone["area"]


def test_warzone_format_option_changes_limits(definitions):
    deck = warzone_deck(59)
    assert "deck.zone_min" in codes(validate_deck(definitions["warzone"], deck, warzone_pool()))
    assert codes(validate_deck(definitions["warzone"], deck, warzone_pool(), options={"main_min": 50})) == []


# ------------------------------------------------------------------ seth §2.2


def seth_monster(i: int, power: int) -> dict[str, Any]:
    return {"name": f"Beast {i}", "kind": "monster", "power": power, "damage": 2, "health": 5,
            "speed": ["fast"], "race": "Beast", "element": "physical"}


def seth_pool() -> dict[str, dict[str, Any]]:
    return {f"s{i}": seth_monster(i, 5) for i in range(7)} | {"big": seth_monster(99, 10)}


def test_seth_five_monsters_under_the_power_limit_is_legal(definitions):
    deck = {"name": "T", "zones": {"team": {f"s{i}": 1 for i in range(5)}}}  # total 25
    assert validate_deck(definitions["seth"], deck, seth_pool()) == []


@pytest.mark.parametrize("count", [4, 6])
def test_seth_exactly_five_monsters_2_2_1(definitions, count):
    pool = {f"s{i}": seth_monster(i, 1) for i in range(count)}
    deck = {"name": "T", "zones": {"team": {f"s{i}": 1 for i in range(count)}}}
    problems = validate_deck(definitions["seth"], deck, pool)
    assert codes(problems) == ["deck.zone_exact"]
    assert f"Team has {count} cards; it must have exactly 5 (§2.2.1)" == problems[0].message


def test_seth_total_power_must_be_strictly_less_than_the_limit_2_2_2(definitions):
    pool = seth_pool()
    at_limit = {"name": "T", "zones": {"team": {"s0": 1, "s1": 1, "s2": 1, "s3": 1, "big": 1}}}  # 30
    problems = validate_deck(definitions["seth"], at_limit, pool)
    assert codes(problems) == ["deck.total_limit"]
    assert problems[0].message == "Total Power is 30; it must be less than 30 (§2.2.2)"
    skirmish = {"name": "T", "format": "skirmish", "zones": {"team": {f"s{i}": 1 for i in range(5)}}}
    assert "Total Power is 25; it must be less than 20" in validate_deck(definitions["seth"], skirmish, pool)[0].message


def test_seth_copies_allowed_unless_the_format_limits_them_2_2_3(definitions):
    pool = seth_pool()
    deck = {"name": "T", "zones": {"team": {"s0": 3, "s1": 2}}}
    assert validate_deck(definitions["seth"], deck, pool) == []
    single = dict(deck, format="singleton")
    problems = validate_deck(definitions["seth"], single, pool)
    assert codes(problems) == ["deck.max_copies", "deck.max_copies"]
    assert "Beast 0 has 3 copies across Team; the maximum is 1" in problems[0].message


# ------------------------------------------------------------------ fusion §3.1.2


def fusion_pool() -> dict[str, dict[str, Any]]:
    pool = {f"f{i}": {"name": f"卡{i}", "kind": "creature", "cost": 2, "attribute": "fire", "subtype": "龙",
                      "stars": 3, "atk": 2, "def": 2} for i in range(20)}
    pool["spell"] = {"name": "火球", "kind": "magic", "cost": 1, "subtype": "normal"}
    return pool


def fusion_deck(main: int = 40, extra: int = 0) -> dict[str, Any]:
    m: dict[str, int] = {}
    for i in range(main):
        m[f"f{i % 20}"] = m.get(f"f{i % 20}", 0) + 1
    return {"name": "T", "zones": {"main": m, "extra": {f"f{19 - i}": 1 for i in range(extra)}}}


def test_fusion_legal_deck(definitions):
    assert validate_deck(definitions["fusion"], fusion_deck(40, 0), fusion_pool()) == []


def test_fusion_main_deck_at_least_40(definitions):
    problems = validate_deck(definitions["fusion"], fusion_deck(39), fusion_pool())
    assert codes(problems) == ["deck.zone_min"]
    assert "has 39 cards; the minimum is 40 (§3.1.2)" in problems[0].message


def test_fusion_extra_deck_at_most_15(definitions):
    pool = fusion_pool()
    pool.update({f"e{i}": dict(pool["f0"], name=f"额外{i}", extra=True, materials=["卡1"]) for i in range(16)})
    ok = fusion_deck()
    ok["zones"]["extra"] = {f"e{i}": 1 for i in range(15)}
    assert codes(validate_deck(definitions["fusion"], ok, pool)) == []
    ok["zones"]["extra"]["e15"] = 1
    problems = validate_deck(definitions["fusion"], ok, pool)
    assert codes(problems) == ["deck.zone_max"] and "maximum is 15" in problems[0].message


def test_fusion_three_copies_across_main_and_extra(definitions):
    pool = fusion_pool()  # an extra-deck printing of 卡0 shares its name with the main deck's f0
    pool["x0"] = dict(pool["f0"], extra=True, materials=["卡1"])
    deck = fusion_deck(40)  # f0..f19 twice each
    deck["zones"]["extra"] = {"x0": 1}
    assert codes(validate_deck(definitions["fusion"], deck, pool)) == []
    deck["zones"]["extra"] = {"x0": 2}
    problems = validate_deck(definitions["fusion"], deck, pool)
    assert codes(problems) == ["deck.max_copies"]
    assert "卡0 has 4 copies" in problems[0].message


def test_fusion_extra_deck_takes_only_creatures(definitions):
    deck = fusion_deck(40)
    deck["zones"]["extra"] = {"spell": 1}
    assert codes(validate_deck(definitions["fusion"], deck, fusion_pool())) == ["deck.zone_kind"]


def test_fusion_extra_deck_creatures_and_only_they_sit_in_the_extra_deck(definitions):
    """RULES.md §3.10.2: the engine deals an extra: true creature to the extra deck wherever the deck
    lists it, and ignores a plain creature listed there — so the validator must refuse both."""
    pool = fusion_pool()
    pool["x0"] = dict(pool["f0"], name="合体", extra=True, materials=["卡1"])
    deck = fusion_deck(40)
    deck["zones"]["main"]["x0"] = 1
    problems = [p for p in validate_deck(definitions["fusion"], deck, pool) if p.is_error]
    assert [(p.code, p.zone, p.card) for p in problems] == [("deck.zone_field", "main", "x0")]
    assert "合体 has 额外卡组 Extra deck: yes" in problems[0].message and problems[0].rule == "§3.10.2"
    deck = fusion_deck(40)
    deck["zones"]["extra"] = {"f1": 1}
    problems = validate_deck(definitions["fusion"], deck, pool)
    assert [(p.code, p.zone, p.card) for p in problems] == [("deck.zone_field", "extra", "f1")]  # no materials warning


# ------------------------------------------------------------------ shape and references


@pytest.mark.parametrize("deck,code", [
    ({"zones": {"main": {"nope": 1}}}, "deck.unknown_card"),
    ({"zones": {"graveyard": {"f0": 1}}}, "deck.unknown_zone"),
    ({"zones": {"main": {"f0": 0}}}, "deck.count"),
    ({"zones": {"main": {"f0": "two"}}}, "deck.count"),
    ({"zones": ["main"]}, "deck.shape"),
    ({"format": "modern", "zones": {}}, "deck.format"),
])
def test_bad_deck_entries_are_reported_not_crashed_on(definitions, deck, code):
    assert code in codes(validate_deck(definitions["fusion"], deck, fusion_pool(), "d1"))


def test_a_deck_holding_a_broken_card_is_not_legal(definitions):
    pool = fusion_pool()
    pool["f0"] = dict(pool["f0"], stars=0)
    problems = validate_deck(definitions["fusion"], fusion_deck(40), pool)
    assert codes(problems) == ["deck.card_invalid"]
