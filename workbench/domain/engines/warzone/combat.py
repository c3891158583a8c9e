"""Warzone battles (RULES.md §1.8-§1.10): attack declarations, interception windows, battle
resolution, damage to players, destruction. A mixin of :class:`~.state.WarzoneState`."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from workbench.domain.engines.warzone.adapter import ADAPTER
from workbench.domain.engines.warzone.cards import GUARDING, Card
from workbench.domain.engines.warzone.core import WarzoneCore
from workbench.domain.engines.warzone.rules import BattleOutcome, battle, damage_split
from workbench.domain.engines.warzone.units import PLAYER_NAMES, Unit

if TYPE_CHECKING:
    from workbench.domain.engines.warzone.state import WarzoneState


class Combat(WarzoneCore):
    """Battle methods of the warzone state (they use its zones, options and log)."""

    __slots__ = ()  # the fields are WarzoneCore's slots

    def _declare(self, p: int, att: str, target: str | None) -> None:
        u = self.p[p].unit(att)
        assert u is not None
        u.attacked = True
        d = 1 - p
        if target is None:
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[p]}'s {u.card.name} (C{u.cls}) declares a Direct Attack")
        elif self.cfg.log:
            v = self.unit(target)
            self.say(f"{PLAYER_NAMES[p]}'s {u.card.name} (C{u.cls}) attacks "
                     f"{v.card.name if v else target} (C{v.cls if v else '?'})")
        triggered = False
        if u.card.on_attack:  # attack triggers resolve at once (they choose no target)
            self._resolve_all(p, u.card, u.card.on_attack, (), att, None)
            triggered = True
        gone = False
        if target is not None:
            v = self.unit(target)
            gone = v is None
            if v is not None and v.card.on_attacked and not v.face_down:
                self._resolve_all(d, v.card, v.card.on_attacked, (), target, att)
                triggered = True
        if gone or triggered and (self.over or self.unit(att) is None or (
                target is not None and self.unit(target) is None)):
            self.step = "end_of_combat"
            return  # the game ended, or the attacker or its target is gone: the attack ends
        self.step = "battle"
        self._open(("attack", p, u.card, (), (), att, target))

    def _after_declaration(self, att: str, target: str | None) -> None:
        """The declaration's chain has resolved: the defender may intercept (§1.8), then the
        battle. An attacker or target gone meanwhile ends the attack."""
        if self.unit(att) is None or (target is not None and self.unit(target) is None):
            self.step = "end_of_combat"
            return
        if self._interceptors(1 - self.active, target, (), att):
            self.pending = ("defend", att, target, ())
        else:
            self._resolve_attack(att, target, ())

    def _resolve_attack(self, att: str, target: str | None, chosen: tuple[str, ...]) -> None:
        self.step = "end_of_combat"
        u = self.unit(att)
        if u is None:
            return
        d = 1 - u.owner
        if chosen:
            for iid in chosen:
                v = self.unit(iid)
                if v is not None:
                    self._battle(u, v)
                if self.over or self.unit(att) is None:
                    break
        elif target is None:
            self._direct_attack(u, d)
        else:
            v = self.unit(target)
            if v is not None:
                self._battle(u, v)
        self._check_end()

    def _battle(self, u: Unit, v: Unit) -> None:
        """One battle between attacker ``u`` and defending creature ``v`` (§1.9)."""
        if v.face_down:  # a set creature is turned face up when it is attacked (§1.12.7)
            v.face_down = False
            self._aura = None
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[v.owner]}'s set {v.card.name} is turned face up")
        ures, vres = self.resilience(u), self.resilience(v)
        su, sv = self._met(u, v)
        u_left, v_left = ures - u.damage, vres - v.damage
        o = battle(self.cfg, u.cls, su, u_left, v.cls, sv, v_left, v.pos == GUARDING)
        if self.cfg.log:
            self.say(f"battle: {u.card.name} {self.strength(u)}/{ures - u.damage} vs "
                     f"{v.card.name} {self.strength(v)}/{vres - v.damage} "
                     f"({v.pos.capitalize()}) -> {o.att_left} | {o.def_left}")
        u.damage = ures - o.att_left
        v.damage = vres - o.def_left
        if not o.def_dies and o.def_left == 0:
            v.zero_ok = True
        if o.att_dies:
            self.destroy(u)
        if o.def_dies:
            self.destroy(v)
        # Both controllers take their Battle Damage at the same moment (§1.4.4).
        if o.to_attacker:
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[u.owner]} takes {o.to_attacker} Battle Damage")
            self.damage_player(u.owner, o.to_attacker)
        if o.to_defender:
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[v.owner]} takes {o.to_defender} Battle Damage")
            self.damage_player(v.owner, o.to_defender)
        self._battle_triggers(u, v, o, u_left, v_left)

    # effects v2 item 8 in battles: static rules and damage triggers

    def _direct_attack(self, u: Unit, d: int) -> None:
        amount = self.strength(u)
        rules = ADAPTER.statics(cast("WarzoneState", self)) if self._flags else None
        if rules is not None:
            amount = rules.dealt(u, None, amount)  # double_damage
        if self.cfg.log:
            self.say(f"Direct Attack hits {PLAYER_NAMES[d]} for {amount}")
        self.damage_player(d, amount)
        if amount > 0 and self._flags:
            self.damaged(None, u)

    def _met(self, u: Unit, v: Unit) -> tuple[int, int]:
        """The Strength attacker ``u`` and defender ``v`` meet each other with in a battle."""
        su, sv = self.strength(u), self.strength(v)
        rules = ADAPTER.statics(cast("WarzoneState", self)) if self._flags else None
        if rules is not None:  # double_damage / reduce_damage
            su, sv = rules.dealt(u, v, su), rules.dealt(v, u, sv)
        return su, sv

    def _battle_triggers(self, u: Unit, v: Unit, o: BattleOutcome,
                         u_left: int, v_left: int) -> None:
        """on_damaged / on_deal_damage of a battle: a creature, or its controller, took some."""
        if not self._flags:
            return
        if o.att_left < u_left or o.att_dies:
            self.damaged(u, v)
        elif o.to_attacker:
            self.damaged(None, v)
        if o.def_left < v_left or o.def_dies:
            self.damaged(v, u)
        elif o.to_defender:
            self.damaged(None, u)

    def _left(self, u: Unit) -> None:
        """``u`` left the field: the static rules change; while_on_field changes it made end
        (``_after_leaving`` sweeps), and those made on it are forgotten."""
        self._statics = None
        if self._flags and "filtered" in self._flags:
            self._aura = None  # standing changes with a filter are kept per creature
        if not self.bound:
            return
        keep = []
        for entry in self.bound:
            source, target, d_str, d_res = entry
            if source == u.iid:
                t = self.unit(target)
                if t is not None:
                    t.perm_str -= d_str
                    t.perm_res -= d_res
            elif target != u.iid:
                keep.append(entry)
        self.bound = keep

    def damage_player(self, p: int, amount: int) -> None:
        """Damage to a player (§1.10): a Damage Card per full step, the rest from Life Points."""
        cards, rest = damage_split(self.cfg, amount)
        me = self.p[p]
        for _ in range(cards):
            if not me.deck:
                me.decked = True
                break
            card = me.deck.pop()
            me.pile.append(card)
            if card.heal_trigger:  # its owner chooses a card to discard (§1.12.5)
                self.heals.append(p)
                if self.cfg.log:
                    self.say(f"{PLAYER_NAMES[p]}'s Damage Card {card.name} is a heal trigger")
        me.life -= rest
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[p]} takes {amount}: {cards} Damage Card(s), {rest} Life "
                     f"Points -> Life {me.life}, damage pile {len(me.pile)}")

    def destroy(self, u: Unit) -> None:
        """Destroy a creature: it goes to its owner's Discard Pile; on_destroyed triggers."""
        if self._leave_field(u, self.p[u.owner].discard, "is destroyed"):
            for e in u.card.on_destroyed:
                self.queue.append((u.owner, u.card, e, None))
            self._after_leaving(u)

    def _bounce(self, u: Unit) -> None:
        if self._leave_field(u, self.p[u.owner].hand, "returns to the hand"):
            self._after_leaving(u)

    def _leave_field(self, u: Unit, zone: list[Card], verb: str) -> bool:
        """Move a creature's card from the field to ``zone``; False when it had already left."""
        pl = self.p[u.owner]
        if u not in pl.field:
            return False
        pl.field.remove(u)
        pl.field_changed()
        self._left(u)
        zone.append(u.card)
        if self.lasting:  # its changes end with it (a card that comes back is a new creature)
            self.lasting = [x for x in self.lasting if x[1] != u.iid]
        for e in u.card.on_leave:
            self.queue.append((u.owner, u.card, e, None))
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[u.owner]}'s {u.card.name} {verb}")
        return True

    def _after_leaving(self, u: Unit) -> None:
        # A continuous card leaving changes every bonus: recompute, and sweep what it was holding up.
        if u.card.continuous:
            self._aura = None
            self._sweep()
        elif "while_on_field" in u.card.v2:
            self._sweep()

    def _sweep(self) -> None:
        """Destroy creatures a stat change left with no Resilience."""
        for pl in self.p:
            for u in pl.field[:]:
                left = self.left(u)
                if left < 0 or (left == 0 and not u.zero_ok):
                    self.destroy(u)
