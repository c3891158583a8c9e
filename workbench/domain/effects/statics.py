"""Static rules: continuous effects the engines query, evaluated once per position and cached.

A static rule (``cannot_be_targeted``, ``cannot_be_attacked``, ``cannot_be_blocked``,
``cannot_attack``, ``double_damage``, ``reduce_damage``, ``modify_cost``) is not resolved like
an action: while its card is on the field it changes what the rules allow. The interpreter's
``static_rules`` reads the rules of the cards in play (the adapter's ``static_sources``) into one
``StaticRules`` table (this module holds only the table, so it imports nothing of the
interpreter); each engine keeps it until a card enters or leaves the field (or turns face up), the same
moments it drops its continuous stat bonuses, so a query in the hot path is a set look-up.

A static rule's filter names printed fields only (parse.py refuses stats and in-play states),
so the table depends on nothing but which cards are on the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from workbench.domain.effects.filters import Filter, matches
from workbench.domain.effects.spec import Source


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
        total = 0
        for p, flt, n, src in self.costs:
            if p == player and (flt is None or matches(flt, card, src, s, a)):
                total += n
        return total


EMPTY = StaticRules()
"""No rules in play (never mutate it)."""
