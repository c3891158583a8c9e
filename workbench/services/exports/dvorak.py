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

from workbench.domain.gamedef import FieldDef, GameDefinition
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


def mush_text(text: str) -> str:
    """Dvorak's MUSH text: newlines as ``%r``, tabs as spaces (reference formats.md §2.1).

    The MUSH evaluates the line (that is what turns ``%r`` into a newline), so ``\\``, ``%``, ``[``
    and ``]`` get a backslash: card text can never run code or eat a substitution. Everything else
    stays raw, as the wiki writes it.
    """
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = text.replace("\\", "\\\\").replace("%", "\\%").replace("[", "\\[").replace("]", "\\]")
    return text.replace("\n", "%r")


def loadcard(definition: GameDefinition, card: Card) -> str:
    """One ``loadcard <Title>/<T|A>/<Text>`` line; a ``/`` in the title becomes ``-``."""
    title = mush_text(str(card.get("name", ""))).replace("/", "-").replace("%r", " ")
    text = mush_text(card_text(definition, card))
    flavor = mush_text(str(card.get("flavor") or ""))
    if flavor:
        text = f'{text} ("{flavor}")' if text else f'("{flavor}")'
    return f"loadcard {title}/{type_letter(card)}/{text}"


def mush(definition: GameDefinition, cards: Sequence[Card], title: str | None = None) -> Bundle:
    """The Dvorak MUSH Engine output: ``cleardeck``, one ``loadcard`` per card, and an ``@emit``."""
    name = one_line(title or definition.name)
    lines = ["cleardeck"] + [loadcard(definition, card) for card in sort_cards(cards)]
    lines.append(f"@emit {mush_text(name)} loaded: {len(cards)} cards.")
    bundle = Bundle(main=f"{slug(name)}-mush.txt")
    bundle.add(bundle.main, "\n".join(lines) + "\n")
    return bundle


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
