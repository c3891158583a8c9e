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


# ---------------------------------------------------------------- early stop


@dataclass(frozen=True)
class StopDecision:
    """An early-stop verdict: ``verdict`` is ``"better"``, ``"worse"`` or ``"equal"``."""

    verdict: str
    games: int
    reason: str


@dataclass(frozen=True)
class IntervalRule:
    """Stop once the 95 % interval of deck A's win rate excludes 50 % ± ``margin``.

    "better": the whole interval lies above 0.5 + margin; "worse": below 0.5 − margin;
    "equal": the whole interval lies within 0.5 ± margin (no difference of that size).
    ``min_games`` guards against stopping on a lucky first few pairs.
    """

    margin: float = 0.03
    min_games: int = 100

    def check(self, points: float, games: int) -> StopDecision | None:
        """The verdict after ``games`` games worth ``points`` for A, or None to keep going."""
        if games < self.min_games:
            return None
        low, high = wilson_interval(points, games)
        if low > 0.5 + self.margin:
            return StopDecision("better", games, f"95% interval {low:.3f}–{high:.3f} lies above {0.5 + self.margin:.3f}")
        if high < 0.5 - self.margin:
            return StopDecision("worse", games, f"95% interval {low:.3f}–{high:.3f} lies below {0.5 - self.margin:.3f}")
        if low > 0.5 - self.margin and high < 0.5 + self.margin:
            return StopDecision(
                "equal", games, f"95% interval {low:.3f}–{high:.3f} lies within 0.5 ± {self.margin:.3f}"
            )
        return None


@dataclass(frozen=True)
class SPRT:
    """Wald's sequential probability ratio test of "A is worse by ``margin``" against "better by it".

    H0: p = 0.5 − margin, H1: p = 0.5 + margin; error rates ``alpha`` (wrongly "better") and
    ``beta`` (wrongly "worse"). A draw counts as half a win and half a loss.
    """

    margin: float = 0.03
    alpha: float = 0.05
    beta: float = 0.05
    min_games: int = 20

    def __post_init__(self) -> None:
        if not 0 < self.margin < 0.5:
            raise StatsError(f"SPRT margin must lie between 0 and 0.5, not {self.margin}")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise StatsError("SPRT error rates must lie between 0 and 1")

    def llr(self, points: float, games: int) -> float:
        """The log-likelihood ratio of H1 over H0 after ``games`` games worth ``points``."""
        p0, p1 = 0.5 - self.margin, 0.5 + self.margin
        return points * math.log(p1 / p0) + (games - points) * math.log((1 - p1) / (1 - p0))

    def check(self, points: float, games: int) -> StopDecision | None:
        """The verdict once the ratio crosses a bound, else None."""
        if games < self.min_games:
            return None
        upper = math.log((1 - self.beta) / self.alpha)
        lower = math.log(self.beta / (1 - self.alpha))
        value = self.llr(points, games)
        if value >= upper:
            return StopDecision("better", games, f"SPRT log-likelihood ratio {value:.2f} ≥ {upper:.2f}")
        if value <= lower:
            return StopDecision("worse", games, f"SPRT log-likelihood ratio {value:.2f} ≤ {lower:.2f}")
        return None


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
        return SPRT(margin=margin, min_games=min(min_games, 20))
    raise StatsError(f"unknown early-stop rule {kind!r}; use interval or sprt")


def first_stop(records: Iterable[Mapping[str, Any]], rule: IntervalRule | SPRT, step: int = 2) -> StopDecision | None:
    """Walk records in game order and return the first verdict, checked every ``step`` games.

    Checking only at the end of each seed pair keeps the stop point independent of how games were
    spread over workers. Records must be sorted by ``index``.
    """
    points = 0.0
    games = 0
    for record in records:
        games += 1
        points += a_points(record)
        if games % step == 0:
            decision = rule.check(points, games)
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


def reason_key(reason: str) -> str:
    """An end reason with player names and amounts removed, so "P2 has -4 life (§3.1.4)" and
    "P1 has 0 life (§3.1.4)" count as one reason; rule references (§…) are kept."""
    text = _PLAYER.sub("a player", reason or "unknown")
    return _NUMBER.sub("N", text).strip()


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


def card_table(records: Sequence[Mapping[str, Any]], deck_cards: Mapping[str, Sequence[str]] | None = None,
               names: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Per card and deck: games drawn, games played, A-or-B win rate when drawn and when not drawn.

    ``deck_cards`` ({"a": [card ids], "b": [...]}) lists every card in the decks, so cards that were
    never drawn or played show up too. ``impact`` is the win rate when drawn minus when not drawn
    (None when either side has no games). Win rates are from the owning deck's point of view.
    """
    names = names or {}
    total = len(records)
    rows: dict[tuple[str, str], dict[str, Any]] = {}

    def row(side: str, card: str) -> dict[str, Any]:
        key = (side, card)
        if key not in rows:
            rows[key] = {"deck": side, "card": card, "name": names.get(card, card),
                         "drawn": 0, "played": 0, "points_drawn": 0.0}
        return rows[key]

    for side, cards in (deck_cards or {}).items():
        for card in cards:
            row(side, card)
    side_points = {"a": 0.0, "b": 0.0}
    for record in records:
        pa = a_points(record)
        points = {"a": pa, "b": 1.0 - pa}
        side_points["a"] += pa
        side_points["b"] += 1.0 - pa
        for side in ("a", "b"):
            seen = record.get("cards", {}).get(side, {})
            for card in seen.get("drawn", ()):
                r = row(side, card)
                r["drawn"] += 1
                r["points_drawn"] += points[side]
            for card in seen.get("played", ()):
                row(side, card)["played"] += 1
    table = []
    for (side, card), r in sorted(rows.items()):
        not_drawn = total - r["drawn"]
        when_drawn = r["points_drawn"] / r["drawn"] if r["drawn"] else None
        when_not = (side_points[side] - r["points_drawn"]) / not_drawn if not_drawn else None
        table.append({
            "deck": side,
            "card": card,
            "name": r["name"],
            "drawn": r["drawn"],
            "played": r["played"],
            "drawn_rate": r["drawn"] / total if total else None,
            "win_rate_drawn": when_drawn,
            "win_rate_not_drawn": when_not,
            "impact": (when_drawn - when_not) if when_drawn is not None and when_not is not None else None,
            "never_played": r["played"] == 0,
        })
    return table


def aggregate(records: Sequence[Mapping[str, Any]], deck_cards: Mapping[str, Sequence[str]] | None = None,
              names: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The statistics of a batch of game records (see :func:`game_record_keys`).

    Returns wins/losses/draws, A's win rate and the first player's win rate with 95 % Wilson
    intervals, game length (mean, median, histogram), end reasons, the per-card table, the cards
    never played and the cards whose effects were not simulated.
    """
    games = len(records)
    wins_a = sum(1 for r in records if r.get("winner") == "a")
    wins_b = sum(1 for r in records if r.get("winner") == "b")
    draws = games - wins_a - wins_b
    decided_first = [r for r in records if r.get("first_won") is not None]
    first_points = sum(1.0 if r["first_won"] else 0.0 for r in decided_first) + 0.5 * (games - len(decided_first))
    turns = [int(r.get("turns") or 0) for r in records]
    reasons = Counter(reason_key(str(r.get("reason", ""))) for r in records)
    per_seat: dict[str, dict[str, Any]] = {}
    for seat in (0, 1):
        subset = [r for r in records if r.get("a_seat") == seat]
        per_seat[f"a_seat_{seat}"] = rate(sum(a_points(r) for r in subset), len(subset))
    unsimulated = sorted({c for r in records for c in r.get("unsimulated", ())})
    cards = card_table(records, deck_cards, names)
    return {
        "games": games,
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": draws,
        "win_rate_a": rate(sum(a_points(r) for r in records), games),
        "first_player_win_rate": rate(first_points, games),
        "win_rate_a_by_seat": per_seat,
        "turns": {
            "mean": statistics.fmean(turns) if turns else None,
            "median": statistics.median(turns) if turns else None,
            "min": min(turns) if turns else None,
            "max": max(turns) if turns else None,
            "histogram": histogram(turns),
        },
        "end_reasons": dict(reasons.most_common()),
        "cards": cards,
        "never_played": [{"deck": c["deck"], "card": c["card"], "name": c["name"]} for c in cards if c["never_played"]],
        "unsimulated_cards": unsimulated,
    }
