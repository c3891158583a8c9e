"""Warzone card effects (docs/effects.md, warzone section): spells and the traps that answer
them or an attack, triggered effects and their targets. A mixin of
:class:`~.state.WarzoneState`."""

from __future__ import annotations

from collections.abc import Sequence

from workbench.domain.engines.warzone.cards import (
    ALL_CREATURES,
    CHOSEN_CREATURE,
    PLAYER_TARGETS,
    Card,
    Effect,
)
from workbench.domain.engines.warzone.units import PLAYER_NAMES

_PLAYER_EFFECTS = frozenset({"draw", "gain_life"})


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
            choices = self._choices(c, e)
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
        i = 0
        for e in effects:
            chosen = None
            if e.chooses:
                chosen = targets[i] if i < len(targets) else None
                i += 1
            if e.action != "negate":
                self._resolve(c, card, e, chosen, src, attacker)
            if self._check_end():
                return

    def _resolve(self, c: int, card: Card, e: Effect, chosen: str | None, src: str | None,
                 attacker: str | None) -> None:
        """Run one effect of ``card`` controlled by ``c``; gone targets make it fizzle."""
        action, t = e.action, e.target
        if action in _PLAYER_EFFECTS or (action == "damage" and t in PLAYER_TARGETS):
            if t == "self":
                players = [c]
            elif t == "opponent":
                players = [1 - c]
            else:
                players = [PLAYER_NAMES.index(chosen)] if chosen in PLAYER_NAMES else []
            for pl in players:
                if action == "draw":
                    if self.cfg.log:
                        self.say(f"{card.name}: {PLAYER_NAMES[pl]} draws {e.amount}")
                    self.draw(pl, e.amount)
                elif action == "gain_life":
                    self.p[pl].life += e.amount
                    if self.cfg.log:
                        self.say(f"{card.name}: {PLAYER_NAMES[pl]} gains {e.amount} Life Points "
                                 f"-> {self.p[pl].life}")
                else:
                    if self.cfg.log:
                        self.say(f"{card.name} deals {e.amount} to {PLAYER_NAMES[pl]}")
                    self.damage_player(pl, e.amount)
            return
        if t in CHOSEN_CREATURE:
            u = self.unit(chosen) if chosen else None
            units = [u] if u is not None else []
        elif t in ALL_CREATURES:
            side = c if t == "own_creatures" else 1 - c
            units = list(self.p[side].field)
        elif t == "attacker":
            u = self.unit(attacker) if attacker else None
            units = [u] if u is not None else []
        else:  # self / this: the creature itself
            u = self.unit(src) if src else None
            units = [u] if u is not None else []
        if not units:
            if self.cfg.log:
                self.say(f"{card.name}: {e.action} has no target")
            return
        for u in units:
            if action == "damage":
                u.damage += e.amount
                if self.cfg.log:
                    self.say(f"{card.name} deals {e.amount} to {u.card.name}")
                left = self.left(u)
                if left <= 0:
                    self.destroy(u)
            elif action == "heal":
                u.damage = max(0, u.damage - e.amount)
                if self.cfg.log:
                    self.say(f"{card.name} heals {u.card.name} by {e.amount}")
            elif action == "modify_stats":
                if e.permanent:
                    u.perm_str += e.d_str
                    u.perm_res += e.d_res
                else:
                    u.eot_str += e.d_str
                    u.eot_res += e.d_res
                if self.cfg.log:
                    self.say(f"{card.name} gives {u.card.name} {e.d_str:+}/{e.d_res:+}")
            elif action == "destroy":
                self.destroy(u)
            elif action == "return_to_hand":
                self._bounce(u)
        if action == "modify_stats" and (e.d_res < 0):
            self._sweep()
