"""One checker per export format, written from the rules of issue 5 and the reference
``formats.md`` — independently of the exporters, so an exporter bug cannot hide itself.

Each checker takes the exported files (relative path -> bytes) and returns a list of broken rules
as sentences; an empty list means the output is valid.
"""

from __future__ import annotations

import base64
import io
import json
import math
import re
from collections.abc import Mapping
from xml.etree import ElementTree as ET

from PIL import Image

Files = Mapping[str, bytes]

# ------------------------------------------------------------------ Lackey


def lackey_checksum(data: bytes) -> int:
    """Lackey's updatelist checksum, re-implemented from the reference (formats.md §1.6): signed
    bytes, CR and LF skipped, C-style (truncating) modulo 10^8 after every step, minus 1 at the end."""
    value = 0
    for b in data:
        if b in (0x0A, 0x0D):
            continue
        value = int(math.fmod(value + (b - 256 if b > 127 else b), 100_000_000))
    return int(math.fmod(value - 1, 100_000_000))


def _tags(text: str, block: str, inner: str) -> list[str]:
    """The ``<inner>`` texts of every ``<block>`` in Lackey's XML-like text."""
    return [re.sub(r"\s+", " ", m.group(1)).strip() for b in re.findall(rf"<{block}>(.*?)</{block}>", text, re.S)
            for m in [re.search(rf"<{inner}>(.*?)</{inner}>", b, re.S)] if m]


def _unescape(text: str) -> str:
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&apos;", "'").replace("&amp;", "&"))


def read_carddata(data: bytes) -> tuple[list[str], list[list[str]]]:
    """Header and rows of a Lackey card data file (raw tab split, as Lackey reads it)."""
    lines = data.decode("utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    table = [line.split("\t") for line in lines]
    return table[0], table[1:]


def check_lackey(files: Files, plugin: str) -> list[str]:
    """Every rule of issue 5 §1 and formats.md §1.7 for a plugin folder's files."""
    errors: list[str] = []
    if " " in plugin:
        errors.append(f"plugin name {plugin!r} has a space")
    for path in files:
        if " " in path:
            errors.append(f"file name {path!r} has a space")
    info = files.get("plugininfo.txt")
    if info is None:
        return errors + ["plugininfo.txt is missing"]
    info_text = info.decode("utf-8")
    try:
        root = ET.fromstring(info_text)
        if root.tag != "plugin":
            errors.append("plugininfo.txt root is not <plugin>")
    except ET.ParseError as exc:
        errors.append(f"plugininfo.txt tags do not balance: {exc}")
    deckzones = [_unescape(t) for t in _tags(info_text, "deckzone", "label")]
    gamezones = {_unescape(t) for t in _tags(info_text, "gamezone", "label")}
    for target in _tags(info_text, "deckzone", "gamezonetoloadto"):
        if _unescape(target) not in gamezones:
            errors.append(f"deck zone loads to game zone {target!r}, which is not declared")
    if not deckzones:
        errors.append("plugininfo.txt declares no <deckzone>")
    # card data
    data = files.get("sets/carddata.txt")
    if data is None:
        return errors + ["sets/carddata.txt is missing"]
    if data.startswith(b"\xef\xbb\xbf"):
        errors.append("carddata.txt starts with a BOM")
    if b"\r" in data:
        errors.append("carddata.txt has a CR byte")
    try:
        header, rows = read_carddata(data)
    except UnicodeDecodeError:
        return errors + ["carddata.txt is not UTF-8"]
    if header[:3] != ["Name", "Set", "ImageFile"]:
        errors.append(f"carddata header starts {header[:3]}, not Name, Set, ImageFile")
    if any(not h for h in header) or len(set(header)) != len(header):
        errors.append("carddata header names must be non-empty and unique")
    keys: set[tuple[str, str]] = set()
    sets: set[str] = set()
    for n, row in enumerate(rows, start=2):
        if len(row) != len(header):
            errors.append(f"carddata line {n} has {len(row)} fields; the header has {len(header)}")
            continue
        name, set_code, image = row[0], row[1], row[2]
        if not name or not set_code or not image:
            errors.append(f"carddata line {n}: Name, Set and ImageFile must not be empty")
        for cell in row:
            if re.fullmatch(r'"(?:[^"]|"")*"', cell) and '""' in cell:
                errors.append(f"carddata line {n}: field {cell[:30]!r} is CSV-quoted")
        if (name, set_code) in keys:
            errors.append(f"carddata line {n}: (Name, Set) = ({name!r}, {set_code!r}) is not unique")
        keys.add((name, set_code))
        sets.add(set_code)
        for part in image.split(","):
            candidates = [f"sets/setimages/{set_code}/{part}", f"sets/setimages/{set_code}/{part}.jpg",
                          f"sets/setimages/general/{part}", f"sets/setimages/general/{part}.jpg"]
            found = next((c for c in candidates if c in files), None)
            if found is None:
                errors.append(f"carddata line {n}: image {part!r} of set {set_code!r} is missing")
            else:
                errors += _check_image(files[found], found)
    if "cardback.jpg" not in files:
        errors.append("cardback.jpg is missing")
    # formats
    if "formats.txt" in files:
        try:
            fmt_root = ET.fromstring(files["formats.txt"].decode("utf-8"))
            for set_el in fmt_root.iter("set"):
                if (set_el.text or "") not in sets:
                    errors.append(f"formats.txt names set {set_el.text!r}, which no card has")
            if fmt_root.tag != "formatdefinitions" or not fmt_root.findall("format/label"):
                errors.append("formats.txt must be <formatdefinitions> with labelled <format>s")
        except ET.ParseError as exc:
            errors.append(f"formats.txt is not well-formed: {exc}")
    # decks
    for path, content in files.items():
        if path.startswith("decks/") and path.endswith(".dek"):
            errors += check_dek(content, deckzones, keys, path)
    if "updatelist.txt" in files:
        errors += check_updatelist(files, plugin)
    if "version.txt" in files:
        text = files["version.txt"].decode("utf-8")
        if not re.search(r"<lastupdateYYMMDD>\d{6}</lastupdateYYMMDD>", text):
            errors.append("version.txt has no 6-digit lastupdateYYMMDD")
        for tag in ("versionurl", "updateurl", "message"):
            if not re.search(rf"<{tag}>[^<]*</{tag}>", text):
                errors.append(f"version.txt has no closed <{tag}>")
    return errors


def _check_image(data: bytes, path: str) -> list[str]:
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != "JPEG":
                return [f"{path} is {image.format}, not JPEG"]
    except Exception as exc:
        return [f"{path} is not an image: {exc}"]
    return []


def check_dek(data: bytes, deckzones: list[str], cards: set[tuple[str, str]], path: str = "deck") -> list[str]:
    """A .dek: well-formed, ``<deck version="0.8">``, superzones = deck zones, cards exist, escaped."""
    errors: list[str] = []
    text = data.decode("utf-8")
    for node in re.findall(r">([^<]*)<", text):
        if '"' in node or "'" in node or re.search(r"&(?!(amp|lt|gt|quot|apos);)", node):
            errors.append(f"{path}: text {node[:30]!r} is not XML-escaped")
    for value in re.findall(r'="([^"]*)"', text):
        if "'" in value or "<" in value or re.search(r"&(?!(amp|lt|gt|quot|apos);)", value):
            errors.append(f"{path}: attribute {value[:30]!r} is not XML-escaped")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        return errors + [f"{path} is not well-formed: {exc}"]
    if root.tag != "deck" or root.get("version") != "0.8":
        errors.append(f'{path}: root must be <deck version="0.8">')
    if not root.findtext("meta/game"):
        errors.append(f"{path}: <meta><game> is missing")
    for zone in root.findall("superzone"):
        if zone.get("name") not in deckzones:
            errors.append(f"{path}: superzone {zone.get('name')!r} is not a deck zone ({deckzones})")
        for card in zone.findall("card"):
            name, set_code = card.findtext("name") or "", card.findtext("set") or ""
            if not name or card.find("name").get("id") is None:  # type: ignore[union-attr]
                errors.append(f"{path}: a card has no name or id")
            if (name, set_code) not in cards:
                errors.append(f"{path}: card ({name!r}, {set_code!r}) is not in carddata")
    return errors


def check_updatelist(files: Files, plugin: str) -> list[str]:
    """updatelist.txt: header line, rows with right checksums, URL sections last."""
    errors: list[str] = []
    lines = files["updatelist.txt"].decode("utf-8").rstrip("\n").split("\n")
    if not re.fullmatch(r"[^\t]+\t\d\d-\d\d-\d\d", lines[0]) or lines[0].split("\t")[0] != plugin:
        errors.append(f"updatelist line 1 {lines[0]!r} is not '{plugin}<TAB>MM-DD-YY'")
    in_urls = False
    listed = 0
    for n, line in enumerate(lines[1:], start=2):
        if line in ("CardGeneralURLs:", "CardURLFiles:"):
            in_urls = True
            continue
        if in_urls:
            if "\t" in line or not line.endswith("/"):
                errors.append(f"updatelist line {n}: a base URL must end with / (and rows come before URLs)")
            continue
        parts = line.split("\t")
        if len(parts) != 3 or not re.fullmatch(r"-?\d+", parts[2]):
            errors.append(f"updatelist line {n} is not path<TAB>url<TAB>checksum")
            continue
        prefix = f"plugins/{plugin}/"
        if not parts[0].startswith(prefix):
            errors.append(f"updatelist line {n}: path does not start with {prefix}")
            continue
        rel = parts[0][len(prefix):]
        if rel not in files:
            errors.append(f"updatelist line {n}: {rel} is not in the plugin")
        elif int(parts[2]) != lackey_checksum(files[rel]):
            errors.append(f"updatelist line {n}: checksum {parts[2]} != {lackey_checksum(files[rel])}")
        if not parts[1].startswith(("http://", "https://")):
            errors.append(f"updatelist line {n}: URL is not absolute")
        listed += 1
    if not in_urls:
        errors.append("updatelist has no CardGeneralURLs: section")
    if not listed:
        errors.append("updatelist lists no files")
    return errors


# ------------------------------------------------------------------ Dvorak

DVORAK_HEADER = ["Name", "Set", "ImageFile", "Type", "CornerValue", "Text", "FlavorText", "Creator"]


def check_dvorak_lackey(data: bytes) -> list[str]:
    """The wiki's 8-column dump: header, 8 fields a row, no tabs/newlines inside, slug set/image."""
    errors: list[str] = []
    if b"\r" in data or data.startswith(b"\xef\xbb\xbf"):
        errors.append("the dump has a CR or a BOM")
    header, rows = read_carddata(data)
    if header != DVORAK_HEADER:
        errors.append(f"header is {header}, not the 8 Dvorak columns")
    for n, row in enumerate(rows, start=2):
        if len(row) != 8:
            errors.append(f"line {n} has {len(row)} fields, not 8")
            continue
        if not re.fullmatch(r"[a-z0-9_]+", row[1]) or not re.fullmatch(r"[a-z0-9_]+", row[2]):
            errors.append(f"line {n}: Set {row[1]!r} and ImageFile {row[2]!r} must be Dvorak slugs")
        if not row[0]:
            errors.append(f"line {n}: empty Name")
    return errors


def check_dvorak_mush(data: bytes) -> list[str]:
    """``cleardeck`` then ``loadcard Title/T|A/Text`` lines; titles without ``/``; ``@@`` comments."""
    errors: list[str] = []
    lines = [line for line in data.decode("utf-8").rstrip("\n").split("\n")
             if not line.startswith("@@ ") and not UTF8_CHECK.fullmatch(line)]
    if lines[0] != "cleardeck":
        errors.append("the first line is not cleardeck")
    for n, line in enumerate(lines[1:], start=2):
        if line.startswith("@emit "):
            continue
        match = re.fullmatch(r"loadcard ([^/]*)/([TA])/(.*)", line)
        if not match:
            errors.append(f"line {n} is not 'loadcard Title/T|A/Text': {line[:50]!r}")
        elif "\r" in line or "\t" in line:
            errors.append(f"line {n} has a CR or tab")
    return errors


# ------------------------------------------------------------------ MUSHcode

ATTR = re.compile(r"^[A-Z][A-Z0-9_]{0,31}$")


def mush_unescape(value: str) -> list[str]:
    """Evaluate a MUSH value once (``\\x`` -> x; ``%r %t %b %%``) and split at unescaped ``|``.

    Raises ValueError on an unescaped special character or an unknown ``%`` substitution.
    """
    fields, current, i = [], "", 0
    subs = {"r": "\n", "t": "\t", "b": " ", "%": "%"}
    while i < len(value):
        c = value[i]
        if c == "\\":
            if i + 1 == len(value):
                raise ValueError("dangling backslash")
            current += value[i + 1]
            i += 2
        elif c == "%":
            key = value[i + 1: i + 2].lower()
            if key not in subs:
                raise ValueError(f"unknown %{key}")
            current += subs[key]
            i += 2
        elif c == "|":
            fields.append(current)
            current = ""
            i += 1
        elif c in "[]{}(),;^$#":
            raise ValueError(f"unescaped {c!r}")
        else:
            current += c
            i += 1
    return fields + [current]


_OBJ = r"([A-Za-z0-9 :'_-]+)"
FIND_OR_CREATE = re.compile(rf"think \[switch\(locate\(me,{_OBJ},Tin\),#-1,create\(\1,10\),#-2,[^,\[\]]*,"
                            r"\[switch\(name\(locate\(me,\1,Tin\)\),\1,[^,\[\]]*,create\(\1,10\)\)\]\)\]")
UTF8_CHECK = re.compile(r"think \[switch\(strlen\(\u00e9\),1,[^,\[\]]*,[^,\[\]]*\)\]")


def check_mush(data: bytes) -> tuple[list[str], dict[str, str]]:
    """Line rules (≤ 4000 bytes, attribute names, one object found or created by the fixed
    find-or-create line, values unescape) and the attributes (name -> raw value, after the
    ``@wipe`` lines) for round-trip tests."""
    errors: list[str] = []
    attrs: dict[str, str] = {}
    text = data.decode("utf-8")
    obj = None
    for n, line in enumerate(text.rstrip("\n").split("\n"), start=1):
        if len(line.encode("utf-8")) > 4000:
            errors.append(f"line {n} has {len(line.encode('utf-8'))} bytes (> 4000)")
        if "\r" in line:
            errors.append(f"line {n} has a CR")
        if line.startswith("@@"):
            continue
        if UTF8_CHECK.fullmatch(line) and obj is None:
            continue
        if line.startswith("think "):
            found = FIND_OR_CREATE.fullmatch(line)
            if not found or obj is not None:
                errors.append(f"line {n}: the only code allowed is the UTF-8 check and one find-or-create line:"
                              f" {line[:60]!r}")
            else:
                obj = found.group(1)
            continue
        if line.startswith("@set "):
            continue
        wipe = re.fullmatch(r"@wipe ([^/]+)/([A-Z_]+)\*", line)
        if wipe:
            if wipe.group(1) != obj:
                errors.append(f"line {n}: wipes {wipe.group(1)!r}, not the deck object {obj!r}")
            attrs = {k: v for k, v in attrs.items() if not k.startswith(wipe.group(2))}
            continue
        match = re.fullmatch(r"&(\S+) ([^=]+)=(.*)", line)
        if not match:
            errors.append(f"line {n} is not a command this export writes: {line[:40]!r}")
            continue
        name, target, value = match.groups()
        if not ATTR.match(name):
            errors.append(f"line {n}: attribute name {name!r} is not portable")
        if target != obj:
            errors.append(f"line {n}: sets {target!r}, not the created object {obj!r}")
        try:
            mush_unescape(value)
        except ValueError as exc:
            errors.append(f"line {n}: value does not unescape: {exc}")
        if value != value.strip(" "):
            errors.append(f"line {n}: value has a plain edge space")
        attrs[name] = value
    if obj is None:
        errors.append("no find-or-create line")
    return errors, attrs


def mush_value(attrs: Mapping[str, str], key: str, exact: bool = False) -> str:
    """The whole escaped value of ``key`` (its parts joined); with ``exact`` the original kept as
    base64 in ``key_UTF8`` when there is one (PennMUSH and --ascii exports)."""
    if exact and f"{key}_UTF8" in attrs:
        return base64.b64decode(mush_value(attrs, f"{key}_UTF8")).decode("utf-8")
    parts = int(attrs.get(f"{key}_PARTS", "1"))
    return attrs[key] + "".join(attrs[f"{key}_{p}"] for p in range(2, parts + 1))


def mush_cards(attrs: Mapping[str, str], exact: bool = False) -> tuple[list[str], list[list[str]]]:
    """(field names, one list of field texts per card) from a deck object's attributes; with
    ``exact`` from the ``_UTF8`` originals where the text was folded."""
    names = mush_unescape(attrs["CARD_FIELDS"])
    count = int(attrs["CARD_COUNT"])
    return names, [mush_unescape(mush_value(attrs, f"CARD_{n:03d}", exact)) for n in range(1, count + 1)]


# ------------------------------------------------------------------ Cockatrice

# The rules below restate Cockatrice's doc/carddatabase_v4/cards.xsd (not vendored: it is theirs).
CARD_CHILD_ORDER = ["name", "text", "prop", "set", "related", "reverse-related", "token", "tablerow", "cipt", "upsidedown"]
SINGLE_CARD_CHILDREN = {"name", "text", "prop", "token", "tablerow", "cipt", "upsidedown"}
CARD_SET_ATTRIBUTES = {"muid", "uuid", "picurl", "picURL", "num", "rarity", "onlineOnly"}
RELATED_ATTRIBUTES = {"count", "exclude", "attach", "persistent"}
SET_CHILDREN = {"name", "longname", "settype", "releasedate", "priority"}
INFO_CHILDREN = {"author", "createdAt", "sourceUrl", "sourceVersion"}
XSD_BOOLEANS = {"true", "false", "1", "0"}


def check_cockatrice(data: bytes) -> tuple[list[str], set[str]]:
    """cards.xml v4: declaration, root and version, sections in order, sets declared, unique
    names, child order, picurl absolute, tablerow 0-3. Returns (errors, card names)."""
    errors: list[str] = []
    if not data.startswith(b"<?xml"):
        errors.append("cards.xml has no XML declaration")
    root = ET.fromstring(data)
    if root.tag != "cockatrice_carddatabase" or root.get("version") != "4":
        errors.append('root must be <cockatrice_carddatabase version="4">')
    order = [child.tag for child in root]
    if order != [t for t in ("info", "sets", "cards") if t in order] or len(order) != len(set(order)):
        errors.append(f"top-level sections out of order: {order}")
    for info in root.findall("info"):
        for child in info:
            if child.tag not in INFO_CHILDREN:
                errors.append(f"<info> may not hold <{child.tag}>")
    for set_def in root.findall("sets/set"):
        tags = [child.tag for child in set_def]
        if any(t not in SET_CHILDREN for t in tags) or len(tags) != len(set(tags)):
            errors.append(f"set {set_def.findtext('name')!r}: children {tags} break setType")
        priority = set_def.findtext("priority")
        if priority is not None and not re.fullmatch(r"[+-]?\d+", priority.strip()):
            errors.append(f"set {set_def.findtext('name')!r}: priority {priority!r} is not an integer")
    declared = {s.findtext("name") for s in root.findall("sets/set")}
    if None in declared or "" in declared:
        errors.append("a set has no name")
    names: set[str] = set()
    for card in root.findall("cards/card"):
        name = card.findtext("name") or ""
        tags = [c.tag for c in card]
        if not tags or tags[0] != "name":
            errors.append(f"card {name!r}: <name> must come first")
        ranks = [CARD_CHILD_ORDER.index(t) if t in CARD_CHILD_ORDER else -1 for t in tags]
        if -1 in ranks or ranks != sorted(ranks):
            errors.append(f"card {name!r}: children {tags} are not in schema order")
        for tag in SINGLE_CARD_CHILDREN:
            if tags.count(tag) > 1:
                errors.append(f"card {name!r}: <{tag}> appears {tags.count(tag)} times")
        for tag in ("token", "cipt", "upsidedown"):
            value = card.findtext(tag)
            if value is not None and value.strip() not in XSD_BOOLEANS:
                errors.append(f"card {name!r}: <{tag}> {value!r} is not an xs:boolean")
        for related in card.findall("related") + card.findall("reverse-related"):
            extra = set(related.attrib) - RELATED_ATTRIBUTES
            if extra:
                errors.append(f"card {name!r}: <{related.tag}> has unknown attributes {sorted(extra)}")
        if name in names:
            errors.append(f"card name {name!r} is not unique")
        names.add(name)
        sets = card.findall("set")
        if not sets:
            errors.append(f"card {name!r} has no <set>")
        for set_el in sets:
            if set_el.text not in declared:
                errors.append(f"card {name!r}: set {set_el.text!r} is not declared in <sets>")
            extra = set(set_el.attrib) - CARD_SET_ATTRIBUTES
            if extra:
                errors.append(f"card {name!r}: <set> has attributes {sorted(extra)} outside cardInSetType")
            if set_el.get("onlineOnly") not in (None, *XSD_BOOLEANS):
                errors.append(f"card {name!r}: onlineOnly {set_el.get('onlineOnly')!r} is not an xs:boolean")
            url = set_el.get("picurl")
            if url is not None and not re.match(r"^https?://\S+$", url):
                errors.append(f"card {name!r}: picurl {url!r} is not an absolute http(s) URL")
        row = card.findtext("tablerow")
        if row is not None and row not in {"0", "1", "2", "3"}:
            errors.append(f"card {name!r}: tablerow {row!r} is not 0-3")
    return errors, names


def check_cod(data: bytes, names: set[str]) -> list[str]:
    """A .cod deck: root and version, zones main/side/tokens, positive counts, known names."""
    errors: list[str] = []
    root = ET.fromstring(data)
    if root.tag != "cockatrice_deck" or root.get("version") != "1":
        errors.append('root must be <cockatrice_deck version="1">')
    for zone in root.findall("zone"):
        if zone.get("name") not in {"main", "side", "tokens"}:
            errors.append(f"zone {zone.get('name')!r} is not main, side or tokens")
        for card in zone.findall("card"):
            if not (card.get("number") or "").isdigit() or int(card.get("number") or 0) < 1:
                errors.append(f"card {card.get('name')!r} has number {card.get('number')!r}")
            if card.get("name") not in names:
                errors.append(f"card {card.get('name')!r} is not in cards.xml")
    return errors


# ------------------------------------------------------------------ Tabletop Simulator


def check_tts(files: Files, json_path: str, base_url: str) -> list[str]:
    """The saved object and its sheets: ids, grid, image sizes and mode, URLs, GUIDs."""
    errors: list[str] = []
    state = json.loads(files[json_path].decode("utf-8"))
    deck = state["ObjectStates"][0]
    if deck.get("Name") == "Card":  # one card alone: TTS shows no deck of one card
        deck = {"DeckIDs": [deck.get("CardID")], "ContainedObjects": [deck],
                "CustomDeck": deck.get("CustomDeck", {}), "GUID": deck.get("GUID")}
    elif deck.get("Name") != "DeckCustom":
        errors.append("the object is not a DeckCustom (or a single Card)")
    elif len(deck.get("ContainedObjects", [])) == 1:
        errors.append("a DeckCustom of one card: TTS does not show it; save the Card itself")
    ids = deck.get("DeckIDs", [])
    contained = deck.get("ContainedObjects", [])
    if len(ids) != len(contained) or any(i != o.get("CardID") for i, o in zip(ids, contained)):
        errors.append("DeckIDs do not match the ContainedObjects' CardIDs")
    custom = deck.get("CustomDeck", {})
    for key, sheet in custom.items():
        width, height = sheet.get("NumWidth"), sheet.get("NumHeight")
        if not (isinstance(width, int) and 1 <= width <= 10 and isinstance(height, int) and 1 <= height <= 7):
            errors.append(f"deck {key}: grid {width}x{height} is outside 10x7")
            continue
        for url_key in ("FaceURL", "BackURL"):
            url = sheet.get(url_key, "")
            if not re.match(r"^(https?|file)://\S+$", url):
                errors.append(f"deck {key}: {url_key} {url!r} is not an absolute URL")
            elif not url.startswith(base_url):
                errors.append(f"deck {key}: {url_key} is not under {base_url}")
            else:
                rel = url[len(base_url):]
                if rel not in files:
                    errors.append(f"deck {key}: {rel} is not among the files")
                    continue
                with Image.open(io.BytesIO(files[rel])) as image:
                    if image.mode != "RGB":
                        errors.append(f"{rel} is {image.mode}, not RGB")
                    if max(image.size) > 4096:
                        errors.append(f"{rel} is {image.size}, over 4096 px")
                    if url_key == "FaceURL" and (image.size[0] % width or image.size[1] % height):
                        errors.append(f"{rel} {image.size} does not divide into {width}x{height}")
    for obj in contained:
        cid = obj.get("CardID")
        key, index = str(cid // 100), cid % 100
        sheet = custom.get(key)
        if sheet is None:
            errors.append(f"card {cid}: deck key {key} is not in CustomDeck")
            continue
        slots = sheet["NumWidth"] * sheet["NumHeight"] - (0 if sheet.get("BackIsHidden") else 1)
        if index >= slots:
            errors.append(f"card {cid}: index {index} is outside the {slots} usable slots")
        if obj.get("CustomDeck", {}).get(key) != sheet:
            errors.append(f"card {cid}: its CustomDeck differs from the deck's")
        if not re.fullmatch(r"[0-9a-f]{6}", str(obj.get("GUID"))):
            errors.append(f"card {cid}: GUID {obj.get('GUID')!r} is not 6 hex digits")
    if not re.fullmatch(r"[0-9a-f]{6}", str(deck.get("GUID"))):
        errors.append("the deck's GUID is not 6 hex digits")
    return errors
