"""Warzone card effects (docs/effects.md, warzone section): spells and the traps that answer
them or an attack, and triggered effects. A mixin of :class:`~.state.WarzoneState`; what an
effect does is the effect interpreter's (``workbench.domain.effects``) with ``adapter.py``."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.domain.effects.interpreter import resolve, resolve_all
from workbench.domain.engines.warzone.adapter import ADAPTER
from workbench.domain.engines.warzone.cards import Card, Effect
from workbench.domain.engines.warzone.units import PLAYER_NAMES


class Effects:
    """Effect methods of the warzone state (they use its zones, options and log)."""

    def _cast(self, p: int, card: Card, targets: tuple) -> None:
        """Activate a spell from the hand; the opponent may respond with a trap."""
        self.p[p].hand.remove(card)
        self.stats.played[p].add(card.id)
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[p]} activates {card.kind} {card.name}")
        if self._may_trap(1 - p, "respond"):
            self.pending = ("respond", p, card, targets)
            return
        self._finish_cast(p, card, targets)

    def _finish_cast(self, p: int, card: Card, targets: tuple, negated: bool = False) -> None:
        if negated:
            if self.cfg.log:
                self.say(f"{card.name} is negated")
        else:
            self._resolve_all(p, card, card.on_play, targets, None, None)
        self.p[p].discard.append(card)

    def _respond_trap(self, p: int, trap: Card, targets: tuple) -> None:
        """A trap played in a response window (against a spell, or an attack)."""
        me = self.p[p]
        me.hand.remove(trap)
        self.stats.played[p].add(trap.id)
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[p]} responds with trap {trap.name}")
        pend = self.pending
        assert pend is not None
        negates = any(e.action == "negate" for e in trap.on_play)
        if pend[0] == "respond":
            _, caster, card, ctargets = pend
            self.pending = None
            self._resolve_all(p, trap, trap.on_play, targets, None, None)
            me.discard.append(trap)
            if not self.over:
                self._finish_cast(caster, card, ctargets, negated=negates)
            return
        _, att, target, chosen = pend
        self.pending = None
        self._resolve_all(p, trap, trap.on_play, targets, None, att)
        me.discard.append(trap)
        if self.over:
            return
        if negates:
            if self.cfg.log:
                self.say("the attack is negated")
            return
        u = self.unit(att)
        if u is None:
            return  # the attacker is gone: the attack ends
        if target is not None and self.unit(target) is None:
            return  # its target is gone: the attack ends
        if self._interceptors(p, target, chosen) or self._may_trap(p, "defend"):
            self.pending = ("defend", att, target, chosen)
        else:
            self._resolve_attack(att, target, chosen)


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

    def _resolve_all(self, c: int, card: Card, effects: Sequence[Effect], targets: tuple,
                     src: str | None, attacker: str | None) -> None:
        """Resolve ``effects`` of ``card`` in order through the interpreter; stops at the end."""
        resolve_all(effects, ADAPTER.source(self, c, card, src, attacker), targets, self, ADAPTER)

    def _resolve(self, c: int, card: Card, e: Effect, chosen: str | None, src: str | None,
                 attacker: str | None) -> None:
        """Run one effect of ``card`` controlled by ``c``; gone targets make it fizzle."""
        target = ADAPTER.decode(self, e, chosen) if chosen is not None else None
        resolve(e, ADAPTER.source(self, c, card, src, attacker), target, self, ADAPTER)
