"""Tabletop Simulator: deck sheet images and a saved-object JSON (``DeckCustom``).

A sheet is a grid of at most 10 x 7 cells (TTS's limit) of 400 x 560 px, so it stays under
4096 px a side; the last cell holds the card back, which TTS shows for cards in a hand. Card ids
are ``deck key * 100 + index`` (index row-major from 0), as TTS requires. One card alone is saved
as a ``Card`` object, not a ``DeckCustom``: TTS shows no deck of one card (a deck shrinks to a
card when its second-last card leaves; JonathanGuberman/unmatched_maker#55, a one-card TTS
export that did not show up; jeandeaual/tts-deckconverter ``tts/builder.go`` writes one card
as a ``Card`` for the same reason).

Deck keys differ between exports (:func:`first_deck_key`): TTS remembers a custom deck's images by
its key, so two saved objects that both used key 1 showed the first one's faces for the second
(JonathanGuberman/unmatched_maker#56, explained in #55; typed-tabletop-simulator's
``setCurrentDeckId`` exists "since otherwise their deck ids would clash").
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from collections.abc import Sequence
from typing import Any

from PIL import Image

from workbench.domain.gamedef import GameDefinition
from workbench.services.exports.common import Bundle, Card, Deck, deck_entries, one_line, sort_cards
from workbench.services.exports.faces import Faces

MAX_COLUMNS, MAX_ROWS = 10, 7
CELL = (400, 560)
PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1  # the last cell is the hidden back


def grid_for(count: int) -> tuple[int, int]:
    """(columns, rows) for ``count`` cards plus the hidden-back cell."""
    slots = count + 1
    columns = min(MAX_COLUMNS, slots)
    return columns, math.ceil(slots / columns)


def sheet(faces: Sequence[Image.Image], back: Image.Image) -> tuple[Image.Image, int, int]:
    """One RGB sheet image for up to 69 faces, the back in its last cell; and its grid."""
    if len(faces) > PER_SHEET:
        raise ValueError(f"a sheet holds at most {PER_SHEET} cards, not {len(faces)}")
    columns, rows = grid_for(len(faces))
    image = Image.new("RGB", (columns * CELL[0], rows * CELL[1]), "white")
    for i, face in enumerate(faces):
        image.paste(face.convert("RGB").resize(CELL, Image.LANCZOS), ((i % columns) * CELL[0], (i // columns) * CELL[1]))
    last = columns * rows - 1
    image.paste(back.convert("RGB").resize(CELL, Image.LANCZOS), ((last % columns) * CELL[0], (last // columns) * CELL[1]))
    return image, columns, rows


KEY_SPACING = 200  # sheets one export may use (10,000 cards need 145)
KEY_SLOTS = 9000


def first_deck_key(*parts: object) -> int:
    """The ``CustomDeck`` key of an export's first sheet (the others follow it): stable for the
    same game and deck, different for another (1 in 9,000 alike), at most 1,799,801 + 199, so every
    ``CardID`` (key * 100 + index) stays well inside a 32-bit integer."""
    digest = hashlib.sha1("/".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return 1 + (int(digest, 16) % KEY_SLOTS) * KEY_SPACING


def guid(*parts: object) -> str:
    """A stable 6-hex-digit GUID (TTS only needs them unique within a save)."""
    return hashlib.sha1("/".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:6]


def _transform(y: float = 1.0) -> dict[str, float]:
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def export_tts(
    definition: GameDefinition,
    cards: Sequence[Card],
    deck: Deck | None = None,
    *,
    faces: Faces | None = None,
    base_url: str,
) -> Bundle:
    """``<name>.json`` (a saved object) plus ``<name>-sheet-N.jpg`` and ``<name>-back.jpg``.

    ``base_url`` is where the images will be found: an http(s) address, or a ``file://`` URL of
    the output folder. Without a deck every card appears once; with one, once per copy, in zone order.
    """
    faces = faces or Faces(definition, renderer=False)
    index = {str(c["id"]): c for c in cards}
    if deck is not None:
        copies = [index[cid] for _, cid, count in deck_entries(deck) if cid in index for _ in range(count)]
        name, title = str(deck["id"]), str(deck.get("name") or deck["id"])
    else:
        copies = sort_cards(cards)
        name, title = definition.id, definition.name
    unique = list({str(c["id"]): c for c in copies}.values())
    base = base_url.rstrip("/") + "/"
    bundle = Bundle(main=f"{name}.json")
    back = faces.back()
    back_file = f"{name}-back.jpg"
    bundle.add(back_file, _jpeg(back.resize(CELL, Image.LANCZOS)))
    custom: dict[str, dict[str, Any]] = {}
    card_ids: dict[str, int] = {}
    first_key = first_deck_key(definition.id, name)
    for s in range(math.ceil(len(unique) / PER_SHEET)):
        chunk = unique[s * PER_SHEET:(s + 1) * PER_SHEET]
        image, columns, rows = sheet([faces.face(c) for c in chunk], back)
        file_name = f"{name}-sheet-{s + 1}.jpg"
        bundle.add(file_name, _jpeg(image))
        key = first_key + s
        custom[str(key)] = {"FaceURL": base + file_name, "BackURL": base + back_file,
                            "NumWidth": columns, "NumHeight": rows, "BackIsHidden": False,
                            "UniqueBack": False, "Type": 0}
        for i, card in enumerate(chunk):
            card_ids[str(card["id"])] = key * 100 + i
    contained = []
    for n, card in enumerate(copies):
        cid = card_ids[str(card["id"])]
        contained.append({
            "Name": "Card", "Nickname": one_line(str(card.get("name", ""))),
            "Description": str(card.get("text") or ""), "CardID": cid, "Transform": _transform(),
            "CustomDeck": {str(cid // 100): custom[str(cid // 100)]}, "GUID": guid(name, n, cid),
        })
    objects: list[dict[str, Any]] = [{
        "Name": "DeckCustom", "Nickname": title, "Description": definition.name,
        "Transform": _transform(),
        "DeckIDs": [o["CardID"] for o in contained],
        "CustomDeck": custom,
        "ContainedObjects": contained,
        "GUID": guid(name, "deck"),
    }]
    if len(contained) == 1:  # a deck of one card does not show in TTS: the card itself
        objects = [contained[0]]
    state = {
        "SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
        "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
        "ObjectStates": objects,
        "TabStates": {}, "VersionNumber": "",
    }
    bundle.add(bundle.main, json.dumps(state, ensure_ascii=False, indent=2) + "\n")
    bundle.notes += faces.notes()
    if base.startswith("file://"):
        bundle.notes.append("images are linked as local file:// paths: this save works on this computer "
                            "only; upload the sheets and export again with a base URL to share it")
    if not copies:
        bundle.notes.append("the deck is empty")
    return bundle


def _jpeg(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=88)
    return out.getvalue()
