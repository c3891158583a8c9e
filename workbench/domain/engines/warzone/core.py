"""What the mixins of the warzone state (:mod:`.combat`, :mod:`.effects`) use of it, declared
once so that each mixin type-checks on its own.

:class:`WarzoneCore` only declares: the attributes are set by ``WarzoneState.__init__``, and the
methods listed under ``TYPE_CHECKING`` are defined by ``WarzoneState`` or by the other mixin. At
run time the class is empty (no attribute, no method, nothing to look up in the hot paths).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from workbench.domain.effects.asks import Paused
from workbench.domain.effects.statics import StaticRules
from workbench.domain.engines.base import GameStats
from workbench.domain.engines.warzone.cards import Card, Effect
from workbench.domain.engines.warzone.rules import Config
from workbench.domain.engines.warzone.units import Player, Unit

Link = tuple[Any, ...]
"""A link of the chain (§1.12.3): (kind, controller, card, effects, targets, creature, target),
see :mod:`.effects`."""


class WarzoneCore:
    """The warzone state as its mixins see it (see the module docstring)."""

    # The fields of WarzoneState. Slots, not an instance dict: CPython 3.11 keeps a dict's
    # attributes in a compact table shared by the class only up to 30 names, and beyond that every
    # ``self.x`` costs more (one more name measured +4 % instructions a heuristic game).
    __slots__ = (
        "serial", "cfg", "_rng", "log", "stats", "p", "active", "turn", "phase", "count", "highest",
        "used", "pending", "chain", "heals", "step", "to_place", "queue", "lasting", "over", "winner",
        "reason", "_legal", "_aura", "area_aura", "_filtered", "_statics", "_flags", "bound",
    )

    cfg: Config
    stats: GameStats
    p: list[Player]
    active: int
    pending: tuple[Any, ...] | None
    """The choice the game waits for: ``("chain", player)``, ``("defend", attacker, target,
    chosen)``, ``("target", controller, card, effect, creature, attacker)``, ``("areas", player)`` …
    (``None``: the active player's own phase)."""
    chain: list[Link]
    heals: list[int]
    step: str
    queue: list[tuple[Any, ...]]
    """Triggered effects waiting: (controller, card, effect, its creature[, the attacker])."""
    lasting: list[tuple[int, str, int, int]]
    over: bool
    phase: str
    _aura: list[list[list[int]]] | None
    # effects v2 item 8 (see WarzoneState.__init__)
    _flags: frozenset[str] | None
    _statics: StaticRules | None
    bound: list[tuple[str, str, int, int]]

    if TYPE_CHECKING:  # pragma: no cover - defined by WarzoneState
        def say(self, text: str) -> None: ...
        def unit(self, iid: str) -> Unit | None: ...
        def strength(self, u: Unit) -> int: ...
        def resilience(self, u: Unit) -> int: ...
        def left(self, u: Unit) -> int: ...
        def _choices(self, c: int, e: Effect, src: str | None = None) -> list[str]: ...
        def _interceptors(self, d: int, target: str | None, chosen: tuple[str, ...],
                          att: str | None = None) -> list[Unit]: ...
        def _may_answer(self, c: int) -> bool: ...
        def _check_end(self, night: bool = False) -> bool: ...

        # defined by the other mixin (effects.py for combat.py, combat.py for effects.py)
        def _open(self, link: Link) -> None: ...
        def _resolve_all(self, c: int, card: Card, effects: Sequence[Effect], targets: tuple[Any, ...],
                         src: str | None, attacker: str | None) -> Paused | None: ...
        def _after_declaration(self, att: str, target: str | None) -> None: ...
        def damaged(self, victim: Unit | None, by: Unit | None) -> None: ...
        def entered(self, u: Unit) -> None: ...
        def played(self, p: int, card: Card) -> None: ...
        def phase_begins(self) -> None: ...
