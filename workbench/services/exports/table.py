"""Cards as a spreadsheet: CSV and XLSX with one row per card, ready for the tabular import.

Columns are ``id``, ``name``, ``kind`` and every field of the game by its key, so an export
imports back with no mapping. Line ends inside a cell are LF, as in every other format.

A CSV cell that a spreadsheet would run as a formula (starting with ``= + - @`` or tab) is
neutralised with a leading apostrophe (issue 8), which the import removes again. An XLSX cell is
typed: it is written as a string cell, never a formula, and such a cell also gets Excel's
"quote prefix" flag (what Excel itself stores when you type ``'=x``), so the sheet shows the text
exactly, with no visible apostrophe, and editing the cell keeps it text. Characters that XML 1.0
cannot carry (control characters, U+FFFE, U+FFFF) would make the XLSX unreadable: they become
U+FFFD and the export says where.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any

from openpyxl import Workbook

from workbench.domain.gamedef import GameDefinition
from workbench.services.exports.common import (
    FORMULA_START,
    Bundle,
    Card,
    card_fields,
    cell_text,
    neutralise,
    sort_cards,
)

# Everything outside XML 1.0's Char production (tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD,
# U+10000-U+10FFFF) cannot be in an XLSX part, escaped or not.
NOT_XML_CHAR = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
REPLACEMENT = "\ufffd"


def lf_text(text: str) -> str:
    """Cell text with CRLF and CR line ends made LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def columns(definition: GameDefinition) -> list[str]:
    """The header row: id, name, kind, then every field key of the game."""
    return ["id", "name", "kind"] + [f.name for f in card_fields(definition) if f.name != "kind"]


def texts(definition: GameDefinition, cards: Sequence[Card]) -> list[list[str]]:
    """One list of cell texts (LF line ends) per card, in :func:`columns` order."""
    names = columns(definition)
    return [[lf_text(cell_text(card.get(n))) for n in names] for card in sort_cards(cards)]


def rows(definition: GameDefinition, cards: Sequence[Card]) -> list[list[str]]:
    """One list of neutralised cell texts per card, in :func:`columns` order (the CSV cells)."""
    return [[neutralise(text) for text in row] for row in texts(definition, cards)]


def export_csv(definition: GameDefinition, cards: Sequence[Card]) -> Bundle:
    """``<game>-cards.csv``: UTF-8 with a BOM (so Excel reads it as UTF-8), CRLF, quoted as needed."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns(definition))
    writer.writerows(rows(definition, cards))
    bundle = Bundle(main=f"{definition.id}-cards.csv")
    bundle.add(bundle.main, b"\xef\xbb\xbf" + out.getvalue().encode("utf-8"))
    return bundle


def export_xlsx(definition: GameDefinition, cards: Sequence[Card]) -> Bundle:
    """``<game>-cards.xlsx``: one sheet ``cards``; every cell a string, never a formula; a cell
    that starts like a formula is quote-prefixed (shown as written); characters XML cannot carry
    become U+FFFD, with a note naming the cells."""
    book = Workbook()
    sheet = book.active
    sheet.title = "cards"
    names = columns(definition)
    sheet.append(names)
    replaced: list[str] = []
    for r, values in enumerate(texts(definition, cards), start=2):
        for c, value in enumerate(values, start=1):
            clean = NOT_XML_CHAR.sub(REPLACEMENT, value)
            if clean != value:
                replaced.append(f"{values[0]} ({names[c - 1]})")
            cell: Any = sheet.cell(row=r, column=c)
            cell.value = clean
            cell.data_type = "s"  # openpyxl would take "=…" for a formula otherwise
            if clean.lstrip("'").startswith(FORMULA_START):
                cell.quotePrefix = True  # Excel's own mark for "text, though it looks like a formula"
    out = io.BytesIO()
    book.save(out)
    bundle = Bundle(main=f"{definition.id}-cards.xlsx")
    bundle.add(bundle.main, out.getvalue())
    if replaced:
        bundle.notes.append(f"{len(replaced)} cells hold characters an XLSX file cannot carry (control characters, "
                            f"U+FFFE, U+FFFF); they are written as U+FFFD: {', '.join(replaced[:10])}")
    return bundle
