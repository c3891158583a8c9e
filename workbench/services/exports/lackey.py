"""LackeyCCG plugin: plugininfo.txt, sets/carddata.txt, set images, formats.txt, .dek decks and
optionally updatelist.txt and version.txt (see docs/exports.md and the reference formats.md §1).

Lackey is strict in odd ways: card data is raw tab-separated text (a CSV-quoted field is read with
its quotes), a tab or newline inside a field shifts every later column, decks name cards by
``(Name, Set)``, and the auto-updater compares a home-made checksum. Every rule is written down
here once and checked by ``tests/services/exports/checkers.py``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from workbench.domain.errors import DataError
from workbench.domain.gamedef import GameDefinition
from workbench.services.exports.common import (
    KIND_COLUMN,
    Bundle,
    Card,
    Deck,
    ascii_fold,
    assign_sets,
    card_fields,
    cell_text,
    deck_entries,
    one_line,
    sort_cards,
)
from workbench.services.exports.faces import Faces, jpeg

HEADER_START = ("Name", "Set", "ImageFile")
# With ``ascii_names`` the Name column is folded to ASCII and this last column keeps the name as
# the designer wrote it (the import reads it back as the name).
ORIGINAL_NAME_COLUMN = "OriginalName"
LACKEY_IMAGE_SIZE = (358, 500)  # what most plugins ship: about 5:7, small enough for fast loads
_XML_ENTITIES = {'"': "&quot;", "'": "&apos;"}
_NAME_OK = re.compile(r"^[A-Za-z0-9_.-]+$")


@dataclass(frozen=True)
class TableProfile:
    """How a game sits on Lackey's table: zones, counters and phases."""

    deck_gamezone: dict[str, str]          # deck zone id -> game zone label it loads to
    gamezones: list[tuple[str, bool, bool]]  # (label, visible to owner, visible to others)
    stats: list[tuple[str, Any]]           # (label, initial value or {"option": name})
    phases: list[str]
    shuffle: tuple[str, ...] = ()          # deck zones shuffled on load


# The table for each of the three games (RULES.md §1.5, §2.3, §3.2/§3.8); other games get the
# generic profile below, or write their own under ``play: {lackey: …}`` in game.yaml.
PROFILES: dict[str, TableProfile] = {
    "warzone": TableProfile(
        deck_gamezone={"main": "Deck", "area": "Areas", "side": "Side Deck", "side_area": "Side Deck"},
        gamezones=[("Deck", False, False), ("Hand", True, False), ("Areas", True, True),
                   ("Discard Pile", True, True), ("Damage Pile", True, True), ("Exiled", True, True),
                   ("Side Deck", True, False)],
        stats=[("Life", {"option": "start_life"}), ("Damage Cards", 0)],
        phases=["Wake", "Recruitment", "War", "Return", "Night"],
        shuffle=("main",),
    ),
    "fusion": TableProfile(
        deck_gamezone={"main": "Deck", "extra": "Extra Deck"},
        gamezones=[("Deck", False, False), ("Hand", True, False), ("Extra Deck", True, False),
                   ("Graveyard", True, True), ("Exile", True, True)],
        stats=[("Life", {"option": "start_life"}), ("Mana", 0), ("Max Mana", 0)],
        phases=["Ready", "Draw", "Main 1", "Battle", "Main 2", "End"],
        shuffle=("main",),
    ),
    "seth": TableProfile(
        deck_gamezone={"team": "Team"},
        gamezones=[("Team", True, False), ("Removed", True, True)],
        stats=[("Monsters", {"option": "team_size"}), ("Round", 1)],
        phases=["Fast", "Medium", "Slow"],
    ),
}


def profile_for(definition: GameDefinition) -> TableProfile:
    """The table profile of a game: game.yaml ``play.lackey``, a built-in one, or a generic one."""
    custom = (definition.raw.get("play") or {}).get("lackey")
    if isinstance(custom, Mapping):
        return TableProfile(
            deck_gamezone=dict(custom.get("deck_gamezone") or {}),
            gamezones=[(str(z["label"]), bool(z.get("owner", True)), bool(z.get("others", True)))
                       for z in custom.get("gamezones") or []],
            stats=[(str(s["label"]), s.get("initial", 0)) for s in custom.get("stats") or []],
            phases=[str(p) for p in custom.get("phases") or []],
            shuffle=tuple(custom.get("shuffle") or ()),
        )
    key = definition.engine or definition.id
    if key in PROFILES and set(PROFILES[key].deck_gamezone) >= set(definition.zones):
        return PROFILES[key]
    zones = list(definition.zones)
    mapping = {zid: ("Deck" if i == 0 else definition.zones[zid].label) for i, zid in enumerate(zones)}
    life = (definition.raw.get("play") or {}).get("life")
    stats: list[tuple[str, Any]] = [("Life", {"option": life})] if life in definition.options else []
    gamezones = [("Deck", False, False), ("Hand", True, False), ("Discard Pile", True, True)]
    gamezones += [(label, True, False) for label in dict.fromkeys(mapping.values()) if label != "Deck"]
    return TableProfile(deck_gamezone=mapping, gamezones=gamezones, stats=stats, phases=[],
                        shuffle=(zones[0],))


def plugin_name(definition: GameDefinition) -> str:
    """The plugin folder name: the game id (ids carry no spaces)."""
    return definition.id


def xml_text(text: Any) -> str:
    """Text escaped for Lackey's XML files: ``& < > " '`` become entities."""
    return escape(str(text), _XML_ENTITIES)


def checksum(data: bytes) -> int:
    """Lackey's updatelist checksum: the sum of the bytes as signed chars, skipping CR and LF,
    kept modulo 10^8 with C truncation, minus 1 at the end (reference formats.md §1.6)."""
    if len(data) * 128 < 100_000_000:
        # No running sum can reach 10^8, so the modulo never applies: sum in C, not byte by byte.
        high = len(data) - len(data.translate(None, bytes(range(128, 256))))
        return sum(data) - 256 * high - 10 * data.count(10) - 13 * data.count(13) - 1
    total = 0
    for byte in data:
        if byte in (10, 13):
            continue
        total += byte - 256 if byte > 127 else byte
        # C's % truncates towards zero, so a negative running sum stays negative.
        total = total - int(total / 100_000_000) * 100_000_000
    total -= 1
    return total - int(total / 100_000_000) * 100_000_000


# ------------------------------------------------------------------ plugininfo.txt


def plugininfo(definition: GameDefinition, options: Mapping[str, Any] | None = None,
               fold: Callable[[str], str] = str) -> str:
    """plugininfo.txt: deck zones (labels = the game's zone names), game zones, player stats with
    the game's start values, phases and a few standard buttons. ``fold`` is applied to every label
    (:func:`ascii_fold` for an ASCII plugin)."""
    opts = definition.default_options()
    opts.update(options or {})
    profile = profile_for(definition)
    out = ["<plugin>", f"<pluginname>{xml_text(plugin_name(definition))}</pluginname>"]
    for label, initial in profile.stats:
        if isinstance(initial, Mapping):
            initial = opts.get(str(initial.get("option")))
        if initial is None:
            initial = 0
        out.append(f"<playerstat><label>{xml_text(fold(label))}</label>"
                   f"<initialvalue>{xml_text(initial)}</initialvalue></playerstat>")
    for zone_id, zone in definition.zones.items():
        target = fold(profile.deck_gamezone.get(zone_id, zone.label))
        shuffle = "yes" if zone_id in profile.shuffle else "no"
        out.append(f"<deckzone><label>{xml_text(fold(zone.label))}</label>"
                   f"<gamezonetoloadto>{xml_text(target)}</gamezonetoloadto>"
                   f"<shuffle>{shuffle}</shuffle></deckzone>")
    gamezones = [(fold(label), owner, others) for label, owner, others in profile.gamezones]
    declared = {label for label, _, _ in gamezones}
    zones = gamezones + [
        (target, True, False) for target in dict.fromkeys(fold(t) for t in profile.deck_gamezone.values())
        if target not in declared
    ]
    for label, owner, others in zones:
        out.append(f"<gamezone><label>{xml_text(label)}</label>"
                   f"<visibletoowner>{'yes' if owner else 'no'}</visibletoowner>"
                   f"<visibletoothers>{'yes' if others else 'no'}</visibletoothers></gamezone>")
    for phase in profile.phases:
        out.append(f"<phase><label>{xml_text(fold(phase))}</label></phase>")
    draw_from = next((label for label, owner, _ in zones if label == "Deck"), None)
    if draw_from and any(label == "Hand" for label, _, _ in zones):
        out.append("<generalfunction><label>Draw</label><kind>DRAWCARD</kind>"
                   "<includeasbutton>yes</includeasbutton><sourceowner>self</sourceowner>"
                   "<sourcegamezone>Deck</sourcegamezone><destinationowner>self</destinationowner>"
                   "<destinationgamezone>Hand</destinationgamezone></generalfunction>")
    out += [
        "<generalfunction><label>Next Turn</label><kind>NEXTTURN</kind>"
        "<includeasbutton>yes</includeasbutton></generalfunction>",
        "<generalfunction><label>Flip a Coin</label><kind>FLIPCOIN</kind>"
        "<includeasbutton>yes</includeasbutton></generalfunction>",
        "<generalfunction><label>Roll a d6</label><kind>ROLLD6</kind>"
        "<includeasbutton>yes</includeasbutton></generalfunction>",
        "<cardfunction><label>Turn Over</label><kind>TURNOVER</kind></cardfunction>",
        "<cardfunction><label>Tap</label><kind>MAKERIGHT90DEGREES</kind></cardfunction>",
        "<cardfunction><label>Untap</label><kind>MAKERIGHT0DEGREES</kind></cardfunction>",
        "<cardfunction><label>Add Counter</label><kind>ADDCOUNTER</kind><color>red</color></cardfunction>",
        "<cardfunction><label>Remove Counter</label><kind>REMOVECOUNTER</kind><color>red</color></cardfunction>",
        "</plugin>",
    ]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ carddata.txt


def header(definition: GameDefinition, original_names: bool = False) -> list[str]:
    """The carddata.txt header: Name, Set, ImageFile, kind, then every field of the game (and
    OriginalName when names are folded to ASCII)."""
    extra = [ORIGINAL_NAME_COLUMN] if original_names else []
    return list(HEADER_START) + [KIND_COLUMN] + [f.name for f in card_fields(definition)] + extra


def field_text(value: Any) -> str:
    """One carddata cell: the cell text on one line (tabs and newlines become spaces), raw.

    Double quotes stay as they are inside a field, as the VTES plugin writes them
    (lionel-panhaleux/vtes-lackeyccg-plugin, ``Anna "Dictatrix11" Suljic``). A field that *starts*
    with ``"`` could be read as a quoted field (Lackey "handles double-quotes a bit oddly", says
    Sutekh's Lackey writer), so there every ``"`` becomes ``'``, as Sutekh writes names
    (Sutekh-VtES/sutekh-mirror, ``sutekh/io/WriteLackeyCCG.py``).
    """
    text = one_line(cell_text(value))
    return text.replace('"', "'") if text.startswith('"') else text


def carddata(definition: GameDefinition, cards: Sequence[Card], sets: Mapping[str, str],
             original_names: Mapping[str, str] | None = None) -> str:
    """sets/carddata.txt: one tab-separated row per card under :func:`header`, LF line ends.

    ``original_names`` (card id -> name) fills the OriginalName column of an ASCII export."""
    columns = header(definition, original_names is not None)
    fields = columns[3:-1] if original_names is not None else columns[3:]
    rows = ["\t".join(columns)]
    for card in sort_cards(cards):
        cells = [field_text(card.get("name", "")), sets[str(card["id"])], str(card["id"])]
        cells += [field_text(card.get(name)) for name in fields]
        if original_names is not None:
            cells.append(field_text(original_names[str(card["id"])]))
        rows.append("\t".join(cells))
    return "\n".join(rows) + "\n"


# ------------------------------------------------------------------ formats.txt and decks


def formats_txt(definition: GameDefinition, set_codes: Sequence[str], fold: Callable[[str], str] = str) -> str:
    """formats.txt: one ``<format>`` per game format (or one "All cards"), each with every set."""
    formats = [fold(str(fmt.get("label") or fid)) for fid, fmt in definition.formats.items()] or ["All cards"]
    out = ["<formatdefinitions>"]
    for label in formats:
        out.append(f"<format><label>{xml_text(label)}</label>")
        out += [f"<set>{xml_text(code)}</set>" for code in sorted(set(set_codes))]
        out.append("</format>")
    out.append("</formatdefinitions>")
    return "\n".join(out) + "\n"


def dek(definition: GameDefinition, deck: Deck, index: Mapping[str, Card], sets: Mapping[str, str],
        fold: Callable[[str], str] = str) -> str:
    """A ``.dek`` deck: a ``<superzone>`` per deck zone named by its label, one ``<card>`` per
    copy with ``id`` = ImageFile, XML-escaped. Cards the deck names but the game lacks are left out."""
    out = ['<deck version="0.8">', "\t<meta>", f"\t\t<game>{xml_text(plugin_name(definition))}</game>"]
    if deck.get("name"):
        out.append(f"\t\t<title>{xml_text(fold(one_line(str(deck['name']))))}</title>")
    out.append("\t</meta>")
    by_zone: dict[str, list[tuple[str, int]]] = {}
    for zone, card_id, count in deck_entries(deck):
        if zone in definition.zones and card_id in index:
            by_zone.setdefault(zone, []).append((card_id, count))
    for zone_id, zone in definition.zones.items():
        if zone_id not in by_zone:
            continue
        out.append(f'\t<superzone name="{xml_text(zone.label)}">')
        for card_id, count in by_zone[zone_id]:
            name = xml_text(field_text(index[card_id].get("name", "")))
            line = (f'\t\t<card><name id="{xml_text(card_id)}">{name}</name>'
                    f"<set>{xml_text(sets[card_id])}</set></card>")
            out += [line] * count
        out.append("\t</superzone>")
    out.append("</deck>")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ auto-update files


def version_txt(base_url: str, today: _dt.date, message: str) -> str:
    """version.txt for Lackey's auto-update."""
    base = base_url.rstrip("/") + "/"
    return (f"<version><lastupdateYYMMDD>{today:%y%m%d}</lastupdateYYMMDD>"
            f"<versionurl>{xml_text(base)}version.txt</versionurl>"
            f"<updateurl>{xml_text(base)}updatelist.txt</updateurl>"
            f"<message>{xml_text(one_line(message))}</message></version>\n")


def updatelist(name: str, files: Mapping[str, bytes], base_url: str, today: _dt.date,
               image_sets: Sequence[str]) -> str:
    """updatelist.txt: ``name<TAB>MM-DD-YY``, one ``plugins/<name>/<path><TAB><url><TAB><checksum>``
    row per file, then ``CardGeneralURLs:`` with one base URL per set image folder, last."""
    base = base_url.rstrip("/") + "/"
    rows = [f"{name}\t{today:%m-%d-%y}"]
    for path in sorted(files):
        if path == "updatelist.txt":
            continue
        rows.append(f"plugins/{name}/{path}\t{base}{path}\t{checksum(files[path])}")
    rows.append("CardGeneralURLs:")
    rows += [f"{base}sets/setimages/{code}/" for code in sorted(set(image_sets))]
    return "\n".join(rows) + "\n"


# ------------------------------------------------------------------ the plugin


def ascii_zones(definition: GameDefinition) -> GameDefinition:
    """The definition with its zone labels folded to ASCII (two that fold alike get their id)."""
    zones = {}
    used: set[str] = set()
    for zone_id, zone in definition.zones.items():
        label = ascii_fold(zone.label) or zone_id
        if label.casefold() in used:
            label = f"{label} ({zone_id})"
        used.add(label.casefold())
        zones[zone_id] = dataclasses.replace(zone, label=label)
    return dataclasses.replace(definition, zones=zones)


def export_plugin(
    definition: GameDefinition,
    cards: Sequence[Card],
    decks: Sequence[Deck] = (),
    *,
    faces: Faces | None = None,
    base_url: str | None = None,
    today: _dt.date | None = None,
    ascii_names: bool = False,
) -> Bundle:
    """The whole plugin folder as a bundle of paths relative to ``<plugin>/``.

    ``faces`` supplies card images (placeholders are drawn when it is None). With ``base_url``
    the auto-update files are added. With ``ascii_names`` card names, zone labels and the other
    labels are folded to ASCII (:func:`ascii_fold`; Lackey's handling of CJK is unverified) and the
    names as written go into the last column, OriginalName; the card faces keep them. Never
    raises for odd card data; notes say what was changed.
    """
    today = today or _dt.date.today()
    faces = faces or Faces(definition, renderer=False)
    bundle = Bundle(main="plugininfo.txt")
    cards = sort_cards(cards)
    fold: Callable[[str], str] = ascii_fold if ascii_names else str
    originals: dict[str, str] | None = None
    table_cards: list[Card] = cards
    if ascii_names:
        originals = {str(c["id"]): str(c.get("name", "")) for c in cards}
        table_cards = [dict(c, name=ascii_fold(one_line(str(c.get("name", "")))) or str(c["id"])) for c in cards]
        definition_out = ascii_zones(definition)
        changed = [str(c["id"]) for c in table_cards if c["name"] != originals[str(c["id"])]]
        if changed:
            bundle.notes.append(f"{len(changed)} card names are folded to ASCII (the names as written are in "
                                f"the OriginalName column): {', '.join(changed[:10])}")
    else:
        definition_out = definition
    quoted = [str(c["id"]) for c in table_cards if field_text(c.get("name", "")) != one_line(str(c.get("name", "")))]
    if quoted:
        bundle.notes.append(f"{len(quoted)} card names start with a double quote; Lackey gets ' instead: "
                            f"{', '.join(quoted[:10])}")
    index = {str(c["id"]): c for c in table_cards}
    sets, notes = assign_sets(definition, table_cards)
    bundle.notes += notes
    bundle.add("plugininfo.txt", plugininfo(definition_out, fold=fold))
    bundle.add("sets/carddata.txt", carddata(definition_out, table_cards, sets, originals))
    bundle.add("formats.txt", formats_txt(definition_out, list(sets.values()) or ["NONE"], fold))
    for card in cards:
        card_id = str(card["id"])
        bundle.add(f"sets/setimages/{sets[card_id]}/{card_id}.jpg",
                   jpeg(faces.face(card), LACKEY_IMAGE_SIZE))
    back = jpeg(faces.back(), LACKEY_IMAGE_SIZE)
    bundle.add("cardback.jpg", back)
    bundle.add("sets/setimages/general/cardback.jpg", back)
    for deck in decks:
        missing = sorted({cid for _, cid, _ in deck_entries(deck) if cid not in index})
        if missing:
            bundle.notes.append(f"deck {deck['id']} names cards that do not exist, left out: {', '.join(missing)}")
        bundle.add(f"decks/{deck['id']}.dek", dek(definition_out, deck, index, sets, fold))
    bundle.notes += faces.notes()
    if base_url:
        name = plugin_name(definition)
        bundle.add("version.txt", version_txt(base_url, today, fold(f"{definition.name} updated {today.isoformat()}")))
        bundle.add("updatelist.txt", updatelist(name, bundle.files, base_url, today, list(sets.values())))
    for path in bundle.files:
        for part in path.split("/"):
            if not _NAME_OK.match(part):  # ids and set codes guarantee this; a guard for future edits
                raise DataError(f"Lackey file name {path!r} must not contain spaces or odd characters")
    return bundle
