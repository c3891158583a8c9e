"""CSV/XLSX card sheets: formula cells neutralised, XLSX cells never formulas."""

from __future__ import annotations

import csv
import io

from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook

from workbench.domain.gamedef import parse_definition

from workbench.services.exports import table
from workbench.services.exports.common import neutralise, unneutralise

from .conftest import HOSTILE_RAW


def test_neutralise_is_reversible():
    for text in ["=SUM(A1)", "+1", "-1", "@x", "\tx", "'=x", "''=x", "'plain", "plain", ""]:
        assert unneutralise(neutralise(text)) == text
    assert neutralise("=1+1") == "'=1+1" and neutralise("fine") == "fine"


def test_csv_cells_that_look_like_formulas_are_neutralised(hostile_definition, hostile_cards):
    bundle = table.export_csv(hostile_definition, hostile_cards)
    data = bundle.files[bundle.main]
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0][:3] == ["id", "name", "kind"]
    for row in rows[1:]:
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert any(cell == "'=SUM(A1:A9)" for row in rows for cell in row)


def test_xlsx_cells_are_strings(hostile_definition, hostile_cards):
    bundle = table.export_xlsx(hostile_definition, hostile_cards)
    book = load_workbook(io.BytesIO(bundle.files[bundle.main]))
    sheet = book.active
    types = {cell.data_type for row in sheet.iter_rows(min_row=2) for cell in row if cell.value is not None}
    assert types == {"s"}


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")))
def test_any_text_survives_a_csv_round_trip(text):
    from workbench.services.imports.tabular import read_csv

    definition = parse_definition(HOSTILE_RAW)
    card = {"id": "c1", "name": "N", "kind": "action", "text": text}
    data = table.export_csv(definition, [card]).files["hostile-cards.csv"]
    parsed = read_csv(data)
    cell = parsed.rows[0][1][parsed.headers.index("text")]
    assert unneutralise(cell) == text
