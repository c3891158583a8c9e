"""Lackey files in: ``carddata.txt`` (ours or another plugin's), the Dvorak wiki's 8-column dump,
and ``.dek`` decks.

Lackey card data is raw tab-separated text (no quoting), header ``Name Set ImageFile …``. Our own
export puts the card id in ImageFile and the field keys in the header, so it imports back as the
same cards. A Dvorak dump (``Name Set ImageFile Type CornerValue Text FlavorText Creator``) maps
Type to the kind, CornerValue to Power/cost, and the ``[Label: value; …]`` block of its Text back
to fields.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from xml.etree import ElementTree as ET

from workbench.domain.gamedef import GameDefinition
from workbench.domain.limits import MAX_DECK_CARDS as LIMITS_DECK_CARDS
from workbench.services.exports.common import ascii_fold
from workbench.services.exports.dvorak import CORNER_FIELDS, DVORAK_HEADER, parse_stats_block
from workbench.services.imports.tabular import (
    IGNORE,
    ImportFileError,
    ImportRow,
    Table,
    _check_shape,
    auto_mapping,
    check_size,
    decode_text,
    rows_to_cards,
)
from workbench.services.imports.values import CellError, parse_kind

MAX_DECK_CARDS = LIMITS_DECK_CARDS  # one cap for every deck (workbench.domain.limits)


def read_carddata(data: bytes) -> Table:
    """A Lackey card data file as a table. Raises ImportFileError when the header does not start
    with ``Name`` or a row has fewer fields than the header (naming the line)."""
    check_size(data)
    text = decode_text(data)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [(i + 1, line.split("\t")) for i, line in enumerate(lines) if line.strip()]
    if not numbered:
        raise ImportFileError("the card data file is empty")
    (_, headers), rows = numbered[0], numbered[1:]
    headers = [h.strip() for h in headers]
    if not headers or headers[0] != "Name":
        raise ImportFileError("line 1: a Lackey card data header starts with Name, Set, ImageFile "
                              f"(this one starts with {headers[0][:30]!r})")
    for number, cells in rows:
        # Excel drops trailing empty cells; Lackey itself tolerates that, so pad instead of failing.
        if len(cells) < len(headers):
            cells.extend([""] * (len(headers) - len(cells)))
    _check_shape(headers, rows)
    return Table(headers, rows)


def is_dvorak(table: Table) -> bool:
    """True for the Dvorak wiki's 8-column dump."""
    return tuple(table.headers[:8]) == DVORAK_HEADER and len(table.headers) == 8


def carddata_cards(definition: GameDefinition, table: Table, mapping: Mapping[str, str] | None = None) -> list[ImportRow]:
    """Cards from a Lackey card data table (ours, another plugin's, or a Dvorak dump)."""
    if is_dvorak(table):
        return dvorak_cards(definition, table)
    given = {h: t for h, t in (("Name", "name"), ("Set", IGNORE), ("ImageFile", "id")) if h in table.headers}
    if "OriginalName" in table.headers:  # an ASCII export: the Name column holds the folded name
        given.update({"Name": IGNORE, "OriginalName": "name"})
    given.update(mapping or {})
    return rows_to_cards(definition, table, auto_mapping(definition, table.headers, given))


def dvorak_cards(definition: GameDefinition, table: Table) -> list[ImportRow]:
    """Cards from the Dvorak dump: Type -> kind, CornerValue -> power/cost, stats block -> fields."""
    fields = {f.name for f in definition.common_fields} | {f.name for k in definition.kinds.values() for f in k.fields}
    corner = next((n for n in CORNER_FIELDS if n in fields), IGNORE)
    mapping = {"Name": "name", "Set": IGNORE, "ImageFile": IGNORE, "Type": "kind", "CornerValue": corner,
               "Text": "text", "FlavorText": "flavor" if "flavor" in fields else IGNORE,
               "Creator": "creator" if "creator" in fields else IGNORE}

    def transform(texts: dict[str, str]) -> dict[str, str]:
        kind: str | None = None
        try:
            kind = parse_kind(definition, texts.get("kind", "")) if texts.get("kind", "").strip() else None
        except CellError:
            kind = None
        if kind is None and len(definition.kinds) == 1:
            kind = next(iter(definition.kinds))
            texts["kind"] = kind  # Dvorak types ("Thing", "Monster") name no kind of ours
        found, rest = parse_stats_block(definition, kind, texts.get("text", ""))
        texts.update(found)
        texts["text"] = rest
        return texts

    return rows_to_cards(definition, table, mapping, transform)


# ------------------------------------------------------------------ decks


@dataclass
class DeckImport:
    """A deck read from a file: name, {zone id: {card id: count}}, and problems with places."""

    name: str
    zones: dict[str, dict[str, int]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, zone: str, card_id: str, count: int = 1) -> None:
        """Count ``count`` more copies of a card in a zone."""
        bucket = self.zones.setdefault(zone, {})
        bucket[card_id] = bucket.get(card_id, 0) + count


class CardFinder:
    """Finds a card id by id or by name (case-insensitive, ignoring spaces at the ends)."""

    def __init__(self, cards: Mapping[str, Mapping[str, object]]) -> None:
        self.ids = set(cards)
        self.by_name: dict[str, list[str]] = {}
        for cid, data in sorted(cards.items()):
            self.by_name.setdefault(str(data.get("name", "")).strip().casefold(), []).append(cid)

    def find(self, name: str, hint: str | None = None) -> tuple[str | None, str | None]:
        """(card id or None, a warning or None). ``hint`` is an id to prefer (a .dek's ``id``)."""
        if hint and hint in self.ids and (not name or hint in self.by_name.get(name.strip().casefold(), [hint])):
            return hint, None
        found = self.by_name.get(name.strip().casefold(), [])
        if not found:
            if name.strip() in self.ids:
                return name.strip(), None
            return None, None
        if len(found) > 1:
            return found[0], f"{len(found)} cards are named {name!r}; {found[0]} was used"
        return found[0], None


def zone_lookup(definition: GameDefinition) -> dict[str, str]:
    """Lower-case zone label or id -> zone id (with a few common Lackey words)."""
    lookup: dict[str, str] = {}
    for zid, zone in definition.zones.items():
        lookup[zid.lower()] = zid
        lookup[zone.label.lower()] = zid
        lookup[zid.replace("_", " ").lower()] = zid
        lookup.setdefault(ascii_fold(zone.label).lower(), zid)  # a plugin exported with ASCII labels
    first = next(iter(definition.zones))
    for word in ("deck", "main", "main deck", "library"):
        lookup.setdefault(word, first)
    for word in ("side", "sideboard", "side deck", "reserve"):
        if "side" in definition.zones:
            lookup.setdefault(word, "side")
    return lookup


def xml_deck_root(data: bytes, tag: str) -> ET.Element:
    """The root element of a deck file in XML (Lackey ``.dek``, Cockatrice ``.cod``), which must be
    ``<tag>``. Raises ImportFileError for an oversized or non-UTF-8 file, a DOCTYPE or ENTITY
    declaration (refused: entity expansion), XML that is not well-formed (naming the line), or
    another root element."""
    check_size(data)
    text = decode_text(data)
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        raise ImportFileError("a deck file with a DOCTYPE or ENTITY declaration is refused")
    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", text)  # the declaration may name an encoding we already applied
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        line = getattr(exc, "position", (0, 0))[0]
        raise ImportFileError(f"line {line}: the deck file is not well-formed XML ({exc})") from None
    if root.tag != tag:
        raise ImportFileError(f"the root element is <{root.tag}>, not <{tag}>")
    return root


def read_dek(data: bytes, definition: GameDefinition, cards: Mapping[str, Mapping[str, object]],
             fallback_name: str = "Imported deck") -> DeckImport:
    """A Lackey ``.dek`` deck. Card names are matched to the game's cards; zones by label.

    Raises ImportFileError for a file that is not a ``.dek`` (naming the line of an XML error);
    unknown cards and zones are problems, not errors.
    """
    root = xml_deck_root(data, "deck")
    title = (root.findtext("meta/title") or "").strip() or fallback_name
    deck = DeckImport(title)
    zones = zone_lookup(definition)
    finder = CardFinder(cards)
    total = 0
    for zone_el in root.findall("superzone"):
        zone_name = zone_el.get("name", "")
        zone = zones.get(zone_name.strip().lower())
        if zone is None:
            deck.problems.append(f"zone {zone_name!r} is not a zone of {definition.name} "
                                 f"({', '.join(z.label for z in definition.zones.values())}); its cards were skipped")
            continue
        for n, card_el in enumerate(zone_el.findall("card"), start=1):
            total += 1
            if total > MAX_DECK_CARDS:
                raise ImportFileError(f"the deck has more than {MAX_DECK_CARDS:,} cards")
            name_el = card_el.find("name")
            name = (name_el.text or "") if name_el is not None else ""
            card_id, warning = finder.find(name, name_el.get("id") if name_el is not None else None)
            if warning:
                deck.problems.append(f"{zone_name}, card {n}: {warning}")
            if card_id is None:
                deck.problems.append(f"{zone_name}, card {n}: no card named {name!r} in {definition.name}; skipped")
                continue
            deck.add(zone, card_id)
    return deck
