"""Static rules: continuous effects the engines query, evaluated once per position and cached.

A static rule (``cannot_be_targeted``, ``cannot_be_attacked``, ``cannot_be_blocked``,
``cannot_attack``, ``double_damage``, ``reduce_damage``, ``modify_cost``) is not resolved like
an action: while its card is on the field it changes what the rules allow. ``compute`` reads
the rules of the cards in play (the adapter's ``static_sources``) into one ``StaticRules``
table; each engine keeps it until a card enters or leaves the field (or turns face up), the same
moments it drops its continuous stat bonuses, so a query in the hot path is a set look-up.

A static rule's filter names printed fields only (parse.py refuses stats and in-play states),
so the table depends on nothing but which cards are on the field.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from workbench.domain.effects.filters import Filter
from workbench.domain.effects.spec import EffectSpec, Source


@dataclass(slots=True)
class StaticRules:
    """What the static rules in play say, by unit (units are the engine's own handles)."""

    untargetable: set[Any] = field(default_factory=set)
    unattackable: set[Any] = field(default_factory=set)
    unblockable: set[Any] = field(default_factory=set)
    no_attack: set[Any] = field(default_factory=set)
    doubled: dict[Any, int] = field(default_factory=dict)
    """Unit -> the factor its damage is multiplied by (2 per double_damage, 4 for two)."""
    reduced: dict[Any, int] = field(default_factory=dict)
    """Unit -> how much less damage it takes."""
    costs: list[tuple[int, Filter | None, int, Source]] = field(default_factory=list)
    """(player whose cards change, which cards, change, the rule's source) of modify_cost."""

    def targetable(self, u: Any) -> bool:
        return u not in self.untargetable

    def dealt(self, by: Any, to: Any, n: int) -> int:
        """Damage ``by`` (None: no creature) deals to ``to`` (None: a player) after the rules."""
        if by is not None and self.doubled:
            n *= self.doubled.get(by, 1)
        if to is not None and self.reduced:
            n -= self.reduced.get(to, 0)
        return n if n > 0 else 0

    def cost_change(self, player: int, card: Any, s: Any, a: Any) -> int:
        """How much more (less, below 0) ``card`` of ``player`` costs under the rules in play."""
        from workbench.domain.effects.interpreter import matches

        total = 0
        for p, flt, n, src in self.costs:
            if p == player and (flt is None or matches(flt, card, src, s, a)):
                total += n
        return total


EMPTY = StaticRules()
"""No rules in play (never mutate it)."""


def compute(sources: Iterable[tuple[Source, EffectSpec]], s: Any, a: Any) -> StaticRules:
    """The table of the static rules of ``sources`` (each rule with the source of its card)."""
    from workbench.domain.effects.interpreter import affected

    rules = StaticRules()
    any_rule = False
    for src, e in sources:
        any_rule = True
        if e.action == "modify_cost":
            sel = e.selector.side
            others = tuple(a.opponents(s, src.controller))
            players = (src.controller, *others) if sel == "each" else (
                (src.controller,) if sel == "controller" else others)
            for p in players:
                rules.costs.append((p, e.filter, e.amount, src))
            continue
        units = [u for u in affected(e, src, None, s, a)]
        if e.action == "cannot_be_targeted":
            rules.untargetable.update(units)
        elif e.action == "cannot_be_attacked":
            rules.unattackable.update(units)
        elif e.action == "cannot_be_blocked":
            rules.unblockable.update(units)
        elif e.action == "cannot_attack":
            rules.no_attack.update(units)
        elif e.action == "double_damage":
            for u in units:
                rules.doubled[u] = rules.doubled.get(u, 1) * 2
        elif e.action == "reduce_damage":
            for u in units:
                rules.reduced[u] = rules.reduced.get(u, 0) + e.amount
    return rules if any_rule else EMPTY
