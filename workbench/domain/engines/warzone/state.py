"""The warzone game state: turn structure, actions and their resolution (RULES.md §1).

Decisions the players take (``Action.kind`` and ``args``):

* ``recruit (card, position, *targets)`` — Recruitment/Return, within the turn's limit (§1.6.2)
* ``spell (card, *targets)`` — activate a spell from hand; the opponent may answer with a trap
  (``respond`` window). Traps are only played as answers: to an attack or to a spell
* ``activate (creature, *targets)`` — a creature's activated effect, once per turn
* ``position (creature,)`` — switch Battling/Guarding (Decision §1.6)
* ``attack (creature, target | "direct")`` — War phase (§1.7)
* ``end_phase`` / ``end_turn`` — leave Recruitment/War, or Return (Night follows)
* defender, after an attack declaration: ``intercept (creature,)`` (§1.8), ``trap``, ``allow``
  (or ``done`` once it has intercepted when several interceptors are allowed)
* opponent, after a spell/trap: ``trap`` or ``pass``
* a triggered effect with several legal targets: ``target (creature | "P1" | "P2",)``

Wake and Night are automatic, and a phase whose only choice is to end it ends by itself.
Card arguments are instance names (e.g. ``a-ironclad-sentry-2``) so scenarios can name them.
Battles live in :mod:`.combat`, card effects in :mod:`.effects` (mixins of the state).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import product

from workbench.domain.effects.interpreter import can_pay, legal_targets, pay
from workbench.domain.effects.spec import Source
from workbench.domain.engines.base import Action, GameResult, GameStats, State
from workbench.domain.engines.warzone.adapter import ADAPTER
from workbench.domain.engines.warzone.cards import BATTLING, GUARDING, Card, Effect
from workbench.domain.engines.warzone.combat import Combat
from workbench.domain.engines.warzone.effects import Effects
from workbench.domain.engines.warzone.observe import Observe
from workbench.domain.engines.warzone.rules import (
    OK_BY_HIGHEST,
    Config,
    band_weight,
    bands_open,
    reach_table,
)
from workbench.domain.engines.warzone.units import PLAYER_NAMES, Player, Unit
from workbench.domain.errors import IllegalAction

__all__ = ["PLAYER_NAMES", "WarzoneState"]

END_PHASE = Action("end_phase", (), "end the phase")
END_TURN = Action("end_turn", (), "end the turn")
ALLOW = Action("allow", (), "let the attack through")
DONE = Action("done", (), "no more interceptors")
PASS = Action("pass", (), "no response")


class WarzoneState(Combat, Effects, Observe, State):
    """A position of one warzone game; see the module docstring for the action kinds."""

    def __init__(self, cfg: Config, seed: int) -> None:
        self.cfg = cfg
        self.rng = random.Random(seed)
        self.log: list[str] = []
        self.stats = GameStats()
        self.p = [Player(cfg.start_life), Player(cfg.start_life)]
        self.active = 0
        self.turn = 0
        self.phase = "wake"
        self.count = 0      # creatures recruited this turn
        self.highest = -1   # their highest Degree
        self.used = 0       # how many came from each Degree band (rules.band_weight)
        self.pending: tuple | None = None
        self.queue: list[tuple[int, Card, Effect, str | None]] = []
        self.over = False
        self.winner: int | None = None
        self.reason = ""
        self._legal: list[Action] | None = None
        self._aura: list[list[list[int]]] | None = None
        self.area_aura = [[[0, 0] for _ in range(4)] for _ in range(2)]

    # ------------------------------------------------------------------ interface

    def to_act(self) -> tuple[int, ...]:
        """The one player who chooses now (warzone has no simultaneous choices)."""
        if self.over:
            return ()
        pend = self.pending
        if pend is None:
            return (self.active,)
        kind = pend[0]
        if kind == "defend":
            return (1 - self.active,)
        if kind == "respond":
            return (1 - pend[1],)
        return (pend[1],)

    def legal_actions(self, player: int) -> list[Action]:
        """The actions ``player`` may take now; empty when it is not that player's choice."""
        if self.over:
            return []
        pend = self.pending  # to_act(), inlined: this runs at every decision
        if pend is None:
            actor = self.active
        elif pend[0] == "defend":
            actor = 1 - self.active
        elif pend[0] == "respond":
            actor = 1 - pend[1]
        else:
            actor = pend[1]
        if actor != player:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def apply(self, action: Action) -> None:
        """Apply the acting player's action. Raises IllegalAction when it is not legal now."""
        if self.over:
            raise IllegalAction("the game is over")
        pend = self.pending  # to_act(), inlined: this runs at every decision
        if pend is None:
            player = self.active
        elif pend[0] == "defend":
            player = 1 - self.active
        elif pend[0] == "respond":
            player = 1 - pend[1]
        else:
            player = pend[1]
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        kind, args = action.kind, action.args
        # Agents hand back a listed action: found by identity in a C-speed scan.
        if id(action) not in map(id, legal):
            for a in legal:
                if a.kind == kind and a.args == args:
                    break
            else:
                if self._same_as_listed_copy(player, kind, args, legal):
                    self._legal = None
                    self._dispatch(player, kind, args)
                    self._advance()
                    return
                raise IllegalAction(
                    f"{action} is not legal for {PLAYER_NAMES[player]} now "
                    f"(phase {self.phase}{', ' + self.pending[0] if self.pending else ''})")
        self._legal = None
        self._dispatch(player, kind, args)
        self._advance()

    def _same_as_listed_copy(self, player: int, kind: str, args: tuple,
                             legal: list[Action]) -> bool:
        """Whether ``args`` names another copy (in hand) of a card whose action is listed.

        Copies of one card are listed once, by their first copy; naming any copy is as good.
        """
        if kind not in ("recruit", "spell", "trap") or not args:
            return False
        hand = self.p[player].hand
        card = next((c for c in hand if c.iid == args[0]), None)
        if card is None:
            return False
        for a in legal:
            if a.kind == kind and a.args[1:] == args[1:]:
                other = next((c for c in hand if c.iid == a.args[0]), None)
                if other is not None and other.id == card.id:
                    return True
        return False

    def is_terminal(self) -> bool:
        """True once a player has lost (or both have: a draw)."""
        return self.over

    def result(self) -> GameResult:
        """Winner, reason and turns. Raises ValueError while the game is running."""
        if not self.over:
            raise ValueError("the game is not over")
        return GameResult(self.winner, self.reason, self.turn)

    def clone(self, quiet: bool = False) -> WarzoneState:
        """A cheap copy for look-ahead: lists copied, immutable cards shared.

        ``quiet`` copies drop the log and stop logging (for playouts).
        """
        s = WarzoneState.__new__(WarzoneState)
        s.cfg = self.cfg.quiet() if quiet else self.cfg
        s.rng = random.Random()
        s.rng.setstate(self.rng.getstate())
        s.log = [] if quiet else self.log[:]
        s.stats = self.stats.copy()
        s.p = [self.p[0].copy(), self.p[1].copy()]
        s.active = self.active
        s.turn = self.turn
        s.phase = self.phase
        s.count = self.count
        s.highest = self.highest
        s.used = self.used
        s.pending = self.pending
        s.queue = self.queue[:]
        s.over = self.over
        s.winner = self.winner
        s.reason = self.reason
        s._legal = self._legal
        s._aura = None
        s.area_aura = self.area_aura
        return s

    # ------------------------------------------------------------------ stats of units

    def strength(self, u: Unit) -> int:
        """A creature's current Strength (card + modifiers + continuous effects)."""
        aura = self._aura if self._aura is not None else self._compute_aura()
        s = u.card.strength + u.perm_str + u.eot_str + aura[u.owner][u.cls][0]
        return s if s > 0 else 0  # a negative Strength would heal what it strikes

    def resilience(self, u: Unit) -> int:
        """A creature's current Resilience before damage."""
        aura = self._aura if self._aura is not None else self._compute_aura()
        return u.card.resilience + u.perm_res + u.eot_res + aura[u.owner][u.cls][1]

    def left(self, u: Unit) -> int:
        """Resilience a creature has left after the damage it carries."""
        return self.resilience(u) - u.damage

    def _compute_aura(self) -> list[list[list[int]]]:
        aura = [[row[:] for row in self.area_aura[0]], [row[:] for row in self.area_aura[1]]]
        for owner in (0, 1):
            for u in self.p[owner].field:
                for e in u.card.continuous:
                    if e.target == "own_creatures":
                        rows = aura[owner]
                    elif e.target == "enemy_creatures":
                        rows = aura[1 - owner]
                    else:
                        continue
                    for c in (1, 2, 3):
                        rows[c][0] += e.d_str
                        rows[c][1] += e.d_res
        self._aura = aura
        return aura

    def unit(self, iid: str) -> Unit | None:
        """The creature with instance name ``iid`` on either field, or None."""
        a, b = self.p
        units = a.units_cache
        if units is None:
            units = a.units_cache = {u.iid: u for u in a.field}
        u = units.get(iid)
        if u is None:
            units = b.units_cache
            if units is None:
                units = b.units_cache = {u.iid: u for u in b.field}
            u = units.get(iid)
        return u

    def card_total(self, player: int) -> int:
        """All cards ``player`` owns, wherever they are (conservation invariant)."""
        n = self.p[player].card_count()
        pend = self.pending
        if pend is not None and pend[0] == "respond" and pend[2].owner == player:
            n += 1
        return n

    # ------------------------------------------------------------------ logging

    def say(self, text: str) -> None:
        """Append a log line prefixed with the turn (no-op when logging is off)."""
        if self.cfg.log:
            self.log.append(f"Turn {self.turn} — {text}")

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> list[Action]:
        pend = self.pending
        if pend is None:
            if self.phase == "war":
                return self._war_actions()
            return self._main_actions()
        kind = pend[0]
        if kind == "defend":
            return self._defend_actions()
        if kind == "respond":
            acts = self._trap_actions(1 - pend[1], "respond", None)
            acts.append(PASS)
            return acts
        c, card, e = pend[1], pend[2], pend[3]
        return [_act("target", (t,), card.name, self._target_name(t))
                for t in self._choices(c, e, pend[4])]

    def _can_pay(self, p: int, u: Unit) -> bool:
        """Whether ``p`` can pay every cost (beyond tapping) of ``u``'s activated effects."""
        source = ADAPTER.source(self, p, u.card, u.iid, None)
        return all(can_pay(e, source, self, ADAPTER) for e in u.card.activated)

    def _choices(self, c: int, e: Effect, src: str | None = None) -> list[str]:
        """Legal chosen targets of effect ``e`` controlled by player ``c`` (``src``: its creature)."""
        t = e.target
        if e.filter is not None:  # a filtered choice: the interpreter's matching units
            source = Source(c, "", None, self.unit(src) if src else None)
            return [u.iid for u in legal_targets(e, source, self, ADAPTER)]
        if t == "enemy_creature":
            return [u.iid for u in self.p[1 - c].field]
        if t == "own_creature":
            return [u.iid for u in self.p[c].field]
        if t == "any_creature":
            return [u.iid for u in self.p[c].field] + [u.iid for u in self.p[1 - c].field]
        if t == "any_player":
            return ["P1", "P2"]
        return []

    def _combos(self, c: int, effects: Sequence[Effect], src: str | None = None) -> list[tuple[str, ...]]:
        """Every way to choose the targets of ``effects``; empty when one has no target."""
        lists = [self._choices(c, e, src) for e in effects if e.chooses]
        if not lists:
            return [()]
        if len(lists) == 1:
            return [(t,) for t in lists[0]]
        return list(product(*lists))

    def _target_name(self, t: str) -> str:
        if t in ("P1", "P2"):
            return t
        u = self.unit(t)
        return u.card.name if u else t

    def _main_actions(self) -> list[Action]:
        p = self.active
        me = self.p[p]
        cfg = self.cfg
        # The recruit limit depends only on the Degree band (0-1, 2-3, 4+) of the newcomer.
        band_ok = (cfg.limit_by_highest and OK_BY_HIGHEST.get((self.count, self.highest))
                   or bands_open(cfg, self.count, self.highest, self.used))
        hand = me.hand
        cached = me.hand_acts
        if cached is None or cached[0] != hand or cached[1] != band_ok:
            cached = me.hand_acts = _hand_part(hand, band_ok)
        acts: list[Action] = list(cached[2])
        for card in cached[3]:  # their targets depend on the field: listed afresh
            known = card.target_acts
            if card.kind == "creature":
                for targets in self._combos(p, card.on_play):
                    pair = known.get(targets)
                    if pair is None:
                        pair = known[targets] = tuple(
                            _act("recruit", (card.iid, pos) + targets, card.name)
                            for pos in (BATTLING, GUARDING))
                    acts += pair
            else:
                for targets in self._combos(p, card.on_play):
                    act = known.get(targets)
                    if act is None:
                        act = known[targets] = _act("spell", (card.iid,) + targets, card.name)
                    acts.append(act)
        pos_once = cfg.pos_once
        for u in me.field:
            if not u.attacked and not (u.pos_changed and pos_once):
                acts.append(u.card.pos_act)
            activated = u.card.activated
            if activated and not u.used:
                if u.attacked and any(e.tap for e in activated):
                    continue
                if u.card.pays and not self._can_pay(p, u):
                    continue
                for targets in self._combos(p, activated, u.iid):
                    acts.append(_act("activate", (u.iid,) + targets, u.card.name))
        acts.append(END_PHASE if self.phase == "recruit" else END_TURN)
        return acts

    def _war_actions(self) -> list[Action]:
        p = self.active
        acts: list[Action] = []
        if not (self.turn == 1 and self.cfg.first_no_attack):
            foe = self.p[1 - p]
            foe_field = foe.field
            rows = foe.rows()
            guard_attacks = self.cfg.guard_attacks
            for u in self.p[p].field:
                if u.attacked or (u.pos == GUARDING and not guard_attacks):
                    continue
                card = u.card
                cache = card.acts
                reach = reach_table(u.cls, card.master, rows)
                for v in foe_field:
                    if reach[v.cls]:
                        vcard = v.card
                        act = cache.get(vcard)
                        if act is None:
                            act = cache[vcard] = Action(
                                "attack", (u.iid, v.iid), f"{card.name} attacks {vcard.name}")
                        acts.append(act)
                if reach[4]:
                    act = cache.get("direct")
                    if act is None:
                        act = cache["direct"] = Action("attack", (u.iid, "direct"),
                                                       f"{card.name} attacks directly")
                    acts.append(act)
        acts.append(END_PHASE)
        return acts

    def _interceptors(self, d: int, target: str | None, chosen: tuple[str, ...]) -> list[Unit]:
        """Creatures of defender ``d`` that may intercept (§1.8)."""
        if len(chosen) >= self.cfg.interceptors:
            return []
        field = self.p[d].field
        if target is None:
            return [v for v in field if v.iid not in chosen]
        t = self.unit(target)
        if t is None:
            return []
        return [v for v in field if v.cls < t.cls and v.iid not in chosen]

    def _defend_actions(self) -> list[Action]:
        _, att, target, chosen = self.pending  # type: ignore[misc]
        d = 1 - self.active
        acts = [_act("intercept", (v.iid,), v.card.name)
                for v in self._interceptors(d, target, chosen)]
        acts.extend(self._trap_actions(d, "defend", att))
        acts.append(DONE if chosen else ALLOW)
        return acts

    def _may_trap(self, c: int, window: str) -> bool:
        """Whether :meth:`_trap_actions` would list any trap for ``c`` (without listing them)."""
        for card in self.p[c].hand:
            if not card.is_trap:
                continue
            if window == "respond" and any(e.target == "attacker" for e in card.on_play):
                continue
            if card.plain_play or self._combos(c, card.on_play):
                return True
        return False

    def _trap_actions(self, c: int, window: str, attacker: str | None) -> list[Action]:
        """Traps player ``c`` may activate in a response ``window`` (defend or respond)."""
        acts: list[Action] = []
        seen: set[str] = set()
        for card in self.p[c].hand:
            if not card.is_trap or card.id in seen:
                continue
            seen.add(card.id)
            if window == "respond" and any(e.target == "attacker" for e in card.on_play):
                continue
            for targets in self._combos(c, card.on_play):
                acts.append(_act("trap", (card.iid,) + targets, card.name))
        return acts

    # ------------------------------------------------------------------ applying actions

    def _dispatch(self, player: int, kind: str, args: tuple) -> None:
        me = self.p[player]
        # The commonest kinds first.
        if kind == "recruit":
            self._recruit(player, _in_hand(me, args[0]), args[1], args[2:])
        elif kind == "attack":
            self._declare(player, args[0], None if args[1] == "direct" else args[1])
        elif kind == "end_phase":
            if self.phase == "recruit":
                self.phase = "war"
            else:
                self.phase = "return"
        elif kind == "end_turn":
            self._enter_night()
        elif kind == "spell":
            self._cast(player, _in_hand(me, args[0]), args[1:])
        elif kind == "position":
            u = me.unit(args[0])
            assert u is not None
            u.pos = GUARDING if u.pos == BATTLING else BATTLING
            u.pos_changed = True
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[player]} switches {u.card.name} to {u.pos.capitalize()}")
        elif kind == "activate":
            u = me.unit(args[0])
            assert u is not None
            u.used = True
            if any(e.tap for e in u.card.activated):
                u.attacked = True  # a tap cost is paid by not attacking this turn
            if u.card.pays:
                source = ADAPTER.source(self, player, u.card, u.iid, None)
                for e in u.card.activated:
                    pay(e, source, self, ADAPTER)
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[player]} activates {u.card.name}")
            self._resolve_all(player, u.card, u.card.activated, args[1:], u.iid, None)
        elif kind == "intercept":
            _, att, target, chosen = self.pending  # type: ignore[misc]
            chosen = chosen + (args[0],)
            v = self.unit(args[0])
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[player]} intercepts with {v.card.name if v else args[0]}")
            if len(chosen) >= self.cfg.interceptors or not self._interceptors(
                    player, target, chosen):
                self.pending = None
                self._resolve_attack(att, target, chosen)
            else:
                self.pending = ("defend", att, target, chosen)
        elif kind in ("allow", "done"):
            _, att, target, chosen = self.pending  # type: ignore[misc]
            self.pending = None
            self._resolve_attack(att, target, chosen)
        elif kind == "trap":
            self._respond_trap(player, _in_hand(me, args[0]), args[1:])
        elif kind == "pass":
            _, caster, card, targets = self.pending  # type: ignore[misc]
            self.pending = None
            self._finish_cast(caster, card, targets)
        elif kind == "target":
            _, c, card, e, src = self.pending  # type: ignore[misc]
            self.pending = None
            self._resolve(c, card, e, args[0], src, None)
            self._check_end()

    def _advance(self) -> None:
        """Run automatic steps until a player must choose or the game is over."""
        while not self.over:
            if self.pending is not None:
                return
            if self.queue:
                self._run_trigger()
                continue
            phase = self.phase
            if phase == "night":
                self._finish_night()
                continue
            if phase == "wake":
                self.phase = "recruit"
                continue
            # _compute_legal() without a pending choice
            acts = self._war_actions() if phase == "war" else self._main_actions()
            if len(acts) == 1:  # only "end": nothing to decide
                if phase == "return":
                    self._enter_night()
                else:
                    self.phase = "war" if phase == "recruit" else "return"
                continue
            self._legal = acts
            return

    # ------------------------------------------------------------------ turn structure

    def start_turn(self, player: int) -> None:
        """Wake phase (§1.6.1): draw 1, the turn player's creatures recover all damage."""
        self.turn += 1
        self.active = player
        self.phase = "wake"
        self.count = 0
        self.highest = -1
        self.used = 0
        me = self.p[player]
        for u in me.field:
            u.damage = 0
            u.zero_ok = False
            u.attacked = False
            u.pos_changed = False
            u.used = False
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[player]} wakes (Life {me.life}, hand {len(me.hand)}, "
                     f"deck {len(me.deck)}, damage pile {len(me.pile)})")
        self.draw(player, 1)
        for area in me.areas:
            if area is not None:
                for e in area.start_turn:
                    self.queue.append((player, area, e, None))
        for u in me.field:
            for e in u.card.start_turn:
                self.queue.append((player, u.card, e, u.iid))
        self._check_end()

    def _enter_night(self) -> None:
        p = self.active
        self.phase = "night"
        me = self.p[p]
        for area in me.areas:
            if area is not None:
                for e in area.end_turn:
                    self.queue.append((p, area, e, None))
        for u in me.field:
            for e in u.card.end_turn:
                self.queue.append((p, u.card, e, u.iid))

    def _finish_night(self) -> None:
        """Night phase (§1.6.5): draw 1; "until end of turn" changes end; next player's turn."""
        p = self.active
        self.draw(p, 1)
        changed = False
        for pl in self.p:
            for u in pl.field:
                if u.eot_str or u.eot_res:
                    changed = True
                    u.eot_str = u.eot_res = 0
        if changed:
            self._sweep()
        if self._check_end(night=True):
            return
        self.start_turn(1 - p)

    def draw(self, player: int, n: int) -> None:
        """Draw ``n`` cards; drawing from an empty deck loses (§1.4.3)."""
        me = self.p[player]
        deck = me.deck
        if 0 < n <= len(deck):  # the usual case: all of them at once, top card first
            if n == 1:
                card = deck.pop()
                me.hand.append(card)
                self.stats.drawn[player].add(card.id)
                return
            taken = deck[-n:]
            del deck[-n:]
            taken.reverse()
            me.hand.extend(taken)
            self.stats.drawn[player].update([c.id for c in taken])
            return
        for _ in range(n):
            if not me.deck:
                me.decked = True
                if self.cfg.log:
                    self.say(f"{PLAYER_NAMES[player]} must draw from an empty deck")
                return
            card = me.deck.pop()
            me.hand.append(card)
            self.stats.drawn[player].add(card.id)

    def _check_end(self, night: bool = False) -> bool:
        """Apply the winning conditions (§1.4); returns True when the game is over."""
        if self.over:
            return True
        a, b = self.p
        if a.life > 0 and b.life > 0 and not (a.decked or b.decked):
            # The common case, without building reasons.
            cfg = self.cfg
            if not (cfg.pile_immediate or night):
                return False
            limit = cfg.pile_limit
            if len(a.pile) < limit and len(b.pile) < limit:
                return False
        pile_counts = self.cfg.pile_immediate or night
        limit = self.cfg.pile_limit
        reasons: list[str] = []
        for i, pl in enumerate(self.p):
            if pl.life <= 0:
                reasons.append(f"{PLAYER_NAMES[i]} has {pl.life} Life Points (§1.4.1)")
            elif pile_counts and len(pl.pile) >= limit:
                reasons.append(f"{PLAYER_NAMES[i]} has {len(pl.pile)} cards in the Damage Pile "
                               f"(§1.4.2)")
            elif pl.decked:
                reasons.append(f"{PLAYER_NAMES[i]} must take a card from an empty deck (§1.4.3)")
            else:
                reasons.append("")
        lost = [bool(r) for r in reasons]
        if not any(lost):
            return False
        self.over = True
        self.pending = None
        self.queue.clear()
        self.phase = "over"
        if all(lost):
            self.winner = None
            self.reason = f"draw: both lose at once ({reasons[0]}; {reasons[1]}) (§1.4.4)"
        else:
            loser = 0 if lost[0] else 1
            self.winner = 1 - loser
            self.reason = reasons[loser]
        if self.cfg.log:
            self.say(f"game over — {self.reason}; "
                     f"{'draw' if self.winner is None else PLAYER_NAMES[self.winner] + ' wins'}")
        return True

    # ------------------------------------------------------------------ recruiting and cards

    def _recruit(self, p: int, card: Card, pos: str, targets: tuple) -> None:
        me = self.p[p]
        me.hand.remove(card)
        u = Unit(card, pos)
        me.field.append(u)
        me.rows_cache = me.units_cache = None  # Player.field_changed(), inlined
        self.count += 1
        if card.degree > self.highest:
            self.highest = card.degree
        self.used += band_weight(card.degree)
        self.stats.played[p].add(card.id)
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[p]} recruits {card.name} (C{card.cls}, {pos.capitalize()})")
        if card.continuous:
            self._aura = None
            self._sweep()
        if card.on_play:
            self._resolve_all(p, card, card.on_play, targets, u.iid, None)

_ACTS: dict[tuple, Action] = {}
_TEXT = {
    "recruit": "recruit {0} ({2})",
    "spell": "activate {0}",
    "trap": "activate trap {0}",
    "position": "switch the position of {0}",
    "activate": "use {0}",
    "attack": "{0} attacks {1}",
    "intercept": "intercept with {0}",
    "target": "{0} targets {1}",
}


def _act(kind: str, args: tuple, name: str, other: str = "") -> Action:
    """The Action for (kind, args), shared between decisions: building one costs more than
    looking it up, and legal actions are listed at every decision."""
    key = (kind, args, name, other)
    act = _ACTS.get(key)
    if act is None:
        if len(_ACTS) > 200_000:
            _ACTS.clear()
        text = _TEXT[kind].format(name, other, args[1] if len(args) > 1 else "")
        act = _ACTS[key] = Action(kind, args, text)
    return act


def _hand_part(hand: list[Card], band_ok: tuple[bool, bool, bool]) -> tuple:
    """(copy of the hand, ``band_ok``, actions of cards played without a target, cards whose
    targets depend on the field): the hand's part of the Recruitment/Return actions, kept on
    the player while the hand and the open Degree bands stay the same."""
    plain: list[Action] = []
    targeted: list[Card] = []
    seen: set[str] = set()
    ok = band_ok + (True,)  # slot 3: spells, not limited by the bands
    for card in hand:
        cid = card.id
        if cid in seen:
            continue  # copies of one card give the same choices: the first is listed
        seen.add(cid)
        slot = card.list_slot
        if slot < 0 or not ok[slot]:
            continue
        if card.plain_play:
            plain.extend(card.play_acts)
        else:
            targeted.append(card)
    return hand[:], band_ok, tuple(plain), tuple(targeted)


def _in_hand(player: Player, iid: str) -> Card:
    for card in player.hand:
        if card.iid == iid:
            return card
    raise IllegalAction(f"{iid} is not in the hand")
