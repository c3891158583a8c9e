"""Warzone card effects (docs/effects.md, warzone section): spells, the chain of answers
(RULES.md §1.12.3) and triggered effects. A mixin of :class:`~.state.WarzoneState`; what an
effect does is the effect interpreter's (``workbench.domain.effects``) with ``adapter.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from workbench.domain.effects.asks import Paused, asking, resume, run
from workbench.domain.effects.interpreter import matches, resolve_all
from workbench.domain.effects.spec import Source
from workbench.domain.engines.warzone.adapter import ADAPTER
from workbench.domain.engines.warzone.cards import Card, Effect
from workbench.domain.engines.warzone.core import Link, WarzoneCore
from workbench.domain.engines.warzone.units import PLAYER_NAMES, Unit

if TYPE_CHECKING:  # pragma: no cover
    from workbench.domain.engines.warzone.state import WarzoneState


class Effects(WarzoneCore):
    """Effect methods of the warzone state (they use its zones, options and log)."""

    __slots__ = ()  # the fields are WarzoneCore's slots

    def _cast(self, p: int, card: Card, targets: tuple[Any, ...]) -> None:
        """Activate a spell from the hand: it opens a chain (§1.12.3)."""
        self.p[p].hand.remove(card)
        self.stats.played[p].add(card.id)
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[p]} activates {card.kind} {card.name}")
        self.played(p, card)
        self._open(("spell", p, card, card.on_play, targets, None, None))

    # The chain (§1.12.3). A link is (kind, controller, card, effects, targets, creature,
    # target): kind recruit, flip, activate (the effects of that creature), spell, trap,
    # trigger (a triggered effect: effects is that one effect, target the creature whose damage
    # it took, on_damaged, or None), or attack (the declaration: creature is the attacker,
    # target its target or None).

    def _open(self, link: Link) -> None:
        """Start a chain with ``link``; with no possible answer it resolves at once."""
        self.chain = [link]
        other = 1 - link[1]
        kind = link[0]
        me = self.p[other]
        # _may_answer's usual "no" (no set trap, no quick card, traps set first) read here
        if (me.traps or me.quick or not self.cfg.set_first) and self._may_answer(other):
            self.pending = ("chain", other)
            if kind == "trigger" and self.cfg.log:
                self.say(f"{link[2].name}'s {link[3][0].trigger} effect goes on the chain")
            return
        self.chain = []
        if kind == "attack":
            self._after_declaration(link[5], link[6])
            return
        if link[3]:
            paused = self._resolve_all(link[1], link[2], link[3], link[4], link[5],
                                       link[6] if kind == "trigger" else None)
            if paused is not None:
                self._wait(paused, ("open", link))
                return
        if kind == "spell":
            self.p[link[1]].discard.append(link[2])
        elif kind == "trigger":
            self._check_end()

    def _link(self, link: Link) -> None:
        """Add an answer to the chain; the other player may answer it in turn."""
        self.chain.append(link)
        other = 1 - link[1]
        me = self.p[other]
        if (me.traps or me.quick or not self.cfg.set_first) and self._may_answer(other):
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
        self.played(p, trap)
        self._link(("trap", p, trap, trap.on_play, targets, None, None))

    def _resolve_chain(self) -> None:
        """Resolve the chain, the last link first. A negating link cancels the link it
        answers (the one below it); a cancelled attack declaration ends the attack."""
        chain = self.chain
        self.chain = []
        base = chain[0]
        self._unwind(chain, [False] * len(chain), len(chain) - 1, base[5] if base[0] == "attack" else None)

    def _unwind(self, chain: list[tuple], negated: list[bool], i: int, attacker: str | None) -> None:
        """Resolve links ``i`` down to 0 of ``chain``; a link whose effect asks a player pauses it."""
        log = self.cfg.log
        while i >= 0:
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
                    paused = self._resolve_all(c, card, effects, targets, src,
                                               extra if kind == "trigger" else attacker)
                    if paused is not None:
                        self._wait(paused, ("chain", chain, negated, i, attacker))
                        return
            if kind in ("spell", "trap"):
                self.p[c].discard.append(card)
            elif kind == "trigger":
                self._check_end()
            if self.over:
                return
            i -= 1

    # A resolution that asks a player (effects.asks): pending ("ask", player, paused, then),
    # ``then`` what comes after it: ("open", link) or ("chain", chain, negated, i, attacker).
    # The links not finished stay in ``chain`` meanwhile (card_total counts them).

    def _wait(self, paused: Paused, then: tuple) -> None:
        self.pending = ("ask", paused.ask.player, paused, then)
        if then[0] == "open":
            self.chain = [then[1]]
        elif then[0] == "chain":
            self.chain = then[1][:then[3] + 1]

    def _answer_ask(self, answer: str) -> None:
        pend = self.pending
        assert pend is not None  # answered only while a question is pending
        _, _, paused, then = pend
        self.pending = None
        self.chain = []
        nxt = resume(paused, answer, self, ADAPTER)
        if nxt is not None:
            self._wait(nxt, then)
            return
        if then[0] == "open":
            if then[1][0] == "spell":
                self.p[then[1][1]].discard.append(then[1][2])
            elif then[1][0] == "trigger":
                self._check_end()
        elif then[0] == "chain":
            chain, negated, i, attacker = then[1:]
            if chain[i][0] in ("spell", "trap"):
                self.p[chain[i][1]].discard.append(chain[i][2])
            elif chain[i][0] == "trigger":
                self._check_end()
            if not self.over:
                self._unwind(chain, negated, i - 1, attacker)

    def _run_trigger(self) -> None:
        """Put the first queued triggered effect on the chain (§1.12.3, as fusion §3.10.5): a
        link of kind ``trigger`` the other player may answer; an effect that chooses among
        several targets first asks its controller (pending ``target``). Triggers met while a
        chain resolves wait in the queue for its end (``_advance`` runs them when nothing is
        pending)."""
        c, card, e, src, *more = self.queue.pop(0)
        attacker = more[0] if more else None  # on_damaged: the creature whose damage it took
        if e.chooses:
            choices = self._choices(c, e, src)
            if not choices:
                return
            if len(choices) > 1:
                self.pending = ("target", c, card, e, src, attacker)
                return
            self._open(("trigger", c, card, (e,), (choices[0],), src, attacker))
        else:
            self._open(("trigger", c, card, (e,), (), src, attacker))

    # effects v2 item 8: triggers that watch the game. Each queues the effects, which go on the
    # chain one by one, in order, when the action that caused them is done (like on_destroyed).

    def damaged(self, victim: Unit | None, by: Unit | None) -> None:
        """``victim`` (None: a player) took damage from ``by`` (None: not a creature)."""
        flags = self._flags
        if not flags:
            return
        if victim is not None and victim.card.on_damaged and not victim.face_down:
            for e in victim.card.on_damaged:
                self.queue.append((victim.owner, victim.card, e, victim.iid, by.iid if by is not None else None))
        if by is not None and by.card.on_deal_damage and not by.face_down:
            for e in by.card.on_deal_damage:
                self.queue.append((by.owner, by.card, e, by.iid))

    def entered(self, u: Unit) -> None:
        """``u`` came onto the field face up (recruited, put onto the field)."""
        for e in u.card.on_enter:
            self.queue.append((u.owner, u.card, e, u.iid))

    def played(self, p: int, card: Card) -> None:
        """Player ``p`` played ``card`` (recruited face up, cast, a trap activated)."""
        if self._flags and "on_opponent_play" in self._flags:
            self._watchers("on_opponent_play", 1 - p, card)

    def phase_begins(self) -> None:
        """The phase in ``self.phase`` begins: on_phase effects of the cards in play that name it."""
        if "on_phase" in (self._flags or ()):
            self._watchers("on_phase", self.active, None)

    def _watchers(self, trigger: str, player: int, card: Card | None) -> None:
        """Queue ``trigger`` effects of the face-up creatures and Areas in play that watch ``player``
        (on_draw: whose draw; on_phase: whose turn; on_opponent_play: only ``player``'s cards watch
        ``card``)."""
        for c in (0, 1):
            if trigger == "on_opponent_play" and c != player:
                continue
            pl = self.p[c]
            holders = [(a, None) for a in pl.areas if a is not None] + [(u.card, u) for u in pl.field
                                                                       if not u.face_down]
            for holder, u in holders:
                for e in getattr(holder, trigger):
                    if trigger == "on_phase" and self.phase not in e.phase.split(","):
                        continue
                    if trigger != "on_opponent_play":
                        side = e.side
                        if (side == "own" and c != player) or (side == "opponent" and c == player):
                            continue
                    elif e.played is not None and card is not None and not matches(
                            e.played, card, Source(c, holder.name, holder, u), self, ADAPTER):
                        continue
                    self.queue.append((c, holder, e, u.iid if u is not None else None))

    def _resolve_all(self, c: int, card: Card, effects: Sequence[Effect], targets: tuple[Any, ...],
                     src: str | None, attacker: str | None) -> Paused | None:
        """Resolve ``effects`` of ``card`` in order through the interpreter; stops at the end.
        Returns the resolution paused for a player's decision, if one of them asks."""
        state: WarzoneState = self  # type: ignore[assignment]  # (cast() is a call at every resolution)
        source = ADAPTER.source(state, c, card, src, attacker)
        if not asking(effects):
            resolve_all(effects, source, targets, state, ADAPTER)
            return None
        decoded: list[Any] = []
        k = 0
        for e in effects:
            raw = None
            if e.chooses:
                raw = targets[k] if k < len(targets) else None
                k += 1
            decoded.append(ADAPTER.decode(state, e, raw) if raw is not None else None)
        return run(effects, decoded, source, state, ADAPTER)
