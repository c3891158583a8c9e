"""Deck statistics from a game's own rules: counts, curves, totals against limits, draw odds.

Draw odds are exact. Drawing cards from a shuffled deck without replacement is hypergeometric;
the probability of at least ``k`` hits is summed from :func:`math.comb` with :class:`Fraction`,
so no floating-point error accumulates. The game definition's ``play:`` block says how many
cards a player sees: the opening hand, draws per turn, whether the first player skips its first
draw and how many mulligans are allowed. Each ``play:`` value is a literal or the name of a rule
option (so a format or playtest variant changes it).

Mulligan model: a player who may mulligan shuffles the hand back and redraws when the hand holds
fewer than ``k`` of the wanted cards, as long as mulligans remain (the rules of RULES.md §3.1.5
keep the hand size and the deck unchanged). That is the best a player looking for those cards can
do, and it is computed exactly, not simulated.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from workbench.domain.errors import DefinitionError, WorkbenchError
from workbench.domain.gamedef import GameDefinition
from workbench.domain.validation import resolve_bound

Card = Mapping[str, Any]
DEFAULT_TURNS = 10


class StatsError(WorkbenchError):
    """Deck statistics were asked for with impossible numbers (negative sizes, k < 1 …)."""


# ------------------------------------------------------------------ exact probability


def hypergeom_pmf(population: int, successes: int, draws: int, hits: int) -> Fraction:
    """P(exactly ``hits`` successes) drawing ``draws`` of ``population`` cards holding ``successes``.

    Raises StatsError when a size is negative or larger than it can be.
    """
    _check_sizes(population, successes, draws)
    if hits < 0 or hits > draws or hits > successes or draws - hits > population - successes:
        return Fraction(0)
    return Fraction(
        math.comb(successes, hits) * math.comb(population - successes, draws - hits),
        math.comb(population, draws),
    )


def prob_at_least(population: int, successes: int, draws: int, k: int) -> Fraction:
    """P(at least ``k`` successes) in ``draws`` cards drawn without replacement.

    Raises StatsError for impossible sizes.
    """
    _check_sizes(population, successes, draws)
    if k <= 0:
        return Fraction(1)
    return sum((hypergeom_pmf(population, successes, draws, h) for h in range(k, min(draws, successes) + 1)),
               Fraction(0))


def _check_sizes(population: int, successes: int, draws: int) -> None:
    if population < 0 or successes < 0 or draws < 0:
        raise StatsError("deck size, copies and cards drawn cannot be negative")
    if successes > population:
        raise StatsError(f"{successes} wanted cards cannot be in a deck of {population}")
    if draws > population:
        raise StatsError(f"cannot draw {draws} cards from a deck of {population}")


# ------------------------------------------------------------------ the game's draw plan


@dataclass(frozen=True)
class DrawPlan:
    """How many cards a player sees: opening hand, draws per turn, skipped first draw, mulligans."""

    opening_hand: int
    draws_per_turn: int
    first_player_skips_draw: bool
    mulligans: int

    @property
    def draws(self) -> bool:
        """True when the game draws cards at all (seth does not)."""
        return self.opening_hand > 0 or self.draws_per_turn > 0

    def cards_seen(self, turn: int, on_the_play: bool) -> int:
        """Cards seen once the draws of your ``turn`` (1-based) are done.

        Raises StatsError for a turn below 1.
        """
        if turn < 1:
            raise StatsError(f"turn {turn} does not exist; turns start at 1")
        skipped = 1 if (on_the_play and self.first_player_skips_draw and self.draws_per_turn > 0) else 0
        return self.opening_hand + self.draws_per_turn * turn - skipped


def draw_plan(definition: GameDefinition, options: Mapping[str, Any] | None = None) -> DrawPlan:
    """The draw plan of a game from its ``play:`` block, with option names resolved.

    Raises DefinitionError when a ``play:`` value is neither a number, a boolean nor an option name.
    """
    play = definition.raw.get("play") or {}
    opts = dict(definition.default_options())
    opts.update(options or {})

    def value(key: str, default: Any) -> Any:
        raw = play.get(key, default)
        if isinstance(raw, str):
            if raw not in opts:
                raise DefinitionError(f"play.{key} names rule option {raw!r}, which is not defined")
            raw = opts[raw]
        return default if raw is None else raw

    return DrawPlan(
        opening_hand=int(value("opening_hand", 0)),
        draws_per_turn=int(value("draws_per_turn", 0)),
        first_player_skips_draw=bool(value("first_player_skips_draw", False)),
        mulligans=int(value("mulligans", 0)),
    )


def prob_by_turn(deck_size: int, wanted: int, k: int, plan: DrawPlan, turn: int, on_the_play: bool) -> Fraction:
    """P(at least ``k`` of the ``wanted`` cards seen by ``turn``), with the plan's mulligans.

    The opening hand is redrawn while it holds fewer than ``k`` wanted cards and mulligans remain.
    When the deck is smaller than the cards a turn needs, every card has been seen.
    Raises StatsError for impossible numbers (k < 1, wanted > deck size …).
    """
    if k < 1:
        raise StatsError("k (how many of the wanted cards) must be at least 1")
    _check_sizes(deck_size, wanted, 0)
    seen = min(plan.cards_seen(turn, on_the_play), deck_size)
    hand = min(plan.opening_hand, deck_size)
    later = seen - hand
    if plan.mulligans <= 0 or hand == 0:
        return prob_at_least(deck_size, wanted, seen, k)
    # Distribution of the kept hand: a hand with >= k hits is kept at the first attempt that
    # shows it; a short hand survives only when every attempt was short.
    miss = sum((hypergeom_pmf(deck_size, wanted, hand, h) for h in range(0, k)), Fraction(0))
    tries = plan.mulligans + 1
    keep_good = sum((miss**i for i in range(tries)), Fraction(0))
    keep_bad = miss**plan.mulligans
    total = Fraction(0)
    for hits in range(0, min(hand, wanted) + 1):
        p_hand = hypergeom_pmf(deck_size, wanted, hand, hits)
        if p_hand == 0:
            continue
        weight = p_hand * (keep_good if hits >= k else keep_bad)
        total += weight * prob_at_least(deck_size - hand, wanted - hits, later, k - hits)
    return total


def prob_opening_hand(deck_size: int, wanted: int, k: int, plan: DrawPlan) -> Fraction:
    """P(the kept opening hand holds at least ``k`` of the ``wanted`` cards), before any draw.

    A hand short of them is redrawn while mulligans remain, so it is short only when every
    attempt was. Raises StatsError for impossible numbers.
    """
    if k < 1:
        raise StatsError("k (how many of the wanted cards) must be at least 1")
    _check_sizes(deck_size, wanted, 0)
    hand = min(plan.opening_hand, deck_size)
    miss = sum((hypergeom_pmf(deck_size, wanted, hand, h) for h in range(0, k)), Fraction(0))
    return 1 - miss ** (max(0, plan.mulligans) + 1)


@dataclass(frozen=True)
class OddsRow:
    """One turn of a draw-odds table: cards seen and the probability going first and second."""

    turn: int
    seen_first: int
    seen_second: int
    first: float
    second: float


def odds_table(deck_size: int, wanted: int, k: int, plan: DrawPlan, turns: int = DEFAULT_TURNS) -> list[OddsRow]:
    """Draw odds for turns 1..``turns`` going first and second (floats from exact fractions).

    Raises StatsError for impossible numbers.
    """
    if turns < 1:
        raise StatsError("show at least one turn")
    rows = []
    for turn in range(1, turns + 1):
        rows.append(OddsRow(
            turn=turn,
            seen_first=min(plan.cards_seen(turn, True), deck_size),
            seen_second=min(plan.cards_seen(turn, False), deck_size),
            first=float(prob_by_turn(deck_size, wanted, k, plan, turn, True)),
            second=float(prob_by_turn(deck_size, wanted, k, plan, turn, False)),
        ))
    return rows


# ------------------------------------------------------------------ deck summary


@dataclass(frozen=True)
class Curve:
    """How many cards of a zone have each value of one field (Degree, mana cost, Power …)."""

    field: str
    label: str
    zone: str
    counts: dict[Any, int]
    without: int  # cards of the zone that have no value for the field (spells have no Degree)

    @property
    def average(self) -> float | None:
        numeric = [(v, n) for v, n in self.counts.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
        total = sum(n for _, n in numeric)
        return sum(v * n for v, n in numeric) / total if total else None


@dataclass(frozen=True)
class Total:
    """A summed field against a deck-rule limit (seth: total Power < 30)."""

    field: str
    label: str
    total: int
    limit: int | None
    strict: bool

    @property
    def ok(self) -> bool:
        if self.limit is None:
            return True
        return self.total < self.limit if self.strict else self.total <= self.limit


@dataclass(frozen=True)
class ZoneStats:
    """Card counts of one zone, in all and by kind."""

    zone: str
    label: str
    total: int
    by_kind: dict[str, int]


@dataclass(frozen=True)
class DeckStats:
    """Everything the deck builder's statistics panel shows."""

    zones: list[ZoneStats]
    curves: list[Curve]
    totals: list[Total]
    plan: DrawPlan
    draw_zone: str | None
    draw_zone_size: int
    unknown_cards: list[str] = field(default_factory=list)


def _value_key(value: Any) -> tuple[int, Any]:
    # Numbers in order first, then anything else (fusion's cost "X") by its text.
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, value)
    return (1, str(value))


def curve_fields(definition: GameDefinition) -> list[tuple[str, str]]:
    """(field, label) of the fields a curve is drawn for: the budget's cost field, then small
    integer enumerations that are not combat stats (warzone: Degree, Class; fusion: mana cost;
    seth: Power)."""
    found: dict[str, str] = {}
    budget_by = (definition.budget or {}).get("by")
    all_fields = list(definition.common_fields) + [f for k in definition.kinds.values() for f in k.fields]
    for fdef in all_fields:
        if fdef.name == budget_by and fdef.type in {"integer", "number"}:
            found.setdefault(fdef.name, fdef.label)
    for fdef in all_fields:
        if fdef.type == "integer" and fdef.spec.get("enum") and not fdef.spec.get("stat"):
            found.setdefault(fdef.name, fdef.label)
    return list(found.items())


def draw_zone(definition: GameDefinition) -> str | None:
    """The zone cards are drawn from: ``play.draw_zone``, else ``main``, else the first zone the
    engine plays (``play: true``) that is not kept apart (``reserve: true``), else None (no draws)."""
    play = definition.raw.get("play") or {}
    named = play.get("draw_zone")
    if isinstance(named, str) and named in definition.zones:
        return named
    if "main" in definition.zones:
        return "main"
    return next((z.id for z in definition.zones.values() if z.spec.get("play") and not z.spec.get("reserve")), None)


def deck_options(definition: GameDefinition, deck: Mapping[str, Any]) -> dict[str, Any]:
    """The rule options a deck is played under: its format's, or the defaults for an unknown format."""
    fmt = deck.get("format") if isinstance(deck, Mapping) else None
    try:
        return definition.resolve_options(str(fmt) if fmt else None)
    except DefinitionError:
        return definition.default_options()


def deck_counts(deck: Mapping[str, Any]) -> dict[str, dict[str, int]]:
    """zone -> {card id: count} with malformed entries (non-mappings, bad counts) left out."""
    zones = deck.get("zones") if isinstance(deck, Mapping) else None
    out: dict[str, dict[str, int]] = {}
    if not isinstance(zones, Mapping):
        return out
    for zone, content in zones.items():
        if not isinstance(content, Mapping):
            continue
        out[str(zone)] = {str(cid): n for cid, n in content.items()
                          if isinstance(n, int) and not isinstance(n, bool) and n > 0}
    return out


def deck_statistics(definition: GameDefinition, deck: Mapping[str, Any], cards: Mapping[str, Card]) -> DeckStats:
    """Counts by kind per zone, curves of the play zones, deck-rule totals and the draw plan.

    Never raises for bad deck data: unknown cards are listed in ``unknown_cards`` and skipped.
    """
    options = deck_options(definition, deck)
    counts = deck_counts(deck)
    unknown: list[str] = []
    zones: list[ZoneStats] = []
    for zone_id, zone in definition.zones.items():
        by_kind: Counter[str] = Counter()
        for card_id, n in counts.get(zone_id, {}).items():
            card = cards.get(card_id)
            if card is None:
                unknown.append(card_id)
                continue
            by_kind[str(card.get("kind", "?"))] += n
        zones.append(ZoneStats(zone_id, zone.label, sum(by_kind.values()), dict(by_kind)))
    curves: list[Curve] = []
    play_zones = [z for z, zd in definition.zones.items() if zd.spec.get("play")] or list(definition.zones)
    for zone_id in play_zones:
        for fname, label in curve_fields(definition):
            values: Counter[Any] = Counter()
            without = 0
            for card_id, n in counts.get(zone_id, {}).items():
                card = cards.get(card_id)
                if card is None:
                    continue
                value = card.get(fname)
                if value is None or isinstance(value, (dict, list)):
                    without += n
                else:
                    values[value] += n
            if values:
                ordered = dict(sorted(values.items(), key=lambda kv: _value_key(kv[0])))
                curves.append(Curve(fname, label, zone_id, ordered, without))
    totals: list[Total] = []
    for rule in definition.deck_rules:
        if rule.get("check") != "total_below":
            continue
        fname = str(rule["field"])
        total = 0
        for zone_id in rule.get("zones") or definition.zones:
            for card_id, n in counts.get(zone_id, {}).items():
                value = (cards.get(card_id) or {}).get(fname)
                if isinstance(value, int) and not isinstance(value, bool):
                    total += n * value
        limit = resolve_bound(rule.get("limit"), options)
        totals.append(Total(fname, str(rule.get("label", f"Total {fname}")), total,
                            int(limit) if limit is not None else None, bool(rule.get("strict", True))))
    dz = draw_zone(definition)
    return DeckStats(
        zones=zones,
        curves=curves,
        totals=totals,
        plan=draw_plan(definition, options),
        draw_zone=dz,
        draw_zone_size=sum(counts.get(dz, {}).values()) if dz else 0,
        unknown_cards=sorted(set(unknown)),
    )


def wanted_count(deck: Mapping[str, Any], cards: Mapping[str, Card], zone: str,
                 card_id: str | None = None, kind: str | None = None) -> int:
    """How many cards of ``zone`` are the chosen card (by id) or of the chosen kind.

    Raises StatsError unless exactly one of ``card_id`` and ``kind`` is given.
    """
    if (card_id is None) == (kind is None):
        raise StatsError("choose either a card or a kind")
    content = deck_counts(deck).get(zone, {})
    if card_id is not None:
        return content.get(card_id, 0)
    return sum(n for cid, n in content.items() if (cards.get(cid) or {}).get("kind") == kind)
