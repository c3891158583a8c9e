"""Generic MUSHcode for PennMUSH and TinyMUX: a deck object with one attribute per card.

Output, one command per line (reference formats.md §2.3)::

    think [switch(locate(me,Warzone Deck,Tin),#-1,create(Warzone Deck,10),#-2,…,[switch(name(…),…)])]
    @set Warzone Deck=NO_COMMAND
    &CARD_COUNT Warzone Deck=0
    &DECK_TITLE Warzone Deck=0
    @wipe Warzone Deck/CARD_*
    @wipe Warzone Deck/DECK_*
    &WORKBENCH_EXPORT Warzone Deck=warzone
    &DECK_TITLE Warzone Deck=Warzone: Kings of Valor
    &CARD_FIELDS Warzone Deck=name|kind|text|…
    &CARD_COUNT Warzone Deck=61
    &CARD_001 Warzone Deck=Ironclad Sentry|creature|When recruited\\, draw a card.|…

The find-or-create line finds the deck object (carried or in the room) or creates it, so pasting
the file again updates the same object; the two ``@wipe`` lines then drop the cards of the earlier
paste. The ``think`` lines are the only code the server evaluates, and the only thing from the data
in them is the object name, which :func:`object_name` limits to letters, digits, spaces and
``: ' _ -``; card and deck text never is.

``&attr obj=value`` typed or pasted from a client stores the value unevaluated; softcode shows it
by evaluating it once. :func:`escape_field` makes that single evaluation give back exactly the
card's text: ``\\`` first, then ``%``, then ``[ ] { } ( ) , ; ^ $ #`` and the field separator ``|``
get a backslash (TinyMUX replaces ``##``, ``#@`` and ``#$`` in every evaluation); newline is
``%r``, tab ``%t``, and edge or repeated spaces ``%b`` (servers trim and squeeze plain spaces).
:func:`parse_value` is the inverse, used by tests and checkers. A card longer than one line (4000
bytes; PennMUSH silently cuts input lines at 4095) continues in ``CARD_001_2``, ``CARD_001_3`` …,
counted by ``CARD_001_PARTS``.

PennMUSH stores Latin-1 and turns every other character into ``?``, and what it does with
non-ASCII bytes depends on the client, so the PennMUSH file is pure ASCII: text is folded
(:func:`fold_ascii`), and a card whose text changed keeps its exact original in
``CARD_001_UTF8`` (``_UTF8_2`` …, ``_UTF8_PARTS``): base64 of the UTF-8 of the escaped record,
the same value a TinyMUX export writes. ``--ascii`` does the same for TinyMUX. A TinyMUX file
starts with :data:`UTF8_CHECK`, which tells the designer at once when the client does not send
UTF-8 (TinyMUX then reads every byte as Latin-1).
"""

from __future__ import annotations

import base64
import re
import unicodedata
from collections.abc import Sequence

from workbench.domain.errors import DataError
from workbench.domain.gamedef import GameDefinition
from workbench.services.exports.common import Bundle, Card, Deck, card_fields, cell_text, deck_entries, sort_cards

MAX_LINE_BYTES = 4000
ATTR_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]{0,31}$")
SEPARATOR = "|"
# '#' for TinyMUX, which replaces ##, #@ and #$ whenever it evaluates text (PennMUSH in iter/@dolist)
SPECIAL = frozenset("[]{}(),;^$#" + SEPARATOR)
UTF8_SUFFIX = "_UTF8"
SERVERS = ("pennmush", "tinymux")
_LINE = re.compile(r"^&([A-Z][A-Z0-9_]{0,31}) ([^=]+)=(.*)$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def normalise(text: str) -> str:
    """The text a MUSH can hold: CRLF and CR become LF; other control characters are dropped."""
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


# Common punctuation without an ASCII decomposition, folded to its usual ASCII spelling.
_ASCII_PUNCTUATION = {
    "\u2014": "-", "\u2013": "-", "\u2212": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"',
    "\u201d": '"', "\u00d7": "x", "\u2264": "<=", "\u2265": ">=", "\u00a7": "S", "\u00b7": ".",
    "\u2022": "*", "\u2192": "->", "\u2190": "<-", "\u00ab": "<<", "\u00bb": ">>", "\u00df": "ss",
}


def fold_ascii(text: str) -> str:
    """ASCII folding for servers without UTF-8: accents dropped (``é`` -> ``e``), common
    punctuation spelled in ASCII (``—`` -> ``-``, ``×`` -> ``x``, ``≤`` -> ``<=``), characters with
    no ASCII form (CJK, emoji) become ``?``, invisible format characters (zero-width joiner, soft
    hyphen) are dropped. Newlines and tabs are kept."""
    out = []
    for char in text:
        if ord(char) < 128:
            out.append(char)
            continue
        if char in _ASCII_PUNCTUATION:
            out.append(_ASCII_PUNCTUATION[char])
            continue
        if unicodedata.category(char) == "Cf":  # invisible: zero-width joiner, soft hyphen …
            continue
        plain = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode("ascii")
        out.append(plain or "?")
    return "".join(out)


def tinymux_keeps(char: str) -> bool:
    """Whether TinyMUX 2.14 stores ``char``: it silently drops what it counts as unprintable,
    seen as format characters (zero-width joiner and space, soft hyphen, BOM, tags), C0/C1
    controls, unassigned code points and private use outside the BMP."""
    category = unicodedata.category(char)
    if category == "Cc":
        return char in "\n\t"
    if category == "Co":
        return ord(char) < 0x10000
    return category not in ("Cf", "Cn", "Cs")


def server_text(text: str, server: str, fold: bool) -> str:
    """The text ``server`` can keep: normalised, folded to ASCII with ``fold`` (always for
    PennMUSH), and without the characters TinyMUX drops."""
    text = normalise(text)
    if fold:
        text = fold_ascii(text)
    if server == "tinymux":
        text = "".join(c for c in text if tinymux_keeps(c))
    return text


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


def deck_object_name(title: str, tag: str) -> str:
    """The deck object's name: the title folded to ASCII plus `` Deck``; a title with no ASCII
    letter or digit left (``烈焰疾风``) uses ``tag`` (game id, or game/deck ids) instead, so two
    such decks never share one object (a second paste updates the object of the same name)."""
    name = object_name(fold_ascii(title))
    if not re.search(r"[A-Za-z0-9]", name) or name == "Card Deck":
        name = object_name(tag.replace("/", " "))
    return object_name(f"{name} Deck")


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


def _attribute_lines(attr: str, obj: str, tokens: list[str]) -> list[str]:
    """``&ATTR obj=…`` lines for one value, split into ``ATTR_2`` … and ``ATTR_PARTS`` when it is
    longer than one line."""
    budget = MAX_LINE_BYTES - len(f"&{attr}_PARTS {obj}=".encode("utf-8"))
    parts = _chunks(tokens, budget)
    lines = [f"&{attr if p == 1 else f'{attr}_{p}'} {obj}={value}" for p, value in enumerate(parts, start=1)]
    if len(parts) > 1:
        lines.append(f"&{attr}_PARTS {obj}={len(parts)}")
    return lines


def _record_tokens(texts: Sequence[str], server: str | None, fold: bool) -> list[str]:
    """The escaped tokens of ``|``-separated fields, as :func:`server_text` gives them (exactly
    with no ``server``)."""
    tokens: list[str] = []
    for i, text in enumerate(texts):
        if i:
            tokens.append(SEPARATOR)
        tokens += _tokens(server_text(text, server, fold) if server else normalise(text))
    return tokens


def _value_lines(attr: str, obj: str, texts: Sequence[str], server: str, fold: bool) -> tuple[list[str], bool]:
    """The lines of one value, and whether the server's form differs from the text; then the
    exact original is kept as base64 in ``ATTR_UTF8`` (split like any value)."""
    shown = _record_tokens(texts, server, fold)
    lines = _attribute_lines(attr, obj, shown)
    exact = "".join(_record_tokens(texts, None, False))
    if exact == "".join(shown):
        return lines, False
    encoded = base64.b64encode(exact.encode("utf-8")).decode("ascii")
    return lines + _attribute_lines(attr + UTF8_SUFFIX, obj, list(encoded)), True


def change_note(server: str, ascii_only: bool) -> str:
    """Why an export for ``server`` changed some text (the start of a note)."""
    if server == "pennmush":
        return "PennMUSH stores only Latin-1, so text was folded to ASCII (accents dropped, other characters as ?)"
    if ascii_only:
        return "text was folded to ASCII (--ascii)"
    return "TinyMUX drops characters it cannot print (zero-width joiners, soft hyphens …), so they were left out"


def decode_utf8_value(encoded: str) -> str:
    """The escaped record kept in a ``*_UTF8`` attribute (its parts joined first)."""
    return base64.b64decode(encoded.encode("ascii"), validate=True).decode("utf-8")


def find_or_create(obj: str) -> str:
    """The line that finds the deck object ``obj`` (carried or here) or creates it.

    ``locate()`` matches the way ``&ATTR obj=`` will: an exact name first, else a unique partial
    one, so the name is compared too: an object merely starting with ``obj`` (``Warzone Deck 2``) is
    not taken for it and a new one is made. When several objects have the name it says so and
    creates nothing. ``name()`` runs only on a dbref (PennMUSH's ``name(#-1)`` prints an error).
    ``obj`` must come from :func:`object_name`: it is part of code the server evaluates.
    """
    if object_name(obj) != obj:
        raise DataError(f"object name {obj!r} is not safe to put into MUSH code")
    here = f"locate(me,{obj},Tin)"
    several = f"Several objects here are called {obj}: destroy all but one and paste again."
    return (f"think [switch({here},#-1,create({obj},10),#-2,{several},"
            f"[switch(name({here}),{obj},Updating {obj}.,create({obj},10))])]")


UTF8_CHECK = ("think [switch(strlen(\u00e9),1,Your client sends UTF-8: good.,Your client does not send UTF-8:"
              " stop and set its character set to UTF-8 then paste this file again.)]")


def export_deck_object(
    definition: GameDefinition,
    cards: Sequence[Card],
    deck: Deck | None = None,
    *,
    server: str = "pennmush",
    ascii_only: bool = False,
) -> Bundle:
    """The MUSHcode that builds (or, pasted again, updates) a deck object for ``server``.

    Without a deck every card appears once; with a deck, once per copy. PennMUSH output is always
    folded to ASCII (see the module notes); ``ascii_only`` folds TinyMUX output too. Raises
    DataError for an unknown server.
    """
    if server not in SERVERS:
        raise DataError(f"MUSH server {server!r} is not supported; choose {' or '.join(SERVERS)}")
    fold = ascii_only or server == "pennmush"
    index = {str(c["id"]): c for c in cards}
    if deck is not None:
        chosen = [index[cid] for _, cid, count in deck_entries(deck) if cid in index for _ in range(count)]
        title = str(deck.get("name") or deck["id"])
        tag = f"{definition.id}/{deck['id']}"
    else:
        chosen = sort_cards(cards)
        title = definition.name
        tag = definition.id
    obj = deck_object_name(title, tag)
    lines = [
        f"@@ Card Workbench export for {server}: {obj} ({len(chosen)} cards). Paste line by line;"
        " pasting again updates the same object.",
        *([UTF8_CHECK] if server == "tinymux" else []),
        find_or_create(obj),
        f"@set {obj}=NO_COMMAND",
        f"&CARD_COUNT {obj}=0",
        f"&DECK_TITLE {obj}=0",
        f"@wipe {obj}/CARD_*",
        f"@wipe {obj}/DECK_*",
        f"&WORKBENCH_EXPORT {obj}={escape_field(tag, True)}",
    ]
    title_lines, title_folded = _value_lines("DECK_TITLE", obj, [title], server, fold)
    lines += title_lines
    lines += [
        f"&CARD_FIELDS {obj}={SEPARATOR.join(escape_field(n, True) for n in field_names(definition))}",
        f"&CARD_COUNT {obj}={len(chosen)}",
    ]
    folded: list[str] = []
    for n, card in enumerate(chosen, start=1):
        card_lines, changed = _value_lines(f"CARD_{n:03d}", obj, card_record(definition, card), server, fold)
        lines += card_lines
        if changed and str(card["id"]) not in folded:
            folded.append(str(card["id"]))
    lines.append(f"@@ {obj}: {len(chosen)} cards loaded.")
    bundle = Bundle(main=f"{definition.id}{'-' + str(deck['id']) if deck is not None else ''}-{server}.txt")
    bundle.add(bundle.main, "\n".join(lines) + "\n")
    if folded or title_folded:
        names = ", ".join(folded[:20]) + (f" and {len(folded) - 20} more" if len(folded) > 20 else "")
        where = f"{len(folded)} cards ({names})" if folded else "the deck title"
        bundle.notes.append(f"{change_note(server, ascii_only)}: {where}; "
                            "the exact text is kept as base64 in the *_UTF8 attributes")
    return bundle
