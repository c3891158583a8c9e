"""A deck as a plain-text list (``4 Ironclad Sentry`` lines under ``Zone:`` headings), the format
the deck builder's paste box and ``services/imports/decklist.py`` read back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.domain.gamedef import GameDefinition
from workbench.domain.limits import count_value


def deck_list_text(definition: GameDefinition, deck: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The deck's zones in the game's order, each card as ``count name`` (the id when the card is
    missing), sorted by name; empty zones are left out."""
    zones = deck.get("zones") if isinstance(deck.get("zones"), Mapping) else {}
    lines = [f"# {deck.get('name') or 'Deck'} ({definition.name})"]
    ordered = list(definition.zones) + sorted(set(zones) - set(definition.zones))
    for zone_id in ordered:
        content = zones.get(zone_id)
        if not isinstance(content, Mapping):
            continue
        rows = [(names.get(str(cid), str(cid)), count_value(n)) for cid, n in content.items()]
        rows = [(name, n) for name, n in rows if n and n > 0]
        if not rows:
            continue
        zone = definition.zones.get(zone_id)
        lines += ["", f"{zone.label if zone else zone_id}:"]
        lines += [f"{n} {name}" for name, n in sorted(rows, key=lambda r: r[0].casefold())]
    return "\n".join(lines) + "\n"
