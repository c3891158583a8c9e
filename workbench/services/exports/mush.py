"""Generic MUSHcode for PennMUSH and TinyMUX: a deck object with one attribute per card.

Output, one command per line (reference formats.md §2.3)::

    @create Warzone Deck
    @set Warzone Deck=NO_COMMAND
    &DECK_TITLE Warzone Deck=Warzone: Kings of Valor
    &CARD_FIELDS Warzone Deck=name|kind|text|…
    &CARD_COUNT Warzone Deck=61
    &CARD_001 Warzone Deck=Ironclad Sentry|creature|When recruited\\, draw a card.|…

``&attr obj=value`` typed or pasted from a client stores the value unevaluated; softcode shows it
by evaluating it once. :func:`escape_field` makes that single evaluation give back exactly the
card's text: ``\\`` first, then ``%``, then ``[ ] { } ( ) , ; ^ $`` and the field separator ``|``
get a backslash; newline is ``%r``, tab ``%t``, and edge or repeated spaces ``%b`` (servers trim
and squeeze plain spaces). :func:`parse_value` is the inverse, used by tests and checkers. A card
longer than one line (4000 bytes) continues in ``CARD_001_2``, ``CARD_001_3`` …, counted by
``CARD_001_PARTS``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from workbench.domain.errors import DataError
from workbench.domain.gamedef import GameDefinition
from workbench.services.exports.common import Bundle, Card, Deck, card_fields, cell_text, deck_entries, sort_cards

MAX_LINE_BYTES = 4000
ATTR_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]{0,31}$")
SEPARATOR = "|"
SPECIAL = frozenset("[]{}(),;^$" + SEPARATOR)
SERVERS = ("pennmush", "tinymux")
_LINE = re.compile(r"^&([A-Z][A-Z0-9_]{0,31}) ([^=]+)=(.*)$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def normalise(text: str) -> str:
    """The text a MUSH can hold: CRLF and CR become LF; other control characters are dropped."""
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


def fold_ascii(text: str) -> str:
    """ASCII folding for servers without UTF-8: accents dropped (``é`` -> ``e``), characters with
    no ASCII form (CJK, emoji) become ``?``. Newlines and tabs are kept."""
    out = []
    for char in text:
        if ord(char) < 128:
            out.append(char)
            continue
        plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
        out.append(plain or "?")
    return "".join(out)


def _tokens(text: str) -> list[str]:
    """One escaped token per character of ``text`` (already normalised)."""
    tokens: list[str] = []
    last = len(text) - 1
    for i, char in enumerate(text):
        if char == "\\":
            tokens.append("\\\\")
        elif char == "%":
            tokens.append("\\%")
        elif char in SPECIAL:
            tokens.append("\\" + char)
        elif char == "\n":
            tokens.append("%r")
        elif char == "\t":
            tokens.append("%t")
        elif char == " ":
            edge = i == 0 or i == last
            repeated = (i > 0 and text[i - 1] == " ") or (i < last and text[i + 1] == " ")
            tokens.append("%b" if edge or repeated else " ")
        else:
            tokens.append(char)
    return tokens


def escape_field(text: str, ascii_only: bool = False) -> str:
    """One field's text escaped so that a single MUSH evaluation gives it back exactly.

    The text is normalised first (:func:`normalise`), and folded with ``ascii_only``.
    """
    text = normalise(text)
    return "".join(_tokens(fold_ascii(text) if ascii_only else text))


def parse_value(value: str) -> list[str]:
    """Evaluate an escaped attribute value once and split it at unescaped ``|``.

    The inverse of joining :func:`escape_field` results with ``|``. Raises DataError for anything
    the escaper never writes: a dangling backslash, an unknown ``%`` substitution, or an unescaped
    special character (``[ ] { } ( ) , ; ^ $``).
    """
    fields: list[str] = []
    current: list[str] = []
    i = 0
    while i < len(value):
        char = value[i]
        if char == "\\":
            if i + 1 >= len(value):
                raise DataError("value ends with a lone backslash")
            current.append(value[i + 1])
            i += 2
            continue
        if char == "%":
            sub = value[i + 1: i + 2].lower()
            table = {"r": "\n", "t": "\t", "b": " ", "%": "%"}
            if sub not in table:
                raise DataError(f"unknown substitution %{sub} at offset {i}")
            current.append(table[sub])
            i += 2
            continue
        if char == SEPARATOR:
            fields.append("".join(current))
            current = []
        elif char in SPECIAL:
            raise DataError(f"unescaped {char!r} at offset {i}")
        else:
            current.append(char)
        i += 1
    fields.append("".join(current))
    return fields


def parse_line(line: str) -> tuple[str, str, str]:
    """``&ATTR obj=value`` -> (attribute, object, value). Raises DataError for another shape."""
    match = _LINE.match(line)
    if not match:
        raise DataError(f"not an attribute line: {line[:60]!r}")
    return match.group(1), match.group(2), match.group(3)


def object_name(title: str) -> str:
    """A safe object name: ASCII letters, digits, spaces, ``: ' _ -``; never empty, no ``=``."""
    name = re.sub(r"[^A-Za-z0-9 :'_-]+", " ", fold_ascii(title))
    name = re.sub(r"\s+", " ", name).strip(" :'-_")
    return name[:60].strip() or "Card Deck"


def _chunks(tokens: list[str], budget: int) -> list[str]:
    """Split tokens into values of at most ``budget`` bytes, never inside a token, and with no
    plain space at a chunk edge (a server would trim it)."""
    chunks: list[list[str]] = [[]]
    size = 0
    for token in tokens:
        length = len(token.encode("utf-8"))
        if size + length > budget - 2 and chunks[-1]:  # room for a space turning into %b
            chunks.append([])
            size = 0
        chunks[-1].append(token)
        size += length
    for chunk in chunks:
        if chunk and chunk[0] == " ":
            chunk[0] = "%b"
        if chunk and chunk[-1] == " ":
            chunk[-1] = "%b"
    return ["".join(c) for c in chunks]


def card_record(definition: GameDefinition, card: Card) -> list[str]:
    """The texts of one card's fields, in :func:`field_names` order."""
    return [cell_text(card.get("name", "")), cell_text(card.get("kind", ""))] + [
        cell_text(card.get(f.name)) for f in card_fields(definition)
    ]


def field_names(definition: GameDefinition) -> list[str]:
    """The names of the ``|``-separated fields of every CARD attribute."""
    return ["name", "kind"] + [f.name for f in card_fields(definition)]


def export_deck_object(
    definition: GameDefinition,
    cards: Sequence[Card],
    deck: Deck | None = None,
    *,
    server: str = "pennmush",
    ascii_only: bool = False,
) -> Bundle:
    """The MUSHcode that builds a deck object for ``server`` (pennmush or tinymux).

    Without a deck every card appears once; with a deck, once per copy. Raises DataError for an
    unknown server.
    """
    if server not in SERVERS:
        raise DataError(f"MUSH server {server!r} is not supported; choose {' or '.join(SERVERS)}")
    index = {str(c["id"]): c for c in cards}
    if deck is not None:
        chosen = [index[cid] for _, cid, count in deck_entries(deck) if cid in index for _ in range(count)]
        title = str(deck.get("name") or deck["id"])
    else:
        chosen = sort_cards(cards)
        title = definition.name
    obj = object_name(f"{fold_ascii(title)} Deck")
    if obj == "Card Deck":
        obj = object_name(f"{definition.id} Deck")
    lines = [
        f"@@ Card Workbench export for {server}: {obj} ({len(chosen)} cards). Paste line by line.",
        f"@create {obj}",
        f"@set {obj}=NO_COMMAND",
        f"&DECK_TITLE {obj}={escape_field(title, ascii_only)}",
        f"&CARD_FIELDS {obj}={SEPARATOR.join(escape_field(n) for n in field_names(definition))}",
        f"&CARD_COUNT {obj}={len(chosen)}",
    ]
    for n, card in enumerate(chosen, start=1):
        attr = f"CARD_{n:03d}"
        tokens: list[str] = []
        for i, text in enumerate(card_record(definition, card)):
            if i:
                tokens.append(SEPARATOR)
            tokens += _tokens(fold_ascii(normalise(text)) if ascii_only else normalise(text))
        budget = MAX_LINE_BYTES - len(f"&{attr}_99 {obj}=".encode("utf-8"))
        parts = _chunks(tokens, budget)
        for p, value in enumerate(parts, start=1):
            name = attr if p == 1 else f"{attr}_{p}"
            lines.append(f"&{name} {obj}={value}")
        if len(parts) > 1:
            lines.append(f"&{attr}_PARTS {obj}={len(parts)}")
    lines.append(f"@@ {obj}: {len(chosen)} cards loaded.")
    bundle = Bundle(main=f"{definition.id}{'-' + str(deck['id']) if deck is not None else ''}-{server}.txt")
    bundle.add(bundle.main, "\n".join(lines) + "\n")
    if ascii_only:
        bundle.notes.append("text was folded to ASCII: accents dropped, other characters shown as ?")
    return bundle
