"""Playtest statistics: intervals and odds against published values, early stop, aggregation."""

from __future__ import annotations

import math

import pytest

from workbench.domain import stats


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        (50, 100, 0.4038, 0.5962),   # the textbook p = 0.5, n = 100 case
        (0, 10, 0.0, 0.2775),        # no successes: the interval still has width
        (10, 10, 0.7225, 1.0),
        (81, 263, 0.2553, 0.3662),   # Wilson (1927) style example used in many references
    ],
)
def test_wilson_interval_matches_known_values(successes, n, low, high):
    got_low, got_high = stats.wilson_interval(successes, n)
    assert got_low == pytest.approx(low, abs=5e-4)
    assert got_high == pytest.approx(high, abs=5e-4)


def test_wilson_interval_narrows_with_more_games_and_contains_the_rate():
    wide = stats.wilson_interval(60, 100)
    narrow = stats.wilson_interval(600, 1000)
    assert wide[0] < narrow[0] < 0.6 < narrow[1] < wide[1]


def test_wilson_interval_with_no_games_is_everything_and_rejects_nonsense():
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(stats.StatsError):
        stats.wilson_interval(11, 10)
    with pytest.raises(ValueError):  # StatsError is a ValueError like every domain error
        stats.wilson_interval(-1, 10)


def test_hypergeometric_matches_the_classic_opening_hand_odds():
    # 4 copies in a 60-card deck, 7-card hand: 39.9 % to see at least one.
    assert stats.hypergeom_at_least(1, 60, 4, 7) == pytest.approx(0.3995, abs=1e-4)
    # 1 - C(56,7)/C(60,7) written out independently.
    assert stats.hypergeom_at_least(1, 60, 4, 7) == pytest.approx(1 - math.comb(56, 7) / math.comb(60, 7))
    assert stats.hypergeom_pmf(2, 40, 3, 5) == pytest.approx(math.comb(3, 2) * math.comb(37, 3) / math.comb(40, 5))


def test_hypergeometric_probabilities_sum_to_one_and_impossible_draws_are_zero():
    assert sum(stats.hypergeom_pmf(k, 40, 9, 6) for k in range(7)) == pytest.approx(1.0)
    assert stats.hypergeom_pmf(4, 40, 3, 5) == 0.0
    with pytest.raises(stats.StatsError):
        stats.hypergeom_pmf(1, 10, 11, 5)


def _records(outcomes):
    return [{"index": i, "winner": w, "a_seat": i % 2, "first_won": None if w is None else (w == "a") == (i % 2 == 0),
             "turns": 5, "reason": "x"} for i, w in enumerate(outcomes)]


def test_sprt_says_better_worse_or_equal_from_pairs():
    rule = stats.SPRT(margin=0.05)
    better = stats.first_stop(_records(["a", "a", "a", "b"] * 200), rule)
    worse = stats.first_stop(_records(["b", "b", "b", "a"] * 200), rule)
    assert better is not None and better.verdict == "better" and better.games < 200
    assert worse is not None and worse.verdict == "worse" and worse.games < 200
    # Pairs that alternate won-both / lost-both / split are an even match with real spread: "equal".
    even = stats.first_stop(_records(["a", "a", "b", "b", "a", "b", "b", "a"] * 400), rule)
    assert even is not None and even.verdict == "equal"
    assert stats.first_stop(_records(["a", "b"] * 5), rule) is None  # too few games yet


def test_sprt_ratios_follow_fishtests_normal_approximation():
    # LLR_alt2 (fishtest/server/fishtest/stats/LLRcalc.py): N (s1 - s0)(2 s - s0 - s1) / (2 var).
    counts = [10, 20, 40, 25, 5]
    n = sum(counts)
    s = sum(c * i / 4 for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4 - s) ** 2 for i, c in enumerate(counts)) / n
    up, down = stats.SPRT(margin=0.05).llr(counts)
    assert up == pytest.approx(n * 0.05 * (2 * s - 0.5 - 0.55) / (2 * var))
    assert down == pytest.approx(n * -0.05 * (2 * s - 0.5 - 0.45) / (2 * var))
    bounds = stats.SPRT().bounds
    assert bounds == pytest.approx((math.log(0.95 / 0.025), math.log(0.05 / 0.975)))


def test_pair_interval_widens_for_mirrored_pairs_and_equals_wilson_for_independent_games():
    # 100 pairs that are mirrors (won both or lost both): 100 observations, not 200.
    mirror = stats.pair_interval([50, 0, 0, 0, 50])
    by_game = stats.wilson_interval(100, 200)
    assert mirror[1] - mirror[0] > 1.35 * (by_game[1] - by_game[0])
    # Independent halves (binomial pair outcomes 1:2:1 without draws): about the games' Wilson.
    independent = stats.pair_interval([250, 0, 500, 0, 250])
    games = stats.wilson_interval(1000, 2000)
    assert independent == pytest.approx(games, abs=2e-3)
    # Every pair split: a strong case for 50 %, but never a zero-width interval.
    split = stats.pair_interval([0, 0, 100, 0, 0])
    assert 0.48 < split[0] < 0.5 < split[1] < 0.52
    assert stats.pair_interval([0, 0, 0, 0, 0]) == (0.0, 1.0)
    assert stats.pair_interval([0, 0, 0, 0, 10]) == stats.wilson_interval(20, 20)


def test_interval_rule_says_better_worse_or_equal_only_when_the_pair_interval_allows():
    rule = stats.IntervalRule(margin=0.03, min_games=100)
    records = _records(["a", "a", "b"] * 300)
    verdict = stats.first_stop(records, rule)
    assert verdict is not None and verdict.verdict == "better"
    counts = [0] * 5
    for even, odd in zip(records[: verdict.games : 2], records[1: verdict.games : 2], strict=True):
        counts[stats.pair_index(stats.a_points(even) + stats.a_points(odd))] += 1
    assert stats.pair_interval(counts)[0] > 0.53
    # An even match of independent-looking pairs: "equal" once the interval fits inside 47–53 %.
    equal = stats.first_stop(_records(["a", "a", "b", "b", "a", "b", "b", "a"] * 400), rule)
    assert equal is not None and equal.verdict == "equal"
    assert 800 < equal.games < 1400
    # Never before the minimum number of games.
    assert stats.first_stop(_records(["a"] * 98), rule) is None


def test_make_stop_rule_names_and_errors():
    assert stats.make_stop_rule("none") is None
    assert isinstance(stats.make_stop_rule("sprt", 0.05), stats.SPRT)
    assert isinstance(stats.make_stop_rule("interval", 0.05), stats.IntervalRule)
    with pytest.raises(stats.StatsError):
        stats.make_stop_rule("bayes")
    with pytest.raises(stats.StatsError):
        stats.make_stop_rule("interval", 0.7)


def test_aggregate_counts_draws_as_half_pairs_games_and_measures_the_first_player():
    records = [
        {"index": 0, "a_seat": 0, "winner": "a", "first_won": True, "turns": 4, "reason": "P1 ran out of life",
         "cards": {"a": {"drawn": ["x", "y"], "played": ["x"], "opening": ["x"]}, "b": {"drawn": ["z"], "played": []}},
         "unsimulated": []},
        {"index": 1, "a_seat": 1, "winner": "b", "first_won": True, "turns": 6, "reason": "P2 ran out of life",
         "cards": {"a": {"drawn": ["y"], "played": []}, "b": {"drawn": ["z"], "played": ["z"]}}, "unsimulated": ["q"]},
        {"index": 2, "a_seat": 0, "winner": None, "first_won": None, "turns": 9, "reason": "turn limit",
         "cards": {"a": {"drawn": ["x"], "played": ["x"]}, "b": {"drawn": [], "played": []}}, "unsimulated": []},
        {"index": 3, "a_seat": 1, "winner": "a", "first_won": False, "turns": 5, "reason": "P1 ran out of life",
         "cards": {"a": {"drawn": ["x"], "played": []}, "b": {"drawn": ["w"], "played": []}}, "unsimulated": []},
    ]
    report = stats.aggregate(records, {"a": ["x", "y", "never"], "b": ["z", "w"]}, {"x": "Ex"})
    assert report["schema"] == 2
    assert (report["wins_a"], report["wins_b"], report["draws"]) == (2, 1, 1)
    assert report["win_rate_a"]["value"] == pytest.approx(2.5 / 4)
    assert report["win_rate_a"]["pairs"] == 2 and report["win_rate_a"]["n"] == 4
    assert report["pairs"]["counts"] == [0, 0, 1, 1, 0]  # a split, then a draw and a win
    assert report["win_rate_a"]["ci95"] == list(stats.pair_interval([0, 0, 1, 1, 0]))
    assert report["win_rate_a_by_game"]["ci95"] == list(stats.wilson_interval(2.5, 4))
    assert report["first_player_win_rate"]["value"] == pytest.approx(2.5 / 4)
    assert report["win_rate_a_going_first"]["value"] == pytest.approx(1.5 / 2)
    assert report["win_rate_a_going_second"]["value"] == pytest.approx(1 / 2)
    assert report["turns"]["mean"] == 6.0 and report["turns"]["median"] == 5.5
    assert report["end_reasons"] == {"a player ran out of life": 3, "turn limit": 1}
    assert report["unsimulated_cards"] == ["q"]
    assert report["unsimulated"] == [{"card": "q", "name": "q", "games": 1, "drawn_games": 0}]
    cards = {(c["deck"], c["card"]): c for c in report["cards"]}
    x = cards[("a", "x")]
    assert x["name"] == "Ex" and x["drawn"] == 3 and x["played"] == 2 and x["opening"] == 1
    assert x["win_rate_drawn"]["value"] == pytest.approx((1 + 0.5 + 1) / 3)
    assert x["win_rate_drawn"]["ci95"] == list(stats.wilson_interval(2.5, 3))
    assert x["win_rate_not_drawn"]["value"] == pytest.approx(0.0)  # the only game without x was lost
    assert x["win_rate_not_drawn"]["n"] == 1
    assert x["win_rate_opening"]["value"] == 1.0 and x["win_rate_opening"]["n"] == 1
    assert x["win_rate_played"]["value"] == pytest.approx(1.5 / 2)
    assert x["impact"] == pytest.approx(x["win_rate_drawn"]["value"])
    low, high = x["improvement_when_drawn"]["ci95"]
    assert low < x["impact"] < high
    never = {(c["deck"], c["card"]) for c in report["never_played"]}
    assert ("a", "never") in never and ("a", "y") in never and ("a", "x") not in never
    assert cards[("a", "never")]["win_rate_drawn"]["value"] is None
    assert set(report["card_columns"]) >= {"opening", "drawn", "not_drawn", "played", "improvement_when_drawn"}


def test_first_player_flag_when_its_interval_excludes_half():
    records = _records(["a", "b"] * 300)  # the first player (A in even games, B in odd) always wins
    report = stats.aggregate(records)
    assert report["first_player"]["favoured"]
    assert report["first_player"]["message"].startswith("the player who moves first wins 100.0 %")
    even = stats.aggregate(_records(["a", "a", "b", "b"] * 50))
    assert not even["first_player"]["favoured"] and even["first_player"]["message"] is None


def test_end_reasons_merge_seats_and_amounts_but_keep_rule_references():
    assert stats.reason_key("P2 has -4 life (§3.1.4)") == stats.reason_key("P1 has 0 life (§3.1.4)")
    assert stats.reason_key("P2 has -4 life (§3.1.4)") == "a player's life fell to 0 or below (§3.1.4)"
    assert stats.reason_key("P1 has 7 cards in the Damage Pile (§1.4.2)") == "a player's Damage Pile reached its limit (§1.4.2)"
    assert stats.reason_key("round limit 50 reached") != stats.reason_key("all monsters removed")


def test_histogram_has_one_bin_per_value_when_the_range_is_small_and_keeps_every_game():
    bins = stats.histogram([3, 3, 4, 7])
    assert [(b["low"], b["count"]) for b in bins] == [(3, 2), (4, 1), (5, 0), (6, 0), (7, 1)]
    wide = stats.histogram(list(range(100)), max_bins=10)
    assert len(wide) == 10 and sum(b["count"] for b in wide) == 100
