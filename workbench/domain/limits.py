"""Caps on the sizes a designer can ask for, checked wherever a card or deck is parsed, saved or
expanded.

A deck is stored as counts (``iron-wall: 4``) and expanded into one card per copy to play,
print or export it. Without a cap one line (``1000000000 x Iron Wall``) would make the server
build a billion-entry list. Every place that reads counts calls :func:`check_deck_counts`
before expanding them, so the refusal names the limit instead of running out of memory.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from workbench.domain.errors import DataError

MAX_COPIES = 999  # copies of one card in one zone of a deck (and on one pasted line)
MAX_DECK_CARDS = 10_000  # cards in a whole deck, every zone together
MAX_PRINT_CARDS = 10_000  # printed cards (fronts) in one PDF
LIMIT_TEXT = f"at most {MAX_COPIES:,} copies of a card, {MAX_DECK_CARDS:,} cards in a deck"
MAX_CARD_VALUES = 5_000  # values in one card, every field and effect part counted (bundled cards: at most 32)
MAX_DECK_ZONES = 50  # zone entries in one deck (games have two to five zones)
MAX_DECK_ENTRIES = MAX_DECK_CARDS  # card entries of a deck, every zone together (each is one card or more)


class TooMany(DataError):
    """A count is above one of the caps of this module; the message names the cap."""


def count_value(count: Any) -> int | None:
    """A count as the expanders read it (``int(count)``), or None when it is not a number."""
    if isinstance(count, bool):
        return None
    if isinstance(count, int):
        return count
    if isinstance(count, float):
        return int(count) if count == count and abs(count) != float("inf") else None
    if isinstance(count, str):
        text = count.strip()
        if text.isdigit() and len(text) <= 18:
            return int(text)
    return None


def check_copies(count: int, what: str) -> None:
    """Raise TooMany when one card has more than :data:`MAX_COPIES` copies."""
    if count > MAX_COPIES:
        raise TooMany(f"{what} has {shown_count(count)} copies; {LIMIT_TEXT}")


def check_total(total: int, what: str = "the deck") -> None:
    """Raise TooMany when a deck holds more than :data:`MAX_DECK_CARDS` cards."""
    if total > MAX_DECK_CARDS:
        raise TooMany(f"{what} holds {shown_count(total)} cards; {LIMIT_TEXT}")


def check_deck_counts(zones: Any, what: str = "the deck") -> int:
    """Check every count of ``{zone: {card id: count}}``; return the number of cards.

    Counts that are not numbers are left to validation (they expand to nothing or fail there);
    numbers above the caps, and more zones or card entries than the caps allow, raise TooMany
    naming the card, the zone and the limit.
    """
    total = 0
    if not isinstance(zones, Mapping):
        return 0
    too_many = deck_shape_over_caps(zones)
    if too_many is not None:
        raise TooMany(f"{what}: {too_many}")
    for zone, content in zones.items():
        if not isinstance(content, Mapping):
            continue
        for card_id, count in content.items():
            value = count_value(count)
            if value is None or value < 1:
                continue
            check_copies(value, f"{str(card_id)[:64]} in zone {str(zone)[:64]} of {what}")
            total += value
            check_total(total, what)
    return total


def check_runs(runs: Iterable[tuple[Any, Any]], what: str) -> int:
    """Check ``(card id, count)`` pairs (a kept matchup's deck); return the number of cards."""
    total = 0
    for card_id, count in runs:
        value = count_value(count)
        if value is None:
            raise TooMany(f"{what}: the count of {str(card_id)[:64]} is not a whole number")
        check_copies(value, f"{str(card_id)[:64]} in {what}")
        total += max(0, value)
        check_total(total, what)
    return total


def shown_count(number: int) -> str:
    """A count for a message (a 5,000-digit number is not printed in full)."""
    digits = number.bit_length() * 0.30103  # about log10, without building a huge string
    if digits > 18:
        return f"about 10^{int(digits)}"
    return f"{number:,}"


def find_non_finite(value: Any, path: str = "") -> str | None:
    """The path (``power``, ``effects[0].amount``) of the first infinite or NaN number in a
    card's or deck's data, or None. JSON has no such numbers (``1e400`` parses as infinity and
    would be written back as the invalid ``Infinity``), so they are refused on the way in."""
    stack: list[tuple[str, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return where or "the value"
        if isinstance(item, Mapping):
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in reversed(list(item.items())))
        elif isinstance(item, (list, tuple)):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(item))))
    return None


def check_finite(value: Any, what: str) -> None:
    """Raise DataError naming the field when ``value`` holds an infinite or NaN number."""
    where = find_non_finite(value)
    if where is not None:
        raise DataError(f"{what}: {where[:80]} is not a finite number (numbers must be finite, "
                        "like 12 or 0.5; 1e400, Infinity and NaN are refused)")


def card_values_over_cap(card: Any, cap: int = MAX_CARD_VALUES) -> bool:
    """Whether ``card`` holds more than ``cap`` values (every mapping, list and value inside it
    counted). Stops counting past the cap, so a huge card costs no more than a card at the cap."""
    seen = 0
    stack = [card]
    while stack:
        item = stack.pop()
        seen += 1
        if seen > cap:
            return True
        if isinstance(item, Mapping):
            if len(item) > cap:
                return True
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            if len(item) > cap:
                return True
            stack.extend(item)
    return False


CARD_SIZE_TEXT = (f"a card holds at most {MAX_CARD_VALUES:,} values, every field and effect part "
                  "counted")


def check_card_size(card: Any, what: str = "the card") -> None:
    """Raise TooMany when ``card`` holds more than :data:`MAX_CARD_VALUES` values (an
    ``effects`` list of a million entries, say), before anything checks or stores them."""
    if card_values_over_cap(card):
        raise TooMany(f"{what} is too large: {CARD_SIZE_TEXT}")


def deck_shape_over_caps(zones: Any) -> str | None:
    """A message naming the cap when ``zones`` has more than :data:`MAX_DECK_ZONES` zones or
    :data:`MAX_DECK_ENTRIES` card entries in all (counts aside), else None."""
    if not isinstance(zones, Mapping):
        return None
    if len(zones) > MAX_DECK_ZONES:
        return f"the deck names {len(zones):,} zones; at most {MAX_DECK_ZONES} are read"
    entries = sum(len(content) for content in zones.values() if isinstance(content, Mapping))
    if entries > MAX_DECK_ENTRIES:
        return (f"the deck lists {entries:,} card entries; at most {MAX_DECK_ENTRIES:,} "
                f"({MAX_DECK_CARDS:,} cards in a deck)")
    return None
