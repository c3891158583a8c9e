"""Running totals of a batch of games, and the report they give (docs/playtests.md).

A :class:`Tally` counts what the report needs — wins, the pentanomial counts of the seed pairs
(deck A's and the first player's), points by who moved first, turn counts, end reasons, and per
card and deck the games and points in each condition (in the opening hand, drawn, played, and
the engine's own facts such as seth's ``survived``) — so a worker can summarise its chunk and the
parent only adds tallies up. Tallies added in game order give exactly the report of one tally of
all the records: every sum is of halves and whole numbers (exact in floating point), end reasons
keep the order in which they first occurred, and a pair cut between two tallies is joined when
they merge.

A tally also turns into plain JSON data and back (:meth:`Tally.to_data`, :meth:`Tally.from_data`),
so an interrupted web run can keep what it has played and resume.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from workbench.domain import stats

REPORT_SCHEMA = 2
"""Version of the report's JSON layout (docs/playtests.md, "JSON schema"). 1: before issue 14."""

CardKey = tuple[str, str, str]
"""(deck side "a"/"b", card id, condition): condition is ``opening``, ``drawn``, ``played`` or
``fact:<name>``."""

CONDITIONS = ("opening", "drawn", "played")

FIRST_PLAYER_NOTE = ("consider a rule change that evens it out, such as a smaller opening hand or no attack on "
                     "the first turn for the first player, or an extra card or resource for the second")

CARD_COLUMNS = {
    "opening": "Win rate in games where the card was in the kept opening hand (mulliganed hands do not count). "
               "Association only: a card in the opening hand is also a card the player kept.",
    "drawn": "Win rate in games where the card was drawn at any point (opening hand included). Longer games draw "
             "more cards, so cards look better or worse with game length, not only with their strength.",
    "not_drawn": "Win rate in games where the card was never drawn. Short games (often quick wins or losses) "
                 "fill this column.",
    "played": "Win rate in games where the card was played. Players play more cards when ahead: association.",
    "improvement_when_drawn": "Drawn minus not drawn (17lands' IWD), with a 95 % interval. Shows association, not "
                              "cause; the balance report (workbench balance) measures cause by swapping the card.",
}

FACT_COLUMNS = {
    "dealt_damage": "it was assigned at least once with Damage above 0 (its Damage went into an attack)",
    "took_damage": "it had damage on it at the end, or was removed",
    "removed_first": "it was the first monster of its team to be removed (monsters removed together share it)",
    "survived": "it was still in play at the end of the game",
}


def _points(winner: Any) -> float:
    return 1.0 if winner == "a" else 0.0 if winner == "b" else 0.5


class Tally:
    """Totals over games; add game records (:meth:`add`) or later tallies (:meth:`merge`)."""

    __slots__ = ("games", "wins_a", "wins_b", "points_a", "first_points", "seat_points", "seat_games",
                 "a_first_points", "a_first_games", "pairs", "first_pairs", "head", "tail", "turns", "reasons",
                 "cond_games", "cond_points", "facts_seen", "has_opening", "unsimulated", "unsimulated_drawn")

    def __init__(self) -> None:
        self.games = 0
        self.wins_a = 0
        self.wins_b = 0
        self.points_a = 0.0
        self.first_points = 0.0
        self.seat_points = [0.0, 0.0]
        self.seat_games = [0, 0]
        self.a_first_points = [0.0, 0.0]  # deck A's points when it moved [first, second]
        self.a_first_games = [0, 0]
        self.pairs = [0, 0, 0, 0, 0]  # deck A's pentanomial counts
        self.first_pairs = [0, 0, 0, 0, 0]  # the first player's
        # A pair cut by a chunk boundary: ``head`` is the second game of a pair whose first game
        # came before this tally, ``tail`` the first game of a pair that ends after it. Each is
        # (A's points, first player's points) or None.
        self.head: tuple[float, float] | None = None
        self.tail: tuple[float, float] | None = None
        self.turns: Counter[int] = Counter()
        # raw end reason -> games, in order of first occurrence (reason_key is applied at the end)
        self.reasons: dict[str, int] = {}
        self.cond_games: Counter[CardKey] = Counter()
        self.cond_points: dict[CardKey, float] = {}
        self.facts_seen: set[str] = set()
        self.has_opening = False
        self.unsimulated: Counter[str] = Counter()  # card -> games it was listed in
        self.unsimulated_drawn: Counter[str] = Counter()  # card -> games either deck drew it

    # ------------------------------------------------------------ counting

    def add(self, record: Mapping[str, Any]) -> None:
        """Count one game record (the runner's full record, with its ``cards`` lists).

        Games pair up by ``index`` (2k with 2k+1); records without one pair up in order.
        """
        winner = record.get("winner")
        pa = _points(winner)
        first_won = record.get("first_won")
        pf = 0.5 if first_won is None else (1.0 if first_won else 0.0)
        index = record.get("index")
        even = (self.games % 2 == 0) if index is None else int(index) % 2 == 0
        self.games += 1
        if winner == "a":
            self.wins_a += 1
        elif winner == "b":
            self.wins_b += 1
        self.points_a += pa
        self.first_points += pf
        seat = record.get("a_seat")
        if seat in (0, 1):
            self.seat_points[seat] += pa
            self.seat_games[seat] += 1
        a_first = record.get("a_first")
        if a_first is None:
            a_first = seat == 0  # the runner seats the first player in seat 0
        slot = 0 if a_first else 1
        self.a_first_points[slot] += pa
        self.a_first_games[slot] += 1
        if even:
            self.tail = (pa, pf)
        elif self.tail is not None:
            self._pair(self.tail, (pa, pf))
            self.tail = None
        elif self.games == 1:
            self.head = (pa, pf)
        self.turns[int(record.get("turns") or 0)] += 1
        reason = str(record.get("reason", ""))
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        cards = record.get("cards") or {}
        drawn_any: set[str] = set()
        for side, points in (("a", pa), ("b", 1.0 - pa)):
            seen = cards.get(side) or {}
            for cond in CONDITIONS:
                for card in seen.get(cond, ()):
                    self._count((side, card, cond), points)
            if seen.get("opening"):
                self.has_opening = True
            drawn_any.update(seen.get("drawn", ()))
            for fact, ids in (seen.get("facts") or {}).items():
                self.facts_seen.add(fact)
                for card in ids:
                    self._count((side, card, f"fact:{fact}"), points)
        for card in record.get("unsimulated", ()):
            self.unsimulated[card] += 1
            if card in drawn_any:
                self.unsimulated_drawn[card] += 1

    def _count(self, key: CardKey, points: float) -> None:
        self.cond_games[key] += 1
        self.cond_points[key] = self.cond_points.get(key, 0.0) + points

    def _pair(self, first: tuple[float, float], second: tuple[float, float]) -> None:
        self.pairs[stats.pair_index(first[0] + second[0])] += 1
        self.first_pairs[stats.pair_index(first[1] + second[1])] += 1

    def merge(self, other: Tally) -> None:
        """Add the tally of the games right after this one's (order keeps pairs and end reasons)."""
        if self.games == 0:
            self.head = other.head
        elif other.head is not None and self.tail is not None:
            self._pair(self.tail, other.head)
            self.tail = None
        self.games += other.games
        self.wins_a += other.wins_a
        self.wins_b += other.wins_b
        self.points_a += other.points_a
        self.first_points += other.first_points
        for i in (0, 1):
            self.seat_points[i] += other.seat_points[i]
            self.seat_games[i] += other.seat_games[i]
            self.a_first_points[i] += other.a_first_points[i]
            self.a_first_games[i] += other.a_first_games[i]
        for i in range(5):
            self.pairs[i] += other.pairs[i]
            self.first_pairs[i] += other.first_pairs[i]
        if other.games:
            self.tail = other.tail
        self.turns.update(other.turns)
        for reason, count in other.reasons.items():
            self.reasons[reason] = self.reasons.get(reason, 0) + count
        self.cond_games.update(other.cond_games)
        for key, points in other.cond_points.items():
            self.cond_points[key] = self.cond_points.get(key, 0.0) + points
        self.facts_seen |= other.facts_seen
        self.has_opening = self.has_opening or other.has_opening
        self.unsimulated.update(other.unsimulated)
        self.unsimulated_drawn.update(other.unsimulated_drawn)

    # ------------------------------------------------------------ the report

    def report(self, deck_cards: Mapping[str, Sequence[str]] | None = None,
               names: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The statistics of the counted games (docs/playtests.md lists every key)."""
        names = names or {}
        games = self.games
        turns = sorted(self.turns.elements())
        reasons: Counter[str] = Counter()
        for raw, count in self.reasons.items():
            reasons[stats.reason_key(raw)] += count
        cards = self._card_table(deck_cards, names)
        first = stats.pair_rate(self.first_pairs)
        favoured = first["pairs"] > 0 and not first["ci95"][0] <= 0.5 <= first["ci95"][1]
        unsimulated = sorted(self.unsimulated)
        return {
            "schema": REPORT_SCHEMA,
            "games": games,
            "wins_a": self.wins_a,
            "wins_b": self.wins_b,
            "draws": games - self.wins_a - self.wins_b,
            "win_rate_a": stats.pair_rate(self.pairs),
            "win_rate_a_by_game": stats.rate(self.points_a, games),
            "pairs": {"n": sum(self.pairs), "counts": list(self.pairs), "outcomes": list(stats.PAIR_OUTCOMES)},
            "first_player_win_rate": first,
            "first_player": {
                "favoured": favoured,
                "message": _first_message(first) if favoured else None,
            },
            "win_rate_a_going_first": stats.rate(self.a_first_points[0], self.a_first_games[0]),
            "win_rate_a_going_second": stats.rate(self.a_first_points[1], self.a_first_games[1]),
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
            "card_columns": {**CARD_COLUMNS, "facts": {f: FACT_COLUMNS.get(f, f) for f in sorted(self.facts_seen)}},
            "never_played": [{"deck": c["deck"], "card": c["card"], "name": c["name"]} for c in cards if c["never_played"]],
            "unsimulated_cards": unsimulated,
            "unsimulated": [{"card": c, "name": names.get(c, c), "games": self.unsimulated[c],
                             "drawn_games": self.unsimulated_drawn.get(c, 0)} for c in unsimulated],
        }

    def _card_table(self, deck_cards: Mapping[str, Sequence[str]] | None, names: Mapping[str, str]) -> list[dict[str, Any]]:
        keys = {(side, card) for side, cards in (deck_cards or {}).items() for card in cards}
        keys.update((side, card) for side, card, _ in self.cond_games)
        side_points = {"a": self.points_a, "b": self.games - self.points_a}
        facts = sorted(self.facts_seen)
        table = []
        for side, card in sorted(keys):
            def got(cond: str, side: str = side, card: str = card) -> tuple[int, float]:
                key = (side, card, cond)
                return self.cond_games.get(key, 0), self.cond_points.get(key, 0.0)

            drawn, drawn_points = got("drawn")
            played, played_points = got("played")
            opening, opening_points = got("opening")
            when_drawn = stats.rate(drawn_points, drawn)
            when_not = stats.rate(side_points[side] - drawn_points, self.games - drawn)
            improvement = stats.difference(when_not, when_drawn)
            row: dict[str, Any] = {
                "deck": side,
                "card": card,
                "name": names.get(card, card),
                "opening": opening,
                "drawn": drawn,
                "played": played,
                "drawn_rate": drawn / self.games if self.games else None,
                "win_rate_opening": stats.rate(opening_points, opening) if self.has_opening else None,
                "win_rate_drawn": when_drawn,
                "win_rate_not_drawn": when_not,
                "win_rate_played": stats.rate(played_points, played),
                "improvement_when_drawn": improvement,
                "impact": improvement["value"],
                "never_played": played == 0,
            }
            if facts:
                row["facts"] = {}
                for fact in facts:
                    n, points = got(f"fact:{fact}")
                    row["facts"][fact] = {
                        "games": n,
                        "win_rate": stats.rate(points, n),
                        "win_rate_without": stats.rate(side_points[side] - points, self.games - n),
                    }
            table.append(row)
        return table

    # ------------------------------------------------------------ JSON form

    def to_data(self) -> dict[str, Any]:
        """Plain JSON data (lists and numbers) that :meth:`from_data` turns back into this tally."""
        return {
            "games": self.games, "wins_a": self.wins_a, "wins_b": self.wins_b,
            "points_a": self.points_a, "first_points": self.first_points,
            "seat_points": list(self.seat_points), "seat_games": list(self.seat_games),
            "a_first_points": list(self.a_first_points), "a_first_games": list(self.a_first_games),
            "pairs": list(self.pairs), "first_pairs": list(self.first_pairs),
            "head": None if self.head is None else list(self.head),
            "tail": None if self.tail is None else list(self.tail),
            "turns": sorted([t, n] for t, n in self.turns.items()),
            "reasons": [[r, n] for r, n in self.reasons.items()],
            "cards": [[side, card, cond, n, self.cond_points.get((side, card, cond), 0.0)]
                      for (side, card, cond), n in sorted(self.cond_games.items())],
            "facts_seen": sorted(self.facts_seen), "has_opening": self.has_opening,
            "unsimulated": sorted([c, n, self.unsimulated_drawn.get(c, 0)] for c, n in self.unsimulated.items()),
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
        tally.a_first_points = [float(x) for x in data["a_first_points"]][:2]
        tally.a_first_games = [int(x) for x in data["a_first_games"]][:2]
        tally.pairs = [int(x) for x in data["pairs"]][:5]
        tally.first_pairs = [int(x) for x in data["first_pairs"]][:5]
        if len(tally.pairs) != 5 or len(tally.first_pairs) != 5:
            raise ValueError("pair counts need five slots")
        tally.head = None if data["head"] is None else (float(data["head"][0]), float(data["head"][1]))
        tally.tail = None if data["tail"] is None else (float(data["tail"][0]), float(data["tail"][1]))
        tally.turns = Counter({int(t): int(n) for t, n in data["turns"]})
        tally.reasons = {str(r): int(n) for r, n in data["reasons"]}
        for side, card, cond, n, points in data["cards"]:
            key = (str(side), str(card), str(cond))
            tally.cond_games[key] = int(n)
            tally.cond_points[key] = float(points)
        tally.facts_seen = {str(f) for f in data["facts_seen"]}
        tally.has_opening = bool(data["has_opening"])
        for card, n, drawn in data["unsimulated"]:
            tally.unsimulated[str(card)] = int(n)
            if drawn:
                tally.unsimulated_drawn[str(card)] = int(drawn)
        return tally


def _first_message(first: Mapping[str, Any]) -> str:
    low, high = first["ci95"]
    edge = "" if first["value"] > 0.5 else "moving second is the edge; "
    return (f"the player who moves first wins {100 * first['value']:.1f} % ({100 * low:.1f}–{100 * high:.1f}): "
            f"{edge}{FIRST_PLAYER_NOTE}")


def tally_of(records: Iterable[Mapping[str, Any]]) -> Tally:
    """A tally of game records."""
    tally = Tally()
    for record in records:
        tally.add(record)
    return tally


LEGACY_NOTE = ("Saved by an earlier version of the workbench (report schema 1): its intervals count games, not "
               "seed pairs, so they are too narrow when the two games of a pair agree; in fusion the seat swap "
               "did not swap who moved first; mulliganed cards counted as drawn; card figures have no intervals. "
               "Play it again for the current figures.")


def upgrade_report(report: Mapping[str, Any]) -> dict[str, Any]:
    """A stored report in the current layout (:data:`REPORT_SCHEMA`), for display.

    A schema-1 report (no ``schema`` key) keeps its numbers; what it never measured is None, its
    card figures become rate mappings without intervals, and ``legacy_note`` says what differs.
    Current reports come back unchanged (as a copy).
    """
    upgraded = dict(report)
    if int(upgraded.get("schema") or 1) >= REPORT_SCHEMA:
        return upgraded
    upgraded["schema"] = REPORT_SCHEMA
    upgraded["legacy_note"] = LEGACY_NOTE
    games = int(upgraded.get("games") or 0)
    upgraded.setdefault("win_rate_a_by_game", upgraded.get("win_rate_a"))
    upgraded.setdefault("pairs", None)
    upgraded.setdefault("first_player", {"favoured": None, "message": None})
    upgraded.setdefault("win_rate_a_going_first", None)
    upgraded.setdefault("win_rate_a_going_second", None)
    upgraded.setdefault("card_columns", CARD_COLUMNS)
    upgraded.setdefault("unsimulated", [{"card": c, "name": c, "games": None, "drawn_games": None}
                                        for c in upgraded.get("unsimulated_cards") or ()])

    def bare(value: Any, n: int) -> dict[str, Any] | None:
        return None if value is None else {"value": value, "ci95": None, "n": n}

    cards = []
    for row in upgraded.get("cards") or ():
        row = dict(row)
        drawn = int(row.get("drawn") or 0)
        if not isinstance(row.get("win_rate_drawn"), Mapping):
            row["win_rate_drawn"] = bare(row.get("win_rate_drawn"), drawn) or {"value": None, "ci95": None, "n": 0}
            row["win_rate_not_drawn"] = (bare(row.get("win_rate_not_drawn"), games - drawn)
                                         or {"value": None, "ci95": None, "n": 0})
        row.setdefault("opening", None)
        row.setdefault("win_rate_opening", None)
        row.setdefault("win_rate_played", None)
        row.setdefault("improvement_when_drawn", {"value": row.get("impact"), "ci95": None})
        cards.append(row)
    upgraded["cards"] = cards
    return upgraded
