"""Cards as a spreadsheet: CSV and XLSX with one row per card, ready for the tabular import.

Columns are ``id``, ``name``, ``kind`` and every field of the game by its key, so an export
imports back with no mapping. Text cells that a spreadsheet would run as a formula (starting with
``= + - @``, tab or CR) are neutralised with a leading apostrophe (issue 8), which the import
removes again; XLSX cells are also typed as plain strings so no cell is ever a formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from workbench.domain.gamedef import GameDefinition
from workbench.services.exports.common import Bundle, Card, card_fields, cell_text, neutralise, sort_cards


def columns(definition: GameDefinition) -> list[str]:
    """The header row: id, name, kind, then every field key of the game."""
    return ["id", "name", "kind"] + [f.name for f in card_fields(definition) if f.name != "kind"]


def rows(definition: GameDefinition, cards: Sequence[Card]) -> list[list[str]]:
    """One list of neutralised cell texts per card, in :func:`columns` order."""
    names = columns(definition)
    return [[neutralise(cell_text(card.get(n))) for n in names] for card in sort_cards(cards)]


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
    """``<game>-cards.xlsx``: one sheet ``cards``; every cell a string, never a formula."""
    book = Workbook()
    sheet = book.active
    sheet.title = "cards"
    sheet.append(columns(definition))
    for r, values in enumerate(rows(definition, cards), start=2):
        for c, value in enumerate(values, start=1):
            cell: Any = sheet.cell(row=r, column=c)
            cell.value = ILLEGAL_CHARACTERS_RE.sub("", value)  # XLSX cannot hold control characters
            cell.data_type = "s"  # openpyxl would take "=…" for a formula otherwise
    out = io.BytesIO()
    book.save(out)
    bundle = Bundle(main=f"{definition.id}-cards.xlsx")
    bundle.add(bundle.main, out.getvalue())
    return bundle
