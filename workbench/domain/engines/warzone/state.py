"""The warzone game state: turn structure, actions and their resolution (RULES.md §1).

Decisions the players take (``Action.kind`` and ``args``):

* ``recruit (card, position, *targets)`` — Recruitment/Return, within the turn's limit (§1.6.2)
* ``spell (card, *targets)`` — activate a spell from hand: Recruitment/Return and the War
  phase's steps (§1.12.1); a quick spell also as an answer in a chain
* ``set (card,)`` — set a trap face down (Decision §1.12.2, ``traps_set_first``), or recruit a
  ``settable`` creature face down in Guarding position (§1.12.7)
* ``flip (creature, *targets)`` — turn an own set creature face up (Recruitment/Return)
* ``activate (creature, *targets)`` — a creature's activated effect, once per turn
* ``position (creature,)`` — switch Battling/Guarding (Decision §1.6)
* ``attack (creature, target | "direct")`` — War phase (§1.7)
* ``end_phase`` / ``end_turn`` — leave Recruitment/War, or Return (Night follows)
* the chain (§1.12.3): after a recruit, a flip, a spell, an activated effect or an attack
  declaration the other player may answer with ``trap (card, *targets)``, a quick ``spell`` or
  a quick effect (``activate``);
  an answer may be answered in turn; ``pass`` resolves the chain, the last link first
* defender, after an attack declaration and its chain: ``intercept (creature,)`` (§1.8),
  ``allow`` (or ``done`` once it has intercepted when several interceptors are allowed)
* a triggered effect with several legal targets: ``target (creature | "P1" | "P2",)``
* at the start: ``areas (row 1, row 2, row 3)`` — where each Area goes (§1.12.4)
* after a heal trigger (§1.12.5): ``heal (card,)`` — the Damage Pile card to discard

Wake and Night are automatic, and a phase whose only choice is to end it ends by itself.
Card arguments are instance names (e.g. ``a-ironclad-sentry-2``) so scenarios can name them.
Battles live in :mod:`.combat`, card effects in :mod:`.effects` (mixins of the state).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any
from itertools import count, permutations, product
from operator import attrgetter

from workbench.domain.effects.interpreter import can_pay, legal_targets, matches, pay
from workbench.domain.effects.spec import Source
from workbench.domain.effects.statics import StaticRules
from workbench.domain.engines.base import Action, GameResult, GameStats, State
from workbench.domain.engines.warzone.adapter import ADAPTER
from workbench.domain.engines.warzone.cards import BATTLING, GUARDING, Card, Effect
from workbench.domain.engines.warzone.combat import Combat
from workbench.domain.engines.warzone.effects import Effects
from workbench.domain.engines.warzone.observe import Observe
from workbench.domain.engines.warzone.rules import (
    OK_BY_HIGHEST,
    REACH_BY_ROWS,
    Config,
    band_weight,
    bands_open,
    reach_by_rows,
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

    __slots__ = ()  # the fields are slots of WarzoneCore

    _rng: random.Random | int | tuple[Any, ...]
    """The game's generator, or, until one is made, its seed or its saved state (see ``rng``)."""

    def __init__(self, cfg: Config, seed: int) -> None:
        self.serial = next(_SERIALS)  # never reused, unlike id(): the AI players' memo keys
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
        self.chain: list[tuple] = []  # the links of the open chain, the first at index 0
        self.heals: list[int] = []    # heal triggers waiting for their player's choice
        self.step = ""                # the War phase's step (declaration, battle, end_of_combat)
        self.to_place: list[list[Card] | None] | None = None  # Areas still to place (§1.12.4)
        self.queue: list[tuple[Any, ...]] = []  # (controller, card, effect, its creature[, attacker])
        self.lasting: list[tuple[int, str, int, int]] = []  # (controller, iid, +str, +res) until its next turn
        self.over = False
        self.winner: int | None = None
        self.reason = ""
        self._legal: list[Action] | None = None
        self._aura: list[list[list[int]]] | None = None
        self.area_aura = [[[0, 0] for _ in range(4)] for _ in range(2)]
        # effects v2 item 8: filtered standing changes per creature (with _aura), the static rules
        # in play (adapter.statics; dropped when the field changes), what of item 8 the game's
        # cards use (adapter.flags, found once), and while_on_field changes (source, target, +str, +res)
        self._filtered: dict[str, tuple[int, int]] = {}
        self._statics: StaticRules | None = None
        self._flags: frozenset[str] | None = None
        self.bound: list[tuple[str, str, int, int]] = []

    # ------------------------------------------------------------------ interface

    def to_act(self) -> tuple[int, ...]:
        """The one player who chooses now (warzone has no simultaneous choices)."""
        if self.over:
            return ()
        pend = self.pending
        if pend is None:
            return (self.active,)
        if pend[0] == "defend":
            return (1 - self.active,)
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
        if kind not in ("recruit", "spell", "trap", "set") or not args:
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
        s.serial = next(_SERIALS)
        s.cfg = self.cfg.quiet() if quiet else self.cfg
        # The generator is shared as a frozen state until one of the two draws from it (see
        # ``rng``): copying its 625 words was most of a clone, and playouts rarely draw.
        r = self._rng
        if isinstance(r, random.Random):
            r = self._rng = r.getstate()
        s._rng = r
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
        s.chain = self.chain[:]
        s.heals = self.heals[:]
        s.step = self.step
        s.to_place = self.to_place[:] if self.to_place is not None else None
        s.queue = self.queue[:]
        s.lasting = self.lasting[:]
        s.over = self.over
        s.winner = self.winner
        s.reason = self.reason
        s._legal = self._legal
        s._aura = None
        s.area_aura = self.area_aura
        s._filtered = {}
        s._statics = None
        s._flags = self._flags
        s.bound = self.bound[:]
        return s

    @property
    def rng(self) -> random.Random:
        """The game's own generator (deck shuffles of effects, random picks).

        Made when first drawn from: a clone and its parent share the generator's seed or
        saved state until one of them draws, and each then makes its own generator from it, so
        both draw what they would have drawn from a copy made at the clone. Copying the
        generator's 625 words was most of a clone, and playouts rarely draw."""
        r = self._rng
        if isinstance(r, random.Random):
            return r
        if isinstance(r, int):
            made = random.Random(r)
        else:
            made = random.Random(0)
            made.setstate(r)
        self._rng = made
        return made

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    def seed_rng(self, seed: int) -> None:
        """Give the game a generator seeded with ``seed`` (``random.Random(seed)``), made when
        first drawn from (see ``rng``)."""
        self._rng = seed

    # ------------------------------------------------------------------ stats of units

    def strength(self, u: Unit) -> int:
        """A creature's current Strength (card + modifiers + continuous effects)."""
        aura = self._aura if self._aura is not None else self._compute_aura()
        s = u.card.strength + u.perm_str + u.eot_str + aura[u.owner][u.cls][0]
        if self._filtered:
            s += self._filtered.get(u.iid, _NO_CHANGE)[0]
        return s if s > 0 else 0  # a negative Strength would heal what it strikes

    def resilience(self, u: Unit) -> int:
        """A creature's current Resilience before damage."""
        aura = self._aura if self._aura is not None else self._compute_aura()
        r = u.card.resilience + u.perm_res + u.eot_res + aura[u.owner][u.cls][1]
        if self._filtered:
            r += self._filtered.get(u.iid, _NO_CHANGE)[1]
        return r

    def left(self, u: Unit) -> int:
        """Resilience a creature has left after the damage it carries (``resilience(u) -
        u.damage``, its body inlined: the AI players ask it at most decisions)."""
        aura = self._aura if self._aura is not None else self._compute_aura()
        r = u.card.resilience + u.perm_res + u.eot_res + aura[u.owner][u.cls][1] - u.damage
        if self._filtered:
            r += self._filtered.get(u.iid, _NO_CHANGE)[1]
        return r

    def _compute_aura(self) -> list[list[list[int]]]:
        aura = [[row[:] for row in self.area_aura[0]], [row[:] for row in self.area_aura[1]]]
        filtered: list[tuple[int, Card, Unit | None, Effect]] = []
        for owner in (0, 1):
            for area in self.p[owner].areas:
                if area is not None and area.filtered:
                    filtered += [(owner, area, None, e) for e in area.filtered]
            for u in self.p[owner].field:
                if u.face_down:
                    continue  # a set creature's text is not active (§1.12.7)
                for e in u.card.continuous:
                    if e.filter is not None:
                        filtered.append((owner, u.card, u, e))
                    elif e.target == "own_creatures":
                        rows = aura[owner]
                    elif e.target == "enemy_creatures":
                        rows = aura[1 - owner]
                    else:
                        continue
                    for c in (1, 2, 3):
                        rows[c][0] += e.d_str
                        rows[c][1] += e.d_res
        self._aura = aura
        self._filtered = self._filtered_changes(filtered) if filtered else {}
        return aura

    def _filtered_changes(self, sources: list[tuple[int, Card, Unit | None, Effect]]) -> dict[str, tuple[int, int]]:
        """Standing changes with a filter ("your Class 2 creatures get +100 Strength"): each
        reaches the matching creatures of its side on every row, by instance name. The filter
        names printed fields only (parse.py), so it is read before the changes exist."""
        changes: dict[str, tuple[int, int]] = {}
        for owner, card, u, e in sources:
            src = Source(owner, card.name, card, u)
            side = self.p[owner if e.target in ("own_creatures", "this", "self") else 1 - owner].field
            reach = [u] if e.target in ("this", "self") and u is not None else side
            for v in reach:
                if matches(e.filter, v, src, self, ADAPTER):
                    old = changes.get(v.iid, _NO_CHANGE)
                    changes[v.iid] = (old[0] + e.d_str, old[1] + e.d_res)
        return changes

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
        if self.to_place is not None:  # Areas not placed yet (§1.12.4)
            n += len(self.to_place[player] or ())
        for link in self.chain:  # spells and traps on the chain are out of every zone
            if link[0] in ("spell", "trap") and link[2].owner == player:
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
        if kind == "chain":
            acts = self._answer_actions(pend[1])
            acts.append(PASS)
            return acts
        if kind == "areas":
            return self._area_actions(pend[1])
        if kind == "heal":
            return self._heal_actions(pend[1])
        if kind == "ask":
            ask = pend[2].ask
            return [Action("choose", (opt,), f"{ask.card}: {label}")
                    for opt, label in zip(ask.options, ask.labels)]
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
        if e.filter is not None or (self._flags and "static" in self._flags and t != "any_player"):
            # a filtered choice, or static rules in the game: the interpreter's matching, targetable units
            source = Source(c, "", None, self.unit(src) if src else None)
            return [u.iid for u in legal_targets(e, source, self, ADAPTER)]
        # instance names read at C speed (a comprehension is a frame of its own in 3.11)
        if t == "enemy_creature":
            return list(map(_IID, self.p[1 - c].field))
        if t == "own_creature":
            return list(map(_IID, self.p[c].field))
        if t == "any_creature":
            return list(map(_IID, self.p[c].field)) + list(map(_IID, self.p[1 - c].field))
        if t == "any_player":
            return ["P1", "P2"]
        return []

    def _combos(self, c: int, effects: Sequence[Effect], src: str | None = None) -> list[tuple[str, ...]]:
        """Every way to choose the targets of ``effects``; empty when one has no target."""
        lists = []
        for e in effects:
            if e.chooses:
                lists.append(self._choices(c, e, src))
        if not lists:
            return [()]
        if len(lists) == 1:
            return list(zip(lists[0]))  # one 1-tuple per target
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
            cached = me.hand_acts = _hand_part(hand, band_ok, cfg.set_first)
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
            if u.face_down:  # a set creature is turned face up, nothing else (§1.12.7)
                if not (u.pos_changed and pos_once):
                    # with no target for its on_play effect it may still be turned face up
                    for targets in self._combos(p, u.card.on_play) or [()]:
                        acts.append(_act("flip", (u.iid,) + targets, u.card.name))
                continue
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
            rows = foe.rows_cache or foe.rows()  # rows(), its kept answer read directly
            guard_attacks = self.cfg.guard_attacks
            rules = ADAPTER.statics(self) if self._flags else None
            reach_for = REACH_BY_ROWS.get(rows) or reach_by_rows(rows)  # by Card.reach_kind
            for u in self.p[p].field:
                if u.attacked or (u.pos == GUARDING and not guard_attacks):
                    continue
                if rules is not None and u in rules.no_attack:
                    continue  # cannot_attack
                card = u.card
                cache = card.acts
                reach = reach_for[card.reach_kind]  # a unit's Class is its card's (Unit.__init__)
                for v in foe_field:
                    if reach[v.cls] and (rules is None or v not in rules.unattackable):
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
        # Spells in the Declaration and End of Combat steps (§1.12.1): between attacks.
        me = self.p[p]
        hand = me.hand
        spells = me.war_spells
        if spells is None or spells[0] != hand:
            spells = me.war_spells = _war_spells(hand)
        for card in spells[1]:
            known = card.target_acts
            for targets in self._combos(p, card.on_play):
                act = known.get(targets)
                if act is None:
                    act = known[targets] = _act("spell", (card.iid,) + targets, card.name)
                acts.append(act)
        acts.append(END_PHASE)
        return acts

    def _interceptors(self, d: int, target: str | None, chosen: tuple[str, ...],
                      att: str | None = None) -> list[Unit]:
        """Creatures of defender ``d`` that may intercept (§1.8) the attack of ``att``."""
        if len(chosen) >= self.cfg.interceptors:
            return []
        if att is not None and self._flags:
            rules = ADAPTER.statics(self)
            if rules is not None and rules.unblockable and self.unit(att) in rules.unblockable:
                return []  # cannot_be_blocked
        field = self.p[d].field
        if target is None:
            return [v for v in field if v.iid not in chosen]
        t = self.unit(target)
        if t is None:
            return []
        return [v for v in field if v.cls < t.cls and v.iid not in chosen]

    def _defend_actions(self) -> list[Action]:
        pend = self.pending
        assert pend is not None  # this action is offered only while it is pending
        _, att, target, chosen = pend
        d = 1 - self.active
        acts = [_act("intercept", (v.iid,), v.card.name)
                for v in self._interceptors(d, target, chosen, att)]
        acts.append(DONE if chosen else ALLOW)
        return acts

    def _answers(self, c: int, listing: bool) -> list[Action] | bool:
        """Player ``c``'s answers to the open chain (§1.12.3): traps set before this turn
        (Decision §1.12.2; with ``traps_set_first`` off, traps from the hand) and quick spells.
        A trap that names the attacker answers only in the defence against an attack.
        ``listing`` False: whether there is any, without listing them."""
        base = self.chain[0]
        defending = base[0] == "attack" and base[1] != c
        me = self.p[c]
        acts: list[Action] = []
        seen: set[str] = set()
        if self.cfg.set_first:
            turn = self.turn
            traps = [card for card, t in me.traps if t < turn]
        else:
            traps = [card for card in me.hand if card.is_trap]
        for card in traps:
            if card.id in seen or (card.on_attacker and not defending):
                continue
            seen.add(card.id)
            if not listing:
                if card.plain_play or self._combos(c, card.on_play):
                    return True
                continue
            for targets in self._combos(c, card.on_play):
                acts.append(_act("trap", (card.iid,) + targets, card.name))
        for card in me.hand:
            if not card.quick or card.id in seen:
                continue
            seen.add(card.id)
            if not listing:
                if card.plain_play or self._combos(c, card.on_play):
                    return True
                continue
            for targets in self._combos(c, card.on_play):
                acts.append(_act("spell", (card.iid,) + targets, card.name))
        for u in me.field:  # quick effects: activated effects of speed 2 (§1.12.3)
            if not self._quick_ready(c, u):
                continue
            for targets in self._combos(c, u.card.activated, u.iid):
                if not listing:
                    return True
                acts.append(_act("activate", (u.iid,) + targets, u.card.name))
        return acts if listing else False

    def _quick_ready(self, c: int, u: Unit) -> bool:
        """Whether ``u``'s quick effect may answer now: face up, not used this turn, its tap
        (instead of attacking) and other costs payable."""
        card = u.card
        if not card.quick_effect or u.used or u.face_down:
            return False
        if u.attacked and any(e.tap for e in card.activated):
            return False
        return not card.pays or self._can_pay(c, u)

    def _may_answer(self, c: int) -> bool:
        """Whether player ``c`` has any answer to the open chain (see :meth:`_answers`); the
        usual "none" is decided without listing anything."""
        me = self.p[c]
        if self.cfg.set_first:
            traps = me.traps
            if traps:
                turn = self.turn
                defending = None
                for card, t in traps:
                    if t >= turn:
                        continue
                    if card.on_attacker:
                        if defending is None:
                            base = self.chain[0]
                            defending = base[0] == "attack" and base[1] != c
                        if not defending:
                            continue
                    if card.plain_play or self._combos(c, card.on_play):
                        return True
        else:
            for card in me.hand:
                if card.is_trap:
                    return bool(self._answers(c, False))
        if not me.quick:  # no quick spell or quick effect among this player's cards
            return False
        hand = me.hand
        quick = me.quick_spells
        if quick is None or quick[0] != hand:  # kept while the hand stays the same
            quick = me.quick_spells = (hand[:], _has_quick_spell(hand))
        if quick[1]:
            return bool(self._answers(c, False))
        for u in me.field:
            if u.card.quick_effect:
                return bool(self._answers(c, False))
        return False

    def _answer_actions(self, c: int) -> list[Action]:
        acts = self._answers(c, True)
        assert isinstance(acts, list)
        return acts

    def _area_actions(self, c: int) -> list[Action]:
        """Every distinct way to put the player's Areas in rows 1-3 (§1.12.4)."""
        assert self.to_place is not None
        cards = self.to_place[c] or []
        key = tuple(map(id, cards))
        hit = _AREA_ACTS.get(key)
        if hit is not None and hit[0] == cards:
            return hit[1]
        acts: list[Action] = []
        seen: set[tuple[str, ...]] = set()
        for order in permutations(cards):
            ids = tuple(card.id for card in order)
            if ids in seen:
                continue
            seen.add(ids)
            acts.append(Action("areas", tuple(card.iid for card in order),
                               "Areas: " + ", ".join(f"{card.name} (row {i})"
                                                     for i, card in enumerate(order, 1))))
        if len(_AREA_ACTS) > 1000:
            _AREA_ACTS.clear()
        _AREA_ACTS[key] = (list(cards), acts)  # cards never change; they keep the ids alive
        return acts

    def _heal_actions(self, c: int) -> list[Action]:
        """The Damage Pile cards a heal trigger may move to the Discard Pile (§1.12.5)."""
        acts: list[Action] = []
        seen: set[str] = set()
        for card in self.p[c].pile:
            if card.id not in seen:
                seen.add(card.id)
                acts.append(Action("heal", (card.iid,),
                                   f"heal: discard {card.name} from the Damage Pile"))
        return acts

    # ------------------------------------------------------------------ applying actions

    def _dispatch(self, player: int, kind: str, args: tuple) -> None:
        me = self.p[player]
        # The commonest kinds first (heuristic games: recruit 21, attack 17, end_phase 13,
        # position 7, end_turn 6, pass 6, spell 5, set 4, trap 3, intercept 2 a game).
        if kind == "recruit":
            self._recruit(player, _in_hand(me, args[0]), args[1], args[2:])
        elif kind == "attack":
            self._declare(player, args[0], None if args[1] == "direct" else args[1])
        elif kind == "end_phase":
            if self.phase == "recruit":
                self.phase = "war"
                self.step = "declaration"
            else:
                self.phase = "return"
                self.step = ""
            if self._flags:
                self.phase_begins()
        elif kind == "position":
            u = me.unit(args[0])
            assert u is not None
            u.pos = GUARDING if u.pos == BATTLING else BATTLING
            u.pos_changed = True
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[player]} switches {u.card.name} to {u.pos.capitalize()}")
        elif kind == "end_turn":
            self._enter_night()
        elif kind == "pass":
            self.pending = None
            self._resolve_chain()
        elif kind == "spell":
            card = _in_hand(me, args[0])
            if self.pending is not None:  # a quick spell answering the chain
                self.pending = None
                me.hand.remove(card)
                self.stats.played[player].add(card.id)
                if self.cfg.log:
                    self.say(f"{PLAYER_NAMES[player]} answers with quick spell {card.name}")
                if self._flags:
                    self.played(player, card)
                self._link(("spell", player, card, card.on_play, args[1:], None, None))
            else:
                self._cast(player, card, args[1:])
        elif kind == "set":
            card = _in_hand(me, args[0])
            if card.kind == "trap":
                me.hand.remove(card)
                me.traps.append((card, self.turn))
                if self.cfg.log:
                    self.say(f"{PLAYER_NAMES[player]} sets a trap face down")
            else:
                self._recruit(player, card, GUARDING, (), face_down=True)
        elif kind == "trap":
            self.pending = None
            self._answer_trap(player, args[0], args[1:])
        elif kind == "intercept":
            pend = self.pending
            assert pend is not None  # this action is offered only while it is pending
            _, att, target, chosen = pend
            chosen = chosen + (args[0],)
            v = self.unit(args[0])
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[player]} intercepts with {v.card.name if v else args[0]}")
            if v is not None and v.card.on_block:  # block triggers resolve at once (no chosen target)
                self._resolve_all(player, v.card, v.card.on_block, (), v.iid, att)
            u = self.unit(att)
            if u is not None and u.card.on_blocked and not self.over:
                self._resolve_all(1 - player, u.card, u.card.on_blocked, (), att, None)
            if self.over:
                self.pending = None
                return
            if len(chosen) >= self.cfg.interceptors or not self._interceptors(
                    player, target, chosen):
                self.pending = None
                self._resolve_attack(att, target, chosen)
            else:
                self.pending = ("defend", att, target, chosen)
        elif kind in ("allow", "done"):
            pend = self.pending
            assert pend is not None  # this action is offered only while it is pending
            _, att, target, chosen = pend
            self.pending = None
            self._resolve_attack(att, target, chosen)
        elif kind == "areas":
            assert self.to_place is not None
            cards = {c.iid: c for c in self.to_place[player] or ()}
            self.pending = None
            self.place_areas(player, [cards[iid] for iid in args])
            self.to_place[player] = None
            self.next_area_choice()
        elif kind == "target":
            pend = self.pending
            assert pend is not None  # this action is offered only while it is pending
            _, c, card, e, src, attacker = pend
            self.pending = None
            self._open(("trigger", c, card, (e,), (args[0],), src, attacker))  # on the chain (§1.12.3)
        elif kind == "flip":
            u = me.unit(args[0])
            assert u is not None
            u.face_down = False
            u.pos_changed = True
            self._aura = None
            self._statics = None
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[player]} turns {u.card.name} face up")
            if u.card.continuous:
                self._sweep()
            self._open(("flip", player, u.card, u.card.on_play, args[1:], u.iid, None))
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
            link = ("activate", player, u.card, u.card.activated, args[1:], u.iid, None)
            if self.pending is not None:  # a quick effect answering the chain
                self.pending = None
                if self.cfg.log:
                    self.say(f"{PLAYER_NAMES[player]} answers with {u.card.name}'s quick effect")
                self._link(link)
            else:
                if self.cfg.log:
                    self.say(f"{PLAYER_NAMES[player]} activates {u.card.name}")
                self._open(link)
        elif kind == "heal":
            self.pending = None
            self.heals.remove(player)
            card = next(c for c in me.pile if c.iid == args[0])
            me.pile.remove(card)
            me.discard.append(card)
            if self.cfg.log:
                self.say(f"heal trigger: {PLAYER_NAMES[player]} moves {card.name} from the Damage "
                         f"Pile to the Discard Pile")
            self._check_end()
        elif kind == "choose":
            self._answer_ask(args[0])

    def _advance(self) -> None:
        """Run automatic steps until a player must choose or the game is over."""
        while not self.over:
            if self.pending is not None:
                return
            if self.heals:  # heal triggers (§1.12.5) before anything else
                p = self.heals[0]
                acts = self._heal_actions(p)
                if len(acts) > 1:
                    self.pending = ("heal", p)
                    return
                if acts:
                    self._dispatch(p, "heal", acts[0].args)
                else:
                    self.heals.pop(0)
                continue
            if self.queue:
                self._run_trigger()
                continue
            phase = self.phase
            if phase == "night":
                self._finish_night()
                continue
            if phase == "wake":
                self.phase = "recruit"
                if self._flags:
                    self.phase_begins()
                continue
            # _compute_legal() without a pending choice
            acts = self._war_actions() if phase == "war" else self._main_actions()
            if len(acts) == 1:  # only "end": nothing to decide
                if phase == "return":
                    self._enter_night()
                else:
                    self.phase = "war" if phase == "recruit" else "return"
                    if self._flags:
                        self.phase_begins()
                continue
            self._legal = acts
            return

    # ------------------------------------------------------------------ turn structure

    def start_turn(self, player: int) -> None:
        """Wake phase (§1.6.1): draw 1, the turn player's creatures recover all damage."""
        self.turn += 1
        self.active = player
        self.phase = "wake"
        if self._flags:
            self.phase_begins()
        self.count = 0
        self.highest = -1
        self.used = 0
        me = self.p[player]
        if self.lasting:
            self._end_lasting(player)
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

    def _end_lasting(self, player: int) -> None:
        """Undo the "until your next turn" stat changes ``player``'s effects made."""
        keep = []
        for entry in self.lasting:
            c, iid, d_str, d_res = entry
            if c != player:
                keep.append(entry)
                continue
            u = self.unit(iid)
            if u is not None:
                u.perm_str -= d_str
                u.perm_res -= d_res
        self.lasting = keep
        self._sweep()

    def _enter_night(self) -> None:
        p = self.active
        self.phase = "night"
        if self._flags:
            self.phase_begins()
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
        if self._flags and "on_draw" in self._flags:
            before = len(self.p[player].hand)
            self._draw(player, n)
            for _ in range(len(self.p[player].hand) - before):
                self._watchers("on_draw", player, None)
            return
        self._draw(player, n)

    def _draw(self, player: int, n: int) -> None:
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
        heals = self.heals if self.cfg.heal_first else ()
        for i, pl in enumerate(self.p):
            if pl.life <= 0:
                reasons.append(f"{PLAYER_NAMES[i]} has {pl.life} Life Points (§1.4.1)")
            elif pile_counts and len(pl.pile) >= limit and i not in heals:
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
        self.heals.clear()
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

    def _recruit(self, p: int, card: Card, pos: str, targets: tuple,
                 face_down: bool = False) -> None:
        me = self.p[p]
        me.hand.remove(card)
        u = Unit(card, pos, face_down)
        me.field.append(u)
        me.rows_cache = me.units_cache = None  # Player.field_changed(), inlined
        self._statics = None
        if self._flags and "filtered" in self._flags:
            self._aura = None  # a standing change with a filter may reach the newcomer
        self.count += 1
        if card.degree > self.highest:
            self.highest = card.degree
        self.used += band_weight(card.degree)
        self.stats.played[p].add(card.id)
        if face_down:
            if self.cfg.log:
                self.say(f"{PLAYER_NAMES[p]} sets a C{card.cls} creature face down")
            return  # no text while face down: its on_play waits for the flip (§1.12.7)
        if self.cfg.log:
            self.say(f"{PLAYER_NAMES[p]} recruits {card.name} (C{card.cls}, {pos.capitalize()})")
        if card.continuous:
            self._aura = None
            self._sweep()
        flags = self._flags if self._flags is not None else ADAPTER.flags(self)
        if flags:
            if card.on_enter:
                self.entered(u)
            if "on_opponent_play" in flags:
                self.played(p, card)
        self._open(("recruit", p, card, card.on_play, targets, u.iid, None))

    # ------------------------------------------------------------------ the start (§1.12.4)

    def place_areas(self, player: int, areas: Sequence[Card | None]) -> None:
        """Put Areas in rows 1-3 (§1.3.2) and record their continuous effects on those rows."""
        me = self.p[player]
        me.areas = list(areas)[:3] + [None] * (3 - len(list(areas)[:3]))
        aura = self.area_aura = [[row[:] for row in side] for side in self.area_aura]
        for row, area in enumerate(me.areas, start=1):
            if area is None:
                continue
            for e in area.continuous:
                if e.filter is not None:
                    continue  # it reaches the matching creatures on every row (_filtered_changes)
                side = player if e.target == "own_creatures" else 1 - player
                aura[side][row][0] += e.d_str
                aura[side][row][1] += e.d_res
        self._aura = None
        self._statics = None
        if self.cfg.log and self.to_place is not None:
            self.say(f"{PLAYER_NAMES[player]} places its Areas: " + ", ".join(
                f"{a.name} in row {i}" for i, a in enumerate(me.areas, 1) if a))

    def next_area_choice(self) -> None:
        """The next player with Areas to place chooses their rows (first player first, in
        the open, §1.12.4); a player with one way to place them is not asked. When all are
        placed, the first turn starts."""
        assert self.to_place is not None
        for player in (0, 1):
            cards = self.to_place[player]
            if cards is None:
                continue
            acts = self._area_actions(player)
            if len(acts) > 1:
                self.pending = ("areas", player)
                self._legal = acts
                return
            self.place_areas(player, cards)
            self.to_place[player] = None
        self.to_place = None
        self.start_turn(self.active)

_SERIALS = count()
_IID = attrgetter("iid")
_NO_CHANGE = (0, 0)
_ACTS: dict[tuple, Action] = {}
_AREA_ACTS: dict[tuple, tuple[list[Card], list[Action]]] = {}
_TEXT = {
    "recruit": "recruit {0} ({2})",
    "spell": "activate {0}",
    "trap": "activate trap {0}",
    "position": "switch the position of {0}",
    "activate": "use {0}",
    "attack": "{0} attacks {1}",
    "intercept": "intercept with {0}",
    "target": "{0} targets {1}",
    "flip": "turn {0} face up",
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


def _hand_part(hand: list[Card], band_ok: tuple[bool, bool, bool], set_traps: bool) -> tuple:
    """(copy of the hand, ``band_ok``, actions of cards played without a target, cards whose
    targets depend on the field): the hand's part of the Recruitment/Return actions, kept on
    the player while the hand and the open Degree bands stay the same. ``set_traps``: traps
    are set from the hand (Decision §1.12.2); settable creatures may be set (§1.12.7).
    What each card lists is read from Card.list_slot, play_acts and lists_targets."""
    plain: list[Action] = []
    targeted: list[Card] = []
    seen: set[str] = set()
    ok = band_ok + (True, set_traps, False)  # by Card.list_slot: 3 spells, 4 traps, -1 never
    for card in hand:
        # Copies of one card share their list_slot, so the slot is read first: only the
        # listed cards need the set of ids seen.
        if ok[card.list_slot]:
            cid = card.id
            if cid in seen:
                continue  # copies of one card give the same choices: the first is listed
            seen.add(cid)
            plain += card.play_acts
            if card.lists_targets:
                targeted.append(card)
    return hand[:], band_ok, tuple(plain), tuple(targeted)


def _has_quick_spell(hand: list[Card]) -> bool:
    """Whether ``hand`` holds a quick spell (an answer in a chain, §1.12.1)."""
    for card in hand:
        if card.quick:
            return True
    return False


def _war_spells(hand: list[Card]) -> tuple[list[Card], tuple[Card, ...]]:
    """(copy of the hand, the first copy of each spell with an effect in it): the spells the
    War phase lists, kept on the player while the hand stays the same."""
    spells: list[Card] = []
    seen: set[str] = set()
    for card in hand:
        if card.kind == "spell" and card.on_play and card.id not in seen:
            seen.add(card.id)
            spells.append(card)
    return hand[:], tuple(spells)


def _in_hand(player: Player, iid: str) -> Card:
    for card in player.hand:
        if card.iid == iid:
            return card
    raise IllegalAction(f"{iid} is not in the hand")
