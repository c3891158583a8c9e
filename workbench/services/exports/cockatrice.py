"""Cockatrice: a custom-set ``cards.xml`` (database version 4) and ``.cod`` decks.

Cockatrice keys cards by name, so names are made unique (a second card of the same name becomes
``Name (card-id)``) and decks refer to those names. Every game field goes into ``<prop>`` under
its own key, beside Cockatrice's usual ``type``, ``maintype``, ``manacost`` and ``pt``.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping, Sequence
from xml.etree import ElementTree as ET

from workbench.domain.gamedef import GameDefinition
from workbench.services.exports.common import (
    Bundle,
    Card,
    Deck,
    assign_sets,
    card_fields,
    cell_text,
    deck_entries,
    kind_label,
    sort_cards,
    stat_fields,
)
from workbench.services.exports.faces import Faces, jpeg

_XML_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
# Characters XML 1.0 cannot carry at all, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """Text without the control characters XML 1.0 forbids; line ends become LF, as any XML
    parser would read them anyway."""
    return _NOT_XML.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def unique_names(cards: Sequence[Card]) -> dict[str, str]:
    """Card id -> the name Cockatrice shows, unique across the export."""
    names: dict[str, str] = {}
    used: set[str] = set()
    for card in sort_cards(cards):
        name = xml_safe(str(card.get("name", ""))).strip() or str(card["id"])
        if name in used:
            name = f"{name} ({card['id']})"
        used.add(name)
        names[str(card["id"])] = name
    return names


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attrs)
    if text is not None:
        element.text = xml_safe(text)
    return element


def cards_xml(
    definition: GameDefinition,
    cards: Sequence[Card],
    names: Mapping[str, str],
    sets: Mapping[str, str],
    picurls: Mapping[str, str] | None = None,
    today: _dt.date | None = None,
) -> bytes:
    """The ``<cockatrice_carddatabase version="4">`` file as UTF-8 bytes with a declaration."""
    today = today or _dt.date.today()
    root = ET.Element("cockatrice_carddatabase", {"version": "4"})
    info = _sub(root, "info")
    _sub(info, "author", "Card Workbench")
    _sub(info, "createdAt", today.isoformat())
    _sub(info, "sourceVersion", definition.id)
    set_el = _sub(root, "sets")
    for code in sorted(set(sets.values())):
        one = _sub(set_el, "set")
        _sub(one, "name", code)
        _sub(one, "longname", f"{definition.name} ({code})")
        _sub(one, "settype", "Custom")
        _sub(one, "releasedate", today.isoformat())
    cards_el = _sub(root, "cards")
    fields = card_fields(definition)
    for card in sort_cards(cards):
        card_id = str(card["id"])
        element = _sub(cards_el, "card")
        _sub(element, "name", names[card_id])
        _sub(element, "text", cell_text(card.get("text")))
        prop = _sub(element, "prop")
        _sub(prop, "type", kind_label(definition, card))
        _sub(prop, "maintype", str(card.get("kind", "")))
        if card.get("cost") is not None:
            _sub(prop, "manacost", cell_text(card.get("cost")))
            if isinstance(card.get("cost"), int):
                _sub(prop, "cmc", str(card["cost"]))
        stats = stat_fields(definition, card)
        if len(stats) == 2 and all(card.get(f.name) is not None for f in stats):
            _sub(prop, "pt", "/".join(cell_text(card.get(f.name)) for f in stats))
        for fdef in fields:
            value = card.get(fdef.name)
            if fdef.name in {"text", "kind"} or value in (None, "", []) or not _XML_NAME.match(fdef.name):
                continue
            if fdef.name in {"type", "maintype", "manacost", "cmc", "pt"}:
                continue  # Cockatrice's own keys win; the value is in them already
            _sub(prop, fdef.name, cell_text(value))
        attrs = {"picurl": picurls[card_id]} if picurls and card_id in picurls else {}
        if card.get("number"):
            attrs["num"] = xml_safe(str(card["number"]))
        _sub(element, "set", sets[card_id], **attrs)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def cod(definition: GameDefinition, deck: Deck, names: Mapping[str, str]) -> bytes:
    """A ``.cod`` deck: play zones go to Cockatrice's ``main``, the others to ``side``."""
    root = ET.Element("cockatrice_deck", {"version": "1"})
    _sub(root, "deckname", str(deck.get("name") or deck["id"]))
    _sub(root, "comments", str(deck.get("notes") or ""))
    zones: dict[str, dict[str, int]] = {"main": {}, "side": {}}
    for index, (zone_id, card_id, count) in enumerate(deck_entries(deck)):
        zone = definition.zones.get(zone_id)
        if zone is None or card_id not in names:
            continue
        is_main = bool(zone.spec.get("play")) or zone_id == next(iter(definition.zones))
        bucket = zones["main" if is_main else "side"]
        bucket[names[card_id]] = bucket.get(names[card_id], 0) + count
    for zone_name, content in zones.items():
        if not content:
            continue
        zone_el = _sub(root, "zone", name=zone_name)
        for name, count in content.items():
            _sub(zone_el, "card", number=str(count), name=name)
    ET.indent(root)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"


def export_cockatrice(
    definition: GameDefinition,
    cards: Sequence[Card],
    decks: Sequence[Deck] = (),
    *,
    faces: Faces | None = None,
    base_url: str | None = None,
    today: _dt.date | None = None,
) -> Bundle:
    """``<game>.xml`` for Cockatrice's ``customsets/`` folder, ``decks/<deck>.cod``, and with
    ``faces`` a ``pics/<card-id>.jpg`` per card (linked by ``picurl`` when ``base_url`` is given)."""
    cards = sort_cards(cards)
    names = unique_names(cards)
    sets, notes = assign_sets(definition, cards)
    bundle = Bundle(main=f"{definition.id}.xml")
    bundle.notes += notes
    original = {str(c["id"]): xml_safe(str(c.get("name", ""))).strip() for c in cards}
    renamed = [cid for cid, name in names.items() if name != original[cid]]
    if renamed:
        bundle.notes.append(f"{len(renamed)} cards share a name with another card and are exported as "
                            f"'Name (card-id)': {', '.join(renamed[:10])}")
    picurls: dict[str, str] = {}
    if faces is not None:
        for card in cards:
            bundle.add(f"pics/{card['id']}.jpg", jpeg(faces.face(card)))
        bundle.notes += faces.notes()
        if base_url:
            base = base_url.rstrip("/") + "/"
            picurls = {str(c["id"]): f"{base}pics/{c['id']}.jpg" for c in cards}
        else:
            bundle.notes.append("no base URL given: pictures are in pics/; rename them to the card "
                                "names in Cockatrice's pics/CUSTOM folder, or export again with a base URL")
    bundle.add(bundle.main, cards_xml(definition, cards, names, sets, picurls, today))
    for deck in decks:
        bundle.add(f"decks/{deck['id']}.cod", cod(definition, deck, names))
    return bundle
