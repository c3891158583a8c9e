"""Issue 13 item 11: small XLSX imports must not cost minutes of CPU.

``<c/>`` (an empty cell) is 4 bytes of XML and compresses about 1000:1: a 25 KiB workbook held
4.9 million empty cells and took 26 s to read (the issue's 96 KiB file: 40 s, 683 MiB). The
sheet's cells and the shared strings are now counted in the raw XML before openpyxl parses
anything, rows are read in read-only mode up to the row and column caps, and reading stops
after a time cap; the refusal says what was refused.
"""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from openpyxl import Workbook

from workbench.services.imports import tabular
from workbench.services.imports.tabular import ImportFileError, read_xlsx

SHEET_HEAD = (b'<?xml version="1.0" encoding="UTF-8"?><worksheet '
              b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">')


def workbook(rows: list[list[str]]) -> bytes:
    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def replace_member(xlsx: bytes, name: str, data: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(xlsx))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        for info in source.infolist():
            target.writestr(info.filename, data if info.filename == name else source.read(info.filename))
        if name not in source.namelist():
            target.writestr(name, data)
    return out.getvalue()


def empty_cells(rows: int, cols: int) -> bytes:
    sheet = SHEET_HEAD + b"<sheetData>" + (b"<row>" + b"<c/>" * cols + b"</row>") * rows + b"</sheetData></worksheet>"
    return replace_member(workbook([["name", "kind"]]), "xl/worksheets/sheet1.xml", sheet)


def test_a_small_file_of_millions_of_empty_cells_is_refused_at_once() -> None:
    data = empty_cells(300, 16_384)
    assert len(data) < 64 * 1024
    started = time.thread_time()  # CPU seconds of this thread: the bound holds on a busy machine
    with pytest.raises(ImportFileError, match=r"4,915,200 cells .* at most 250,000") as caught:
        read_xlsx(data)
    assert time.thread_time() - started < 2.0
    assert "nothing was imported" in str(caught.value)


def test_a_huge_shared_strings_table_is_refused_before_parsing() -> None:
    strings = (b'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/'
               b'spreadsheetml/2006/main">' + b"<si><t/></si>" * 400_000 + b"</sst>")
    data = replace_member(workbook([["name", "kind"], ["A", "monster"]]), "xl/sharedStrings.xml", strings)
    started = time.thread_time()  # CPU seconds of this thread: the bound holds on a busy machine
    with pytest.raises(ImportFileError, match="shared-strings table has 400,000 entries"):
        read_xlsx(data)
    assert time.thread_time() - started < 2.0


def test_reading_stops_at_the_time_cap(monkeypatch) -> None:
    monkeypatch.setattr(tabular, "MAX_XLSX_SECONDS", -1.0)
    with pytest.raises(ImportFileError, match=r"took more than -1 s \(stopped at row 1\)"):
        read_xlsx(workbook([["name", "kind"], ["A", "monster"]]))


def test_columns_past_the_cap_are_reported_not_read() -> None:
    header = ["name", "kind"] + [f"extra{i}" for i in range(tabular.MAX_COLUMNS + 10)]
    table = read_xlsx(workbook([header[: tabular.MAX_COLUMNS] + header[tabular.MAX_COLUMNS:], ["A", "monster"]]))
    assert len(table.headers) == tabular.MAX_COLUMNS
    assert any("columns wide" in note and str(tabular.MAX_COLUMNS) in note for note in table.notes)


def test_a_normal_sheet_still_reads() -> None:
    table = read_xlsx(workbook([["name", "kind", "power"]] + [[f"Card {i}", "monster", i] for i in range(1, 300)]))
    assert len(table.rows) == 299 and table.rows[0][1][:3] == ["Card 1", "monster", "1"]


def test_the_import_page_answers_the_bomb_with_a_400(env) -> None:
    client = env.app.test_client(use_cookies=False)
    started = time.perf_counter()
    answer = client.post("/games/seth/import", data={"file": (io.BytesIO(empty_cells(300, 16_384)), "cards.xlsx")},
                         content_type="multipart/form-data")
    assert answer.status_code == 400 and "cells" in answer.get_data(as_text=True)
    assert time.perf_counter() - started < 5
