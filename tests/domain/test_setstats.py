"""Set overview figures: counts by kind and field, the cost curve, the budget against each card."""

from __future__ import annotations

from workbench.domain.setstats import set_overview


def test_counts_curve_and_budget_of_a_small_seth_set(definitions) -> None:  # type: ignore[no-untyped-def]
    seth = definitions["seth"]
    cards = [
        ("a", {"name": "A", "kind": "monster", "power": 2, "damage": 4, "health": 6, "speed": ["fast"], "element": "fire"}),
        ("b", {"name": "B", "kind": "monster", "power": 2, "damage": 9, "health": 9, "speed": ["fast", "slow"], "element": "fire"}),
        ("c", {"name": "C", "kind": "monster", "power": 5, "damage": 3, "health": 3, "element": "water"}),
    ]
    overview = set_overview(seth, cards)
    assert overview.cards == 3 and overview.by_kind == {"monster": 3}
    assert overview.curve is not None and overview.curve.field == "power" and overview.curve.counts == {2: 2, 5: 1}
    element = next(c for c in overview.fields if c.field == "element")
    assert element.counts == {"fire": 2, "water": 1}
    speed = next(c for c in overview.fields if c.field == "speed")
    assert speed.counts == {"fast": 2, "slow": 1} and speed.without == 1  # a list counts each value
    # damage + health <= 4 + 3 x Power: A 10 <= 10, B 18 > 10 (over by 8), C 6 <= 19
    assert [(p.card_id, p.total, p.limit, p.over) for p in overview.budget] == [("a", 10, 10, 0), ("b", 18, 10, 8),
                                                                             ("c", 6, 19, 0)]
    assert [p.card_id for p in overview.over_budget] == ["b"]


def test_cards_outside_the_budget_kinds_are_not_points(definitions) -> None:  # type: ignore[no-untyped-def]
    warzone = definitions["warzone"]
    cards = [("s", {"name": "Spell", "kind": "spell", "degree": 2}),
             ("c", {"name": "Unit", "kind": "creature", "degree": 1, "strength": 900, "resilience": 900})]
    overview = set_overview(warzone, cards)
    assert [(p.card_id, p.over) for p in overview.budget] == [("c", 450)]  # 1800 against 900 + 450 x 1
    assert overview.by_kind == {"creature": 1, "spell": 1}
