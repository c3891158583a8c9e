"""Playtest statistics: intervals, card-draw odds, early stopping and the report of a batch.

Pure functions over plain data. A *game record* is the mapping one played game produces (see
:func:`game_record_keys`); :func:`aggregate` turns a list of records into the report that the CLI
prints as JSON and the web page draws. Win rates count a draw as half a win, so deck A's and deck
B's rates always add up to 1.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.domain.errors import WorkbenchError

Z95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""


class StatsError(WorkbenchError):
    """A statistic was asked for with impossible inputs (negative counts, k > n …)."""


# ---------------------------------------------------------------- intervals


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion of ``successes`` out of ``n``.

    ``successes`` may be fractional (a draw counts as half a win). With ``n == 0`` the interval
    is the whole range (0, 1): nothing is known. Raises StatsError when successes is negative or
    above n.
    """
    if n < 0 or successes < 0 or successes > n:
        raise StatsError(f"cannot make an interval for {successes} successes out of {n}")
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(successes: float, n: int) -> dict[str, Any]:
    """``{"value", "ci95", "n"}`` for a proportion; ``value`` is None when n is 0."""
    low, high = wilson_interval(successes, n)
    return {"value": (successes / n) if n else None, "ci95": [low, high], "n": n}


# ---------------------------------------------------------------- hypergeometric


def hypergeom_pmf(k: int, population: int, successes: int, draws: int) -> float:
    """P(exactly ``k`` hits) drawing ``draws`` cards from ``population`` holding ``successes`` hits.

    Raises StatsError for negative sizes or more draws/hits than cards.
    """
    if min(k, population, successes, draws) < 0 or successes > population or draws > population:
        raise StatsError(
            f"impossible draw: {draws} of {population} cards with {successes} hits, asking for {k}"
        )
    if k > successes or k > draws or draws - k > population - successes:
        return 0.0
    return math.comb(successes, k) * math.comb(population - successes, draws - k) / math.comb(population, draws)


def hypergeom_at_least(k: int, population: int, successes: int, draws: int) -> float:
    """P(at least ``k`` hits) in the same draw as :func:`hypergeom_pmf`."""
    return sum(hypergeom_pmf(i, population, successes, draws) for i in range(k, min(successes, draws) + 1))


# ---------------------------------------------------------------- pairs (pentanomial)

PAIR_OUTCOMES = ("lost both", "lost one, drew one", "one each (or two draws)", "won one, drew one", "won both")
"""What the five pair counts mean, from the deck's point of view: its points over the two games
of a seed pair are 0, ½, 1, 1½ or 2 (Fishtest's pentanomial model)."""


def pair_index(points: float) -> int:
    """The pentanomial slot (0–4) of a pair in which a deck scored ``points`` (0 … 2 in halves)."""
    slot = round(points * 2)
    if not 0 <= slot <= 4 or abs(slot - points * 2) > 1e-9:
        raise StatsError(f"a seed pair is worth 0 to 2 points in halves, not {points}")
    return slot


def pair_moments(counts: Sequence[float]) -> tuple[int, float, float]:
    """``(pairs, mean, variance)`` of the per-game score of the pairs (0, ¼, ½, ¾ or 1 per pair).

    The variance is the population variance over the pairs; zero when every pair scored alike.
    """
    n = sum(counts)
    if n <= 0:
        return 0, 0.5, 0.0
    mean = sum(c * i / 4 for i, c in enumerate(counts)) / n
    var = sum(c * (i / 4 - mean) ** 2 for i, c in enumerate(counts)) / n
    return int(round(n)), mean, var


def pair_interval(counts: Sequence[int], z: float = Z95) -> tuple[float, float]:
    """A 95 % interval for a deck's win rate with the seed pair as the independent unit.

    The Wilson interval over the *effective* number of games: ``n_eff = pairs · p(1 − p) / v``,
    where ``v`` is the variance of the pairs' scores — two independent games per pair give
    ``n_eff = 2 · pairs`` (the plain Wilson interval over games); pairs whose halves agree (a
    mirror) give fewer, pairs that split more often give more. ``v`` mixes in one pseudo-pair
    (half "lost both", half "won both") so a handful of identical pairs do not claim certainty.
    When every pair scored 0 or every pair 2, it is the Wilson interval over the games.
    """
    pairs, p, var = pair_moments(counts)
    if pairs == 0:
        return (0.0, 1.0)
    if p * (1 - p) == 0:
        return wilson_interval(p * 2 * pairs, 2 * pairs, z)
    reg = (var * pairs + 0.5 * p * p + 0.5 * (1 - p) ** 2) / (pairs + 1)
    n_eff = pairs * p * (1 - p) / reg
    return _wilson_float(p, n_eff, z)


def _wilson_float(p: float, n: float, z: float) -> tuple[float, float]:
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def pair_rate(counts: Sequence[int]) -> dict[str, Any]:
    """``{"value", "ci95", "n" (games), "pairs", "counts", "unit": "pair"}`` for pentanomial counts."""
    pairs, p, _ = pair_moments(counts)
    low, high = pair_interval(counts)
    return {"value": p if pairs else None, "ci95": [low, high], "n": 2 * pairs, "pairs": pairs,
            "counts": [int(c) for c in counts], "unit": "pair"}


def difference(first: Mapping[str, Any], second: Mapping[str, Any]) -> dict[str, Any]:
    """``second − first`` of two independent rates with Wilson intervals, with Newcombe's 95 %
    interval (method 10), or value None when either has no games."""
    p1, p2 = first.get("value"), second.get("value")
    if p1 is None or p2 is None:
        return {"value": None, "ci95": None}
    (l1, u1), (l2, u2) = first["ci95"], second["ci95"]
    d = p2 - p1
    return {"value": d, "ci95": [d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2),
                                 d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)]}


def pair_scores(points: Sequence[float]) -> list[float]:
    """Per-game score of each seed pair (0, ¼, ½, ¾ or 1) from one deck's points per game, in order."""
    return [(points[i] + points[i + 1]) / 2 for i in range(0, len(points) - 1, 2)]


def paired_difference(first: Sequence[float], second: Sequence[float]) -> dict[str, Any]:
    """The mean of ``first − second`` over common pairs (the same seeds), with a 95 % normal
    interval, and the width an unpaired comparison (independent runs of the same size) would have.

    One pseudo-pair each way (±½) keeps runs whose pairs all came out alike from claiming a
    zero-width interval; its weight fades as the pairs grow.
    """
    n = min(len(first), len(second))
    if n < 2:
        return {"value": None, "ci95": None, "pairs": n, "width": None, "unpaired_width": None}
    diffs = [first[i] - second[i] for i in range(n)]
    mean = sum(diffs) / n
    var = (sum((d - mean) ** 2 for d in diffs) + 0.5) / (n + 1)
    half = Z95 * math.sqrt(var / n)

    def variance(xs: Sequence[float]) -> float:
        m = sum(xs[:n]) / n
        return sum((x - m) ** 2 for x in xs[:n]) / (n - 1)

    unpaired = 2 * Z95 * math.sqrt((variance(first) + variance(second)) / n)
    return {"value": mean, "ci95": [mean - half, mean + half], "pairs": n, "width": 2 * half,
            "unpaired_width": unpaired}


# ---------------------------------------------------------------- early stop


@dataclass(frozen=True)
class StopDecision:
    """An early-stop verdict: ``verdict`` is ``"better"``, ``"worse"`` or ``"equal"``."""

    verdict: str
    games: int
    reason: str


@dataclass(frozen=True)
class IntervalRule:
    """Stop once the pair interval (:func:`pair_interval`) of deck A's win rate settles it.

    "better": the whole interval lies above 0.5 + margin; "worse": below 0.5 − margin;
    "equal": the whole interval lies within 0.5 ± margin (no difference of that size).
    ``min_games`` guards against stopping on a lucky first few pairs. Looking after every pair
    makes its error rates larger than a single 95 % interval's; docs/playtests.md gives the
    measured rates. Prefer :class:`SPRT`, whose error rates hold however often it looks.
    """

    margin: float = 0.03
    min_games: int = 100

    def check(self, counts: Sequence[int]) -> StopDecision | None:
        """The verdict after the pairs with pentanomial ``counts`` (deck A's), or None."""
        games = 2 * sum(counts)
        if games < self.min_games:
            return None
        low, high = pair_interval(counts)
        if low > 0.5 + self.margin:
            return StopDecision("better", games, f"95% interval {low:.3f}–{high:.3f} lies above {0.5 + self.margin:.3f}")
        if high < 0.5 - self.margin:
            return StopDecision("worse", games, f"95% interval {low:.3f}–{high:.3f} lies below {0.5 - self.margin:.3f}")
        if low > 0.5 - self.margin and high < 0.5 + self.margin:
            return StopDecision(
                "equal", games, f"95% interval {low:.3f}–{high:.3f} lies within 0.5 ± {self.margin:.3f}"
            )
        return None


def _regularized(counts: Sequence[int]) -> list[float]:
    # Fishtest's regularisation (LLRcalc.regularize): an empty slot gets 0.001 of a pair.
    return [c if c else 1e-3 for c in counts]


@dataclass(frozen=True)
class SPRT:
    """A three-way generalised SPRT on seed pairs, as Fishtest runs it, twice (one per side).

    Two one-sided tests on deck A's per-game score ``s`` (pair points / 2), each Fishtest's
    normal approximation of the GSPRT on pentanomial counts (``LLR_alt2``: ``N (s1 − s0)(2 ŝ −
    s0 − s1) / (2 v̂)`` with the pairs' mean ``ŝ`` and variance ``v̂``):

    * up: ``s = 0.5`` against ``s = 0.5 + margin``; down: ``s = 0.5`` against ``s = 0.5 − margin``.
    * **better** when up's ratio reaches ``A = ln((1 − beta) / alpha)``; **worse** when down's does;
      **equal** (no difference as large as the margin) when both are at or below
      ``B = ln(beta / (1 − alpha))`` at once.

    Error rates (Ville's inequality, which holds however long the test runs): equal decks end
    "better" with probability ≤ alpha / (1 − beta) and "worse" with the same bound (≈ 2.6 % each,
    5.3 % in all with the defaults); a deck better by the full margin ends "equal" or "worse" with
    probability ≤ beta / (1 − alpha) (≈ 5.1 %). The normal approximation makes them approximate;
    the tests measure them by simulation. ``min_games`` guards against a handful of pairs.
    """

    margin: float = 0.03
    alpha: float = 0.025
    beta: float = 0.05
    min_games: int = 100

    def __post_init__(self) -> None:
        if not 0 < self.margin < 0.5:
            raise StatsError(f"SPRT margin must lie between 0 and 0.5, not {self.margin}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise StatsError("SPRT error rates must lie between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        """``(A, B)``: stop for the alternative at A, for the null at B."""
        return math.log((1 - self.beta) / self.alpha), math.log(self.beta / (1 - self.alpha))

    def llr(self, counts: Sequence[int]) -> tuple[float, float]:
        """The log-likelihood ratios ``(up, down)`` after the pairs with pentanomial ``counts``."""
        c0, c1, c2, c3, c4 = _regularized(counts)  # written out: the runner asks after every pair
        n = c0 + c1 + c2 + c3 + c4
        s = (0.25 * c1 + 0.5 * c2 + 0.75 * c3 + c4) / n
        var = (0.0625 * c1 + 0.25 * c2 + 0.5625 * c3 + c4) / n - s * s
        if var <= 1e-12:
            return (0.0, 0.0)
        m = self.margin
        up = n * m * (2 * s - 1 - m) / (2 * var)
        down = n * m * (1 - m - 2 * s) / (2 * var)
        return up, down

    def check(self, counts: Sequence[int]) -> StopDecision | None:
        """The verdict once a ratio crosses a bound, else None."""
        games = 2 * sum(counts)
        if games < self.min_games:
            return None
        upper, lower = self.bounds
        up, down = self.llr(counts)
        if up >= upper:
            return StopDecision("better", games, f"GSPRT on pairs: log-likelihood ratio for +{self.margin:.3f} "
                                                 f"is {up:.2f} ≥ {upper:.2f}")
        if down >= upper:
            return StopDecision("worse", games, f"GSPRT on pairs: log-likelihood ratio for −{self.margin:.3f} "
                                                f"is {down:.2f} ≥ {upper:.2f}")
        if up <= lower and down <= lower:
            return StopDecision("equal", games, f"GSPRT on pairs: both log-likelihood ratios ({up:.2f}, "
                                                f"{down:.2f}) ≤ {lower:.2f}: no difference of ±{self.margin:.3f}")
        return None

    def error_rates(self) -> dict[str, float]:
        """The stated bounds: false "better" (and false "worse") on equal decks, missed margin."""
        return {"false_better": self.alpha / (1 - self.beta), "false_worse": self.alpha / (1 - self.beta),
                "missed_margin": self.beta / (1 - self.alpha)}


def make_stop_rule(kind: str | None, margin: float = 0.03, min_games: int = 100) -> IntervalRule | SPRT | None:
    """``"interval"`` → IntervalRule, ``"sprt"`` → SPRT, None/"" /"none" → None.

    Raises StatsError for another name or a margin outside (0, 0.5).
    """
    if not kind or kind == "none":
        return None
    if not 0 < margin < 0.5:
        raise StatsError(f"early-stop margin must lie between 0 and 0.5, not {margin}")
    if kind == "interval":
        return IntervalRule(margin=margin, min_games=min_games)
    if kind == "sprt":
        return SPRT(margin=margin, min_games=min_games)
    raise StatsError(f"unknown early-stop rule {kind!r}; use interval or sprt")


def first_stop(records: Iterable[Mapping[str, Any]], rule: IntervalRule | SPRT) -> StopDecision | None:
    """Walk records in game order and return the first verdict, checked at the end of each pair.

    Checking only at the end of each seed pair keeps the stop point independent of how games were
    spread over workers. Records must be sorted by ``index``.
    """
    counts = [0, 0, 0, 0, 0]
    half: float | None = None
    for record in records:
        if half is None:
            half = a_points(record)
            continue
        counts[pair_index(half + a_points(record))] += 1
        half = None
        decision = rule.check(counts)
        if decision is not None:
            return decision
    return None


# ---------------------------------------------------------------- aggregation


def game_record_keys() -> tuple[str, ...]:
    """The keys of a game record, as the runner makes them.

    ``index`` (game number), ``seed``, ``a_seat`` (0 or 1: deck A's seat; seat 0 moves first),
    ``winner`` ("a", "b" or None), ``first_won`` (True/False, None on a draw), ``turns``,
    ``reason``, ``cards`` {"a": {"drawn": [...], "played": [...]}, "b": {...}}, ``unsimulated``.
    """
    return ("index", "seed", "a_seat", "winner", "first_won", "turns", "reason", "cards", "unsimulated")


def a_points(record: Mapping[str, Any]) -> float:
    """Deck A's score for one game: 1 for a win, ½ for a draw, 0 for a loss."""
    winner = record.get("winner")
    return 1.0 if winner == "a" else 0.0 if winner == "b" else 0.5


_PLAYER = re.compile(r"\b(P[12]|[Pp]layer [12])\b")
_NUMBER = re.compile(r"(?<![§.\d])-?\d+(?![.\d])")


# How a counted end reason reads in a report: the amount that ended the game said in words.
_READABLE = [
    (re.compile(r"\ba player has N (life|Life Points)\b"), r"a player's \1 fell to 0 or below"),
    (re.compile(r"\ba player has N cards in the Damage Pile\b"), "a player's Damage Pile reached its limit"),
    (re.compile(r"\bturn limit N reached\b"), "the turn limit was reached"),
    (re.compile(r"\bround limit N reached\b"), "the round limit was reached"),
]


def reason_key(reason: str) -> str:
    """An end reason with player names and amounts removed, so "P2 has -4 life (§3.1.4)" and
    "P1 has 0 life (§3.1.4)" count as one reason, "a player's life fell to 0 or below (§3.1.4)";
    rule references (§…) are kept."""
    text = _NUMBER.sub("N", _PLAYER.sub("a player", reason or "unknown")).strip()
    for pattern, words in _READABLE:
        text = pattern.sub(words, text)
    return text


def histogram(values: Sequence[int], max_bins: int = 30) -> list[dict[str, int]]:
    """Counts per bin of integer values: ``[{"low", "high", "count"}]`` (inclusive bounds).

    One bin per value while the range is small; wider equal bins (at most ``max_bins``) beyond.
    """
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / max_bins))
    counts: Counter[int] = Counter((v - low) // width for v in values)
    bins = []
    for i in range((high - low) // width + 1):
        start = low + i * width
        bins.append({"low": start, "high": start + width - 1, "count": counts.get(i, 0)})
    return bins


def aggregate(records: Sequence[Mapping[str, Any]], deck_cards: Mapping[str, Sequence[str]] | None = None,
              names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The statistics of a batch of game records (see :func:`game_record_keys`), in game order.

    The same as counting the records with :class:`workbench.domain.tally.Tally` (the one
    implementation; a run's workers send tallies). See docs/playtests.md for every figure.
    """
    from workbench.domain.tally import tally_of

    return tally_of(records).report(deck_cards, names)
