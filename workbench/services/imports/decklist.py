"""Plain-text deck lists, as Lackey and most deck sites write them.

::

    4<TAB>Ironclad Sentry        count, a tab (or spaces, or "4x"), then the card name
    Areas:                       a "Zone:" line switches zone (by label or id)
    1 Frozen Pass

Lines before the first zone line go to the game's first zone. Blank lines and lines starting
with ``#`` or ``//`` are comments. Unknown cards and zones are problems naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from workbench.domain.gamedef import GameDefinition
from workbench.domain.limits import LIMIT_TEXT, MAX_COPIES
from workbench.services.imports.lackey import MAX_DECK_CARDS, CardFinder, DeckImport, zone_lookup
from workbench.services.imports.tabular import ImportFileError, check_size, decode_text

_ENTRY = re.compile(r"^(\d+)\s*[xX×]?(?:\t|\s+)(.+?)\s*$")
_ZONE = re.compile(r"^([^\t:]{1,60}):\s*$")


def looks_like_decklist(text: str) -> bool:
    """True when most non-comment lines are ``count name`` or ``Zone:`` lines."""
    lines = [l.strip() for l in text.splitlines() if l.strip() and not l.strip().startswith(("#", "//"))]
    if not lines:
        return False
    good = sum(1 for l in lines if _ENTRY.match(l) or _ZONE.match(l))
    return good >= max(1, int(len(lines) * 0.8))


def read_decklist(data: bytes, definition: GameDefinition, cards: Mapping[str, Mapping[str, object]],
                  name: str = "Imported deck") -> DeckImport:
    """A deck from a plain-text list. Raises ImportFileError for an oversized or non-UTF-8 file,
    or one with no card line at all."""
    check_size(data)
    text = decode_text(data)
    zones = zone_lookup(definition)
    finder = CardFinder(cards)
    deck = DeckImport(name)
    zone = next(iter(definition.zones))
    zone_ok = True
    entries = total = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        entry = _ENTRY.match(line)
        if entry:
            entries += 1
            digits = entry.group(1).lstrip("0") or "0"
            if len(digits) > len(str(MAX_COPIES)) or int(digits) > MAX_COPIES:  # no 5,000-digit int()
                shown = f"{int(digits):,}" if len(digits) <= 18 else f"a {len(digits)}-digit number of"
                raise ImportFileError(f"line {number}: {shown} copies of {entry.group(2)[:60]!r}; {LIMIT_TEXT}")
            count = int(digits)
            total += count
            if total > MAX_DECK_CARDS:
                raise ImportFileError(f"line {number}: the deck has more than {MAX_DECK_CARDS:,} cards")
            if not zone_ok:
                continue
            if count < 1:
                deck.problems.append(f"line {number}: count 0 for {entry.group(2)!r}; skipped")
                continue
            card_id, warning = finder.find(entry.group(2))
            if warning:
                deck.problems.append(f"line {number}: {warning}")
            if card_id is None:
                deck.problems.append(f"line {number}: no card named {entry.group(2)!r} in {definition.name}; skipped")
                continue
            deck.add(zone, card_id, count)
            continue
        heading = _ZONE.match(line)
        if heading:
            found = zones.get(heading.group(1).strip().lower())
            zone_ok = found is not None
            if found is None:
                deck.problems.append(f"line {number}: zone {heading.group(1).strip()!r} is not a zone of "
                                     f"{definition.name} ({', '.join(z.label for z in definition.zones.values())}); "
                                     "its cards are skipped")
            else:
                zone = found
            continue
        deck.problems.append(f"line {number}: {line[:60]!r} is neither 'count name' nor 'Zone:'; skipped")
    if not entries:
        raise ImportFileError("the deck list has no 'count name' line")
    return deck
