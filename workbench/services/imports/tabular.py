"""CSV and XLSX card sheets: reading the file, mapping columns to fields, building cards.

A sheet is read into a :class:`Table` (header + rows of text) with size caps checked first; a
column mapping says which column fills which field; :func:`rows_to_cards` turns each row into
card data, naming the row and column of every cell it cannot read. Nothing is evaluated: XLSX
formulas are refused (paste values), CSV text that looks like a formula stays text, and the
apostrophe our own export adds against formula injection is removed again.
"""

from __future__ import annotations

import csv
import io
import re
import time
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.domain.errors import DataError
from workbench.domain.gamedef import GameDefinition
from workbench.domain.ids import is_valid_id
from workbench.services.exports.common import neutralise, unneutralise
from workbench.services.imports.values import (
    CellError,
    column_names,
    field_def,
    field_lookup,
    parse_cell,
    parse_kind,
    where,
)

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_ROWS = 5000
MAX_COLUMNS = 200
MAX_CELL_CHARS = 20_000
MAX_XLSX_UNPACKED = 100 * 1024 * 1024
MAX_XLSX_MEMBERS = 2000
# A sheet's XML is counted before openpyxl parses it: ``<c/>`` costs 4 bytes and compresses
# about 1000:1, so a 25 KiB file could hold millions of empty cells (26 s of parsing).
MAX_XLSX_CELLS = 250_000  # cells (empty ones too) in the first sheet
MAX_XLSX_STRINGS = 250_000  # entries of the shared-strings table
MAX_XLSX_SECONDS = 15.0  # reading the rows stops after this long
_CELL_TAGS = (b"<c ", b"<c>", b"<c/", b":c ", b":c>", b":c/")  # <c>, or <x:c> with a prefix
_STRING_TAGS = (b"<si>", b"<si ", b"<si/", b":si>", b":si ", b":si/")
IGNORE = ""  # mapping target meaning "do not import this column"


class ImportFileError(DataError):
    """The file as a whole cannot be read (encoding, size, structure); the message says where."""


@dataclass
class Table:
    """A sheet as text: header cells and ``(row number in the file, cells)`` per data row."""

    headers: list[str]
    rows: list[tuple[int, list[str]]]
    notes: list[str] = field(default_factory=list)
    cell_problems: dict[int, list[str]] = field(default_factory=dict)  # file row -> problems


@dataclass
class ImportRow:
    """One row read as a card: its file row, the id it asks for (if any), its data, problems."""

    row: int
    card_id: str | None
    data: dict[str, Any]
    problems: list[str] = field(default_factory=list)

    @property
    def readable(self) -> bool:
        """False when a cell could not be read (the row is skipped)."""
        return not self.problems


def check_size(data: bytes, what: str = "file") -> None:
    """Raise ImportFileError when ``data`` is over the import size cap."""
    if len(data) > MAX_FILE_BYTES:
        raise ImportFileError(f"the {what} is {len(data):,} bytes; imports are limited to {MAX_FILE_BYTES:,}")


def decode_text(data: bytes) -> str:
    """UTF-8 text (a BOM is dropped). Raises ImportFileError naming the line of a bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ImportFileError(
            f"line {line}: byte 0x{data[exc.start]:02x} is not UTF-8; save the file as UTF-8 text"
        ) from None


def _check_shape(headers: list[str], rows: list[tuple[int, list[str]]]) -> None:
    if len(headers) > MAX_COLUMNS:
        raise ImportFileError(f"the header has {len(headers)} columns; the limit is {MAX_COLUMNS}")
    if len(rows) > MAX_ROWS:
        raise ImportFileError(f"the file has {len(rows):,} rows; the limit is {MAX_ROWS:,}")
    for number, cells in rows:
        for i, cell in enumerate(cells):
            if len(cell) > MAX_CELL_CHARS:
                name = headers[i] if i < len(headers) else "?"
                raise ImportFileError(f"{where(number, i, name)}: the cell has {len(cell):,} characters; "
                                      f"the limit is {MAX_CELL_CHARS:,}")


def read_csv(data: bytes) -> Table:
    """A CSV sheet (comma, semicolon or tab separated, detected from the header line).

    Raises ImportFileError for an oversized, non-UTF-8, empty or malformed file.
    """
    check_size(data)
    text = decode_text(data)
    first = text.split("\n", 1)[0]
    delimiter = max([",", ";", "\t"], key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    lines: list[list[str]] = []
    try:
        for cells in reader:
            lines.append(cells)
            if len(lines) > MAX_ROWS + 1:
                raise ImportFileError(f"the file has more than {MAX_ROWS:,} rows")
    except csv.Error as exc:
        raise ImportFileError(f"line {reader.line_num}: the CSV file cannot be read: {exc} "
                              "(check for an unclosed quote)") from None
    return _table(lines, "CSV")


def _table(lines: list[list[str]], what: str) -> Table:
    numbered = [(i + 1, cells) for i, cells in enumerate(lines)]
    numbered = [(n, c) for n, c in numbered if any(cell.strip() for cell in c)]
    if not numbered:
        raise ImportFileError(f"the {what} file is empty")
    (_, headers), rows = numbered[0], numbered[1:]
    headers = [h.strip() for h in headers]
    while headers and not headers[-1]:
        headers.pop()
    if not headers:
        raise ImportFileError(f"the {what} file has no header row")
    _check_shape(headers, rows)
    return Table(headers, rows)


def read_xlsx(data: bytes) -> Table:
    """The first sheet of an XLSX workbook. Formulas are refused cell by cell (never evaluated).

    Raises ImportFileError for an oversized file, a zip bomb, or a file that is not XLSX.
    """
    check_size(data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except zipfile.BadZipFile:
        raise ImportFileError("the file is not an XLSX workbook (not a zip archive)") from None
    if len(members) > MAX_XLSX_MEMBERS or sum(m.file_size for m in members) > MAX_XLSX_UNPACKED:
        raise ImportFileError("the XLSX workbook unpacks to more than the import limit")
    started = time.monotonic()
    try:
        count, strings = _count_xlsx_parts(data, members)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError, ValueError) as exc:
        raise ImportFileError(f"the XLSX workbook cannot be read: {type(exc).__name__}: {exc}") from None
    if strings > MAX_XLSX_STRINGS:
        raise ImportFileError(f"the workbook's shared-strings table has {strings:,} entries; imports read at most "
                              f"{MAX_XLSX_STRINGS:,} (nothing was imported)")
    # Every sheet counts: opening the workbook reads each sheet whose size is not declared.
    if count > MAX_XLSX_CELLS:
        raise ImportFileError(f"the workbook's sheets hold {count:,} cells (empty ones included); imports read at "
                              f"most {MAX_XLSX_CELLS:,}, about {MAX_ROWS:,} rows of 50 columns (nothing was imported)")
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except Exception as exc:  # openpyxl raises many types for broken files
        raise ImportFileError(f"the XLSX workbook cannot be read: {type(exc).__name__}: {exc}") from None
    notes: list[str] = []
    try:
        sheet = book.worksheets[0]
        if (sheet.max_column or 0) > MAX_COLUMNS:
            notes.append(f"the sheet is {sheet.max_column:,} columns wide; only the first {MAX_COLUMNS} were read")
        lines: list[list[str]] = []
        formulas: list[tuple[int, int]] = []
        rows = sheet.iter_rows(max_col=min(MAX_COLUMNS, sheet.max_column or MAX_COLUMNS), max_row=MAX_ROWS + 2)
        for r, row in enumerate(rows, start=1):
            if r > MAX_ROWS + 1:
                raise ImportFileError(f"the workbook has more than {MAX_ROWS:,} rows")
            if time.monotonic() - started > MAX_XLSX_SECONDS:
                raise ImportFileError(f"reading the workbook took more than {MAX_XLSX_SECONDS:g} s (stopped at row "
                                      f"{r:,}); nothing was imported: save a smaller sheet, or as CSV")
            cells = []
            for c, cell in enumerate(row):
                if c >= MAX_COLUMNS:
                    break
                value = cell.value
                if getattr(cell, "data_type", None) == "f":
                    formulas.append((r, c))
                    value = None
                text = _xlsx_text(value)
                if _quote_prefixed(cell):
                    # Shown as text though it may look like a formula (our export, or '=x typed
                    # in Excel): the value is exact, so guard it against the unneutralise below.
                    text = neutralise(text)
                cells.append(text)
            lines.append(cells)
    finally:
        book.close()
    table = _table(lines, "XLSX")
    table.notes.extend(notes)
    names = column_names(table.headers)
    for r, c in formulas:
        header = names[c] if c < len(names) else "?"
        table.cell_problems.setdefault(r, []).append(
            f"{where(r, c, header)}: the cell holds a formula; imports never evaluate formulas, so paste its value")
    return table


def _count_xlsx_parts(data: bytes, members: list[zipfile.ZipInfo]) -> tuple[int, int]:
    """(cells, shared strings) in the raw XML of every member of the archive, counted a
    megabyte at a time (about 0.15 s for the 100 MiB the unpacked cap allows) before any XML is
    parsed. Every member counts, wherever the workbook's relations put its sheets."""
    cells = strings = 0
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in members:
            tail = b""
            with archive.open(member) as handle:
                while chunk := handle.read(1 << 20):
                    buf = tail + chunk
                    cells += sum(buf.count(t) - tail.count(t) for t in _CELL_TAGS)
                    strings += sum(buf.count(t) - tail.count(t) for t in _STRING_TAGS)
                    tail = buf[-8:]
    return cells, strings


def _quote_prefixed(cell: Any) -> bool:
    """Whether an XLSX cell carries Excel's quote-prefix flag (read-only cells keep it in their
    style array)."""
    style = getattr(cell, "style_array", None)
    return bool(getattr(style, "quotePrefix", False)) if style is not None else bool(getattr(cell, "quotePrefix", False))


def _xlsx_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def read_table(data: bytes, filename: str) -> Table:
    """A CSV or XLSX file by its name's extension. Raises ImportFileError."""
    low = filename.lower()
    if low.endswith((".xlsx", ".xlsm")):
        return read_xlsx(data)
    return read_csv(data)


# ------------------------------------------------------------------ column mapping


def parse_mapping(text: str | None) -> dict[str, str]:
    """``"Card Name=name, Atk=atk, Notes="`` (or one pair per line) -> {header: field}.

    An empty target ignores the column. Raises DataError for a pair without ``=``.
    """
    mapping: dict[str, str] = {}
    for part in re.split(r"[\n,]", text or ""):
        if not part.strip():
            continue
        header, sep, target = part.partition("=")
        if not sep:
            raise DataError(f"mapping entry {part.strip()[:40]!r} must be written Column=field")
        mapping[header.strip()] = target.strip()
    return mapping


def auto_mapping(definition: GameDefinition, headers: list[str], given: Mapping[str, str] | None = None) -> dict[str, str]:
    """{header: field or IGNORE}: the given mapping first, then headers that name a field by key
    or label (any case). Raises DataError when the given mapping names an unknown column or field."""
    lookup = field_lookup(definition)
    known = set(lookup.values())
    given = dict(given or {})
    lower = {h.lower(): h for h in headers}
    mapping: dict[str, str] = {}
    for header, target in given.items():
        if header.lower() not in lower:
            raise DataError(f"the mapping names column {header!r}, which the file does not have; "
                            f"columns: {', '.join(headers)}")
        if target and target not in known:
            raise DataError(f"the mapping sends column {header!r} to {target!r}, which is not a field of "
                            f"{definition.name}; fields: {', '.join(sorted(known))}")
        mapping[lower[header.lower()]] = target
    for header in headers:
        if header not in mapping:
            mapping[header] = lookup.get(header.lower(), IGNORE)
    return mapping


# ------------------------------------------------------------------ rows to cards


def rows_to_cards(
    definition: GameDefinition,
    table: Table,
    mapping: Mapping[str, str],
    transform: Callable[[dict[str, str]], dict[str, str]] | None = None,
) -> list[ImportRow]:
    """Each data row as card data, by the mapping. ``transform`` may rewrite a row's
    {field: text} before typing (the Dvorak stats block). Cell problems name row and column."""
    names = column_names(table.headers)
    targets = [mapping.get(h, IGNORE) for h in table.headers]
    single_kind = next(iter(definition.kinds)) if len(definition.kinds) == 1 else None
    result = []
    for number, cells in table.rows:
        problems: list[str] = list(table.cell_problems.get(number, []))
        texts: dict[str, str] = {}
        columns: dict[str, int] = {}
        for i, target in enumerate(targets):
            if not target:
                continue
            cell = unneutralise(cells[i]) if i < len(cells) else ""
            if cell.strip() or target not in texts:
                texts[target] = cell
                columns[target] = i
        if len(cells) > len(targets) and any(c.strip() for c in cells[len(targets):]):
            problems.append(f"row {number}: {len(cells)} cells but the header has {len(targets)} columns")
        if transform:
            texts = transform(texts)
        data: dict[str, Any] = {}
        card_id = texts.pop("id", "").strip() or None
        if card_id is not None and not is_valid_id(card_id):
            card_id = None  # foreign ids (Lackey image names) are not ours; match by name instead
        kind_text = texts.pop("kind", "")
        kind: str | None = None
        if kind_text.strip():
            try:
                kind = parse_kind(definition, kind_text)
            except CellError as exc:
                i = columns.get("kind", 0)
                problems.append(f"{where(number, i, names[i])}: {exc}")
        elif single_kind:
            kind = single_kind
        if kind:
            data["kind"] = kind
        for name, text in texts.items():
            fdef = field_def(definition, kind, name)
            try:
                value = parse_cell(fdef, text)
            except CellError as exc:
                i = columns.get(name)
                place = where(number, i, names[i]) if i is not None else f"row {number}, field {name}"
                problems.append(f"{place}: {exc}")
                continue
            if value is not None:
                data[name] = value
        if not str(data.get("name", "")).strip():
            i = columns.get("name")
            place = where(number, i, names[i]) if i is not None else f"row {number}"
            problems.append(f"{place}: the card has no name")
        result.append(ImportRow(number, card_id, data, problems))
    return result
