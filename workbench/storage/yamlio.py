"""Safe YAML reading and comment-keeping YAML writing.

Reading: a size cap before parsing, a pass over the parser's events that refuses anchors and
aliases (alias bombs) and deep nesting, then the safe loader (``yaml.safe_load``'s loader, in
its C build when available), which refuses python tags; dates and times are read as the text
written (the data goes on into JSON). Writing: ruamel.yaml's round-trip
mode, merged into the file's existing document, so comments, key order and fields the workbench
does not know survive a save; CJK is written as-is, not escaped.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import SingleQuotedScalarString

from workbench.domain.errors import DataError

MAX_YAML_BYTES = 512 * 1024
MAX_DEPTH = 32


# libyaml's C parser when present: about seven times faster, which a 1,000-card gallery needs.
_FastSafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"


class _TextDatesLoader(_FastSafeLoader):  # type: ignore[misc,valid-type]
    """The safe loader, reading a date or time (``printed: 2026-01-01``) as the text written.

    Card data goes on into JSON (table and playtest files, the API), which has no dates: a
    ``datetime.date`` there stopped the table with a 500 when a card file held one.
    """


_TextDatesLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != _TIMESTAMP_TAG]
    for first, resolvers in _FastSafeLoader.yaml_implicit_resolvers.items()
}
_TextDatesLoader.add_constructor(_TIMESTAMP_TAG, lambda loader, node: loader.construct_scalar(node))
_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


_PLAIN_TAGS = frozenset(f"tag:yaml.org,2002:{name}" for name in
                        ("str", "int", "float", "bool", "null", "seq", "map", "timestamp"))
"""Explicit tags that build what JSON holds too (a timestamp is read as its text): ``!!binary``
(bytes), ``!!set``, ``!!omap`` and ``!!pairs`` are refused, as the data goes on into JSON files."""


def _check_events(text: str) -> None:
    """Refuse anchors and aliases (alias bombs), tags building what JSON cannot hold, and deep
    nesting before anything is built."""
    depth = 0
    for event in yaml.parse(text, Loader=_FastSafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise DataError(f"YAML anchors and aliases are not allowed (line {event.start_mark.line + 1})")
        tag = getattr(event, "tag", None)
        if tag is not None and tag != "!" and tag not in _PLAIN_TAGS:
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise DataError(f"the YAML tag {shown} is not allowed (line {event.start_mark.line + 1}): the workbench's "
                            "files hold text, numbers, yes/no, lists and mappings")
        if isinstance(event, _OPEN):
            depth += 1
            if depth > MAX_DEPTH:
                raise DataError(f"YAML nesting is deeper than {MAX_DEPTH} levels")
        elif isinstance(event, _CLOSE):
            depth -= 1


def parse_yaml(data: bytes | str, max_bytes: int = MAX_YAML_BYTES, source: str = "YAML") -> Any:
    """Parse YAML text safely.

    Raises DataError when the text is larger than ``max_bytes``, is not valid UTF-8 or YAML,
    uses anchors/aliases or tags that construct objects, or nests too deeply.
    """
    return _parse(data, max_bytes, source, yaml.load)


def parse_yaml_documents(data: bytes | str, max_bytes: int = MAX_YAML_BYTES, source: str = "YAML") -> list[Any]:
    """Every document of a YAML stream (``---`` between them), parsed as :func:`parse_yaml` does.

    Raises DataError as :func:`parse_yaml` does.
    """
    return list(_parse(data, max_bytes, source, yaml.load_all))


def _parse(data: bytes | str, max_bytes: int, source: str, load: Any) -> Any:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > max_bytes:
        raise DataError(f"{source} is {len(raw):,} bytes; the limit is {max_bytes:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{source} is not UTF-8 text (byte {exc.start})") from None
    try:
        _check_events(text)
        parsed = load(text, Loader=_TextDatesLoader)  # noqa: S506 - the safe loader (C or Python)
        return parsed if load is yaml.load else list(parsed)
    except DataError:
        raise
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataError(f"{source} is not valid YAML{where}: {problem}") from None
    except RecursionError:
        raise DataError(f"{source} nests too deeply") from None


def _round_trip() -> YAML:
    rt = YAML(typ="rt")
    rt.allow_unicode = True
    rt.width = 4096  # long effect texts stay on one line: diff-friendly
    rt.indent(mapping=2, sequence=4, offset=2)
    rt.preserve_quotes = True
    return rt


def _merge(target: Any, new: Any) -> Any:
    """Update ruamel containers in place so comments and order on kept keys survive."""
    if not isinstance(target, (CommentedMap, CommentedSeq)) and type(new) in (str, int, float, bool):
        # An unchanged scalar keeps its style (folded text, quotes); bool is not an int here.
        if isinstance(target, bool) == isinstance(new, bool) and target == new:
            return target
    if isinstance(new, Mapping) and isinstance(target, CommentedMap):
        for key in list(target.keys()):
            if key not in new:
                del target[key]
        for key, value in new.items():
            if key in target:
                target[key] = _merge(target[key], value)
            else:
                target[key] = _to_ruamel(value)
        return target
    if isinstance(new, list) and isinstance(target, CommentedSeq) and len(new) == len(target):
        for i, value in enumerate(new):
            target[i] = _merge(target[i], value)
        return target
    return _to_ruamel(new)


_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVER = yaml.resolver.Resolver()


def _needs_quotes(text: str) -> bool:
    """True when the reader (YAML 1.1: yes/no/on/off are booleans, 1_000 is a number …) would
    not read ``text`` back as a string if it were written plain. ruamel writes YAML 1.2 and
    leaves such strings plain, so they would come back as another type."""
    return _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) != _STR_TAG


def _to_ruamel(value: Any) -> Any:
    if type(value) is str and _needs_quotes(value):  # ruamel's own string types keep their style
        return SingleQuotedScalarString(value)
    if isinstance(value, Mapping):
        out = CommentedMap()
        for k, v in value.items():
            out[k] = _to_ruamel(v)
        return out
    if isinstance(value, (list, tuple)):
        return CommentedSeq(_to_ruamel(v) for v in value)
    return value


def dump_yaml(data: Mapping[str, Any], previous_text: str | None = None) -> str:
    """Serialise ``data`` as YAML; when ``previous_text`` is given, keep its comments and order.

    Keys of ``data`` keep the order given (callers order them by the game definition); keys in
    the old file keep their place.
    """
    rt = _round_trip()
    document: Any = None
    if previous_text:
        try:
            document = rt.load(previous_text)
        except Exception:  # a broken old file is simply replaced
            document = None
    document = _merge(document, data) if isinstance(document, CommentedMap) else _to_ruamel(data)
    stream = io.StringIO()
    rt.dump(document, stream)
    return stream.getvalue()
