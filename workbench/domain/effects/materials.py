"""An extra-deck creature's ``materials`` field (RULES.md §3.10.2): read once, for the card
validator and for the engine's ``fusion_summon``, so what validates is what runs.

A card lists what its fusion summon sends to the graveyard, each entry a card name or a filter
with a count::

    materials:
      - 火花小鬼                                # a card of that name
      - {filter: {attribute: fire}, count: 2}  # two Fire creatures
      - {name: 风铃雀}                          # the same as the bare name

A filter's keys are those of an effect ``filter`` (docs/effects.md): the game's card fields and
stats. Materials are creatures unless the filter says ``kind``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from workbench.domain.effects.filters import Filter, Problem, Test, norm, read_filter

RULE = "RULES.md §3.10.2"

Need = tuple[Filter, int]
"""One material: which cards fit, and how many are needed."""

_CREATURE = Test("kind", values=frozenset({"creature"}))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_materials(raw: object, filter_keys: Iterable[str] | None) -> tuple[tuple[Need, ...], list[Problem]]:
    """The needs of a ``materials`` list, and its problems (code, message, actual, allowed)."""
    if not isinstance(raw, list) or not raw:
        return (), [("card.materials", f"materials is {raw!r}; a list of card names or "
                     "{filter: {...}, count: N} entries", raw, None)]
    needs: list[Need] = []
    problems: list[Problem] = []
    for k, entry in enumerate(raw, 1):
        count = 1
        flt: Filter | None = None
        if isinstance(entry, str) and entry.strip():
            flt = Filter((Test("name", values=frozenset({norm(entry)})),))
        elif isinstance(entry, Mapping):
            unknown = set(map(str, entry)) - {"name", "filter", "count"}
            count = entry.get("count", 1)
            if unknown or ("name" in entry) == ("filter" in entry):
                problems.append(("card.materials", f"material {k} is {entry!r}; write a card name, "
                                 "{name: NAME, count: N} or {filter: {...}, count: N}", entry, None))
                continue
            if not (_is_int(count) and count >= 1):
                problems.append(("card.materials", f"material {k} count is {count!r}; a whole number 1 or more",
                                 count, 1))
                continue
            if "name" in entry:
                name = entry["name"]
                if not isinstance(name, str) or not name.strip():
                    problems.append(("card.materials", f"material {k} name is {name!r}; a card name", name, None))
                    continue
                flt = Filter((Test("name", values=frozenset({norm(name)})),))
            else:
                flt, more = read_filter(entry["filter"], filter_keys)
                if more:
                    problems += [(code if code != "effect.bad_filter" else "card.materials",
                                  f"material {k}: {message}", actual, allowed)
                                 for code, message, actual, allowed in more]
                    continue
                assert flt is not None
                if "kind" not in flt.keys():
                    flt = Filter((_CREATURE, *flt.tests))
        else:
            problems.append(("card.materials", f"material {k} is {entry!r}; a card name or "
                             "{filter: {...}, count: N}", entry, None))
            continue
        needs.append((flt, int(count)))
    return (tuple(needs) if not problems else ()), problems


def material_words(raw: object) -> str:
    """The materials in plain words for messages, e.g. ``attribute fire + attribute wind``."""
    if not isinstance(raw, list):
        return ""
    parts = []
    for entry in raw:
        if isinstance(entry, str):
            parts.append(entry)
        elif isinstance(entry, Mapping):
            n = entry.get("count", 1)
            what = entry.get("name") or ", ".join(f"{k} {v}" for k, v in (entry.get("filter") or {}).items())
            parts.append(f"{n} × {what}" if n != 1 else str(what))
    return " + ".join(parts)


def static_match(f: Filter, card: Mapping[str, Any]) -> bool:
    """Whether a card's printed fields pass filter ``f`` (validation: no state in play)."""
    for t in f.tests:
        value = card.get(t.key)
        if t.flag is not None:
            if bool(value) != t.flag:
                return False
        elif t.values is not None:
            if isinstance(value, (list, tuple)):
                if not any(norm(v) in t.values for v in value):
                    return False
            elif value is None or norm(value) not in t.values:
                return False
        elif not isinstance(value, int) or isinstance(value, bool):
            return False
        elif (t.low is not None and value < t.low) or (t.high is not None and value > t.high):
            return False
    return True
