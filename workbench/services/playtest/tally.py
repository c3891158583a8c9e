"""Running totals of a batch of games: what the workers send back instead of per-game records.

A :class:`Tally` counts what :func:`workbench.domain.stats.aggregate` needs (wins, points, first
player's points, per-seat points, turn counts, end reasons, per-card drawn/played/points) so a
worker can summarise its chunk and the parent only adds tallies up. Tallies added in game order
give exactly the report ``stats.aggregate`` gives for the same records: every sum is of halves and
whole numbers (exact in floating point, so the order of additions does not matter), and end
reasons keep the order in which they first occurred.

A tally also turns into plain JSON data and back (:meth:`Tally.to_data`, :meth:`Tally.from_data`),
so an interrupted web run can keep what it has played and resume.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from workbench.domain import stats

CardKey = tuple[str, str]


class Tally:
    """Totals over games; add game records (:meth:`add`) or other tallies (:meth:`merge`)."""

    __slots__ = ("games", "wins_a", "wins_b", "points_a", "first_points", "seat_points", "seat_games",
                 "turns", "reasons", "drawn", "played", "points_drawn", "unsimulated")

    def __init__(self) -> None:
        self.games = 0
        self.wins_a = 0
        self.wins_b = 0
        self.points_a = 0.0
        self.first_points = 0.0
        self.seat_points = [0.0, 0.0]
        self.seat_games = [0, 0]
        self.turns: Counter[int] = Counter()
        # raw end reason -> games, in order of first occurrence (reason_key is applied at the end)
        self.reasons: dict[str, int] = {}
        self.drawn: Counter[CardKey] = Counter()
        self.played: Counter[CardKey] = Counter()
        self.points_drawn: dict[CardKey, float] = {}
        self.unsimulated: set[str] = set()

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one game record (the runner's full record, with its ``cards`` lists)."""
        winner = record.get("winner")
        pa = 1.0 if winner == "a" else 0.0 if winner == "b" else 0.5
        self.games += 1
        if winner == "a":
            self.wins_a += 1
        elif winner == "b":
            self.wins_b += 1
        self.points_a += pa
        first_won = record.get("first_won")
        self.first_points += 0.5 if first_won is None else (1.0 if first_won else 0.0)
        seat = record.get("a_seat")
        if seat in (0, 1):
            self.seat_points[seat] += pa
            self.seat_games[seat] += 1
        self.turns[int(record.get("turns") or 0)] += 1
        reason = str(record.get("reason", ""))
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        cards = record.get("cards") or {}
        for side, points in (("a", pa), ("b", 1.0 - pa)):
            seen = cards.get(side) or {}
            for card in seen.get("drawn", ()):
                key = (side, card)
                self.drawn[key] += 1
                self.points_drawn[key] = self.points_drawn.get(key, 0.0) + points
            for card in seen.get("played", ()):
                self.played[(side, card)] += 1
        self.unsimulated.update(record.get("unsimulated", ()))

    def merge(self, other: Tally) -> None:
        """Add another tally (of the games after this one's, to keep the order of end reasons)."""
        self.games += other.games
        self.wins_a += other.wins_a
        self.wins_b += other.wins_b
        self.points_a += other.points_a
        self.first_points += other.first_points
        for seat in (0, 1):
            self.seat_points[seat] += other.seat_points[seat]
            self.seat_games[seat] += other.seat_games[seat]
        self.turns.update(other.turns)
        for reason, count in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + count
        self.drawn.update(other.drawn)
        self.played.update(other.played)
        for key, points in other.points_drawn.items():
            self.points_drawn[key] = self.points_drawn.get(key, 0.0) + points
        self.unsimulated |= other.unsimulated

    def report(self, deck_cards: Mapping[str, Sequence[str]] | None = None,
               names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The statistics of the counted games, exactly as :func:`stats.aggregate` gives them."""
        games = self.games
        turns = sorted(self.turns.elements())
        reasons: Counter[str] = Counter()
        for raw, count in self.reasons.items():
            reasons[stats.reason_key(raw)] += count
        cards = self._card_table(deck_cards, names or {})
        return {
            "games": games,
            "wins_a": self.wins_a,
            "wins_b": self.wins_b,
            "draws": games - self.wins_a - self.wins_b,
            "win_rate_a": stats.rate(self.points_a, games),
            "first_player_win_rate": stats.rate(self.first_points, games),
            "win_rate_a_by_seat": {f"a_seat_{s}": stats.rate(self.seat_points[s], self.seat_games[s]) for s in (0, 1)},
            "turns": {
                "mean": statistics.fmean(turns) if turns else None,
                "median": statistics.median(turns) if turns else None,
                "min": turns[0] if turns else None,
                "max": turns[-1] if turns else None,
                "histogram": stats.histogram(turns),
            },
            "end_reasons": dict(reasons.most_common()),
            "cards": cards,
            "never_played": [{"deck": c["deck"], "card": c["card"], "name": c["name"]} for c in cards if c["never_played"]],
            "unsimulated_cards": sorted(self.unsimulated),
        }

    def _card_table(self, deck_cards: Mapping[str, Sequence[str]] | None, names: Mapping[str, str]) -> list[dict[str, Any]]:
        keys = {(side, card) for side, cards in (deck_cards or {}).items() for card in cards}
        keys.update(self.drawn, self.played)
        side_points = {"a": self.points_a, "b": self.games - self.points_a}
        table = []
        for side, card in sorted(keys):
            drawn = self.drawn.get((side, card), 0)
            played = self.played.get((side, card), 0)
            points = self.points_drawn.get((side, card), 0.0)
            not_drawn = self.games - drawn
            when_drawn = points / drawn if drawn else None
            when_not = (side_points[side] - points) / not_drawn if not_drawn else None
            table.append({
                "deck": side,
                "card": card,
                "name": names.get(card, card),
                "drawn": drawn,
                "played": played,
                "drawn_rate": drawn / self.games if self.games else None,
                "win_rate_drawn": when_drawn,
                "win_rate_not_drawn": when_not,
                "impact": (when_drawn - when_not) if when_drawn is not None and when_not is not None else None,
                "never_played": played == 0,
            })
        return table

    # ------------------------------------------------------------ JSON form

    def to_data(self) -> dict[str, Any]:
        """Plain JSON data (lists and numbers) that :meth:`from_data` turns back into this tally."""
        return {
            "games": self.games, "wins_a": self.wins_a, "wins_b": self.wins_b,
            "points_a": self.points_a, "first_points": self.first_points,
            "seat_points": list(self.seat_points), "seat_games": list(self.seat_games),
            "turns": sorted([t, n] for t, n in self.turns.items()),
            "reasons": [[r, n] for r, n in self.reasons.items()],
            "cards": [[side, card, self.drawn.get((side, card), 0), self.played.get((side, card), 0),
                       self.points_drawn.get((side, card), 0.0)]
                      for side, card in sorted(set(self.drawn) | set(self.played))],
            "unsimulated": sorted(self.unsimulated),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Tally:
        """The tally saved by :meth:`to_data`. Raises KeyError/TypeError/ValueError for other data."""
        tally = cls()
        tally.games = int(data["games"])
        tally.wins_a = int(data["wins_a"])
        tally.wins_b = int(data["wins_b"])
        tally.points_a = float(data["points_a"])
        tally.first_points = float(data["first_points"])
        tally.seat_points = [float(x) for x in data["seat_points"]][:2]
        tally.seat_games = [int(x) for x in data["seat_games"]][:2]
        tally.turns = Counter({int(t): int(n) for t, n in data["turns"]})
        tally.reasons = {str(r): int(n) for r, n in data["reasons"]}
        for side, card, drawn, played, points in data["cards"]:
            key = (str(side), str(card))
            if drawn:
                tally.drawn[key] = int(drawn)
                tally.points_drawn[key] = float(points)
            if played:
                tally.played[key] = int(played)
        tally.unsimulated = {str(c) for c in data["unsimulated"]}
        return tally


def tally_of(records: Iterable[Mapping[str, Any]]) -> Tally:
    """A tally of game records."""
    tally = Tally()
    for record in records:
        tally.add(record)
    return tally
