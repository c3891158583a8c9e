"""AI players for warzone: a one-ply heuristic and a flat Monte Carlo player over clones.

The heuristic scores every legal action with the engine's own rule arithmetic (the battle
function of :mod:`.rules`), so its predictions of attacks and interceptions are exact for the
visible board; it does not look at hidden cards (the opponent's hand and traps).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import cast
from itertools import accumulate
from operator import attrgetter, itemgetter
from typing import Any

from workbench.domain.effects.asks import DECLINE, mode_args, mode_steps, picked_card
from workbench.domain.effects.spec import PlayerRef
from workbench.domain.engines.base import Action, Agent
from workbench.domain.engines.warzone.cards import (
    ALL_CREATURES,
    BATTLING,
    CHOSEN_CREATURE,
    GUARDING,
    PLAYER_TARGETS,
    Card,
    Effect,
)
from workbench.domain.engines.warzone.rules import (
    REACH,
    Config,
    band_limit,
    battle_tuple,
    can_direct,
    can_reach,
    reach_table,
)
from workbench.domain.engines.warzone.state import PLAYER_NAMES, WarzoneState
from workbench.domain.engines.warzone.units import Unit

LETHAL = 100_000
_EXPECT = 0.6  # weight of the defender's best interception; the rest: it lets the attack through
_REST = 1 - _EXPECT
_NEVER = -1e9
_ZERO_KINDS = frozenset(("end_phase", "end_turn", "pass", "heal"))  # scored 0 by HeuristicAgent.score
_SET_TRAP = 50.0  # setting a trap costs nothing and keeps an answer ready (§1.12.2)


def unit_value(state: WarzoneState, u: Unit) -> float:
    """What a creature on the field is worth: its Strength and remaining Resilience."""
    return state.strength(u) + max(state.left(u), 0) + (200 if u.card.master else 0)


def damage_value(state: WarzoneState, player: int, amount: int) -> float:
    """How much ``amount`` damage to ``player`` is worth (lethal damage is worth everything)."""
    if amount <= 0:
        return 0.0
    cfg = state.cfg
    cards, rest = divmod(amount, cfg.step)  # rules.damage_split, inlined: ~100 calls a game
    if not cfg.step_single and rest > cfg.step - cfg.stat_step:
        cards, rest = cards + 1, 0
    pl = state.p[player]
    life = pl.life
    room = cfg.pile_limit - len(pl.pile)
    if rest >= life or cards >= room or cards > len(pl.deck):
        return LETHAL
    # Both resources run out: weigh each hit by the share of what is left of it, so the
    # tenth Damage Card or the last Life Points matter far more than the first.
    return 3000.0 * (rest / life + cards / room)


def battle_value(state: WarzoneState, u: Unit, v: Unit) -> float:
    """Value of ``u`` attacking ``v`` for the attacker (positive favours the attacker)."""
    stats = _stats(state, u)
    return _battle_value(state, u.cls, u.owner, stats, v, _stats(state, v))


def _stats(state: WarzoneState, u: Unit) -> tuple[int, int, float]:
    # state.strength and state.left inlined (one aura look-up): this runs for every creature
    # at nearly every decision.
    aura = state._aura
    if aura is None:
        aura = state._compute_aura()
    mod = aura[u.owner][u.cls]
    card = u.card
    s = card.strength + u.perm_str + u.eot_str + mod[0]
    if s < 0:
        s = 0
    left = card.resilience + u.perm_res + u.eot_res + mod[1] - u.damage
    return s, left, s + (left if left > 0 else 0) + (200 if card.master else 0)


def _all_stats(state: WarzoneState, units: list[Unit]) -> list[tuple[Unit, tuple[int, int, float]]]:
    """:func:`_stats` of each unit, paired with it (one loop, the aura looked up once)."""
    aura = state._aura
    if aura is None:
        aura = state._compute_aura()
    out: list[tuple[Unit, tuple[int, int, float]]] = []
    for u in units:
        mod = aura[u.owner][u.cls]
        card = u.card
        s = card.strength + u.perm_str + u.eot_str + mod[0]
        if s < 0:
            s = 0
        left = card.resilience + u.perm_res + u.eot_res + mod[1] - u.damage
        out.append((u, (s, left, s + (left if left > 0 else 0) + (200 if card.master else 0))))
    return out


def _battle_value(state: WarzoneState, cls: int, owner: int, us: tuple[int, int, float], v: Unit,
                  vs: tuple[int, int, float], followers: list | None = None,
                  rows: tuple[int, int, int] = (0, 0, 0)) -> float:
    """An attacker of Class ``cls`` and controller ``owner`` with stats ``us`` attacking ``v``.
    ``followers``: the attacker's comrades that may still attack, with their stats."""
    guarding = v.pos == GUARDING
    cfg = state.cfg
    att_left, def_left, att_dies, def_dies, to_att, to_def = battle_tuple(
        cfg, cls, us[0], us[1], v.cls, vs[0], vs[1], guarding)
    if def_dies:
        val = vs[2]
    else:
        val = 0.1 * (vs[1] - def_left)
        if followers and def_left > 0:
            val = _finish_value(cfg, followers, v.cls, vs, def_left, guarding, rows, val)
    if att_dies:
        val -= us[2]
    else:
        val -= 0.3 * (us[1] - att_left)  # a wounded attacker is exposed until its Wake
    if to_def:
        val += damage_value(state, v.owner, to_def)
    if to_att:
        val -= damage_value(state, owner, to_att)
    return val


def _finish_value(cfg: Config, followers: list, v_cls: int, vs: tuple[int, int, float],
                  def_left: int, guarding: bool, rows: tuple[int, int, int], val: float,
                  attacker: Unit | None = None) -> float:
    """A wound a comrade can finish this turn (and survive doing it) is most of a kill:
    ``val`` raised to that when one of ``followers`` (other than ``attacker``) can."""
    for x, xs in followers:
        if x is not attacker and can_reach(x.cls, x.card.master, v_cls, rows):
            f = battle_tuple(cfg, x.cls, xs[0], xs[1], v_cls, vs[0], def_left, guarding)
            if f[3] and not f[2]:
                return 0.6 * vs[2]
    return val


_BATTLES: dict[tuple, tuple[int, int, bool, bool, int, int]] = {}


def _remember_battle(key: tuple) -> tuple[int, int, bool, bool, int, int]:
    """rules.battle_tuple for ``key`` = (cfg, *its arguments), kept: a game predicts the same
    few dozen battles again and again (a hundred predictions, about thirty distinct)."""
    if len(_BATTLES) > 100_000:
        _BATTLES.clear()
    out = _BATTLES[key] = battle_tuple(*key)
    return out


_FOE_KEYS = (("foe", 0), ("foe", 1))      # plan keys built once, not per call
_READY_KEYS = (("ready", 0), ("ready", 1))
_INF = float("inf")


def attack_values(state: WarzoneState, u: Unit, plan: dict | None = None) -> dict[str, float]:
    """Value of each attack ``u`` may declare now (target iid or "direct"), assuming the
    defender answers with its best interception (§1.8). Hidden traps are not considered."""
    return _attack_values(state, u.owner, u.cls, u.card.master, None, u, plan)


def _attack_values(state: WarzoneState, owner: int, cls: int, master: bool,
                   us: tuple[int, int, float] | None, u: Unit | None,
                   plan: dict | None) -> dict[str, float]:
    """:func:`attack_values` of an attacker given by Class, controller and stats (None: those
    of ``u``); ``u`` is the unit itself (None for a creature not yet on the field)."""
    d = 1 - owner
    key = _FOE_KEYS[d]
    cached = plan.get(key) if plan is not None else None
    if cached is None:
        foe = state.p[d]
        cached = (_all_stats(state, foe.field), foe.rows_cache or foe.rows())  # rows(), kept
        if plan is not None:
            plan[key] = cached
    foe_stats, rows = cached
    followers = None
    if state.phase == "war" and state.active == owner:
        key = _READY_KEYS[owner]
        ready = plan.get(key) if plan is not None else None
        if ready is None:
            guard_attacks = state.cfg.guard_attacks
            able = []
            for x in state.p[owner].field:
                if not x.attacked and (x.pos == BATTLING or guard_attacks):
                    able.append(x)
            ready = _all_stats(state, able)
            if plan is not None:
                plan[key] = ready
        followers = ready  # the attacker itself is skipped where they are used
        if us is None:
            for x, xs in ready:
                if x is u:
                    us = xs  # computed already
                    break
    if us is None:
        assert u is not None  # no stats given: the unit on the field is (see the docstring)
        us = _stats(state, u)
    reach = REACH.get((cls, master, rows)) or reach_table(cls, master, rows)
    out: dict[str, float] = {}
    # An attacker stays Battling through the opponent's turn: with the Damage Pile one card
    # from the limit, an overflow there loses the game (§1.4.2, §1.9.2).
    foe_max = 0
    if followers is not None and state.cfg.pile_limit - len(state.p[owner].pile) <= 1:
        foe_max = _exposure(state, owner, foe_stats)  # else 0: more than one card of room
    if state.cfg.interceptors > 0:
        # The defender's best answer to an attack on Class c: its lowest value among the
        # creatures of a lower Class (any creature against a Direct Attack), per Class once.
        lo1 = lo2 = lo3 = _INF
        vals = []
        cfg = state.cfg
        a_str, a_left, a_worth = us
        battles = _BATTLES
        for w, ws in foe_stats:
            # _battle_value inlined: this loop runs for every pair at nearly every decision.
            guarding = w.pos == GUARDING
            w_cls = w.cls
            bkey = (cfg, cls, a_str, a_left, w_cls, ws[0], ws[1], guarding)
            o = battles.get(bkey)
            if o is None:
                o = _remember_battle(bkey)
            att_left, def_left, att_dies, def_dies, to_att, to_def = o
            if def_dies:
                val = ws[2]
            else:
                val = 0.1 * (ws[1] - def_left)
                if followers and def_left > 0:
                    val = _finish_value(cfg, followers, w_cls, ws, def_left, guarding, rows, val,
                                        u)
            if att_dies:
                val -= a_worth
            else:
                val -= 0.3 * (a_left - att_left)
                if foe_max > att_left and damage_value(state, owner, foe_max - att_left) >= LETHAL:
                    val -= _EXPOSED
            if to_def:
                val += damage_value(state, d, to_def)
            if to_att:
                val -= damage_value(state, owner, to_att)
            vals.append(val)
            if w_cls == 1:
                if val < lo1:
                    lo1 = val
            elif w_cls == 2:
                if val < lo2:
                    lo2 = val
            elif val < lo3:
                lo3 = val
        below = (_INF, _INF, lo1, lo1 if lo1 < lo2 else lo2)
        for (v, _), val in zip(foe_stats, vals):
            c = v.cls
            if reach[c]:
                worst = below[c]
                if val < worst:
                    worst = val
                out[v.iid] = _EXPECT * worst + _REST * val
        if reach[4]:
            val = damage_value(state, d, us[0])
            if val < LETHAL and foe_max > a_left and damage_value(state, owner, foe_max - a_left) >= LETHAL:
                val -= _EXPOSED
            worst = below[3]
            if lo3 < worst:
                worst = lo3
            if val < worst:
                worst = val
            out["direct"] = _EXPECT * worst + _REST * val
    else:
        if followers:
            followers = [f for f in followers if f[0] is not u]
        for w, ws in foe_stats:
            if reach[w.cls]:
                val = _battle_value(state, cls, owner, us, w, ws, followers, rows)
                if foe_max:
                    o = battle_tuple(state.cfg, cls, us[0], us[1], w.cls, ws[0], ws[1],
                                     w.pos == GUARDING)
                    if (not o[2] and foe_max > o[0]
                            and damage_value(state, owner, foe_max - o[0]) >= LETHAL):
                        val -= _EXPOSED
                out[w.iid] = val
        if reach[4]:
            val = damage_value(state, d, us[0])
            if (val < LETHAL and foe_max > us[1]
                    and damage_value(state, owner, foe_max - us[1]) >= LETHAL):
                val -= _EXPOSED
            out["direct"] = val
    return out


_EXPOSED = 20_000.0
"""The cost of leaving a creature Battling where one enemy attack's overflow is the last
Damage Card: most of a lost game (the opponent must still reach it)."""


def _exposure(state: WarzoneState, owner: int, foe_stats: list) -> int:
    """The strongest enemy Strength when ``owner``'s Damage Pile is one card from the limit
    (an overflow of a full damage step on a Battling creature loses), else 0."""
    cfg = state.cfg
    if cfg.pile_limit - len(state.p[owner].pile) > 1 or not foe_stats:
        return 0
    return max(ws[0] for _, ws in foe_stats)


def _fresh_attack_pays(state: WarzoneState, card: Card, plan: dict) -> bool:
    """Whether ``card``, recruited Battling now, would have an attack worth more than 0
    (``best_attack(state, Unit(card, BATTLING)) > 0`` without building the unit). Outside
    the War (no comrades to finish a wound) it stops at the first paying attack on Class 1."""
    aura = state._aura
    if aura is None:
        aura = state._compute_aura()
    owner, cls, master = card.owner, card.cls, card.master
    mod = aura[owner][cls]
    s = card.strength + mod[0]
    if s < 0:
        s = 0
    left = card.resilience + mod[1]
    us = (s, left, s + (left if left > 0 else 0) + (200 if master else 0))
    if state.cfg.interceptors <= 0 or (state.phase == "war" and state.active == owner):
        values = _attack_values(state, owner, cls, master, us, None, plan)
        return bool(values) and max(values.values()) > 0
    d = 1 - owner
    key = _FOE_KEYS[d]
    cached = plan.get(key)
    if cached is None:
        foe = state.p[d]
        cached = plan[key] = (_all_stats(state, foe.field), foe.rows_cache or foe.rows())
    foe_stats, rows = cached
    cfg = state.cfg
    worth = us[2]
    lo1 = lo2 = lo3 = _INF
    vals = []
    battles = _BATTLES
    for w, ws in foe_stats:
        # As in _attack_values without followers.
        bkey = (cfg, cls, s, left, w.cls, ws[0], ws[1], w.pos == GUARDING)
        o = battles.get(bkey)
        if o is None:
            o = _remember_battle(bkey)
        att_left, def_left, att_dies, def_dies, to_att, to_def = o
        val = ws[2] if def_dies else 0.1 * (ws[1] - def_left)
        if att_dies:
            val -= worth
        else:
            val -= 0.3 * (left - att_left)
        if to_def:
            val += damage_value(state, d, to_def)
        if to_att:
            val -= damage_value(state, owner, to_att)
        c = w.cls
        if c == 1:
            # Class 1 can always be attacked, and nothing of a lower Class intercepts: the
            # attack is worth 0.6 * val + 0.4 * val, positive exactly when val is.
            if val > 0:
                return True
            if val < lo1:
                lo1 = val
        elif c == 2:
            if val < lo2:
                lo2 = val
        elif val < lo3:
            lo3 = val
        vals.append((c, val))
    reach = REACH.get((cls, master, rows)) or reach_table(cls, master, rows)
    below = (_INF, _INF, lo1, lo1 if lo1 < lo2 else lo2)
    for c, val in vals:
        if reach[c]:
            worst = below[c]
            if val < worst:
                worst = val
            if _EXPECT * worst + _REST * val > 0:
                return True
    if reach[4]:
        val = damage_value(state, d, s)
        worst = below[3]
        if lo3 < worst:
            worst = lo3
        if val < worst:
            worst = val
        if _EXPECT * worst + _REST * val > 0:
            return True
    return False


def best_attack(state: WarzoneState, u: Unit, plan: dict | None = None) -> float:
    """The best attack value a (possibly hypothetical) creature ``u`` has right now."""
    values = _attack_values(state, u.owner, u.cls, u.card.master, None, u, plan)  # attack_values
    return max(values.values()) if values else _NEVER


def effect_value(state: WarzoneState, c: int, e: Effect, chosen: str | None,
                 src: str | None = None, attacker: str | None = None) -> float:
    """Rough worth of one effect for its controller ``c`` (positive = good for ``c``)."""
    a, t = e.action, e.target
    if a == "negate":
        return 0.0
    if e.asks:  # choose, arrange, unless (rare: one test on the usual path)
        if a == "choose":  # worth its best mode, each step at its best target
            return max((sum(max((effect_value(state, c, step, x, src, attacker) for x in state._choices(c, step, src)),
                                default=0.0) if step.chooses else effect_value(state, c, step, None, src, attacker)
                            for step in cast("list[Effect]", mode_steps(e, arg)))
                        for arg in mode_args(e)), default=0.0)
        if a == "arrange":
            return 20.0  # a better next draw
        if e.unless[0]:  # the affected player may pay to stop it: about half its worth
            return 0.5 * effect_value(state, c, replace(e, unless=("", 0), asks=False), chosen, src, attacker)
    if a in ("draw", "gain_life") or (a == "damage" and t in PLAYER_TARGETS):
        if t == "self":
            players = [c]
        elif t == "opponent":
            players = [1 - c]
        else:
            players = [PLAYER_NAMES.index(chosen)] if chosen in PLAYER_NAMES else []
        val = 0.0
        for pl in players:
            sign = 1 if pl == c else -1
            if a == "draw":
                room = len(state.p[pl].deck) - e.amount
                # A card in hand is worth less as the deck (two draws a turn, Damage Cards)
                # runs low: drawing from an empty deck loses (§1.4.3).
                per_card = 150.0 if room > 25 else 150.0 * (room - 10) / 15
                val += sign * (per_card * e.amount if room > 4 else -LETHAL / 10)
            elif a == "gain_life":
                val += sign * e.amount * 0.8
            else:
                val -= sign * damage_value(state, pl, e.amount)
        return val
    if t in CHOSEN_CREATURE:
        u = state.unit(chosen) if chosen else None
        units = [u] if u else []
    elif t in ALL_CREATURES:
        units = list(state.p[c if t == "own_creatures" else 1 - c].field)
    elif t == "attacker":
        u = state.unit(attacker) if attacker else None
        units = [u] if u else []
    else:
        u = state.unit(src) if src else None
        units = [u] if u else []
    val = 0.0
    if a == "modify_stats":
        # "Until end of turn" changes matter in battles still to come this turn: my War (when
        # I may attack at all) or, answering an attack, the opponent's.
        before_war = (state.active == c and state.phase == "recruit"
                      and not (state.turn == 1 and state.cfg.first_no_attack))
        defending = state.active != c
    for u in units:
        sign = 1 if u.owner == c else -1
        if a == "damage":
            left = state.left(u)
            val -= sign * (unit_value(state, u) if e.amount >= left else 0.1 * e.amount)
        elif a == "destroy":
            val -= sign * unit_value(state, u)
        elif a == "return_to_hand":
            val -= sign * 0.7 * unit_value(state, u)
        elif a == "heal":
            val += sign * min(e.amount, u.damage)
        elif a == "modify_stats":
            if e.permanent:
                val += sign * (e.d_str + e.d_res)
            elif before_war:
                ready = sign < 0 or not u.attacked
                val += sign * (0.6 if ready else 0.05) * e.d_str + sign * 0.3 * e.d_res
            elif defending:
                val += sign * 0.6 * (e.d_str + e.d_res)
            else:
                val += sign * 0.05 * (e.d_str + e.d_res)
    return val


def card_value(state: WarzoneState, c: int, card: Card, effects: tuple[Effect, ...],
               targets: tuple, src: str | None = None, attacker: str | None = None) -> float:
    """Sum of :func:`effect_value` over a card's effects with the chosen ``targets``."""
    val = 0.0
    i = 0
    for e in effects:
        chosen = None
        if e.chooses:
            chosen = targets[i] if i < len(targets) else None
            i += 1
        val += effect_value(state, c, e, chosen, src, attacker)
    return val


def choice_value(state: WarzoneState, p: int, answer: str) -> float:
    """Worth to ``p`` of one answer to the pending ask of a resolving effect (effects.asks):
    a mode (its steps with their best targets), a step's target, paying for an unless (what
    it saves against what it costs), an order of the top cards (the best on top)."""
    from workbench.domain.engines.warzone.adapter import ADAPTER

    pend = state.pending
    assert pend is not None  # asked only while a question is pending
    _, _, paused, _ = pend
    ask = paused.ask
    e = ask.entry
    c = paused.controller
    src = paused.unit if isinstance(paused.unit, str) else None
    if ask.kind == "mode":
        val = 0.0
        for spec in mode_steps(e, answer):
            step = cast(Effect, spec)
            if step.chooses:
                val += max((effect_value(state, c, step, t, src) for t in state._choices(c, step, src)),
                           default=0.0)
            else:
                val += effect_value(state, c, step, None, src)
        return val if p == c else -val
    if ask.kind == "target":
        return effect_value(state, c, cast(Effect, e), answer, src)
    if ask.kind == "unless":
        ref = paused.todo[0][1]
        chosen = PLAYER_NAMES[ref.index] if isinstance(ref, PlayerRef) else None if isinstance(ref, tuple) else ref
        if answer == DECLINE:
            val = effect_value(state, c, cast(Effect, e), chosen, src)
            return val if p == c else -val
        kind, n = e.unless
        return -(0.8 * n if kind == "pay_life" else 150.0 * n) - 1.0
    if ask.kind == "pick":  # the card worth most to take; to give up (discard), the one worth least
        card = picked_card(e, answer, paused.source(state, ADAPTER), state, ADAPTER)
        worth = ADAPTER.worth(state, card) if card is not None else 0.0
        return worth if e.to_zone in ("hand", "field") else -worth
    deck = state.p[c].deck  # arrange: the cards worth most on top
    n = ask.seen
    top = deck[len(deck) - n:][::-1]
    order = [top[int(k) - 1] for k in answer.split(",")]
    return sum(ADAPTER.worth(state, card) * (n - i) for i, card in enumerate(order))


class HeuristicAgent:
    """Plays sensibly: recruits the best bodies the limit allows, attacks when it pays,
    intercepts to save Life Points, uses spells and traps for value, guards after the War."""

    def __init__(self, seed: int = 0) -> None:
        self._seed = seed
        self._rng: random.Random | None = None
        self._memo: dict[tuple, bool] = {}
        # The rest of the last ranking in a Recruitment/Return phase: the next good moves are
        # taken from it while they stay legal, instead of scoring every action again.
        self._queue: tuple[tuple, list[Action]] = ((), [])

    @property
    def rng(self) -> random.Random:
        """The agent's own seeded generator, made on first use: seeding one costs ~6 us a game
        per agent, and the heuristic itself draws no random numbers."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    def choose(self, state: WarzoneState, player: int) -> Action:
        """Pick the legal action with the best one-ply score (ties: the first listed).

        The opponent's face-down creatures are unknown (§1.12.7): while it has any, the
        decision is taken in a world re-dealt from this player's view (``determinize``, from
        the agent's own generator) and mapped back by its place in the legal actions.
        """
        acts = state._legal  # the acting player's listed actions, when listed (legal_actions)
        if acts is None:
            acts = state.legal_actions(player)
        if len(acts) == 1:
            return acts[0]
        foe = state.p[1 - player]
        for u in foe.field if foe.settable else ():
            if u.face_down:
                world = state.determinize(player, self.rng)
                listed = world.legal_actions(player)
                chosen = self._choose(world, player, listed)
                for k, a in enumerate(listed):
                    if a is chosen:
                        return acts[k]
                return chosen
        return self._choose(state, player, acts)

    def _choose(self, state: WarzoneState, player: int, acts: list[Action]) -> Action:
        """:meth:`choose` in ``state``, whose legal actions ``acts`` are."""
        if len(acts) == 1:
            return acts[0]
        own_phase = state.pending is None
        phase = state.phase
        if own_phase:
            key = (state.serial, state.turn, phase)
            qkey, queue = self._queue
            if queue and qkey == key:
                war = phase == "war"
                listed = set(map(id, acts))  # identity, as the listed actions are reused
                while queue:
                    act = queue.pop(0)
                    if id(act) in listed:
                        if not war:
                            if act.kind != "recruit":
                                return act  # only recruits get a position chosen
                            return self._placed(state, player, act, acts, {})
                        # Each battle changes the board: re-check this attack alone.
                        if self.score(state, player, act, {}) > 0:
                            return act
                        queue.clear()
        plan: dict = {}
        scored: list[tuple[float, int, Action]] = []
        best, best_score = acts[-1], _NEVER
        recruiting = phase == "recruit"
        hand = units = None
        potentials: dict[str, float] = {}
        attacks: dict[str, dict[str, float]] = {}
        for i, act in enumerate(acts):
            kind = act.kind
            # The commonest kinds are scored here, without the dispatch in score().
            if kind == "recruit":
                args = act.args
                if args[1] == GUARDING:
                    continue  # scored with its Battling twin; the position is chosen below
                # _recruit_score, inlined
                iid = args[0]
                if hand is None:
                    hand = {c.iid: c for c in state.p[player].hand}
                card = hand[iid]
                if card.plain_play:  # listed once: nothing to share
                    score = self._potential(state, player, card, plan)
                else:  # one action per target: the body's worth is shared
                    body = potentials.get(iid)
                    if body is None:
                        body = potentials[iid] = self._potential(state, player, card, plan)
                    score = body + card_value(state, player, card, card.on_play, args[2:], None)
            elif kind in _ZERO_KINDS:
                score = 0.0
            elif kind == "attack":
                # score()'s attack rule, each attacker's values computed once
                args = act.args
                values = attacks.get(args[0])
                if values is None:
                    u = state.p[player].unit(args[0])
                    assert u is not None
                    values = attacks[args[0]] = _attack_values(  # attack_values(state, u, plan)
                        state, u.owner, u.cls, u.card.master, None, u, plan)
                score = values.get(args[1], _NEVER) - 1.0
            elif kind == "spell":
                if hand is None:
                    hand = {c.iid: c for c in state.p[player].hand}
                card = hand[act.args[0]]
                score = card_value(state, player, card, card.on_play, act.args[1:]) - 100.0
            elif kind == "position":
                # score()'s position rule, with the unit found by dict
                if units is None:  # Player.unit's index, read directly
                    me = state.p[player]
                    units = me.units_cache
                    if units is None:
                        units = me.units_cache = {u.iid: u for u in me.field}
                u = units[act.args[0]]
                if u.pos == BATTLING:
                    score = _NEVER if recruiting else 5.0  # guard what did not attack
                elif recruiting:
                    score = 5.0 if self._goes_to_battle(state, u, plan) else _NEVER
                else:
                    score = _NEVER
            else:
                score = self.score(state, player, act, plan)
            if score > best_score:
                best, best_score = act, score
            if score > 0 and own_phase:
                scored.append((-score, i, act))
        if own_phase:
            # The next good moves, taken in turn while they stay legal (and, in the War, still
            # pay): scoring every action again at each decision costs more than the game.
            # ``best`` is the first of them (the highest score, first listed among equals).
            if scored:
                scored.sort()
                self._queue = (key, list(map(_THIRD, scored[1:])))
            else:
                self._queue = (key, [])
        if best.kind != "recruit":
            return best  # only recruits get a position chosen
        # (no hand when no Battling recruit was scored: _placed finds the card itself)
        return self._placed(state, player, best, acts, plan,
                            hand[best.args[0]] if hand is not None else None)

    def _goes_to_battle(self, state: WarzoneState, u: Unit, plan: dict) -> bool:
        """Recruitment: whether Guarding ``u`` has a paying attack (then it switches to
        Battling). Decided once per turn: re-checking every creature at each decision is
        quadratic."""
        key = (state.serial, state.turn, u.iid)
        want = self._memo.get(key)
        if want is None:
            if len(self._memo) > 10_000:
                self._memo.clear()
            want = self._memo[key] = self._best(state, u, plan) > 0
        return want

    def _placed(self, state: WarzoneState, player: int, best: Action, acts: list[Action],
                plan: dict, card: Card | None = None) -> Action:
        """``best`` with the recruit position chosen for it (both positions score alike)."""
        if best.kind == "recruit":
            if card is None:
                card = _find(state.p[player].hand, best.args[0])
            want = BATTLING if card.strength >= 2 * card.resilience else GUARDING
            if state.phase == "recruit":
                key = (state.serial, state.turn, card.iid)
                attacks = self._memo.get(key)
                if attacks is None:
                    attacks = self._memo[key] = _fresh_attack_pays(state, card, plan)
                if attacks:
                    want = BATTLING
            if best.args[1] != want:
                if card.plain_play:  # listed as the card's own pair of actions
                    twin = card.recruit_acts[0 if want == BATTLING else 1]
                    if id(twin) in map(id, acts):
                        return twin
                args = (best.args[0], want) + best.args[2:]
                for act in acts:
                    if act.kind == "recruit" and act.args == args:
                        return act
        return best

    def score(self, state: WarzoneState, p: int, act: Action, plan: dict) -> float:
        """Score one action for player ``p`` (0 for ending a phase or passing)."""
        kind, args = act.kind, act.args
        if kind == "position":
            u = state.p[p].unit(args[0])
            assert u is not None
            if state.phase != "recruit":
                return 5.0 if u.pos == BATTLING else _NEVER  # guard what did not attack
            if u.pos == BATTLING:
                return _NEVER
            # Recruitment: a Guarding creature goes to battle when it has a paying attack.
            return 5.0 if self._goes_to_battle(state, u, plan) else _NEVER
        if kind == "recruit":
            return self._recruit_score(state, p, args, plan)
        if kind == "attack":
            key = "attacks:" + args[0]
            values = plan.get(key)
            if values is None:
                u = state.p[p].unit(args[0])
                assert u is not None
                values = plan[key] = _attack_values(  # attack_values(state, u, plan)
                    state, u.owner, u.cls, u.card.master, None, u, plan)
            return values.get(args[1], _NEVER) - 1.0
        if kind in ("end_phase", "end_turn", "pass"):
            return 0.0
        if kind in ("allow", "done", "intercept"):
            return self._defend_score(state, p, kind, args)
        if kind == "spell":
            card = _find(state.p[p].hand, args[0])
            return card_value(state, p, card, card.on_play, args[1:]) - 100.0
        if kind == "activate":
            u = state.p[p].unit(args[0])
            assert u is not None
            val = card_value(state, p, u.card, u.card.activated, args[1:], u.iid)
            if any(e.tap for e in u.card.activated):
                val -= max(self._best(state, u, plan), 0.0)
            return val - 10.0
        if kind == "trap":
            return self._trap_score(state, p, args)
        if kind == "set":
            card = _find(state.p[p].hand, args[0])
            if card.kind == "trap":
                return _SET_TRAP
            # a settable creature: just below recruiting it face up (its text waits)
            return self._recruit_score(state, p, (args[0], GUARDING), plan) - 1.0
        if kind == "flip":
            u = state.p[p].unit(args[0])
            assert u is not None
            if not u.card.on_play:
                return 4.0  # nothing waits for the flip: face up, it may go to battle next turn
            # its on_play runs at the flip: only for a worthwhile target (none yet: keep it set)
            return card_value(state, p, u.card, u.card.on_play, args[1:], u.iid) - 1.0
        if kind == "areas":
            return area_value(state, p, args, plan)
        if kind == "target":
            pend = state.pending
            assert pend is not None  # this action is offered only while it is pending
            c, card, e, src = pend[1:5]
            return effect_value(state, c, e, args[0], src)
        if kind == "choose":
            return choice_value(state, p, args[0])
        return _NEVER

    @staticmethod
    def _best(state: WarzoneState, u: Unit, plan: dict) -> float:
        key = "best:" + u.iid
        val = plan.get(key)
        if val is None:
            val = plan[key] = best_attack(state, u, plan)
        return val

    def _defend_score(self, state: WarzoneState, p: int, kind: str, args: tuple) -> float:
        pend = state.pending
        assert pend is not None  # this action is offered only while it is pending
        _, att, target, chosen = pend
        u = state.unit(att)
        if u is None:
            return 0.0
        if kind == "intercept":
            w = state.unit(args[0])
            assert w is not None
            return -battle_value(state, u, w)
        if chosen:
            return 0.0
        if target is None:
            return -damage_value(state, p, state.strength(u))
        v = state.unit(target)
        return -battle_value(state, u, v) if v is not None else 0.0

    def _trap_score(self, state: WarzoneState, p: int, args: tuple) -> float:
        """A trap answering the chain's last link (§1.12.3): what its effects do, plus, for a
        negation, what the link it cancels would have done to us."""
        card = _own_trap(state, p, args[0])
        chain = state.chain
        base, top = chain[0], chain[-1]
        att = base[5] if base[0] == "attack" else None
        val = card_value(state, p, card, card.on_play, args[1:], None, att)
        if card.negates:
            if top[0] == "attack":
                u = state.unit(att) if att else None
                val += max(0.0, attack_values(state, u).get(top[6] or "direct", 0.0)) if u else 0.0
            elif top[3]:  # a triggered effect's attacker is its own (on_damaged: link[6])
                val += card_value(state, top[1], top[2], top[3], top[4], top[5],
                                  top[6] if top[0] == "trigger" else att)
        if base[0] not in ("attack", "spell") and not card.negates and not card.on_attacker:
            val -= 150.0  # kept for a better moment than a recruit or an effect
        return val - 150.0

    def _recruit_score(self, state: WarzoneState, p: int, args: tuple,
                       plan: dict) -> float:
        iid = args[0]
        val = plan.get(iid)
        hand = plan.get("hand")
        if hand is None:
            hand = plan["hand"] = {c.iid: c for c in state.p[p].hand}
        card = hand[iid]
        if val is None:
            val = plan[iid] = self._potential(state, p, card, plan)
        if card.plain_play:
            return val
        return val + card_value(state, p, card, card.on_play, args[2:], None)

    def _potential(self, state: WarzoneState, p: int, card: Card, plan: dict) -> float:
        """The card's body plus the best bodies still recruitable after it this turn."""
        # The band of the highest Degree after this recruit sets the limit (rules.band_limit).
        band = card.band
        high = state.highest
        if high > 1:
            high_band = 1 if high <= 3 else 2
            if high_band > band:
                band = high_band
        slots = _BAND_LIMITS[band] - state.count - 1
        value = card.value
        if slots <= 0:
            return float(value)
        tops = plan.get(_TOPS_KEYS[band])
        if tops is None:
            tops = plan[_TOPS_KEYS[band]] = _best_bodies(state.p[p].hand, band)
        # Another body fits when it does not raise the band (and so the limit): the best
        # ``slots`` of them other than this card (one body of its value left out).
        values, sums = tops
        if len(values) > slots:
            extra = sums[slots + 1] - value if value >= values[slots] else sums[slots]
        else:
            extra = sums[-1] - value
        return float(value + extra)  # integers: the same sum in any order


_BAND_LIMITS = (band_limit(0), band_limit(2), band_limit(4))  # recruit limit by Degree band


_TOPS_KEYS = (("tops", 0), ("tops", 1), ("tops", 2))


def _best_bodies(hand: list[Card], band: int) -> tuple[list[int], list[int]]:
    """The values of the creatures in ``hand`` of Degree band ``band`` or lower, best first,
    and their running sums (``sums[k]``: the best k together)."""
    values = []
    for c in hand:
        if c.body_band <= band:
            values.append(c.value)
    values.sort(reverse=True)
    return values, list(accumulate(values, initial=0))


class MonteCarloAgent:
    """Flat Monte Carlo for the battle decisions: in the War phase and in answer windows
    (interception, traps, targets) the heuristic's best few actions are each tried on clones
    and played on by heuristic players for ``horizon`` more turns (0: to the end), then scored
    (win, loss, or :func:`position_value`); the best average wins. Every candidate is tried in
    the same sampled worlds (hidden cards reshuffled the same way), so the comparison is fair.
    Recruitment and Return decisions are the heuristic's."""

    def __init__(self, seed: int = 0, playouts: int = 16, max_candidates: int = 6,
                 horizon: int = 2) -> None:
        self.rng = random.Random(seed)
        self.playouts = playouts
        self.max_candidates = max_candidates
        self.horizon = horizon  # 0: play to the end; N: N more turns, then position_value
        self.heuristic = HeuristicAgent(seed)

    def choose(self, state: WarzoneState, player: int) -> Action:
        """Pick the action whose heuristic playouts win most often for ``player``."""
        acts = state.legal_actions(player)
        if len(acts) == 1:
            return acts[0]
        if (state.pending is None and state.phase != "war") or (
                state.pending is not None and state.pending[0] in ("areas", "heal")):
            return self.heuristic.choose(state, player)
        plan: dict = {}
        ranked = sorted(acts, key=lambda a: -self.heuristic.score(state, player, a, plan))
        candidates = ranked[: self.max_candidates]
        worlds = [self.rng.random() for _ in range(self.playouts)]
        best, best_score = candidates[0], -1.0
        for act in candidates:
            total = 0.0
            for world in worlds:
                sim = state.determinize(player, random.Random(world))
                sim.apply(act)
                total += _playout(sim, player, self.heuristic, self.horizon)
            score = total / self.playouts
            if score > best_score:
                best, best_score = act, score
        return best


def _playout(state: WarzoneState, player: int, agent: HeuristicAgent, horizon: int = 0,
             limit: int = 2000) -> float:
    """Play on with ``agent`` for both players; 1 win, 0 loss, 0.5 draw. With a ``horizon``,
    stop after that many more turns and score the position with :func:`position_value`."""
    stop = state.turn + horizon if horizon else None
    for _ in range(limit):
        if state.over or (stop is not None and state.turn > stop):
            break
        actor = state.to_act()[0]
        state.apply(agent.choose(state, actor))
    if not state.over:
        return position_value(state, player)
    if state.winner is None:
        return 0.5
    return 1.0 if state.winner == player else 0.0


def position_value(state: WarzoneState, player: int) -> float:
    """A 0-1 estimate of ``player``'s chances: creatures on the field, Life Points and Damage
    Pile room on each side, squashed by a logistic curve."""
    score = 0.0
    if state._aura is None:
        state._compute_aura()
    filtered = bool(state._filtered)  # standing changes by filter: unit_value reads them
    for side, sign in ((player, 1.0), (1 - player, -1.0)):
        pl = state.p[side]
        if filtered:
            material = sum(unit_value(state, u) for u in pl.field)
        else:  # the same sum of unit_value, the aura looked up once (this scores every playout)
            material = sum(stats[2] for _, stats in _all_stats(state, pl.field))
        room = max(state.cfg.pile_limit - len(pl.pile), 0)
        health = 2500.0 * (pl.life / state.cfg.start_life + room / state.cfg.pile_limit)
        score += sign * (material + health + 150.0 * len(pl.hand))
    return 1.0 / (1.0 + math.exp(-score / 1500.0))


def area_value(state: WarzoneState, p: int, order: tuple, plan: dict | None = None) -> float:
    """Placing Areas (§1.12.4): each row's standing changes weighed by how many creatures of
    that Class the side they reach may field (own: hand and deck; the opponent: its deck list,
    which is public, all its unseen cards counted by Class)."""
    known = plan.get("areas") if plan is not None else None
    if known is None:
        known = _area_inputs(state, p)
        if plan is not None:
            plan["areas"] = known  # the same for every arrangement of one decision
    cards, own, theirs = known
    if cards is None:
        return 0.0  # no Area changes a row: every placement is as good
    val = 0.0
    for row, iid in enumerate(order, start=1):
        area = cards.get(iid)
        if area is None:
            continue
        for e in area.continuous:
            change = e.d_str + e.d_res
            if e.target == "own_creatures":
                val += change * own[row]
            elif e.target == "enemy_creatures":
                val -= change * theirs[row]
    return val


def _area_inputs(state: WarzoneState, p: int) -> tuple[dict[str, Card] | None, list[int], list[int]]:
    """What :func:`area_value` weighs: ``p``'s Areas to place by instance name (None when none
    changes a row) and, per Class, the creatures among the hand and deck of ``p`` and of the
    opponent (counts at C speed: a new game holds about a hundred such cards)."""
    cards = {c.iid: c for c in (state.to_place[p] or ())} if state.to_place else {}
    if not any(c.continuous for c in cards.values()):
        return None, [], []
    counts = []
    for side in (p, 1 - p):
        pl = state.p[side]
        rows = list(map(_CLASS, pl.hand))  # a card that is not a creature has Class 0
        rows += map(_CLASS, pl.deck)
        counts.append([0, rows.count(1), rows.count(2), rows.count(3)])
    return cards, counts[0], counts[1]


_CLASS = attrgetter("cls")
_THIRD = itemgetter(2)


def _own_trap(state: WarzoneState, p: int, iid: str) -> Card:
    """A trap of ``p`` by instance name: set face down, or in the hand."""
    for card, _ in state.p[p].traps:
        if card.iid == iid:
            return card
    return _find(state.p[p].hand, iid)


def _find(cards: list[Card], iid: str) -> Card:
    for card in reversed(cards):  # the newest cards are usually the ones played
        if card.iid == iid:
            return card
    raise KeyError(iid)


# ---------------------------------------------------------------------- the search player

SEARCH_BUDGET = 32
"""Default iterations per searched decision of ``search`` (benchmarks/agents.py measures it)."""
SEARCH_HORIZON = 20
"""Decisions a playout plays before position_value scores it. 20 with 32 playouts instead of 30
with 24: iron-bastion search vs heuristic, the same 200 seeds, 68.0 % against 64.0 %, for fewer
CPU seconds a decision (about 0.83 times, search mirrors side by side in one process)."""
SEARCH_WIDTH = 5
SEARCH_RACE_FROM = 2
"""Worlds after which a candidate clearly behind the heuristic's choice drops out (search.py)."""


def _search_candidates(state: WarzoneState, player: int, acts: list[Action]) -> list[Action]:
    """The heuristic's choice, then its next best-scored actions (``SEARCH_WIDTH`` in all)."""
    h = HeuristicAgent(0)
    first = h.choose(state, player)
    plan: dict = {}
    ranked = sorted(acts, key=lambda a: -h.score(state, player, a, plan))
    return [first] + [a for a in ranked if a is not first][: SEARCH_WIDTH - 1]


_SEARCHED_PHASES = frozenset(("recruit", "war"))


def _battle_decision(state: WarzoneState, player: int) -> bool:
    """Recruitment, War-phase and answer-window decisions are searched (searching what to
    recruit too: 61.7 % → 65.6 % against the heuristic in 120-160-game iron-bastion mirrors);
    Return decisions, Area placement and heal discards are the heuristic's."""
    pend = state.pending
    return (pend is not None and pend[0] not in ("areas", "heal")) or state.phase in _SEARCHED_PHASES


def search_agent(seed: int = 0, budget: int = SEARCH_BUDGET,
                 horizon: int = SEARCH_HORIZON, **tuning: Any) -> Agent[WarzoneState]:
    """The strong warzone player: root ISMCTS (engines/search.py) over the heuristic's best
    few recruitment and battle decisions raced against its choice, heuristic playouts of
    ``horizon`` decisions, then position_value."""
    from workbench.domain.engines.search import SearchAgent

    return SearchAgent(seed, HeuristicAgent, position_value, _search_candidates,
                       **{"searches": _battle_decision, "budget": budget, "horizon": horizon,
                          "race_from": SEARCH_RACE_FROM, **tuning})
