"""The pair statistics keep their promises on equal decks of every bundled game (issue 14, items 2-3).

Equal decks: each game's first deck against itself, so deck A's true win rate is exactly 50 %.
The engines play a pool of real seed pairs; the pool is made symmetric (each pair outcome also
counted from deck B's side, which is what equal decks guarantee) and many seeded runs are drawn
from it. That keeps the real correlation between the two games of a pair — the thing that made
the old per-game interval too narrow — at a cost a CI run can afford. Seth, the fastest engine, is
also checked with runs really played end to end.
"""

from __future__ import annotations

import math
import random

import pytest

from workbench.domain import stats
from workbench.services.playtest import runner, service

pytestmark = pytest.mark.slow

MIRROR = {"warzone": "iron-bastion", "seth": "rot-and-stone", "fusion": "lie-yan-ji-feng"}
POOL_PAIRS = 250


@pytest.fixture(scope="module")
def pools(tmp_path_factory):
    """Pentanomial counts of POOL_PAIRS real mirror-match pairs per game, made symmetric."""
    from tests.conftest import BUNDLED_DATA
    from workbench.storage.repository import Repository

    repo = Repository(BUNDLED_DATA)
    result = {}
    for game, deck in MIRROR.items():
        matchup, _ = service.prepare(repo, game, deck, deck, seed=1414)
        report = runner.run_matchup(matchup, 2 * POOL_PAIRS, workers=1)
        counts = report["pairs"]["counts"]
        result[game] = [counts[i] + counts[4 - i] for i in range(5)]
    return result


def draw_counts(rng: random.Random, weights, pairs: int) -> list[int]:
    counts = [0] * 5
    for slot in rng.choices(range(5), weights=weights, k=pairs):
        counts[slot] += 1
    return counts


def tilted(weights, mean: float) -> list[float]:
    """The distribution closest to ``weights`` (exponential tilting) with per-game score ``mean``."""
    low, high = -60.0, 60.0
    for _ in range(100):
        lam = (low + high) / 2
        w = [c * math.exp(lam * i / 4) for i, c in enumerate(weights)]
        if sum(x * i / 4 for i, x in enumerate(w)) / sum(w) < mean:
            low = lam
        else:
            high = lam
    return w


@pytest.mark.parametrize("game", sorted(MIRROR))
def test_the_pair_interval_covers_half_on_equal_decks(pools, game):
    rng = random.Random(f"coverage-{game}")
    for pairs in (50, 250):  # measured with 6,000 runs: 94.4-95.3 % in every game and size
        runs = 2000
        covered = sum(lo <= 0.5 <= hi for lo, hi in
                      (stats.pair_interval(draw_counts(rng, pools[game], pairs)) for _ in range(runs)))
        assert covered / runs >= 0.93, f"{game}, {pairs} pairs: covers 50 % in {covered} of {runs} runs"


def test_the_per_game_interval_would_be_too_narrow_for_real_pairs(pools):
    """Why pairs are the unit: in fusion and warzone the halves of a mirror pair agree more often
    than chance (same deal), and the Wilson interval over games then covers 50 % too rarely."""
    for game in ("fusion", "warzone"):
        rng = random.Random(f"by-game-{game}")
        runs, covered = 1000, 0
        for _ in range(runs):
            counts = draw_counts(rng, pools[game], 100)
            points = sum(i * c for i, c in enumerate(counts)) / 2
            lo, hi = stats.wilson_interval(points, 200)
            covered += lo <= 0.5 <= hi
        assert covered / runs < 0.93, f"{game}: the per-game interval covered {covered} of {runs}"


def run_rule(rule, rng: random.Random, weights, cap_pairs: int = 20_000) -> str | None:
    counts = [0] * 5
    for slot in rng.choices(range(5), weights=weights, k=cap_pairs):
        counts[slot] += 1
        decision = rule.check(counts)
        if decision is not None:
            return decision.verdict
    return None


@pytest.mark.parametrize("game", sorted(MIRROR))
def test_the_three_way_sprt_says_equal_on_equal_decks_and_keeps_its_error_rates(pools, game):
    rule = stats.SPRT(margin=0.05)
    nominal = rule.error_rates()["false_better"] + rule.error_rates()["false_worse"]
    rng = random.Random(f"sprt-{game}")
    runs = 1000  # measured 5.1-5.3 % false verdicts with 1,500 runs; the bar is 7.3 %
    verdicts = [run_rule(rule, rng, pools[game]) for _ in range(runs)]
    false = sum(v in ("better", "worse") for v in verdicts) / runs
    assert false <= nominal + 0.02, f"{game}: {false:.3f} false verdicts (nominal {nominal:.3f})"
    assert verdicts.count("equal") / runs >= 0.90
    # A deck better by the full margin is found: "better" in at least 1 − beta − 2 points.
    better = tilted(pools[game], 0.5 + rule.margin)
    hits = [run_rule(rule, rng, better) for _ in range(200)]
    assert hits.count("better") / len(hits) >= 1 - rule.error_rates()["missed_margin"] - 0.02
    assert "worse" not in hits


@pytest.mark.parametrize("game", sorted(MIRROR))
def test_the_interval_rule_rarely_gives_a_false_verdict_on_equal_decks(pools, game):
    rule = stats.IntervalRule(margin=0.05, min_games=100)
    rng = random.Random(f"interval-{game}")
    runs = 400
    verdicts = [run_rule(rule, rng, pools[game]) for _ in range(runs)]
    assert sum(v in ("better", "worse") for v in verdicts) / runs <= 0.05 + 0.02


def test_seth_runs_played_end_to_end_cover_half_and_stop_on_equal(repo):
    matchup, _ = service.prepare(repo, "seth", "rot-and-stone", "rot-and-stone")
    # Fewer runs than above (real games cost more), so the bars leave room for sampling noise:
    # 3 standard errors below 95 % coverage, and 15 of 20 where about 19 are expected.
    runs, covered = 120, 0
    for root in range(runs):
        report = runner.run_matchup(runner.replace(matchup, seed=root), 50, workers=1)
        lo, hi = report["win_rate_a"]["ci95"]
        covered += lo <= 0.5 <= hi
    assert covered / runs >= 0.89
    verdicts = []
    for root in range(20):
        report = runner.run_matchup(runner.replace(matchup, seed=10_000 + root), 4000, workers=1,
                                    stop_rule=stats.SPRT(margin=0.1))
        verdicts.append(report["early_stop"]["verdict"])
    assert verdicts.count("equal") >= 15, verdicts
