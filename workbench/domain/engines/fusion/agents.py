"""AI players for Fusion Duel: a cheap rule-of-thumb player and a flat Monte Carlo player.

The heuristic player scores each legal action with simple, fast estimates (no look-ahead): it
spends its mana on the best creatures and effects it can afford, attacks where the fight favours
it or the opponent cannot block profitably, blocks to kill or to survive, orders blockers so as
to kill as many as possible, and answers the chain when negating or a quick effect pays.

It is the inner loop of every playtest, so it reads what it needs directly: the static parts of
a card's score are computed once per card (``CardDef.h_*``), main-phase actions are scored in one
loop (plays of one-effect cards, above all damage to a chosen creature, without a call per
action), and attack declarations are scored over (attacker, target) pairs rather than by decoding
action names; a declaration right after the previous one reuses its creature stats (declaring
only taps the attacker). None of this changes a decision: the same seeds play the same games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from workbench.domain.engines.base import Action, Agent, State
from workbench.domain.engines.fusion.adapter import ADAPTER
from workbench.domain.engines.fusion.cards import Effect
from workbench.domain.engines.fusion.state import FIXED, PLAYER, FusionState, GuessTables

_PTOK = {"p0": -1, "p1": -2, "p2": -3, "p3": -4}

# Switches of the heuristic's shortcuts (each off: the plain definition; the games are the same
# either way, tests/domain/engines/fusion/test_agent_shortcuts.py plays both).
WORTH_TABLE = True
"""_fusion_value reads ``FusionState.worths`` rather than calling ``ADAPTER.worth`` per option."""
_NONE: list[int | None] = [None]  # no target, times the number of effects
_NEG_INF = float("-inf")


def _value(s: FusionState, i: int) -> float:
    """What a creature on the field is worth: its current stats."""
    return s.atk(i) + s.dfn(i) + 1.0


def _left(s: FusionState, i: int) -> int:
    """Damage still needed to destroy creature ``i`` this turn."""
    return s.dfn(i) - s.damage.get(i, 0)


def _effect_value(s: FusionState, p: int, src: int, e: Effect, t: int | None, x: int) -> float:
    """A rough worth of one effect for player ``p`` (positive is good for ``p``)."""
    act = e.action
    if e.asks:  # choose, arrange, unless, pick: choose (rare: kept off the usual path)
        return _asking_value(s, p, src, e, t, x)
    amount = x if e.x_amount else e.amount  # an int already (cards.Effect)
    if act == "damage" and e.choice and t is not None and t >= 0:
        # the most frequent estimate (damage to a chosen creature), as the loop below computes it
        a, d = s.atk_dfn(t)
        sign = 1.0 if s.owner[t] == p else -1.0
        if amount >= d - s.damage.get(t, 0):
            return 0.0 - sign * (a + d + 1.0)
        return _chip(s, t, amount, a, d, sign)
    if act in _WHOLE:  # one set lookup rather than four comparisons on the usual path
        if act == "negate":
            if not s.chain:
                return 0.0
            link = s.chain[-1]
            if link[0] == p:
                return -5.0
            return 1.0 + sum(
                _effect_value(s, link[0], link[1], le, lt, link[5]) for le, lt in zip(link[3], link[4])
            )
        if act == "add_mana":
            return _mana_value(s, p, src, amount)
        if act == "fusion_summon":
            return _fusion_value(s, p, src, e)
        # create_token
        sign = -1.0 if e.target == "opponent" else 0.0 if e.target == "each_player" else 1.0
        stats = e.token_field("atk", 0) + e.token_field("def", 0)
        return sign * (e.count or 1) * (0.5 * stats + 1.0)
    if e.choice:  # what _effect_targets returns for a chosen target, without a call
        if t is None:
            return 0.0
        targets: Any = (t,)
    else:
        targets = s._effect_targets(e, p, src, t)
    total = 0.0
    for target in targets:
        if target < 0:
            q = -1 - target
            sign = 1.0 if q == p else -1.0
            if act == "draw":
                # Drawing is good until the deck runs short; in a long game the player with the
                # smaller deck decks out first (§3.1.8), so extra draws then hurt.
                mine_left = len(s.deck[q])
                if s.np == 2:
                    theirs_left = len(s.deck[1 - q])
                else:  # the first of the others to deck out
                    theirs_left = min((len(s.deck[r]) for r in s.alive if r != q), default=0)
                if mine_left <= amount + 2 or (mine_left < 12 and mine_left - amount <= theirs_left):
                    total += sign * -8.0
                else:
                    total += sign * 2.0 * amount
            elif act == "gain_life":
                total += sign * 0.5 * amount
            elif act == "damage":
                lethal = s.life[q] <= amount
                total -= sign * (amount + (100.0 if lethal else 0.0))
            continue
        mine = s.owner[target] == p
        sign = 1.0 if mine else -1.0
        # the actions in the order they are most often scored here
        if act == "modify_stats":
            if e.duration == "permanent":
                total += sign * (e.atk + e.dfn)
            else:
                if e.dfn < 0 and -e.dfn >= _left(s, target):
                    total -= sign * _value(s, target)
                elif s.phase == "battle" and _in_fight(s, target):
                    total += sign * 1.5 * (max(e.atk, 0) + max(e.dfn, 0))
                elif (s.phase == "main1" and s.active == p and mine and e.atk > 0
                      and s.can_attack(target)):
                    total += 0.3 * e.atk  # before the battle, on a creature that can attack
                else:
                    total -= _WASTED  # wears off before it matters: after combat, off-fight
        elif act == "heal":
            total += sign * 0.3 * min(amount, s.damage.get(target, 0))
        elif act == "damage":
            a, d = s.atk_dfn(target)
            if amount >= d - s.damage.get(target, 0):
                total -= sign * (a + d + 1.0)
            else:
                total += _chip(s, target, amount, a, d, sign)
        elif act == "destroy":
            a, d = s.atk_dfn(target)
            total -= sign * (a + d + 1.0)
        elif act == "return_to_hand":
            a, d = s.atk_dfn(target)
            total -= sign * 0.6 * (a + d + 1.0)
    return total


_SET_MOST = 1.0
"""The most a ``set`` action scores in _best_play: 1.0 (a creature it cannot pay for yet), a
magic card's ``CardDef.h_set`` (0.6 or -1.0); a set is not scored once the best so far reaches
it. The switch of that shortcut: ``float("inf")`` scores every set."""

_WHOLE = frozenset(("negate", "add_mana", "fusion_summon", "create_token"))
"""Effects :func:`_effect_value` scores as a whole rather than per target."""


def _asking_value(s: FusionState, p: int, src: int, e: Effect, t: int | None, x: int) -> float:
    """:func:`_effect_value` of an entry that asks while it resolves: a choose entry is worth its
    best mode (each step at its best target), arrange a little, an unless entry about half."""
    from dataclasses import replace

    from workbench.domain.effects.asks import mode_args, mode_steps

    if e.action == "choose":
        best = None
        for arg in mode_args(e):
            val = 0.0
            for spec in mode_steps(e, arg):
                step = cast(Effect, spec)
                if step.choice:
                    val += max((_effect_value(s, p, src, step, u, x) for u in s._targets(step, p, src)), default=0.0)
                else:
                    val += _effect_value(s, p, src, step, None, x)
            best = val if best is None else max(best, val)
        return best or 0.0
    if e.action == "arrange":
        return 0.5
    plain = replace(e, unless=("", 0), asks=False, pick="best" if e.pick == "choose" else e.pick)
    return (0.5 if e.unless[0] else 1.0) * _effect_value(s, p, src, plain, t, x)


def choice_value(s: FusionState, p: int, answer: str) -> float:
    """Worth to ``p`` of one answer to the pending ask of a resolving effect (effects.asks):
    a mode (its steps with their best targets), a step's target, paying for an unless (what
    it saves against what it costs), an order of the top cards (the best on top)."""
    from workbench.domain.effects.asks import DECLINE, mode_steps
    from workbench.domain.effects.spec import PlayerRef
    from workbench.domain.engines.fusion.adapter import ADAPTER

    paused = s.asking[0]  # type: ignore[index]
    ask = paused.ask
    e, c, src, x = ask.entry, paused.controller, paused.card, paused.x

    def tok(t: Any) -> Any:
        return -1 - t.index if isinstance(t, PlayerRef) else None if isinstance(t, tuple) else t

    if ask.kind == "mode":
        val = 0.0
        for spec in mode_steps(e, answer):
            step = cast(Effect, spec)
            if step.choice:
                val += max((_effect_value(s, c, src, step, t, x) for t in s._targets(step, c, src)), default=0.0)
            else:
                val += _effect_value(s, c, src, step, None, x)
        return val if p == c else -val
    if ask.kind == "target":
        return _effect_value(s, c, src, cast(Effect, e), tok(ADAPTER.unarg(s, e, answer)), x)
    if ask.kind == "unless":
        if answer == DECLINE:
            val = _effect_value(s, c, src, cast(Effect, e), tok(paused.todo[0][1]), x)  # for its controller
            return val if p == c else -val
        kind, n = e.unless
        return -(0.5 * n if kind == "pay_life" else 0.7 * n if kind == "mana" else 2.0 * n) - 0.1
    if ask.kind == "pick":  # the card worth most to take; to give up (discard), the one worth least
        from workbench.domain.effects.asks import picked_card

        card = picked_card(e, answer, paused.source(s, ADAPTER), s, ADAPTER)
        worth = ADAPTER.worth(s, card) if card is not None else 0.0
        return worth if e.to_zone in ("hand", "field") else -worth
    deck = s.deck[c]  # arrange: the cards worth most on top
    n = ask.seen
    top = deck[len(deck) - n:][::-1]
    order = [top[int(k) - 1] for k in answer.split(",")]
    return sum(ADAPTER.worth(s, i) * (n - k) for k, i in enumerate(order))


def _summon_gain(s: FusionState, p: int, i: int, materials: list[int]) -> float:
    """What bringing out extra-deck creature ``i`` is worth: its stats and when-summoned effects
    (those without a chosen target), less the materials it sends to the graveyard."""
    cards = s.cards
    card = cards[i]
    value = card.atk + card.dfn + 1.0
    for oe in card.on_play:
        if not oe.choice:
            value += _effect_value(s, p, i, oe, None, 0)
    crea, owner = s.crea, s.owner
    for m in materials:
        if m in crea[owner[m]]:  # on the field (FusionState.on_field): worth its current stats (_value)
            a, d = s.atk_dfn(m)
            value -= a + d + 1.0
        else:
            c = cards[m]
            value -= 0.5 * (c.atk + c.dfn) + 1.0
    return value


def _fusion_value(s: FusionState, p: int, src: int, e: Effect) -> float:
    """A fusion_summon effect: the creature the engine would bring out (the one worth most)."""
    options = s.fusion_choices(p, src, e)
    if not options:
        return 0.0
    if not WORTH_TABLE:  # the plain definition of the loop below
        card, mats = max(options, key=lambda o: ADAPTER.worth(s, o[0]))
        return _summon_gain(s, p, card, mats)
    # max(options, key=ADAPTER.worth of the creature) without three calls per option: the
    # state's table of those worths; ties keep the first, as max does
    worths = s.worths
    best = options[0]
    top = worths[best[0]]
    for option in options:
        w = worths[option[0]]
        if w > top:
            best, top = option, w
    return _summon_gain(s, p, best[0], best[1])


_BLIND_STEPS = frozenset(("mulligan", "block", "order", "discard"))
"""Steps where the heuristic reads no stats of the opponent's face-down creatures (they can
neither attack nor be blockers' targets): no need to mask them."""
_SCORED_STEPS = frozenset(("main", "respond", "window"))  # where _best_play scores every action
_T = TypeVar("_T")


def _list_true(s: FusionState, player: int) -> None:
    """Lists ``player``'s legal actions from the true stats before a masked decision reads the
    guessed ones: ``apply`` checks a move against this kept list. With the default rules the list
    is the same either way (an opponent's face-down creature matches no stat filter, option
    ``face_down_hidden``); with that option off, the true list is the engine's."""
    if s.actor == player and not s.over and s._legal is None:
        s._legal = s._compute_legal()


def _guess(s: FusionState, q: int) -> tuple[int, int]:
    """The (ATK, DEF) player ``q``'s face-down creature is expected to have: the mean of the
    creatures it could be (``q``'s unseen settable creatures: hand, deck and face-down ones).

    Counted as all of ``q``'s settable creatures less the ones seen (graveyard, exile, magic and
    field zones, extra deck, face-up on the field), plus face-down tokens: every card but a token
    is in exactly one zone, and the seen zones hold fewer cards than hand and deck for most of a
    game (``tests/domain/engines/test_fusion_caches.py`` compares it with the plain mean)."""
    cards, down = s.cards, s.down
    max_stars = s.opts.set_max_stars
    base = s.guess_base.get(max_stars)
    if base is None:
        base = s.guess_base[max_stars] = _guess_tables(s, max_stars)
    totals, settable = base
    n, ta, td = totals[q]
    for zone in (s.grave[q], s.exile[q], s.magic[q], s.field[q], s.extra[q]):
        for i in zone:
            g = settable[i]
            if g is not None:
                n -= 1
                ta -= g[0]
                td -= g[1]
    for i in s.crea[q]:
        g = settable[i]
        if g is None:
            continue
        if cards[i].token:  # outside the totals: counted only while face down
            if i in down:
                n += 1
                ta += g[0]
                td += g[1]
        elif i not in down:
            n -= 1
            ta -= g[0]
            td -= g[1]
    if not n:
        return (0, 1)
    return (round(ta / n), round(td / n))


def _guess_tables(s: FusionState, max_stars: int) -> GuessTables:
    """What :func:`_guess` starts from: per player, how many settable creatures (not tokens) it
    owns and their ATK and DEF sums; per card, its (ATK, DEF) when it is a creature of at most
    ``max_stars`` stars (a token too), else None."""
    settable: list[tuple[int, int] | None] = []
    for card in s.cards:
        printed = card.h_guess  # (ATK, DEF, stars) of a creature, else None
        settable.append((printed[0], printed[1]) if printed is not None and printed[2] <= max_stars else None)
    totals = []
    for q in range(s.np):
        n = ta = td = 0
        for i, card in enumerate(s.cards):
            stats = settable[i]
            if s.owner[i] == q and not card.token and stats is not None:
                n += 1
                ta += stats[0]
                td += stats[1]
        totals.append((n, ta, td))
    return totals, settable


_WASTED = 0.3
"""What a card spent for nothing costs: less than holding it (``end`` and ``pass`` score 0)."""


def _chip(s: FusionState, t: int, amount: int, a: int, d: int, sign: float) -> float:
    """Worth of ``amount`` damage that does not destroy creature ``t`` (ATK ``a``, DEF ``d``):
    it wears off at end of turn (§3.5.6), so it counts only as part of a fight this battle."""
    if s.phase == "battle" and _in_fight(s, t):
        left = d - s.damage.get(t, 0)
        return -sign * 0.5 * (a + d + 1.0) * amount / max(left, 1)
    return -_WASTED


def _mana_value(s: FusionState, p: int, src: int, amount: int) -> float:
    """Extra mana is worth the plays it opens: a card in hand it makes affordable now."""
    cards = s.cards
    own = cards[src]
    mana = s.mana[p] - (own.cost if src in s.hand[p] and not own.x_cost else 0)
    for i in s.hand[p]:
        if i == src:
            continue
        c = cards[i]
        if c.x_cost or mana < c.cost <= mana + amount:
            return 0.3 * amount + 0.5
    return -_WASTED


def _retarget_score(s: FusionState, attacker: int, target: str) -> float:
    """An attack lost its target (§3.5.2): the player is worth most of the attacker's ATK, a
    creature it destroys its worth, any other creature a little."""
    power = s.atk(attacker)
    if target == PLAYER or target in _PTOK:
        return 0.6 * power + 0.1
    t = s.index[target]
    a, d = s.atk_dfn(t)
    return a + d + 1.0 if power >= d - s.damage.get(t, 0) else 0.05


def _in_fight(s: FusionState, i: int) -> bool:
    for a in s.attacks:
        if a[0] == i or a[1] == i or i in a[2]:
            return True
    return False


class HeuristicAgent:
    """Plays sensibly without look-ahead; see the module docstring."""

    def __init__(self, seed: int = 0) -> None:
        self._seed = seed
        self._rng: random.Random | None = None
        # the creature stats of the last attack declaration: (state, turn, attacks declared,
        # ATK, damage left, untapped enemy blockers), see _declare
        self._decl: tuple[Any, ...] | None = None
        # (state, zone sizes, guess) of the last _masked decision, see _masked
        self._guessed: tuple[Any, ...] | None = None

    @property
    def rng(self) -> random.Random:
        """The agent's own generator, seeded on first use (the heuristic itself never draws)."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    def choose(self, state: State, player: int) -> Action:
        """Pick the best-scoring legal action for ``player``.

        The opponent's face-down creatures are unknown (RULES.md §3.4.2): while the decision is
        scored, their stats read as the average of the creatures they could be (see _guess).
        """
        if TYPE_CHECKING:  # for the type checkers: the hot path skips the isinstance call
            assert isinstance(state, FusionState)
        down = state.down
        step = state.step
        if down and step not in _BLIND_STEPS:
            crea = state.crea
            opps = state.opps[player]
            if len(opps) == 1:  # two players: most positions have no face-down enemy creature
                q = opps[0]
                zone = crea[q]
                if not down.isdisjoint(zone):
                    hidden = []
                    for i in zone:
                        if i in down:
                            hidden.append(i)
                    return self._masked_one(state, player, q, hidden)
            else:
                hidden = [i for q in opps for i in crea[q] if i in down]
                if hidden:
                    return self._masked(state, player, hidden)
        # _choose without its call layer for the usual decision (a main phase, nothing masked)
        if step == "main" and state.actor == player and not state.over:
            acts = state._legal
            if acts is None:  # what _compute_legal lists in a main phase, without its dispatch
                acts = state._legal = state._main_actions(player)
            if len(acts) > 1:
                return self._best_play(state, player, acts, "main")
            return acts[0]
        return self._choose(state, player)

    def ranked(self, state: FusionState, player: int, acts: list[Action]) -> list[Action]:
        """``acts`` (``player``'s legal actions), best first: this heuristic's choice, then, in a
        main phase, a chain answer or a battle window, the others by their one-ply score (ties
        in listed order); elsewhere in listed order. Scored from ``player``'s view, as
        :meth:`choose` decides."""
        first = self.choose(state, player)
        rest = [a for a in acts if a is not first]
        if state.step not in _SCORED_STEPS or len(rest) < 2:
            return [first] + rest

        def scores(s: FusionState, p: int) -> list[float]:
            return [self._score(s, p, a) for a in rest]

        values = self._in_view(state, player, scores)
        order = sorted(range(len(rest)), key=lambda k: -values[k])  # stable: ties keep the list's order
        return [first] + [rest[k] for k in order]

    def _in_view(self, state: FusionState, player: int, decide: Callable[[FusionState, int], _T]) -> _T:
        """``decide(state, player)`` with the other players' face-down creatures read as
        :meth:`choose` reads them (see _masked)."""
        down = state.down
        if down and state.step not in _BLIND_STEPS:
            hidden = [i for q in state.opps[player] for i in state.crea[q] if i in down]
            if hidden:
                if len(state.opps[player]) == 1:
                    return self._masked_one(state, player, state.opps[player][0], hidden, decide)
                return self._masked(state, player, hidden, decide)
        return decide(state, player)

    def _masked_one(self, state: FusionState, player: int, q: int, hidden: list[int],
                    decide: Callable[[FusionState, int], Any] | None = None) -> Any:
        """:meth:`_masked` with one opponent ``q`` (two players): the key without a tuple per
        opponent, one guess, the true stats kept in a list beside ``hidden``."""
        # q's pool changes only when a card of q's moves between zones (or turns face up); the
        # player is in the key: a rollout's heuristic plays every seat (their opponents differ)
        key = (state.turn, player, len(hidden), len(state.hand[q]), len(state.deck[q]),
               len(state.grave[q]), len(state.exile[q]))
        memo = self._guessed
        if memo is not None and memo[0] is state and memo[1] == key:
            ga, gd = memo[2][q]
        else:
            guess = _guess(state, q)
            self._guessed = (state, key, {q: guess})
            ga, gd = guess
        # _list_true without its call layer: the true legal list, kept for apply and read below
        # (a declaration is decided without it: see _declare)
        acts = None
        if state.actor == player and not state.over and (state.step != "declare" or decide is not None):
            acts = state._legal
            if acts is None:
                acts = state._legal = state._compute_legal()
        cards, sc = state.cards, state._sc
        trues = []
        for i in hidden:
            true = sc.get(i) or state.atk_dfn(i)  # base plus public changes (modifiers, bonuses)
            card = cards[i]
            trues.append(true)
            sc[i] = (ga + true[0] - card.atk, gd + true[1] - card.dfn)
        try:
            if decide is None:
                # what _choose does in the two usual masked steps, without its call layer
                step = state.step
                if step == "main" and acts is not None and len(acts) > 1:
                    return self._best_play(state, player, acts, "main")
                if step == "declare" and state.actor == player and not state.over:
                    return self._declare(state, player, state._legal)
            return (decide or self._choose)(state, player)
        finally:
            sc = state._sc  # the decision reads the state; the cache dict is still this one
            k = 0
            for i in hidden:
                sc[i] = trues[k]
                k += 1

    def _masked(self, state: FusionState, player: int, hidden: list[int],
                decide: Callable[[FusionState, int], Any] | None = None) -> Any:
        """:meth:`_choose` with the stats of the ``hidden`` creatures replaced by a guess that
        depends only on what ``player`` sees (restored afterwards: the cache is the state's);
        two or more opponents (one: :meth:`_masked_one`)."""
        opps = state.opps[player]
        # an opponent's pool changes only when a card of its moves between zones (or turns face up);
        # the player is in the key: a rollout's heuristic plays every seat (their opponents differ)
        memo = self._guessed
        cards, sc = state.cards, state._sc
        saved = []
        key = (state.turn, player, len(hidden), *(
            (len(state.hand[q]), len(state.deck[q]), len(state.grave[q]), len(state.exile[q])) for q in opps))
        if memo is not None and memo[0] is state and memo[1] == key:
            guesses = memo[2]
        else:
            guesses = {q: _guess(state, q) for q in opps}
            self._guessed = (state, key, guesses)
        _list_true(state, player)
        sc = state._sc
        owner = state.owner
        for i in hidden:
            true = sc.get(i) or state.atk_dfn(i)
            card = cards[i]
            saved.append((i, true))
            guess = guesses[owner[i]]
            sc[i] = (guess[0] + true[0] - card.atk, guess[1] + true[1] - card.dfn)
        try:
            return (decide or self._choose)(state, player)
        finally:
            sc = state._sc  # the decision reads the state; the cache dict is still this one
            for i, true in saved:
                sc[i] = true

    def _choose(self, state: FusionState, player: int) -> Action:
        if state.actor == player and not state.over:
            if state.step == "declare":  # decided without the listed attacks (see _declare)
                return self._declare(state, player, state._legal)
            # what legal_actions returns, without its call layer (the list is kept for apply)
            acts = state._legal
            if acts is None:
                acts = state._legal = state._compute_legal()
        else:
            acts = state.legal_actions(player)
        if len(acts) == 1:
            return acts[0]
        step = state.step
        if step == "main" or step == "respond" or step == "window" or step == "retarget":
            return self._best_play(state, player, acts, step)
        if step == "mulligan":
            return self._mulligan(state, player, acts)
        if step == "block":
            return self._block(state, player, acts)
        if step == "order":
            return min(acts, key=lambda a: _left(state, state.index[a.args[1]]))
        if step == "declare":
            return self._declare(state, player, acts)
        if step == "target":
            _, src, effect = state.pending[0]

            def worth(a: Action) -> float:
                arg = a.args[0]
                t = _PTOK[arg] if arg in _PTOK else state.index[arg]
                return _effect_value(state, player, src, effect, t, 0)

            return max(acts, key=worth)
        if step == "discard":
            return min(acts, key=lambda a: self._card_worth(state, state.index[a.args[0]]))
        if step == "ask":
            return max(acts, key=lambda a: choice_value(state, player, a.args[0]))
        return self._best_play(state, player, acts, step)

    def _best_play(self, state: FusionState, player: int, acts: list[Action], step: str) -> Action:
        """Main phase, chain answers, battle windows: the best-scoring action (pass unless one pays)."""
        # every listed action is scored in one loop: the hot path of a game
        best, best_score = acts[0], _NEG_INF
        index, cards = state.index, state.cards
        mana = state.mana[player]
        # only what most actions read is fetched here; the rarer branches read the state
        sc, owner, damage, used = state._sc, state.owner, state.damage, state.used
        for a in acts:
            kind = a.kind
            # the kinds in the order they are most often listed
            if kind == "play":
                # _score_play for a card with at most one effect, inline (the usual card)
                args = a.args
                i = index[args[0]]
                card = cards[i]
                on_play = card.on_play
                if len(on_play) > 1:
                    score = self._score_play(state, player, kind, i, card, args, mana)
                else:
                    e = on_play[0] if on_play else None
                    if e is None or (e.once and used and (player, card.id, e.index) in used):
                        gain = 0.0
                    elif e is card.h_dmg and len(args) > 1:
                        # and _effect_value for damage to one chosen creature (the most frequent)
                        t = index[args[1]]
                        amount = e.amount
                        if e.x_amount:
                            amount = mana if card.x_cost else card.cost
                        v = sc.get(t)
                        if v is None:
                            v = state.atk_dfn(t)
                        sign = 1.0 if owner[t] == player else -1.0
                        if amount >= (v[1] - damage.get(t, 0) if damage else v[1]):
                            gain = 0.0 + (0.0 - sign * (v[0] + v[1] + 1.0))
                        elif state.phase == "battle":
                            gain = 0.0 + _chip(state, t, amount, v[0], v[1], sign)
                        else:
                            gain = -_WASTED  # what _chip gives outside the battle phase
                    else:
                        if e.choice:
                            if len(args) > 1:
                                arg = args[1]
                                t = _PTOK[arg] if arg in _PTOK else index[arg]
                            else:
                                t = None
                        elif e.action == "negate":
                            t = len(state.chain) - 1
                        else:
                            t = None
                        if e.choice and t is None:
                            gain = 0.0
                        else:
                            gain = 0.0 + _effect_value(state, player, i, e, t, mana if card.x_cost else card.cost)
                    if card.h_lasting:
                        gain += 1.0 + card.h_own_bonus * len(state.crea[player])
                    if card.h_artifact:
                        gain += 0.5 * len(card.activated)
                    if step == "main" and card.play_speed >= 2 and gain < 3.0:
                        score = gain - 1.0  # hold quick cards for the battle or the opponent's turn
                    else:
                        score = gain
            elif kind == "set":
                if best_score >= _SET_MOST:
                    continue  # a set scores at most _SET_MOST: it cannot beat what is found (ties keep the first)
                card = cards[index[a.args[0]]]
                if card.is_creature:
                    score = 1.0 if not card.x_cost and card.cost > mana else -1.0
                else:
                    score = card.h_set
            elif kind == "end" or kind == "pass":
                score = 0.0
            elif kind == "battle":
                score = 0.4
            elif kind == "summon":
                args = a.args
                i = index[args[0]]
                card = cards[i]
                if card.on_play:
                    score = self._score_play(state, player, kind, i, card, args, mana)
                else:
                    score = card.h_summon + (mana if card.x_cost else card.cost)
            elif kind == "activate":  # _score of an ability, inline (one action per target)
                args = a.args
                i = index[args[0]]
                card = cards[i]
                e = card.activated_at[int(args[1])]
                x = mana if e.x_mana else int(e.cost_mana)
                if e.action == "negate":
                    t = len(state.chain) - 1
                elif e.choice and len(args) > 2:
                    arg = args[2]
                    t = _PTOK[arg] if arg in _PTOK else index[arg]
                else:
                    t = None
                score = _effect_value(state, player, i, e, t, x) - 0.1 * x
                if (e.cost_tap and card.is_creature and state.phase == "main1"
                        and i not in state.tapped and i not in state.sick and i not in state.down):  # state.can_attack(i)
                    score -= 0.5 * (sc.get(i) or state.atk_dfn(i))[0]  # state.atk(i)
            elif kind == "fusion":  # option extra_deck_summon: materials_in_main
                i = index[a.args[0]]
                score = _summon_gain(state, player, i, state.fusion_materials(player, i) or []) - 0.1 * int(
                    cards[i].cost if not cards[i].x_cost else mana)
            else:  # flip, retarget
                args = a.args
                i = index[args[0]]
                card = cards[i]
                if kind == "flip" and not card.on_play:
                    score = card.h_flip + (mana if card.x_cost else card.cost)
                elif kind == "retarget":
                    score = _retarget_score(state, i, args[1])
                else:
                    score = self._score_play(state, player, kind, i, card, args, mana)
            if score > best_score:
                best, best_score = a, score
        if best_score <= 0.5 and (step == "respond" or step == "window"):
            return acts[0]  # pass
        return best

    # ------------------------------------------------------------------ scoring

    @staticmethod
    def _card_worth(s: FusionState, i: int) -> float:
        c = s.cards[i]
        if c.is_creature:
            return c.atk + c.dfn - (2.0 if not c.x_cost and int(c.cost) > s.mana_max[s.owner[i]] + 2 else 0.0)
        return 3.0 + len(c.on_play)

    def _mulligan(self, s: FusionState, p: int, acts: list[Action]) -> Action:
        cheap = sum(1 for i in s.hand[p] if not s.cards[i].x_cost and int(s.cards[i].cost) <= 3)
        if cheap >= 2 or s.mulls[p] >= 2:
            return acts[0]
        return acts[1]

    @staticmethod
    def _targets_of(s: FusionState, effects: tuple[Effect, ...], args: tuple[Any, ...]) -> list[int | None]:
        out: list[int | None] = []
        k = 0
        for e in effects:
            if e.action == "negate":
                out.append(len(s.chain) - 1)
            elif e.choice:
                if k < len(args):
                    a = args[k]
                    out.append(_PTOK[a] if a in _PTOK else s.index[a])
                else:
                    out.append(None)
                k += 1
            else:
                out.append(None)
        return out

    def _score(self, s: FusionState, p: int, a: Action) -> float:
        kind = a.kind
        if kind in ("pass", "end"):
            return 0.0
        if kind == "battle":
            return 0.4
        i = s.index[a.args[0]] if a.args else -1
        if kind == "activate":
            card = s.cards[i]
            args = a.args
            e = card.activated_at[int(args[1])]
            x = s.mana[p] if e.x_mana else int(e.cost_mana)
            if e.action == "negate":
                t: int | None = len(s.chain) - 1
            elif e.choice and len(args) > 2:
                arg = args[2]
                t = _PTOK[arg] if arg in _PTOK else s.index[arg]
            else:
                t = None
            score = _effect_value(s, p, i, e, t, x) - 0.1 * x
            if e.cost_tap and card.is_creature and s.phase == "main1" and s.can_attack(i):
                score -= 0.5 * s.atk(i)
            return score
        card = s.cards[i]
        mana = s.mana[p]
        if kind == "set":
            cost = mana if card.x_cost else card.cost
            if card.is_creature:
                return 1.0 if cost > mana else -1.0
            return card.h_set
        return self._score_play(s, p, kind, i, card, a.args, mana)

    @staticmethod
    def _score_play(s: FusionState, p: int, kind: str, i: int, card: Any, args: tuple[Any, ...], mana: int) -> float:
        """Score of summoning, flipping or playing card instance ``i`` with the given arguments."""
        cost = mana if card.x_cost else card.cost
        gain = 0.0
        on_play = card.on_play
        if len(on_play) == 1:  # the usual card: one effect, decoded without building lists
            e = on_play[0]
            if e.choice:
                if len(args) > 1:
                    arg = args[1]
                    t = _PTOK[arg] if arg in _PTOK else s.index[arg]
                else:
                    t = None
            elif e.action == "negate":
                t = len(s.chain) - 1
            else:
                t = None
            if not (e.choice and t is None) and not (e.once and s.used and (p, card.id, e.index) in s.used):
                gain += _effect_value(s, p, i, e, t, cost)
        elif on_play:
            if card.aimed:
                targets = HeuristicAgent._targets_of(s, on_play, args[1:])
            else:
                targets = _NONE * len(on_play)
            used = s.used
            for e, t in zip(on_play, targets):
                if e.choice and t is None:
                    continue
                if e.once and used and (p, card.id, e.index) in used:
                    continue
                gain += _effect_value(s, p, i, e, t, cost)
        if kind == "summon":
            return 2.0 + cost + 0.5 * (card.atk + card.dfn) + gain
        if kind == "flip":
            return 3.0 + cost + 0.5 * (card.atk + card.dfn) + gain
        if card.h_lasting:
            gain += 1.0 + card.h_own_bonus * len(s.crea[p])
        if card.h_artifact:
            gain += 0.5 * len(card.activated)
        if s.step == "main" and card.play_speed >= 2 and gain < 3.0:
            return gain - 1.0  # hold quick cards for the battle or the opponent's turn
        return gain

    # ------------------------------------------------------------------ battle

    def _declare(self, s: FusionState, p: int, acts: list[Action] | None) -> Action:
        """The best attack to declare now, or "go" / "end_battle" when none pays. ``acts`` is the
        listed declaration, or None: then the pair found is checked with ``attack_listed`` (what
        the list would hold) and the list is never built (``FusionState.apply`` checks the same)."""
        opps = s.opps[p]
        # stats of the possible attackers and of every enemy creature, read once per decision
        damage = s.damage
        tapped, sick, down = s.tapped, s.sick, s.down
        atk_dfn = s.atk_dfn
        sc = s._sc  # the state's (ATK, DEF) cache, read directly: atk_dfn fills it on a miss
        attacks = s.attacks
        declared = []  # (a loop: no comprehension frame per decision)
        for entry in attacks:
            declared.append(entry[0])
        free: list[int] = []
        free_power = 0
        last = self._decl
        if last is not None and last[0] is s and last[2] + 1 == len(attacks) and last[1] == s.turn:
            # The previous decision was this declaration one attacker ago: declaring only taps the
            # attacker, so every creature's ATK and damage left and the enemy blockers are the same.
            atk, left, blockers = last[3], last[4], last[5]
            for i in s.crea[p]:
                if i in tapped or i in sick or i in down or i in declared:
                    continue
                free.append(i)
                a = atk[i]
                if a > 0:
                    free_power += a
        else:
            atk = {}
            left = {}
            for i in s.crea[p]:
                if i in tapped or i in sick or i in down:
                    continue
                a, d = sc.get(i) or atk_dfn(i)
                atk[i] = a
                left[i] = d - damage.get(i, 0) if damage else d
                if i not in declared:
                    free.append(i)
                    if a > 0:
                        free_power += a
            blockers = {}  # per opponent: its creatures free to block (only it blocks, §3.9.3)
            for q in opps:
                free_q = blockers[q] = []
                for i in s.crea[q]:
                    a, d = sc.get(i) or atk_dfn(i)
                    atk[i] = a
                    left[i] = d - damage.get(i, 0) if damage else d
                    if i not in tapped and i not in down:
                        free_q.append(i)
            for i in declared:
                if i not in atk:
                    atk[i], d = sc.get(i) or atk_dfn(i)
                    left[i] = d - damage.get(i, 0) if damage else d
        self._decl = (s, s.turn, len(attacks), atk, left, blockers)
        committed_power = [0] * s.np  # damage already declared against each player
        committed: dict[int, int] = {}  # damage already declared against each creature
        for a in attacks:
            t = a[1]
            if t < 0:
                committed_power[-1 - t] += atk[a[0]]
            else:
                committed[t] = committed.get(t, 0) + atk[a[0]]
        strike_back = s.opts.strike_back
        best, best_score = -1, 0.0
        best_t = 0
        # The listed attacks are every free attacker (in zone order) against each opponent in
        # turn order (unless its taunt forbids it) and then that opponent's creatures: score
        # those pairs in that order, so no action name needs decoding; ties keep the first, as
        # the listed order would.
        sides = []  # (a loop rather than a comprehension: usually one opponent)
        for q in opps:
            sides.append((q, s.taunt_ids[q].isdisjoint(s.crea[q]) or not s.taunting(q), s.crea[q], s.life[q],
                          blockers[q], committed_power[q]))
        for i in free:
            power = atk[i]
            left_i = left[i]
            value_i = power + left_i + 1.0
            for q, player_ok, enemy, life_q, guards, committed_q in sides:
                if player_ok:
                    if not guards and life_q <= power + committed_q:
                        score = 100.0
                    else:
                        score = 0.6 * power
                        for b in guards:
                            kills = atk[b] >= left_i
                            if kills and power < left[b]:
                                score = -value_i
                                break
                            if kills:
                                score = min(score, atk[b] + left[b] - value_i + 1.0)
                    if score > best_score:
                        best, best_t, best_score = i, -1 - q, score
                for t in enemy:
                    score = 0.0
                    need = left[t] - committed.get(t, 0) if committed else left[t]
                    if need <= 0:
                        continue  # already dies to the attacks declared so far
                    if power >= need:
                        score += atk[t] + left[t] + 1.0
                    elif power > 0 and free_power >= need:
                        # together with the other free attackers it falls: take a share of the gain
                        score += 0.8 * (atk[t] + left[t] + 1.0) * power / need
                    if strike_back and t not in down and atk[t] >= left_i:
                        score -= value_i
                    if score > 0:
                        for b in guards:
                            if b != t and atk[b] >= left_i and power < left[b]:
                                score -= 0.5 * value_i
                                break
                    if score > best_score:
                        best, best_t, best_score = i, t, score
        if acts is None:
            if best >= 0:
                listed = s.attack_listed(best, best_t)
                if listed is not None:
                    return listed
            return FIXED["go"] if s.attacks else FIXED["end_battle"]  # what the list ends with
        if best >= 0:
            table = s.sa_attack[best]
            action = table[best_t] if table is not None else None
            if action is not None:
                for a in acts:  # by identity: Action equality would compare field by field
                    if a is action:
                        return action
            target = (PLAYER if s.np == 2 else f"p{-1 - best_t}") if best_t < 0 else s.names[best_t]
            want = (s.names[best], target)
            for a in acts:  # not cached yet (a state built another way): find it by name
                if a.kind == "attack" and a.args == want:
                    return a
        return acts[-1]  # go, or end the battle phase

    def _block(self, s: FusionState, p: int, acts: list[Action]) -> Action:
        atk: dict[int, int] = {}
        left: dict[int, int] = {}
        damage, atk_dfn, sc = s.damage, s.atk_dfn, s._sc
        for zone in s.crea:
            for i in zone:
                at, df = sc.get(i) or atk_dfn(i)
                atk[i] = at
                left[i] = df - damage.get(i, 0) if damage else df
        incoming = 0
        blocked: set[int] = set()  # attackers with a blocker already
        entries: dict[int, list[Any]] = {}
        me = -1 - p
        for entry in s.attacks:
            entries[entry[0]] = entry
            if entry[2]:
                blocked.add(entry[0])
            elif entry[1] == me:  # an unblocked attack on this player (not on another, §3.9.3)
                incoming += max(0, atk[entry[0]])
        lethal = incoming >= s.life[p]
        best, best_score = None, 0.0
        index = s.index
        for a in acts:
            if a.kind != "block":
                continue
            args = a.args
            b, att = index[args[0]], index[args[1]]
            entry = entries[att]
            others = entry[2]  # blockers already assigned to this attacker
            power = atk[att]
            if others:
                already = 0
                held = 0
                for x in others:
                    already += atk[x]
                    held += left[x]
                kills = atk[b] + already >= left[att]
                survives = power < left[b] or power < held
            else:
                kills = atk[b] >= left[att]
                survives = power < left[b]
            score = 0.0
            if kills:
                score += power + left[att] + 1.0
            if not survives:
                score -= atk[b] + left[b] + 1.0
            elif entry[1] < 0:
                score += 0.3 * power
            if att in blocked and not kills:
                score -= 1.0
            if lethal and entry[1] == me and att not in blocked:
                score += 50.0 + power
            if score > best_score:
                best, best_score = a, score
        return best if best is not None else acts[-1]


class MonteCarloAgent:
    """Flat Monte Carlo: tries each action in re-dealt worlds (``State.determinize``: the
    opponent's hand and face-down cards and both deck orders resampled from this player's
    view) and plays out with heuristic players.

    Only used where there is a real choice; ``rollouts`` playouts per action, each cut off after
    ``horizon`` decisions and scored by life difference when unfinished.
    """

    def __init__(self, seed: int = 0, rollouts: int = 4, horizon: int = 150) -> None:
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.horizon = horizon
        self.policy = HeuristicAgent(seed)

    def choose(self, state: State, player: int) -> Action:
        """Pick the action whose playouts score best for ``player``."""
        acts = state.legal_actions(player)
        if len(acts) == 1:
            return acts[0]
        best, best_score = acts[0], float("-inf")
        worlds = [self.rng.getrandbits(32) for _ in range(self.rollouts)]
        for k, a in enumerate(acts[:12]):
            total = 0.0
            for world in worlds:  # the same re-dealt worlds for every action
                sim = state.determinize(player, random.Random(world))
                assert isinstance(sim, FusionState)
                sim.apply(sim.legal_actions(player)[k])
                total += self._playout(sim, player)
            if total > best_score:
                best, best_score = a, total
        return best

    def _playout(self, sim: FusionState, player: int) -> float:
        policy = self.policy
        for _ in range(self.horizon):
            if sim.over:
                if sim.winner is None:
                    return 0.0
                return 1.0 if sim.winner == player else -1.0
            p = sim.actor
            sim.apply(policy.choose(sim, p))
        opponents = sim.opps[player]
        if not opponents or player not in sim.alive:
            # Three or four players: the last decision ended the game, or knocked ``player`` out
            # while the others play on (a loss). Two-player games never get here.
            if sim.over and sim.winner is None:
                return 0.0
            return 1.0 if sim.over and sim.winner == player else -1.0
        diff = sim.life[player] - max(sim.life[q] for q in opponents)
        return max(-0.9, min(0.9, diff / 20.0))


# ---------------------------------------------------------------------- the search player

SEARCH_BUDGET = 16
"""Default iterations per searched decision of ``search`` (benchmarks/agents.py measures it)."""
SEARCH_HORIZON = 16
SEARCH_WIDTH = 4
SEARCH_RACE_FROM = 2
"""Worlds after which a candidate clearly behind the heuristic's choice drops out (search.py)."""


def position_value(s: FusionState, player: int) -> float:
    """A 0-1 estimate of ``player``'s chances: life, creatures on the field (ATK + DEF) and
    cards in hand on each side, squashed by a logistic curve."""
    opps = s.opps[player]
    if player not in s.alive or not opps:
        return 0.0 if player not in s.alive else 1.0
    score = 0.0
    # with three or more players: own material against the mean of the opponents still in
    sides = [(player, 1.0)]  # (a loop: it scores every playout, a generator costs a frame)
    for r in opps:
        sides.append((r, -1.0 / len(opps)))
    for q, sign in sides:
        material = 0.0
        for i in s.crea[q]:
            a, d = s.atk_dfn(i)
            material += a + d + 1.0
        score += sign * (1.0 * s.life[q] + 0.6 * material + 1.0 * len(s.hand[q]))
    return 1.0 / (1.0 + math.exp(-score / 8.0))


def _search_candidates(state: State, player: int, acts: list[Action]) -> list[Action]:
    """The heuristic's choice first, then its next best actions (``SEARCH_WIDTH`` in all)."""
    assert isinstance(state, FusionState)
    return HeuristicAgent(0).ranked(state, player, acts)[:SEARCH_WIDTH]


def search_agent(seed: int = 0, budget: int = SEARCH_BUDGET,
                 horizon: int = SEARCH_HORIZON, **tuning: Any) -> Agent[FusionState]:
    """The strong fusion player: root ISMCTS (engines/search.py) in re-dealt worlds, the
    heuristic's choice and the next listed actions as candidates raced against it, heuristic
    playouts of ``horizon`` decisions, then :func:`position_value`."""
    from workbench.domain.engines.search import SearchAgent

    return SearchAgent(seed, HeuristicAgent, position_value, _search_candidates,
                       **{"searches": _key_decision, "budget": budget, "horizon": horizon,
                          "race_from": SEARCH_RACE_FROM, **tuning})


_SEARCHED_STEPS = frozenset(("main", "block", "respond", "window"))


def _key_decision(state: State, player: int) -> bool:
    """Main-phase plays, blocks, chain answers and battle windows are searched; attack
    declarations (the search changed 3-12 % of them for a third of the time), targets,
    mulligans and discards are the heuristic's (in a re-dealt world)."""
    return getattr(state, "step", "") in _SEARCHED_STEPS
