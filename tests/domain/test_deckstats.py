"""Deck statistics: exact hypergeometric draw odds with the games' own draw plans, curves, totals."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.domain.deckstats import (
    DrawPlan,
    StatsError,
    curve_fields,
    deck_statistics,
    draw_plan,
    hypergeom_pmf,
    odds_table,
    prob_at_least,
    prob_by_turn,
    wanted_count,
)


def _arrangements(size: int, wanted: int) -> list[tuple[bool, ...]]:
    """Every distinct order of a deck with ``wanted`` marked cards; all equally likely."""
    out = []
    for places in itertools.combinations(range(size), wanted):
        out.append(tuple(i in places for i in range(size)))
    return out


def _brute_force(size: int, wanted: int, k: int, hand: int, seen: int, mulligans: int) -> Fraction:
    """Shuffle, mulligan while the hand is short of k wanted cards, count over every shuffle."""
    orders = _arrangements(size, wanted)

    def attempt(left: int) -> Fraction:
        total = Fraction(0)
        for order in orders:
            if sum(order[:hand]) < k and left > 0:
                total += attempt(left - 1)
            else:
                total += 1 if sum(order[:seen]) >= k else 0
        return total / len(orders)

    return attempt(mulligans)


@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n), st.integers(0, n), st.integers(1, 4))))
@settings(max_examples=60, deadline=None)
def test_at_least_matches_counting_every_shuffle(case: tuple[int, int, int, int]) -> None:
    size, wanted, draws, k = case
    orders = _arrangements(size, wanted)
    expected = Fraction(sum(sum(o[:draws]) >= k for o in orders), len(orders))
    assert prob_at_least(size, wanted, draws, k) == expected


def test_pmf_sums_to_one() -> None:
    assert sum(hypergeom_pmf(60, 4, 7, h) for h in range(8)) == 1


def test_four_copies_in_a_seven_card_hand_of_sixty_is_the_known_39_9_percent() -> None:
    # The figure every Magic player knows: a 4-of is in the opening 7 of 60 about 39.9% of the time.
    assert float(prob_at_least(60, 4, 7, 1)) == pytest.approx(0.3995, abs=5e-5)


@pytest.mark.parametrize("mulligans", [0, 1, 2])
@pytest.mark.parametrize("k", [1, 2])
def test_mulligans_match_brute_force_over_every_reshuffle(mulligans: int, k: int) -> None:
    plan = DrawPlan(opening_hand=3, draws_per_turn=1, first_player_skips_draw=True, mulligans=mulligans)
    for turn in (1, 2):
        for first in (True, False):
            seen = plan.cards_seen(turn, first)
            assert prob_by_turn(7, 2, k, plan, turn, first) == _brute_force(7, 2, k, 3, seen, mulligans)


def test_mulligans_raise_the_odds_and_going_second_sees_one_more_card() -> None:
    no_mull = DrawPlan(5, 1, True, 0)
    three = DrawPlan(5, 1, True, 3)
    assert prob_by_turn(40, 3, 1, three, 1, True) > prob_by_turn(40, 3, 1, no_mull, 1, True)
    assert prob_by_turn(40, 3, 1, no_mull, 1, True) == prob_at_least(40, 3, 5, 1)
    assert prob_by_turn(40, 3, 1, no_mull, 1, False) == prob_at_least(40, 3, 6, 1)


def test_bundled_draw_plans_follow_the_rules(definitions) -> None:
    warzone = draw_plan(definitions["warzone"])
    assert (warzone.opening_hand, warzone.draws_per_turn, warzone.first_player_skips_draw) == (8, 2, False)
    assert warzone.cards_seen(1, True) == 10 and warzone.cards_seen(3, False) == 14  # Wake + Night
    fusion = draw_plan(definitions["fusion"])
    assert (fusion.opening_hand, fusion.draws_per_turn, fusion.mulligans) == (5, 1, 3)
    assert fusion.cards_seen(1, True) == 5 and fusion.cards_seen(1, False) == 6
    assert not draw_plan(definitions["seth"]).draws


def test_draw_plan_follows_a_changed_rule_option(definitions) -> None:
    plan = draw_plan(definitions["fusion"], {"start_hand": 7, "max_mulligans": 0, "first_player_skips_draw": False})
    assert (plan.opening_hand, plan.mulligans, plan.first_player_skips_draw) == (7, 0, False)


def test_odds_grow_each_turn_and_reach_certainty_when_the_deck_is_exhausted() -> None:
    plan = DrawPlan(8, 2, False, 0)
    rows = odds_table(20, 1, 1, plan, turns=8)
    values = [r.first for r in rows]
    assert values == sorted(values)
    assert rows[-1].seen_first == 20 and rows[-1].first == 1.0


def test_impossible_numbers_are_refused() -> None:
    with pytest.raises(StatsError):
        prob_at_least(10, 11, 3, 1)
    with pytest.raises(StatsError):
        prob_by_turn(40, 3, 0, DrawPlan(5, 1, True, 0), 1, True)
    with pytest.raises(StatsError):
        DrawPlan(5, 1, True, 0).cards_seen(0, True)
    with pytest.raises(StatsError):
        wanted_count({"zones": {}}, {}, "main")


def test_curve_fields_per_game(definitions) -> None:
    assert [f for f, _ in curve_fields(definitions["warzone"])] == ["degree", "class"]
    assert [f for f, _ in curve_fields(definitions["fusion"])] == ["cost"]
    assert [f for f, _ in curve_fields(definitions["seth"])] == ["power"]


def test_deck_statistics_counts_curves_and_power_total(definitions) -> None:
    cards = {
        "a": {"name": "A", "kind": "monster", "power": 9},
        "b": {"name": "B", "kind": "monster", "power": 12},
        "c": {"name": "C", "kind": "monster", "power": 3},
    }
    deck = {"format": "skirmish", "zones": {"team": {"a": 1, "b": 2, "c": 1, "ghost": 1}}}
    stats = deck_statistics(definitions["seth"], deck, cards)
    team = stats.zones[0]
    assert team.total == 4 and team.by_kind == {"monster": 4}
    assert stats.curves[0].counts == {3: 1, 9: 1, 12: 2}
    total = stats.totals[0]
    assert (total.total, total.limit, total.ok) == (36, 20, False)  # skirmish format: Power < 20
    assert stats.unknown_cards == ["ghost"]


def test_warzone_curve_leaves_spells_out_and_counts_them(definitions) -> None:
    cards = {"s": {"name": "S", "kind": "spell"}, "c": {"name": "C", "kind": "creature", "degree": 2, "class": 1}}
    stats = deck_statistics(definitions["warzone"], {"zones": {"main": {"s": 3, "c": 4}}}, cards)
    degree = next(c for c in stats.curves if c.field == "degree")
    assert degree.counts == {2: 4} and degree.without == 3 and degree.average == 2
    assert stats.draw_zone == "main" and stats.draw_zone_size == 7
    assert wanted_count({"zones": {"main": {"s": 3, "c": 4}}}, cards, "main", kind="spell") == 3


def test_the_opening_hand_row_against_every_shuffle() -> None:
    """Brute force over every ordered deal of a 7-card deck with 2 wanted: the kept hand of 3
    (one mulligan when short of 1 wanted card) holds one with 1 - miss^2."""
    import itertools
    from fractions import Fraction

    from workbench.domain.deckstats import prob_opening_hand

    deck = [1, 1, 0, 0, 0, 0, 0]
    hands = list(itertools.combinations(range(7), 3))
    miss = Fraction(sum(1 for h in hands if sum(deck[i] for i in h) < 1), len(hands))
    assert prob_opening_hand(7, 2, 1, DrawPlan(3, 1, False, 1)) == 1 - miss**2
    assert prob_opening_hand(7, 2, 1, DrawPlan(3, 1, False, 0)) == 1 - miss
    assert prob_opening_hand(7, 2, 2, DrawPlan(0, 1, False, 0)) == 0
