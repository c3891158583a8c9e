"""Cockatrice: a custom-set ``cards.xml`` (database version 4) and ``.cod`` decks.

Cockatrice keys cards by name, so names are made unique (a second card of the same name becomes
``Name (card-id)``) and decks refer to those names. Every game field goes into ``<prop>`` under
its own key, beside Cockatrice's usual ``type``, ``maintype``, ``manacost`` and ``pt``.

Two things follow Cockatrice's own source (github.com/Cockatrice/Cockatrice, read at commit
157e7022c, August 2026):

* ``<tablerow>``: where a played card lands (``PlayerActions::playCard`` in
  ``cockatrice/src/game/player/player_actions.cpp``, ``TableZone::tableRowToGridY``): 0 the land
  row, 1 other lasting cards, 2 creatures, 3 the stack (a one-shot card, moved to the graveyard
  when played again from the stack). A card without one sits on row 0. Each game declares its rows
  per kind under ``play: {cockatrice: {tablerow: …}}`` in game.yaml (:func:`table_rows`).
* Tokens (``<token>``, ``<related>``): a card whose effects create a token (``create_token``)
  gets ``<related>`` naming a token card, which carries ``<token>1</token>``; Cockatrice offers
  the related tokens in the card's menu (*Create token*) and reads the flag with ``toInt()``
  (``CockatriceXml4Parser::loadCardsFromXml`` in
  ``libcockatrice_card/libcockatrice/card/database/parser/cockatrice_xml_4.cpp``), so ``true``,
  which the schema's ``xs:boolean`` allows, would read as 0: not a token.
* Picture files: Cockatrice looks for ``<corrected name>_<set>.*`` (then ``<corrected name>.*``)
  among the files under ``pics/CUSTOM/`` (``CardPictureLoaderLocal`` and
  ``card_picture_loader_local_schemes.h``); the corrected name is the card name with
  ``*<>:"\\?``, control characters and `` // `` removed and ``/`` made a space
  (``CardInfo::getCorrectedName`` in ``libcockatrice_card/libcockatrice/card/card_info.cpp``);
  a set code that is a reserved Windows name gets a ``_`` (``CardSet::getCorrectedShortName``).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping, Sequence
from typing import Any
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
# CardInfo::getCorrectedName: characters Windows refuses in a file name are removed (" // " too),
# "/" and the control characters 0x09-0x0f become spaces. (Cockatrice's own two patterns.)
_PIC_REMOVE = re.compile(r'( // |[*<>:"\\?\x00-\x08\x10-\x1f])')
_PIC_SPACE = re.compile(r"[/\x09-\x0f]")
# CardSet::getCorrectedShortName: set codes Windows reserves as device names get a "_".
_RESERVED_SETS = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(1, 10)), *(f"LPT{n}" for n in range(1, 10))}
# Characters Cockatrice keeps in the corrected name but this export cannot put in a file name
# that every system accepts (``|`` on Windows), and names too long for one file name.
_PIC_UNSAFE = re.compile(r"[|\x7f]")
_PIC_MAX_BYTES = 200
# Cockatrice's table rows (cockatrice/src/game/player/player_actions.cpp).
TABLE_ROWS = {0: "land row", 1: "other lasting cards", 2: "creatures", 3: "the stack"}
ROW_LASTING = 1
ROW_CREATURE = 2
# A set's <priority>: what Cockatrice's Oracle gives a set type it does not know
# (CardSet::PriorityOther, oracle/src/oracleimporter.cpp getSetPriority). Written always: Cockatrice's
# loadSetsFromXml reads it into an uninitialised `short` that it uses when the element is missing.
SET_PRIORITY = 40
# Characters XML 1.0 cannot carry at all, even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """Text without the control characters XML 1.0 forbids; line ends become LF, as any XML
    parser would read them anyway."""
    return _NOT_XML.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def corrected_name(name: str) -> str:
    """The name Cockatrice uses for a card's picture file (``CardInfo::getCorrectedName``)."""
    return _PIC_SPACE.sub(" ", _PIC_REMOVE.sub("", name))


def corrected_set(code: str) -> str:
    """The set code Cockatrice uses in picture paths (``CardSet::getCorrectedShortName``)."""
    return code + "_" if code in _RESERVED_SETS else code


def picture_name(name: str, set_code: str) -> str:
    """``<corrected name>_<set>.jpg``: the file Cockatrice finds first under ``pics/CUSTOM/``."""
    return f"{corrected_name(name)}_{corrected_set(set_code)}.jpg"


def unique_names(cards: Sequence[Card]) -> dict[str, str]:
    """Card id -> the name Cockatrice shows, unique across the export.

    Names are also kept apart by their picture file name, compared without case (a case-blind
    file system holds one of ``A:B`` and ``AB``): the second of such a pair, like a second card of
    the same name, or a name with nothing left for a file name, becomes ``Name (card-id)``.
    """
    names: dict[str, str] = {}
    used: set[str] = set()
    files: set[str] = set()
    for card in sort_cards(cards):
        name = xml_safe(str(card.get("name", ""))).strip() or str(card["id"])
        key = corrected_name(name).strip().casefold()
        if name in used or key in files or not key:
            name = f"{name} ({card['id']})"
            key = corrected_name(name).strip().casefold()
        used.add(name)
        files.add(key)
        names[str(card["id"])] = name
    return names


def table_rows(definition: GameDefinition) -> tuple[dict[str, Any], list[str]]:
    """Kind id -> its table-row rule, and notes on anything in game.yaml that was not usable.

    game.yaml declares, per kind, a row (0-3) or ``{row: N, by: FIELD, rows: {VALUE: N, …}}`` for
    a kind whose cards differ by a field (fusion: normal magic goes to the stack, equip magic stays):

        play: {cockatrice: {tablerow: {creature: 2, magic: {row: 3, by: subtype, rows: {equip: 1}}}}}

    A kind the game does not declare gets row 2 when it has stat fields (ATK/DEF: it fights, like a
    creature), else row 1 (it stays on the table; the designer moves a one-shot card away).
    """
    notes: list[str] = []
    declared = ((definition.raw.get("play") or {}).get("cockatrice") or {}).get("tablerow") or {}
    if not isinstance(declared, Mapping):
        notes.append("play.cockatrice.tablerow in game.yaml is not a mapping of kinds; default rows are used")
        declared = {}
    for kind_id in declared:
        if kind_id not in definition.kinds:
            notes.append(f"play.cockatrice.tablerow names kind {kind_id!r}, which the game does not have")

    def row_ok(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value in TABLE_ROWS

    rules: dict[str, Any] = {}
    for kind_id, kind in definition.kinds.items():
        has_stats = any(f.spec.get("stat") for f in definition.fields_for(kind_id))
        default = ROW_CREATURE if has_stats else ROW_LASTING
        rule = declared.get(kind_id, default)
        if isinstance(rule, Mapping):
            by, rows = rule.get("by"), rule.get("rows") or {}
            if (row_ok(rule.get("row", default)) and isinstance(by, str) and isinstance(rows, Mapping)
                    and all(row_ok(v) for v in rows.values())):
                rules[kind_id] = (rule.get("row", default), by, {str(k): v for k, v in rows.items()})
                continue
        elif row_ok(rule):
            rules[kind_id] = (rule, None, {})
            continue
        notes.append(f"play.cockatrice.tablerow for kind {kind_id!r} is not a row 0-3 or "
                     f"{{row, by, rows}}; it uses row {default}")
        rules[kind_id] = (default, None, {})
    return rules, notes


def table_row(rules: Mapping[str, Any], card: Card) -> int:
    """The ``<tablerow>`` of one card under :func:`table_rows`' rules (row 1 for an unknown kind)."""
    row, by, rows = rules.get(str(card.get("kind")), (ROW_LASTING, None, {}))
    if by is not None:
        return rows.get(cell_text(card.get(by)), row)
    return row


TOKEN_KIND = "token"
_OWN_PROPS = frozenset({"type", "maintype", "manacost", "cmc", "pt"})
"""Cockatrice's own property keys: a game field of the same name is left out (its value is in them)."""


def _token_specs(value: Any) -> list[tuple[Mapping[str, Any], int]]:
    """Every ``create_token`` step in an effects value (options of ``choose`` included): its
    ``token`` mapping and how many it makes (``count``, default 1)."""
    found: list[tuple[Mapping[str, Any], int]] = []
    if isinstance(value, Mapping):
        token = value.get("token")
        if (value.get("action") == "create_token" and isinstance(token, Mapping)
                and isinstance(token.get("name"), str) and token["name"].strip()):
            count = value.get("count")
            found.append((token, count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else 1))
        for inner in value.values():
            if isinstance(inner, (Mapping, list)):
                found += _token_specs(inner)
    elif isinstance(value, list):
        for item in value:
            found += _token_specs(item)
    return found


def tokens(definition: GameDefinition, cards: Sequence[Card], names: Mapping[str, str]
           ) -> tuple[list[Card], dict[str, list[tuple[str, int]]]]:
    """The token cards the cards' effects create, and card id -> [(token name, count)].

    A token is one card per distinct ``token`` mapping; its name is the token's name, or
    ``Name (token)`` (then ``Name (token 2)`` …) when a card or another token already has it, since
    Cockatrice keys cards by name. Its ``kind`` is ``token``, its set the first maker's set.
    """
    taken = {name.casefold() for name in names.values()}
    made: dict[str, Card] = {}
    related: dict[str, list[tuple[str, int]]] = {}
    for card in sort_cards(cards):
        for token, count in _token_specs(card.get("effects")):
            key = repr(sorted((str(k), repr(v)) for k, v in token.items()))
            if key not in made:
                base = xml_safe(str(token["name"])).strip()
                name, n = base, 1
                while name.casefold() in taken:
                    name = f"{base} (token{'' if n == 1 else f' {n}'})"
                    n += 1
                taken.add(name.casefold())
                made[key] = {**{str(k): v for k, v in token.items()}, "id": f"token:{name}", "name": name,
                             "kind": TOKEN_KIND, "maker": str(card["id"])}
            pairs = related.setdefault(str(card["id"]), [])
            name = str(made[key]["name"])
            if not any(existing == name for existing, _ in pairs):
                pairs.append((name, count))
    return list(made.values()), related


def _stat_names(definition: GameDefinition) -> list[str]:
    """The game's stat fields (ATK, DEF …) in the order its kinds declare them."""
    stats: list[str] = []
    for kind_id in definition.kinds:
        for fdef in definition.fields_for(kind_id):
            if fdef.spec.get("stat") and fdef.name not in stats:
                stats.append(fdef.name)
    return stats


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
    rows: Mapping[str, Any] | None = None,
) -> bytes:
    """The ``<cockatrice_carddatabase version="4">`` file as UTF-8 bytes with a declaration."""
    today = today or _dt.date.today()
    rows = rows if rows is not None else table_rows(definition)[0]
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
        _sub(one, "priority", str(SET_PRIORITY))
    cards_el = _sub(root, "cards")
    fields = card_fields(definition)
    token_cards, related = tokens(definition, cards, names)
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
            if fdef.name in _OWN_PROPS:
                continue  # Cockatrice's own keys win; the value is in them already
            _sub(prop, fdef.name, cell_text(value))
        attrs = {"picurl": picurls[card_id]} if picurls and card_id in picurls else {}
        if card.get("number"):
            attrs["num"] = xml_safe(str(card["number"]))
        _sub(element, "set", sets[card_id], **attrs)
        for token_name, count in related.get(card_id, []):
            _sub(element, "related", token_name, **({"count": str(count)} if count > 1 else {}))
        _sub(element, "tablerow", str(table_row(rows, card)))
    stat_names = _stat_names(definition)
    for token in token_cards:
        element = _sub(cards_el, "card")
        _sub(element, "name", str(token["name"]))
        _sub(element, "text", "")
        prop = _sub(element, "prop")
        _sub(prop, "type", "Token")
        _sub(prop, "maintype", TOKEN_KIND)
        token_stats = [name for name in stat_names if token.get(name) is not None]
        if len(token_stats) == 2:
            _sub(prop, "pt", "/".join(cell_text(token[name]) for name in token_stats))
        for key, value in token.items():
            if (key not in {"id", "name", "kind", "maker", *_OWN_PROPS} and _XML_NAME.match(key)
                    and value not in (None, "", [])):
                _sub(prop, key, cell_text(value))
        _sub(element, "set", sets[str(token["maker"])])
        _sub(element, "token", "1")
        _sub(element, "tablerow", str(ROW_CREATURE if token_stats else ROW_LASTING))
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
        is_main = (bool(zone.spec.get("play")) and not zone.spec.get("reserve")) or zone_id == next(iter(definition.zones))
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


def local_pictures(definition: GameDefinition, cards: Sequence[Card], names: Mapping[str, str],
                   sets: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """Card id -> its local picture path in the bundle, ``pics/CUSTOM/<game>/<name>_<set>.jpg``
    (:func:`picture_name`), and notes on cards that cannot have one (the name holds a character a
    Windows file name refuses, is hidden or too long): those need a ``picurl`` (a base URL)."""
    paths: dict[str, str] = {}
    skipped: list[str] = []
    for card in cards:
        card_id = str(card["id"])
        file_name = picture_name(names[card_id], sets[card_id])
        if (_PIC_UNSAFE.search(file_name) or file_name.startswith((".", " "))
                or len(file_name.encode("utf-8")) > _PIC_MAX_BYTES):
            skipped.append(card_id)
            continue
        paths[card_id] = f"pics/CUSTOM/{definition.id}/{file_name}"
    notes = []
    if skipped:
        notes.append(f"{len(skipped)} cards have names that cannot be a picture file name everywhere "
                     f"(a '|', a leading dot or space, or too long), so they have no local picture; export "
                     f"with a base URL to give them one: {', '.join(skipped[:10])}")
    return paths, notes


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
    ``faces`` a picture per card named as Cockatrice looks it up locally,
    ``pics/CUSTOM/<game>/<name>_<set>.jpg`` (:func:`local_pictures`); with ``base_url`` also
    ``pics/<card-id>.jpg`` to upload there, which each card's ``picurl`` names."""
    cards = sort_cards(cards)
    names = unique_names(cards)
    sets, notes = assign_sets(definition, cards)
    rows, row_notes = table_rows(definition)
    bundle = Bundle(main=f"{definition.id}.xml")
    bundle.notes += notes + row_notes
    original = {str(c["id"]): xml_safe(str(c.get("name", ""))).strip() for c in cards}
    renamed = [cid for cid, name in names.items() if name != original[cid]]
    if renamed:
        bundle.notes.append(f"{len(renamed)} cards share a name (or a picture file name) with another card "
                            f"and are exported as 'Name (card-id)': {', '.join(renamed[:10])}")
    picurls: dict[str, str] = {}
    if faces is not None:
        local, pic_notes = local_pictures(definition, cards, names, sets)
        bundle.notes += pic_notes
        base = base_url.rstrip("/") + "/" if base_url else None
        for card in cards:
            card_id = str(card["id"])
            picture = jpeg(faces.face(card))
            if card_id in local:
                bundle.add(local[card_id], picture)
            if base:
                bundle.add(f"pics/{card_id}.jpg", picture)
                picurls[card_id] = f"{base}pics/{card_id}.jpg"
        bundle.notes += faces.notes()
    token_cards, _ = tokens(definition, cards, names)
    if token_cards:
        bundle.notes.append(f"{len(token_cards)} token cards for the cards' create_token effects (Cockatrice offers "
                            f"them in the maker's menu): {', '.join(str(t['name']) for t in token_cards[:10])}")
    bundle.add(bundle.main, cards_xml(definition, cards, names, sets, picurls, today, rows))
    for deck in decks:
        bundle.add(f"decks/{deck['id']}.cod", cod(definition, deck, names))
    return bundle
