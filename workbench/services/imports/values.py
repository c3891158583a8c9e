"""Reading one cell of text back into a typed card value (the inverse of ``cell_text``).

Nothing here evaluates anything: a formula is text, JSON is parsed as data only, YAML is never
used. Errors are :class:`CellError` sentences that the callers prefix with the row and column.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.domain.errors import DataError
from workbench.domain.gamedef import FieldDef, GameDefinition

_INT = re.compile(r"^[+-]?\d+(?:\.0*)?$")
_NUMBER = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
TRUE_WORDS = {"yes", "y", "true", "1", "x", "✓", "on"}
FALSE_WORDS = {"no", "n", "false", "0", "off"}
MAX_JSON_CHARS = 50_000


class CellError(DataError):
    """A cell's text cannot be read as the field's type."""


def _column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (spreadsheet column names)."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(65 + rest) + name
    return name


def where(row: int, column: int, header: str) -> str:
    """``row 4, column C (Atk)``: how every import message names a cell."""
    return f"row {row}, column {_column_letter(column)} ({header})"


def _integer(text: str, fdef: FieldDef) -> Any:
    allowed = [str(a) for a in fdef.spec.get("also_allowed") or []]
    if text in allowed:
        return text
    if not _INT.match(text):
        extra = f" or {', '.join(allowed)}" if allowed else ""
        raise CellError(f"{text[:40]!r} is not a whole number{extra}")
    return int(float(text)) if "." in text else int(text)


def parse_cell(fdef: FieldDef | None, text: str) -> Any:
    """The typed value of a cell for field ``fdef`` (plain text when the field is unknown).

    Empty text gives None (the field is left out). Raises CellError naming what was expected.
    """
    if text.strip() == "":
        return None
    if fdef is None or fdef.type in {"string", "text"}:
        return text
    value = text.strip()
    if fdef.type == "integer":
        return _integer(value, fdef)
    if fdef.type == "number":
        if not _NUMBER.match(value):
            raise CellError(f"{value[:40]!r} is not a number")
        number = float(value)
        return int(number) if number.is_integer() and "." not in value and "e" not in value.lower() else number
    if fdef.type == "boolean":
        low = value.lower()
        if low in TRUE_WORDS:
            return True
        if low in FALSE_WORDS:
            return False
        raise CellError(f"{value[:40]!r} is not yes or no")
    if fdef.type == "list":
        if value.startswith("["):
            items = _json(value, "a list")
            if not isinstance(items, list):
                raise CellError("a list must be written as a, b, c or as a JSON list")
        else:
            items = [part.strip() for part in value.split(",") if part.strip()]
        item_type = (fdef.spec.get("items") or {}).get("type")
        if item_type == "integer":
            items = [_integer(str(i), fdef) if isinstance(i, str) else i for i in items]
        return items
    if fdef.type == "materials":
        materials = _json(value, "a list of materials") if value.startswith("[") else [
            part.strip() for part in value.split("+") if part.strip()]
        if not isinstance(materials, list):
            raise CellError("materials must be card names joined by + or a JSON list")
        return materials
    if fdef.type == "effects":
        effects = _json(value, "a list of effects")
        if not isinstance(effects, list) or not all(isinstance(e, Mapping) for e in effects):
            raise CellError("effects must be a JSON list of effect objects")
        return effects
    return text


def _json(text: str, what: str) -> Any:
    if len(text) > MAX_JSON_CHARS:
        raise CellError(f"{what} longer than {MAX_JSON_CHARS:,} characters is refused")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise CellError(f"{what} must be valid JSON: {exc}") from None


def parse_kind(definition: GameDefinition, text: str) -> str:
    """A kind id from its id or label (any case). Raises CellError listing the kinds."""
    value = text.strip()
    for kid, kind in definition.kinds.items():
        if value.lower() in {kid.lower(), kind.label.lower()}:
            return kid
    raise CellError(f"kind {value[:40]!r} is not one of: {', '.join(definition.kinds)}")


def field_lookup(definition: GameDefinition) -> dict[str, str]:
    """Lower-case header text -> field name, from field keys and labels (and ``kind``/``type``)."""
    lookup: dict[str, str] = {"kind": "kind", "type": "kind", "card kind": "kind", "id": "id",
                              "card id": "id", "name": "name", "title": "name"}
    fields: list[FieldDef] = list(definition.common_fields)
    for kind in definition.kinds.values():
        fields += list(kind.fields)
    for fdef in fields:
        lookup.setdefault(fdef.name.lower(), fdef.name)
        lookup.setdefault(fdef.label.lower(), fdef.name)
        lookup.setdefault(fdef.name.replace("_", " ").lower(), fdef.name)
    return lookup


def field_def(definition: GameDefinition, kind: str | None, name: str) -> FieldDef | None:
    """The field ``name`` as defined for ``kind`` (or for any kind when the kind is unknown)."""
    if kind in definition.kinds:
        for fdef in definition.fields_for(kind):
            if fdef.name == name:
                return fdef
    for fdef in definition.common_fields:
        if fdef.name == name:
            return fdef
    for k in definition.kinds.values():
        for fdef in k.fields:
            if fdef.name == name:
                return fdef
    return None


def column_names(headers: Sequence[str]) -> list[str]:
    """Headers made unique for messages (empty ones named by their letter)."""
    return [h if h.strip() else f"column {_column_letter(i)}" for i, h in enumerate(headers)]
