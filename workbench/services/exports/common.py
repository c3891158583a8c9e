"""What every exporter shares: the bundle it returns, card columns, cell text, set codes.

A card travels through foreign formats as one row of text cells. :func:`cell_text` is the one
place that decides how a typed value becomes a cell, and
:func:`workbench.services.imports.values.parse_cell` reads it back, so every export can be
imported again.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from anyascii import anyascii

from workbench.domain.gamedef import FieldDef, GameDefinition
from workbench.domain.limits import check_deck_counts

Card = Mapping[str, Any]  # card data with its "id"
Deck = Mapping[str, Any]  # deck data with its "id"

# Fields that are not one of a game's columns: the name has its own column everywhere.
NAME_FIELD = "name"
KIND_COLUMN = "kind"
# Characters a spreadsheet reads as the start of a formula (OWASP CSV injection), plus tab and CR.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_SET_CHARS = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass
class Bundle:
    """The files of one export: relative path -> bytes, the main file, notes for the designer."""

    files: dict[str, bytes] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    main: str = ""

    def add(self, path: str, data: bytes | str) -> None:
        """Add a file; text is stored as UTF-8 without BOM."""
        self.files[path] = data.encode("utf-8") if isinstance(data, str) else data


def card_fields(definition: GameDefinition) -> list[FieldDef]:
    """Every field of the game once, common fields first, then each kind's own, in file order.

    The card name is left out (it has its own column in every format).
    """
    seen: dict[str, FieldDef] = {}
    for fdef in definition.common_fields:
        seen.setdefault(fdef.name, fdef)
    for kind in definition.kinds.values():
        for fdef in kind.fields:
            seen.setdefault(fdef.name, fdef)
    return [f for name, f in seen.items() if name != NAME_FIELD]


def cell_text(value: Any) -> str:
    """A typed card value as the text of one cell.

    None is empty; booleans are ``yes``/``no``; a list of plain values is joined with ``, ``;
    structured values (effects, mappings, lists of mappings) are compact JSON. Never raises.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and all(
        isinstance(v, (str, int, float)) and not isinstance(v, bool) and "," not in str(v) for v in value
    ):
        return ", ".join(str(v) for v in value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=False, default=str)


def one_line(text: str) -> str:
    """Text for a single-line field: CR, LF and tab become spaces (Lackey, Dvorak)."""
    return text.replace("\r\n", " ").replace("\r", " ").replace("\n", " ").replace("\t", " ")


def ascii_fold(text: str) -> str:
    """Text in ASCII for a program that may not show other characters: each Chinese character
    becomes its pinyin syllable, capitalised and spaced (暗夜魔君 → ``An Ye Mo Jun``), accents
    are dropped and kana, hangul, emoji … transliterated by anyascii; runs of spaces become one."""
    spaced = "".join(f" {char} " if unicodedata.name(char, "").startswith("CJK ") else char for char in text)
    return re.sub(r" {2,}", " ", anyascii(spaced)).strip()


def neutralise(text: str) -> str:
    """Guard a spreadsheet cell against formula injection (issue 8): prefix ``'`` when needed.

    A cell whose text, after any leading apostrophes, starts with ``= + - @`` or tab/CR gets one
    more apostrophe, so :func:`unneutralise` can always take exactly one away again.
    """
    return "'" + text if text.lstrip("'").startswith(FORMULA_START) else text


def unneutralise(text: str) -> str:
    """Undo :func:`neutralise` (drop the one apostrophe it added); other text is unchanged."""
    if text.startswith("'") and text.lstrip("'").startswith(FORMULA_START):
        return text[1:]
    return text


def kind_label(definition: GameDefinition, card: Card) -> str:
    """The label of the card's kind (its id when the kind is unknown)."""
    kind = definition.kinds.get(str(card.get("kind")))
    return kind.label if kind else str(card.get("kind") or "")


def default_set(definition: GameDefinition) -> str:
    """The set code of cards without a card number: the game id in capitals."""
    return _SET_CHARS.sub("_", definition.id.upper())


def set_of(definition: GameDefinition, card: Card) -> str:
    """A card's set code: its card number's prefix (``WZ-012`` -> ``WZ``), else the game's code.

    Set codes become folder names, so only ``A-Z a-z 0-9 _ -`` remain.
    """
    number = str(card.get("number") or "").strip()
    prefix = re.split(r"[-\s/]", number, maxsplit=1)[0] if number else ""
    code = _SET_CHARS.sub("_", prefix).strip("_-")
    # A bare number ("012") names no set; neither does an empty one.
    return code if re.search(r"[A-Za-z]", code) else default_set(definition)


def assign_sets(definition: GameDefinition, cards: Sequence[Card]) -> tuple[dict[str, str], list[str]]:
    """Set code per card id, with ``(name, set)`` made unique; and notes on any change.

    Lackey and Cockatrice look cards up by name and set, so a second card of the same name in the
    same set moves to a set of its own (``WZ_2``) and the designer is told.
    """
    sets: dict[str, str] = {}
    taken: set[tuple[str, str]] = set()
    notes: list[str] = []
    for card in cards:
        name = str(card.get("name", ""))
        code = set_of(definition, card)
        candidate, n = code, 1
        while (name, candidate) in taken:
            n += 1
            candidate = f"{code}_{n}"
        if candidate != code:
            notes.append(f"card {card['id']} has the same name as another card in set {code}; "
                         f"it is exported in set {candidate}")
        taken.add((name, candidate))
        sets[str(card["id"])] = candidate
    return sets, notes


def sort_cards(cards: Sequence[Card]) -> list[Card]:
    """Cards in a stable export order (by id)."""
    return sorted(cards, key=lambda c: str(c["id"]))


def deck_entries(deck: Deck) -> list[tuple[str, str, int]]:
    """(zone, card id, count) of a deck in file order; bad counts are skipped.

    Raises TooMany (a DataError) when a count is above the caps of workbench.domain.limits,
    before any export expands the counts into one entry per copy.
    """
    name = deck.get("id") or deck.get("name")
    check_deck_counts(deck.get("zones"), f"deck {str(name)[:80]!r}" if name else "the deck")
    found: list[tuple[str, str, int]] = []
    for zone, content in (deck.get("zones") or {}).items():
        for card_id, count in (content or {}).items():
            if isinstance(count, int) and not isinstance(count, bool) and count > 0:
                found.append((str(zone), str(card_id), count))
    return found


def stat_fields(definition: GameDefinition, card: Card) -> list[FieldDef]:
    """The fields marked ``stat: true`` for the card's kind (ATK/DEF, Strength/Resilience …)."""
    kind = card.get("kind")
    if kind not in definition.kinds:
        return []
    return [f for f in definition.fields_for(str(kind)) if f.spec.get("stat")]
