"""Warzone card effects (docs/effects.md, warzone section): spells, the chain of answers
(RULES.md §1.12.3) and triggered effects. A mixin of :class:`~.state.WarzoneState`; what an
effect does is the effect interpreter's (``workbench.domain.effects``) with ``adapter.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from workbench.domain.effects.interpreter import resolve, resolve_all
from workbench.domain.engines.warzone.adapter import ADAPTER
from workbench.domain.engines.warzone.cards import Card, Effect
from workbench.domain.engines.warzone.core import Link, WarzoneCore
from workbench.domain.engines.warzone.units import PLAYER_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from workbench.domain.engines.warzone.state import WarzoneState


class Effects(WarzoneCore):
    """Effect methods of the warzone state (they use its zones, options and log)."""

    def _cast(self, p: int, card: Card, targets: tuple[Any, ...]) -> None:
        """Activate a spell from the hand: it opens a chain (§1.12.3)."""
        self.p[p].hand.remove(card)
        self.stats.played[p].add(card.id)
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[p]} activates {card.kind} {card.name}")
        self._open(("spell", p, card, card.on_play, targets, None, None))

    # The chain (§1.12.3). A link is (kind, controller, card, effects, targets, creature,
    # target): kind recruit, flip, activate (the effects of that creature), spell, trap, or
    # attack (the declaration: creature is the attacker, target its target or None).

    def _open(self, link: Link) -> None:
        """Start a chain with ``link``; with no possible answer it resolves at once."""
        self.chain = [link]
        other = 1 - link[1]
        if self._may_answer(other):
            self.pending = ("chain", other)
            return
        self.chain = []
        kind = link[0]
        if kind == "attack":
            self._after_declaration(link[5], link[6])
            return
        if link[3]:
            self._resolve_all(link[1], link[2], link[3], link[4], link[5], None)
        if kind == "spell":
            self.p[link[1]].discard.append(link[2])

    def _link(self, link: Link) -> None:
        """Add an answer to the chain; the other player may answer it in turn."""
        self.chain.append(link)
        other = 1 - link[1]
        if self._may_answer(other):
            self.pending = ("chain", other)
        else:
            self._resolve_chain()

    def _answer_trap(self, p: int, iid: str, targets: tuple[Any, ...]) -> None:
        """Activate a set trap (or, with ``traps_set_first`` off, one from the hand)."""
        me = self.p[p]
        if self.cfg.set_first:
            i = next(i for i, (card, _) in enumerate(me.traps) if card.iid == iid)
            trap = me.traps.pop(i)[0]
        else:
            trap = next(card for card in me.hand if card.iid == iid)
            me.hand.remove(trap)
        self.stats.played[p].add(trap.id)
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[p]} answers with trap {trap.name}")
        self._link(("trap", p, trap, trap.on_play, targets, None, None))

    def _resolve_chain(self) -> None:
        """Resolve the chain, the last link first. A negating link cancels the link it
        answers (the one below it); a cancelled attack declaration ends the attack."""
        chain = self.chain
        self.chain = []
        base = chain[0]
        attacker = base[5] if base[0] == "attack" else None
        negated = [False] * len(chain)
        log = self.cfg.log
        for i in range(len(chain) - 1, -1, -1):
            kind, c, card, effects, targets, src, extra = chain[i]
            if negated[i]:
                if log:
                    self.say("the attack is negated" if kind == "attack"
                             else f"{card.name} is negated")
                if kind == "attack":
                    self.step = "end_of_combat"
            elif kind == "attack":
                self._after_declaration(src, extra)
            else:
                if i and card.negates:
                    negated[i - 1] = True
                if effects:
                    self._resolve_all(c, card, effects, targets, src, attacker)
            if kind in ("spell", "trap"):
                self.p[c].discard.append(card)
            if self.over:
                return

    def _run_trigger(self) -> None:
        c, card, e, src = self.queue.pop(0)
        if e.chooses:
            choices = self._choices(c, e, src)
            if not choices:
                return
            if len(choices) > 1:
                self.pending = ("target", c, card, e, src)
                return
            self._resolve(c, card, e, choices[0], src, None)
        else:
            self._resolve(c, card, e, None, src, None)
        self._check_end()

    def _resolve_all(self, c: int, card: Card, effects: Sequence[Effect], targets: tuple[Any, ...],
                     src: str | None, attacker: str | None) -> None:
        """Resolve ``effects`` of ``card`` in order through the interpreter; stops at the end."""
        state = cast("WarzoneState", self)  # the one class this mixin is part of
        resolve_all(effects, ADAPTER.source(state, c, card, src, attacker), targets, state, ADAPTER)

    def _resolve(self, c: int, card: Card, e: Effect, chosen: str | None, src: str | None,
                 attacker: str | None) -> None:
        """Run one effect of ``card`` controlled by ``c``; gone targets make it fizzle."""
        state = cast("WarzoneState", self)  # the one class this mixin is part of
        target = ADAPTER.decode(state, e, chosen) if chosen is not None else None
        resolve(e, ADAPTER.source(state, c, card, src, attacker), target, state, ADAPTER)
