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
    assert unneutralise(cell) == text.replace("\r\n", "\n").replace("\r", "\n")  # line ends are LF


# ------------------------------------------------------------------ issue 12


def test_csv_line_ends_inside_a_cell_are_lf_like_every_other_format(hostile_definition):
    card = {"id": "c1", "name": "N", "kind": "action", "text": "one\r\ntwo\rthree\nfour", "flavor": "\rx"}
    data = table.export_csv(hostile_definition, [card]).files["hostile-cards.csv"]
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    header = rows[0]
    assert rows[1][header.index("text")] == "one\ntwo\nthree\nfour"
    assert rows[1][header.index("flavor")] == "\nx"
    assert data.count(b"\r") == 2  # only the two record ends, CRLF as CSV wants


def test_xlsx_formula_like_cells_are_text_shown_exactly_without_an_apostrophe(hostile_definition):
    texts = {"name": "=SUM(A1:A9)", "text": "+1 power", "flavor": "-1 damage", "creator": "@mention",
             "number": "'=quoted"}
    card = {"id": "c1", "kind": "action", **texts}
    book = load_workbook(io.BytesIO(table.export_xlsx(hostile_definition, [card]).files["hostile-cards.xlsx"]))
    sheet = book.active
    header = [c.value for c in sheet[1]]
    for key, text in texts.items():
        cell = sheet.cell(row=2, column=header.index(key) + 1)
        assert cell.value == text and cell.data_type == "s" and cell.quotePrefix, (key, cell.value)
    assert not sheet.cell(row=2, column=header.index("id") + 1).quotePrefix


def test_xlsx_formula_like_cells_import_back_exactly(empty_repo_for_table):
    from workbench.services.imports import plan as import_plan

    repo = empty_repo_for_table
    definition = repo.game("fusion")
    texts = ["=SUM(A1)", "'=x", "''=x", "'plain", "-3 @all +1"]
    cards = [{"id": f"c{i}", "name": f"N{i}", "kind": "magic", "subtype": "quick", "cost": 1, "text": t}
             for i, t in enumerate(texts)]
    bundle = table.export_xlsx(definition, cards)
    plan = import_plan.dry_run(repo, "fusion", bundle.main, bundle.files[bundle.main])
    assert {r.card_id: r.data["text"] for r in plan.rows} == {c["id"]: c["text"] for c in cards}


def test_an_older_xlsx_with_visible_apostrophes_still_imports_right(empty_repo_for_table):
    """Sheets exported before the quote-prefix flag wrote '=x for =x; the import still reads those."""
    from openpyxl import Workbook

    from workbench.services.imports import plan as import_plan

    book = Workbook()
    book.active.append(["id", "name", "kind", "subtype", "cost", "text"])
    book.active.append(["c1", "N", "magic", "quick", "1", "'=SUM(A1)"])
    out = io.BytesIO()
    book.save(out)
    plan = import_plan.dry_run(empty_repo_for_table, "fusion", "old.xlsx", out.getvalue())
    assert plan.rows[0].data["text"] == "=SUM(A1)"


def test_characters_xml_cannot_carry_never_make_the_xlsx_unreadable(hostile_definition):
    text = "a\ufffeb\uffffc\x01d\x0be\x1ff \u6f22 \U0001f0a1 end"
    card = {"id": "c1", "name": "N\ufffe", "kind": "action", "text": text}
    bundle = table.export_xlsx(hostile_definition, [card])
    book = load_workbook(io.BytesIO(bundle.files["hostile-cards.xlsx"]))  # the old export raised ParseError here
    sheet = book.active
    header = [c.value for c in sheet[1]]
    assert sheet.cell(row=2, column=header.index("text") + 1).value == "a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf \u6f22 \U0001f0a1 end"
    assert sheet.cell(row=2, column=header.index("name") + 1).value == "N\ufffd"
    assert any("c1 (name)" in n and "c1 (text)" in n and "U+FFFD" in n for n in bundle.notes)
    assert table.export_xlsx(hostile_definition, [dict(card, name="N", text="fine")]).notes == []
