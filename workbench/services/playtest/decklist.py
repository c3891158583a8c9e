"""Deck lists pasted as text: ``count name`` lines, optionally grouped under zone headings.

```
# comments and blank lines are ignored
Main:            <- a zone heading (zone id or label, trailing colon); optional
4 Ironclad Sentry
2x iron-wall     <- a card id works too, and "2x" as well as "2"
Area:
1 Frozen Pass
```

Without a heading, each card goes to the first zone that takes its kind and is played
(``play: true``), else the first zone that takes its kind.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from workbench.domain.errors import WorkbenchError
from workbench.domain.gamedef import GameDefinition
from workbench.domain.limits import LIMIT_TEXT, MAX_COPIES, MAX_DECK_CARDS, TooMany

_LINE = re.compile(r"^\s*(\d+)\s*[xX×]?\s+(.+?)\s*$")
_HEADING = re.compile(r"^\s*(?:#+\s*)?([^\d#][^:]*):\s*$")


class DeckListError(WorkbenchError):
    """A pasted deck list cannot be read; the message names the line."""


class DeckListTooLarge(DeckListError, TooMany):
    """A pasted list asks for more copies or cards than the caps of workbench.domain.limits."""


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().casefold())


def parse_deck_list(text: str, definition: GameDefinition, cards: Mapping[str, Mapping[str, Any]],
                    name: str = "Pasted list") -> dict[str, Any]:
    """Turn pasted text into deck data ``{name, zones: {zone: {card_id: count}}}``.

    ``cards`` maps card id -> card data. Names match case-insensitively, by name or id.
    Raises DeckListError naming the first unreadable line, unknown card or zone, or an empty list.
    """
    by_name: dict[str, str] = {}
    for card_id, data in sorted(cards.items()):
        by_name.setdefault(_norm(str(data.get("name", ""))), card_id)
        by_name.setdefault(_norm(card_id), card_id)
    zone_names = {}
    for zone in definition.zones.values():
        zone_names[_norm(zone.id)] = zone.id
        zone_names[_norm(zone.label)] = zone.id
        for part in re.split(r"\s+", zone.label):
            zone_names.setdefault(_norm(part), zone.id)
    zones: dict[str, dict[str, int]] = {}
    current: str | None = None
    total = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("//")[0].strip()
        if not line or (line.startswith("#") and not _HEADING.match(line)):
            continue
        heading = _HEADING.match(line)
        if heading and not _LINE.match(line):
            key = _norm(heading.group(1))
            if key not in zone_names:
                raise DeckListError(
                    f"line {number}: {heading.group(1)!r} is not a zone; zones: {', '.join(definition.zones)}"
                )
            current = zone_names[key]
            continue
        match = _LINE.match(line)
        if not match:
            raise DeckListError(f"line {number}: {raw.strip()!r} is not 'count name'")
        digits, card_name = match.group(1).lstrip("0") or "0", match.group(2)
        if len(digits) > len(str(MAX_COPIES)) or int(digits) > MAX_COPIES:
            shown = f"{int(digits):,}" if len(digits) <= 18 else f"a {len(digits)}-digit number of"
            raise DeckListTooLarge(f"line {number}: {shown} copies of {card_name[:80]!r}; {LIMIT_TEXT}")
        count = int(digits)
        card_id = by_name.get(_norm(card_name))
        if card_id is None:
            raise DeckListError(f"line {number}: no card named {card_name!r} in game {definition.id!r}")
        zone = current or _zone_for(definition, str(cards[card_id].get("kind", "")))
        if zone is None:
            raise DeckListError(f"line {number}: no deck zone takes {card_name!r} (kind {cards[card_id].get('kind')!r})")
        if count < 1:
            raise DeckListError(f"line {number}: the count must be at least 1")
        zones.setdefault(zone, {})
        if zones[zone].get(card_id, 0) + count > MAX_COPIES:
            raise DeckListTooLarge(f"line {number}: {zones[zone][card_id] + count:,} copies of {card_name[:80]!r} "
                                   f"in all; {LIMIT_TEXT}")
        zones[zone][card_id] = zones[zone].get(card_id, 0) + count
        total += count
        if total > MAX_DECK_CARDS:
            raise DeckListTooLarge(f"line {number}: the list reaches {total:,} cards; {LIMIT_TEXT}")
    if not zones:
        raise DeckListError("the deck list names no cards")
    return {"name": name, "zones": zones}


def _zone_for(definition: GameDefinition, kind: str) -> str | None:
    candidates = [z for z in definition.zones.values() if kind in z.kinds]
    played = [z for z in candidates if z.spec.get("play")]
    chosen = (played or candidates)
    return chosen[0].id if chosen else None
