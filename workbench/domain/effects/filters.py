"""Filters and conditions: read once from an entry's ``filter``, ``if`` and ``per`` keys.

The same readers serve the card validator (``vocabulary.check_effects`` reports their problems)
and the parser (``parse.py`` keeps what they build), so what validates is what runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard

from workbench.domain.effects.vocabulary import CONDITIONS, SIDES, ZONES


class FilterSource(Protocol):
    """What matching a filter needs of an effect's source (``spec.Source``): its card and unit."""

    @property
    def unit(self) -> Any: ...

    @property
    def card(self) -> Any: ...

    @property
    def controller(self) -> int: ...


class ValueReader(Protocol):
    """What matching a filter needs of a game's adapter: a field, stat or state of a card, and
    which of them a player may read (a face-down card of another player shows only some)."""

    def value(self, s: Any, item: Any, key: str) -> Any: ...

    def seen_keys(self, s: Any, item: Any, viewer: int) -> frozenset[str] | None: ...

Problem = tuple[str, str, Any, Any]
"""(code, message, actual, allowed) as the validator reports it."""

Scalar = int | str


@dataclass(frozen=True, slots=True)
class Test:
    """One filter key: equal to one of ``values``, within ``low``..``high``, or ``flag``."""

    key: str
    values: frozenset[Scalar] | None = None
    low: int | None = None
    high: int | None = None
    flag: bool | None = None


@dataclass(frozen=True, slots=True)
class Filter:
    tests: tuple[Test, ...]

    def keys(self) -> frozenset[str]:
        return frozenset(t.key for t in self.tests)


@dataclass(frozen=True, slots=True)
class Condition:
    """``if:`` (or ``per:``, kind ``count`` without bounds)."""

    kind: str
    zone: str = "field"
    side: str = "own"
    filter: Filter | None = None
    low: int | None = None
    high: int | None = None
    counter: str = ""


def _whole(value: object) -> TypeGuard[int]:
    """A whole number (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def norm(value: object) -> Scalar:
    """Text compares without case or surrounding blanks; numbers as numbers."""
    if _whole(value):
        return int(value)
    return str(value).strip().lower()


def read_filter(raw: object, allowed: Iterable[str] | None) -> tuple[Filter | None, list[Problem]]:
    """A ``filter`` mapping; ``allowed`` the keys the game knows (None: any)."""
    if not isinstance(raw, Mapping) or not raw:
        return None, [("effect.bad_filter", f"filter is {raw!r}; it must map card fields or states to "
                       "values, e.g. {kind: creature, strength: {min: 500}}", raw, None)]
    names = sorted(allowed) if allowed is not None else None
    tests: list[Test] = []
    problems: list[Problem] = []
    for key, value in raw.items():
        key = str(key)
        if names is not None and key not in names:
            problems.append(("effect.unknown_filter", f"filter key {key!r} is not a card field, stat or "
                             f"state of this game; allowed: {', '.join(names)}", key, names))
            continue
        if isinstance(value, bool):
            tests.append(Test(key, flag=value))
        elif _whole(value) or isinstance(value, str):
            tests.append(Test(key, values=frozenset({norm(value)})))
        elif isinstance(value, list) and value and all(_whole(v) or isinstance(v, str) for v in value):
            tests.append(Test(key, values=frozenset(norm(v) for v in value)))
        elif isinstance(value, Mapping) and value and set(value) <= {"min", "max"} and all(
                _whole(v) for v in value.values()):
            tests.append(Test(key, low=value.get("min"), high=value.get("max")))
        else:
            problems.append(("effect.bad_filter", f"filter {key}: {value!r} must be a value, a list of "
                             "values, true/false or {min: N, max: N}", value, None))
    return (Filter(tuple(tests)) if tests and not problems else None), problems


def _bounds(name: str, raw: Mapping[str, Any], need: bool) -> tuple[int | None, int | None, list[Problem]]:
    low, high = raw.get("min"), raw.get("max")
    problems: list[Problem] = []
    for label, v in (("min", low), ("max", high)):
        if v is not None and not _whole(v):
            problems.append(("effect.bad_condition", f"{name} {label} is {v!r}; a whole number", v, None))
    if need and low is None and high is None:
        problems.append(("effect.bad_condition", f"{name} needs min or max, e.g. {{min: 3}}", dict(raw), None))
    return low, high, problems


def _side(name: str, raw: Mapping[str, Any], problems: list[Problem]) -> str:
    side = raw.get("side", "own")
    if side not in SIDES:
        problems.append(("effect.bad_condition", f"{name} side is {side!r}; allowed: {', '.join(SIDES)}",
                         side, list(SIDES)))
        return "own"
    return str(side)


def read_zone_count(name: str, raw: object, filter_keys: Iterable[str] | None,
                    bounded: bool) -> tuple[Condition | None, list[Problem]]:
    """``{zone, side, filter, min, max}``: a count of matching cards (``per:`` has no bounds)."""
    if not isinstance(raw, Mapping):
        return None, [("effect.bad_condition", f"{name} is {raw!r}; write {{zone: field, side: own, "
                       "filter: {...}" + (", min: N" if bounded else "") + "}", raw, None)]
    problems: list[Problem] = []
    known = {"zone", "side", "filter", "min", "max"} if bounded else {"zone", "side", "filter"}
    for key in raw:
        if key not in known:
            problems.append(("effect.bad_condition", f"{name} key {key!r} is unknown; keys: "
                             f"{', '.join(sorted(known))}", key, sorted(known)))
    zone = raw.get("zone", "field")
    if zone not in ZONES:
        problems.append(("effect.unknown_zone", f"{name} zone is {zone!r}; allowed: {', '.join(ZONES)}",
                         zone, list(ZONES)))
    side = _side(name, raw, problems)
    flt = None
    if "filter" in raw:
        flt, more = read_filter(raw["filter"], filter_keys)
        problems += more
    low, high, more = _bounds(name, raw, bounded)
    problems += more
    if problems:
        return None, problems
    return Condition("count", str(zone), side, flt, low, high), []


def read_condition(raw: object, filter_keys: Iterable[str] | None) -> tuple[Condition | None, list[Problem]]:
    """An ``if:`` mapping with exactly one condition (the table ``CONDITIONS``)."""
    names = list(CONDITIONS)
    if not isinstance(raw, Mapping) or len(raw) != 1:
        return None, [("effect.bad_condition", f"if is {raw!r}; it takes exactly one condition: "
                       f"{', '.join(names)}", raw, names)]
    ((kind, value),) = raw.items()
    if kind not in CONDITIONS:
        return None, [("effect.unknown_condition", f"condition {kind!r} is unknown; allowed: "
                       f"{', '.join(names)}", kind, names)]
    if kind == "count":
        return read_zone_count("if count", value, filter_keys, bounded=True)
    if kind == "phase":
        names = value if isinstance(value, list) else [value]
        if not names or not all(isinstance(n, str) and n for n in names):
            return None, [("effect.bad_condition", f"phase is {value!r}; a phase name or a list of them",
                           value, None)]
        return Condition("phase", zone=",".join(str(n).strip().lower() for n in names)), []
    if kind in ("summoned_this_turn", "previous"):
        if value is not True:
            return None, [("effect.bad_condition", f"{kind} takes true, not {value!r}", value, [True])]
        return Condition(kind), []
    if not isinstance(value, Mapping):
        return None, [("effect.bad_condition", f"{kind} is {value!r}; write {{min: N}} or {{max: N}}"
                       + ("" if kind == "turn" else " with side: own or opponent"), value, None)]
    problems: list[Problem] = []
    if kind == "counters":
        name = value.get("counter")
        extra = set(value) - {"counter", "min", "max"}
        if not isinstance(name, str) or not name.strip() or extra:
            return None, [("effect.bad_condition", f"counters is {value!r}; write {{counter: charge, min: 3}}",
                           value, None)]
        low, high, more = _bounds("counters", value, True)
        if more:
            return None, more
        return Condition("counters", low=low, high=high, counter=name.strip().lower()), []
    known = {"min", "max"} if kind == "turn" else {"side", "min", "max"}
    for key in value:
        if key not in known:
            problems.append(("effect.bad_condition", f"{kind} key {key!r} is unknown; keys: "
                             f"{', '.join(sorted(known))}", key, sorted(known)))
    side = _side(kind, value, problems) if kind != "turn" else "own"
    low, high, more = _bounds(kind, value, True)
    problems += more
    if problems:
        return None, problems
    return Condition(str(kind), side=side, low=low, high=high), []


def matches(f: Filter | None, item: Any, src: FilterSource, s: Any, a: ValueReader) -> bool:
    """Whether a unit or a zone card passes filter ``f`` (None passes everything).

    A value is compared as ``norm`` gives it (``matches_plain``, the plain definition; the test
    tests/domain/test_effects_filters.py compares both): ``norm`` is written out here for the two
    kinds a field has most, a text and a whole number (not a bool), so a test is no call more
    than the adapter's ``value``.

    A card the effect's controller cannot see (``seen_keys`` not None: another player's
    face-down card) fails every test of a key it does not show: what a player may target or
    count never depends on what it cannot know."""
    if f is None:
        return True
    seen = a.seen_keys(s, item, src.controller)
    for t in f.tests:
        key = t.key
        if key == "other":
            if (item is not src.unit and item is not src.card) != t.flag:
                return False
            continue
        if seen is not None and key not in seen:
            return False
        value = a.value(s, item, key)
        if t.flag is not None:
            if bool(value) != t.flag:
                return False
            continue
        values = t.values
        if values is not None:
            kind = type(value)
            if kind is str:
                if value.strip().lower() not in values:
                    return False
            elif kind is int:
                if value not in values:
                    return False
            elif isinstance(value, (list, tuple, frozenset, set)):
                if not any(norm(v) in values for v in value):
                    return False
            elif value is None or norm(value) not in values:
                return False
        else:
            if not isinstance(value, int) or isinstance(value, bool):
                return False
            if (t.low is not None and value < t.low) or (t.high is not None and value > t.high):
                return False
    return True


def matches_plain(f: Filter | None, item: Any, src: FilterSource, s: Any, a: ValueReader) -> bool:
    """``matches`` as the filter's definition reads: each test's value through ``norm``; a key
    the effect's controller cannot see on the card matches nothing."""
    if f is None:
        return True
    for t in f.tests:
        if t.key == "other":
            if (item is not src.unit and item is not src.card) != t.flag:
                return False
            continue
        seen = a.seen_keys(s, item, src.controller)
        if seen is not None and t.key not in seen:
            return False
        value = a.value(s, item, t.key)
        if t.flag is not None:
            if bool(value) != t.flag:
                return False
        elif t.values is not None:
            if isinstance(value, (list, tuple, frozenset, set)):
                if not any(norm(v) in t.values for v in value):
                    return False
            elif value is None or norm(value) not in t.values:
                return False
        else:
            if not isinstance(value, int) or isinstance(value, bool):
                return False
            if (t.low is not None and value < t.low) or (t.high is not None and value > t.high):
                return False
    return True
