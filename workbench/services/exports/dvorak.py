"""Dvorak-wiki compatible exports: the 8-column Lackey dump and the ``loadcard`` MUSH output.

The seth game comes from the Dvorak blank-card wiki, whose export page writes these two formats
(reference formats.md §2). Dvorak cards have only a title, a type, a corner value, text, flavour
and a creator, so the game's other fields travel in a leading ``[Label: value; …]`` block of the
text, which the Dvorak import reads back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.domain.errors import DataError
from workbench.domain.gamedef import FieldDef, GameDefinition
from workbench.services.exports import mush as mushcode
from workbench.services.exports.common import Bundle, Card, cell_text, kind_label, one_line, sort_cards

DVORAK_HEADER = ("Name", "Set", "ImageFile", "Type", "CornerValue", "Text", "FlavorText", "Creator")
# Fields with a Dvorak column of their own; everything else goes into the stats block.
OWN_COLUMNS = {"name", "text", "flavor", "creator", "kind"}
LEFT_OUT = {"effects", "art"}  # structured or local-only: meaningless on the wiki
CORNER_FIELDS = ("power", "cost", "degree")  # the value printed in a Dvorak card's corner
ACTION_KINDS = {"action", "spell", "magic", "trap"}


def slug(text: str) -> str:
    """Dvorak's set/image slug: lower case, each run of other than ``a-z 0-9`` becomes ``_``.

    A trailing " deck" is dropped first (``Programming Deck`` -> ``programming``).
    """
    text = re.sub(r"\s+deck$", "", text.strip(), flags=re.IGNORECASE)
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "deck"


def corner_field(definition: GameDefinition, card: Card) -> FieldDef | None:
    """The field shown as CornerValue for this card's kind (power, cost or degree), if any."""
    kind = card.get("kind")
    if kind not in definition.kinds:
        return None
    fields = {f.name: f for f in definition.fields_for(str(kind))}
    return next((fields[n] for n in CORNER_FIELDS if n in fields), None)


def stats_fields(definition: GameDefinition, card: Card) -> list[FieldDef]:
    """The card's fields that go into the ``[Label: value; …]`` block, in definition order."""
    kind = card.get("kind")
    if kind not in definition.kinds:
        return []
    corner = corner_field(definition, card)
    own = definition.kinds[str(kind)].fields
    ordered = list(own) + [f for f in definition.fields_for(str(kind)) if f not in own]  # stats first
    return [f for f in ordered
            if f.name not in OWN_COLUMNS | LEFT_OUT and (corner is None or f.name != corner.name)]


def stats_block(definition: GameDefinition, card: Card) -> str:
    """``[Damage: 4; Health: 6; Speed: fast, medium]`` for the card's filled stat fields."""
    parts = []
    for fdef in stats_fields(definition, card):
        value = card.get(fdef.name)
        if value in (None, "", []):
            continue
        text = one_line(cell_text(value)).replace(";", ",").replace("]", ")")
        parts.append(f"{fdef.label}: {text}")
    return f"[{'; '.join(parts)}]" if parts else ""


def card_text(definition: GameDefinition, card: Card) -> str:
    """The Dvorak Text of a card: the stats block, then the card's own text."""
    block = stats_block(definition, card)
    text = str(card.get("text") or "")
    return f"{block} {text}".strip() if block else text


def type_letter(card: Card) -> str:
    """``A`` for action-like kinds (action, spell, magic, trap), ``T`` (Thing) otherwise."""
    return "A" if str(card.get("kind")) in ACTION_KINDS else "T"


def lackey_dump(definition: GameDefinition, cards: Sequence[Card], title: str | None = None) -> Bundle:
    """The wiki's 8-column tab-separated dump (``Name Set ImageFile Type CornerValue Text
    FlavorText Creator``); Set is the slug of ``title`` (the game or deck name), ImageFile the slug
    of the type, as the wiki does by default."""
    set_code = slug(title or definition.name)
    rows = ["\t".join(DVORAK_HEADER)]
    for card in sort_cards(cards):
        corner = corner_field(definition, card)
        kind = kind_label(definition, card)
        cells = [
            card.get("name", ""),
            set_code,
            slug(kind),
            kind,
            cell_text(card.get(corner.name)) if corner else "",
            card_text(definition, card),
            card.get("flavor") or "",
            card.get("creator") or "",
        ]
        rows.append("\t".join(one_line(str(c)) for c in cells))
    bundle = Bundle(main=f"{set_code}-lackey.txt")
    bundle.add(bundle.main, "\n".join(rows) + "\n")
    return bundle


MUSH_MAX_LINE_BYTES = 4000  # PennMUSH silently cuts an input line at 4,095 bytes
CUT_MARK = " (text cut: too long for one MUSH line)"


def mush_text(text: str, ascii_only: bool = False, server: str | None = None) -> str:
    """Card text for a ``loadcard`` line, escaped so that the one evaluation the Engine's
    ``$loadcard`` action gives it yields exactly the text (reference formats.md §2.1).

    The Engine stores ``%2`` from an action list, and the server evaluates it there: ``[ ]`` would
    run code, ``( )`` at the start would call a function, ``{ }`` are stripped, ``##`` ``#@``
    ``#$`` are replaced (TinyMUX) and runs of spaces squeezed. So this is
    :func:`workbench.services.exports.mush.escape_field`: ``\\`` ``%`` ``[ ] { } ( ) , ; ^ $ # |``
    get a backslash, newline is ``%r``, tab ``%t``, an edge or repeated space ``%b``. CR and CRLF
    become LF first; ``ascii_only`` folds to ASCII (PennMUSH), and for ``tinymux`` the characters it
    drops are left out (:func:`workbench.services.exports.mush.server_text`).
    """
    return mushcode.escape_field(mushcode.server_text(text, server, ascii_only) if server else text, ascii_only)


def loadcard_title(card: Card) -> str:
    """The title a ``loadcard`` line carries (unescaped): a ``/`` becomes ``-``, a line break a
    space."""
    return one_line(mushcode.normalise(str(card.get("name", "")))).replace("/", "-")


def loadcard(definition: GameDefinition, card: Card, ascii_only: bool = False, server: str | None = None) -> str:
    """One ``loadcard <Title>/<T|A>/<Text>`` line. A line longer than :data:`MUSH_MAX_LINE_BYTES`
    has its text cut, ending with :data:`CUT_MARK` (:func:`mush` names such cards in its notes)."""
    return _loadcard(definition, card, ascii_only, server)[0]


def _loadcard(definition: GameDefinition, card: Card, ascii_only: bool, server: str | None) -> tuple[str, bool]:
    """The ``loadcard`` line and whether its text was cut."""
    head = f"loadcard {mush_text(loadcard_title(card), ascii_only, server)}/{type_letter(card)}/"
    text = loadcard_text(definition, card, len(head.encode("utf-8")), ascii_only, server)
    return head + mush_text(text, ascii_only, server), text.endswith(CUT_MARK) and text != loadcard_text(definition, card)


def loadcard_text(definition: GameDefinition, card: Card, head_bytes: int = 0, ascii_only: bool = False,
                  server: str | None = None) -> str:
    """The text a ``loadcard`` line carries for ``card`` (unescaped): the Dvorak text with the
    flavour appended as `` ("…")``, cut with :data:`CUT_MARK` when the escaped line would pass
    :data:`MUSH_MAX_LINE_BYTES` bytes after ``head_bytes`` of ``loadcard Title/T/``."""
    text = mushcode.normalise(card_text(definition, card))
    flavor = mushcode.normalise(str(card.get("flavor") or ""))
    if flavor:
        text = f'{text} ("{flavor}")' if text else f'("{flavor}")'
    budget = MUSH_MAX_LINE_BYTES - head_bytes

    def size(t: str) -> int:
        return len(mush_text(t, ascii_only, server).encode("utf-8"))

    if size(text) <= budget:
        return text
    low, high = 0, len(text)  # the longest prefix that fits with the mark
    while low < high:
        mid = (low + high + 1) // 2
        if size(text[:mid].rstrip() + CUT_MARK) <= budget:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + CUT_MARK


def mush(definition: GameDefinition, cards: Sequence[Card], title: str | None = None,
         server: str = "pennmush", ascii_only: bool = False) -> Bundle:
    """The Dvorak MUSH Engine output: ``cleardeck``, one ``loadcard`` per card, and an ``@emit``
    of the escaped deck name (so a name such as ``pemit(me,X)`` is shown, never run). A TinyMUX file
    starts with :data:`workbench.services.exports.mush.UTF8_CHECK`.

    PennMUSH stores only Latin-1, so for it the text is folded to ASCII (``ascii_only`` does the
    same for TinyMUX); for TinyMUX the characters it drops are left out. The notes name the cards
    so changed and the cut ones. Raises DataError for an unknown server.
    """
    if server not in mushcode.SERVERS:
        raise DataError(f"MUSH server {server!r} is not supported; choose {' or '.join(mushcode.SERVERS)}")
    fold = ascii_only or server == "pennmush"
    name = one_line(title or definition.name)
    ordered = sort_cards(cards)
    lines = [f"@@ Card Workbench export for the Dvorak MUSH Engine on {server}: paste line by line.",
             *([mushcode.UTF8_CHECK] if server == "tinymux" else []), "cleardeck"]
    folded, cut = [], []
    for card in ordered:
        line, was_cut = _loadcard(definition, card, fold, server)
        lines.append(line)
        if was_cut:
            cut.append(str(card["id"]))
        exact = loadcard_title(card) + "/" + loadcard_text(definition, card, -10**9)
        if mushcode.server_text(exact, server, fold) != exact:
            folded.append(str(card["id"]))
    lines.append(f"@emit {mush_text(name, fold, server)} loaded: {len(cards)} cards.")
    bundle = Bundle(main=f"{slug(name)}-mush.txt")
    notes = []
    if folded:
        notes.append(f"{mushcode.change_note(server, ascii_only)}: {len(folded)} cards ({_listed(folded)}); "
                     "the mush export keeps the exact text")
    if cut:
        notes.append(f"the text of {len(cut)} cards was cut to fit one {MUSH_MAX_LINE_BYTES}-byte MUSH line: "
                     f"{_listed(cut)}; the mush export keeps all of it")
    lines[1:1] = [f"@@ {note}" for note in notes]
    bundle.add(bundle.main, "\n".join(lines) + "\n")
    bundle.notes += notes
    return bundle


def _listed(ids: list[str]) -> str:
    return ", ".join(ids[:20]) + (f" and {len(ids) - 20} more" if len(ids) > 20 else "")


def parse_stats_block(definition: GameDefinition, kind: str | None, text: str) -> tuple[dict[str, str], str]:
    """Split a Dvorak Text into ``{field: cell text}`` from a leading stats block, and the rest.

    Only a block whose every label is a field of the game counts; otherwise the text is returned
    untouched. Never raises.
    """
    match = re.match(r"^\[([^\]]*)\]\s?", text)
    if not match:
        return {}, text
    if kind in definition.kinds:
        fields = definition.fields_for(kind)
    else:
        fields = tuple(f for k in definition.kinds for f in definition.fields_for(k))
    by_label: Mapping[str, Any] = {f.label.lower(): f.name for f in fields} | {f.name: f.name for f in fields}
    found: dict[str, str] = {}
    for part in match.group(1).split(";"):
        label, sep, value = part.partition(":")
        key = by_label.get(label.strip().lower())
        if not sep or key is None:
            return {}, text
        found[str(key)] = value.strip()
    return found, text[match.end():]
