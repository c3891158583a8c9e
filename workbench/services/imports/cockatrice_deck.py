"""Cockatrice ``.cod`` decks read back into a game's zones.

::

    <cockatrice_deck version="1">
      <deckname>Iron Bastion</deckname>
      <zone name="main"><card number="4" name="Ironclad Sentry"/></zone>
      <zone name="side">…</zone>
    </cockatrice_deck>

Cockatrice knows only ``main``, ``side`` and ``tokens``. As the export writes them, ``main`` holds
the play zones and ``side`` the others (warzone's side deck and side areas, fusion's extra deck):
each card goes back to the first zone of its group that takes its kind. Tokens are skipped with a
problem.
"""

from __future__ import annotations

from collections.abc import Mapping

from workbench.domain.gamedef import GameDefinition
from workbench.domain.limits import MAX_COPIES, MAX_DECK_CARDS
from workbench.services.imports.lackey import CardFinder, DeckImport, xml_deck_root
from workbench.services.imports.tabular import ImportFileError


def looks_like_cod(filename: str, data: bytes) -> bool:
    """Whether a file is a Cockatrice deck: named ``.cod``, or its start names ``<cockatrice_deck``."""
    return filename.lower().endswith(".cod") or b"<cockatrice_deck" in data[:400].lstrip().lower()


def _zone_for(definition: GameDefinition, kind: str, side: bool) -> str | None:
    """The game zone a Cockatrice ``main``/``side`` card goes to, as the export maps them back:
    ``main`` = the play zones (and the first zone), ``side`` = the others; the first that takes
    the card's kind."""
    first = next(iter(definition.zones), None)
    for zone_id, zone in definition.zones.items():
        is_main = bool(zone.spec.get("play")) or zone_id == first
        kinds = zone.spec.get("kinds")
        if is_main != side and (not kinds or kind in kinds):
            return zone_id
    return None


def read_cod(data: bytes, definition: GameDefinition, cards: Mapping[str, Mapping[str, object]],
             fallback_name: str = "Imported deck") -> DeckImport:
    """A deck from a Cockatrice ``.cod`` file. Raises ImportFileError for a file that is not a
    ``.cod`` deck or holds more than the deck caps; unknown cards are problems, not errors."""
    root = xml_deck_root(data, "cockatrice_deck")
    deck = DeckImport((root.findtext("deckname") or "").strip() or fallback_name)
    finder = CardFinder(cards)
    total = 0
    for zone_el in root.findall("zone"):
        zone_name = (zone_el.get("name") or "").strip().lower()
        if zone_name not in {"main", "side"}:
            deck.problems.append(f"zone {zone_name!r}: Cockatrice tokens are not part of a deck here; skipped")
            continue
        for card_el in zone_el.findall("card"):
            name = card_el.get("name") or ""
            raw = (card_el.get("number") or "1").strip()
            if not raw.isdigit() or int(raw) < 1:
                deck.problems.append(f"{zone_name}: {name!r} has count {raw!r}; skipped")
                continue
            count = int(raw)
            if count > MAX_COPIES:
                raise ImportFileError(f"{zone_name}: {name[:60]!r} has {count:,} copies; at most {MAX_COPIES:,} "
                                      "copies of a card")
            total += count
            if total > MAX_DECK_CARDS:
                raise ImportFileError(f"the deck has more than {MAX_DECK_CARDS:,} cards")
            card_id, warning = finder.find(name)
            if warning:
                deck.problems.append(f"{zone_name}: {warning}")
            if card_id is None:
                deck.problems.append(f"{zone_name}: no card named {name!r} in {definition.name}; skipped")
                continue
            zone = _zone_for(definition, str(cards[card_id].get("kind", "")), zone_name == "side")
            if zone is None:
                deck.problems.append(f"{zone_name}: no zone of {definition.name} takes {name!r}; skipped")
                continue
            deck.add(zone, card_id, count)
    return deck
