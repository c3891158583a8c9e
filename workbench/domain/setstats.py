"""Statistics of a whole card set (Magic Set Editor's set statistics): counts by kind and by each
enumerated field, the cost curve, and every card's stats against the game's cost budget.

Pure: takes the definition and the cards' data, reads no files.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from workbench.domain.deckstats import curve_fields
from workbench.domain.gamedef import FieldDef, GameDefinition
from workbench.domain.validation import budget_limit


@dataclass(frozen=True)
class FieldCounts:
    """How many cards hold each value of one field (a list field counts each of its values)."""

    field: str
    label: str
    counts: dict[Any, int]
    without: int


@dataclass(frozen=True)
class BudgetPoint:
    """One card under the cost budget: its step (``by`` value), stat total and the limit there."""

    card_id: str
    name: str
    step: int
    total: int
    limit: int

    @property
    def over(self) -> int:
        """By how much the card's stats exceed the budget (0 when within it)."""
        return max(0, self.total - self.limit)


@dataclass(frozen=True)
class SetOverview:
    """Everything the set overview page draws."""

    cards: int
    by_kind: dict[str, int]
    fields: list[FieldCounts]
    curve: FieldCounts | None
    budget: list[BudgetPoint]
    budget_label: str

    @property
    def over_budget(self) -> list[BudgetPoint]:
        """Cards over the budget, the largest excess first."""
        return sorted((p for p in self.budget if p.over), key=lambda p: (-p.over, p.name))


def _order(value: Any) -> tuple[int, Any]:
    if isinstance(value, bool):
        return (0, int(value))
    if isinstance(value, (int, float)):
        return (0, value)
    return (1, str(value))


def _is_enumerated(fdef: FieldDef) -> bool:
    return fdef.name not in {"name", "kind"} and (
        fdef.enum is not None or fdef.type == "boolean" or (fdef.type == "integer" and not fdef.spec.get("stat")))


def count_field(fdef: FieldDef, cards: Iterable[Mapping[str, Any]]) -> FieldCounts:
    """The value counts of ``fdef`` over ``cards`` (values in order: numbers, then text)."""
    counts: Counter[Any] = Counter()
    without = 0
    for card in cards:
        value = card.get(fdef.name)
        if value is None or value == "" or value == []:
            without += 1
        elif isinstance(value, list):
            counts.update(v for v in value if isinstance(v, (str, int, float, bool)))
        elif isinstance(value, (str, int, float, bool)):
            counts[value] += 1
    return FieldCounts(fdef.name, fdef.label, dict(sorted(counts.items(), key=lambda kv: _order(kv[0]))), without)


def set_overview(definition: GameDefinition, cards: Iterable[tuple[str, Mapping[str, Any]]]) -> SetOverview:
    """The overview of ``cards`` ((id, data) pairs) under ``definition``."""
    listed = list(cards)
    datas = [data for _, data in listed]
    by_kind = Counter(str(d.get("kind", "")) for d in datas)
    fields: dict[str, FieldDef] = {}
    for fdef in list(definition.common_fields) + [f for k in definition.kinds.values() for f in k.fields]:
        fields.setdefault(fdef.name, fdef)
    enumerated = [count_field(f, datas) for f in fields.values() if _is_enumerated(f)]
    enumerated = [c for c in enumerated if c.counts]
    cost_names = [name for name, _ in curve_fields(definition)]
    curve = next((c for c in enumerated if cost_names and c.field == cost_names[0]), None)
    points = []
    for card_id, data in listed:
        found = budget_limit(definition, data)
        step = data.get(str((definition.budget or {}).get("by", "")))
        if found is not None and isinstance(step, int):
            points.append(BudgetPoint(card_id, str(data.get("name", card_id)), step, found[0], found[1]))
    budget = definition.budget or {}
    return SetOverview(
        cards=len(listed),
        by_kind={k: by_kind[k] for k in list(definition.kinds) + sorted(set(by_kind) - set(definition.kinds)) if by_kind[k]},
        fields=enumerated,
        curve=curve,
        budget=points,
        budget_label=str(budget.get("rule", "")),
    )
