"""Effects that ask a player while they resolve: a mode, an unless payment, an order, a target.

``run`` resolves a list of entries like ``interpreter.resolve_all``, but stops at an entry that
needs a decision and returns a :class:`Paused` resolution: the :class:`Ask` (who decides, what
the options are) and what is left to do. The engine keeps it, offers the asking player one
action per option through its decision interface (``to_act``/``legal_actions``/``apply``), and
calls ``resume`` with the chosen option. So every player (random, heuristic, search) makes these
decisions itself, and a recorded game replays them.

The asks (docs/effects.md, "Choices while an effect resolves"):

- ``mode``: ``action: choose``, the controller picks ``count`` of the options; their steps then
  resolve in order (a step that needs a target asks for it: ``target``).
- ``unless``: an entry with ``unless: {pay_life: N}`` asks the player it affects whether to pay.
- ``arrange``: the controller orders the top cards of its deck (only it sees them: ``Ask.seen``).
- ``pick``: a ``move`` with ``pick: choose``: the controller chooses the card it takes (from its
  hand, deck or the looked-at top cards only it sees them: ``Ask.hidden``).

A ``Paused`` holds no engine object that a clone would copy: units are kept as the adapter's
``ref`` (warzone: the instance name) and looked up again on ``resume``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations, permutations
from typing import Any

from workbench.domain.effects.adapter import EffectAdapter, State
from workbench.domain.effects.interpreter import VERBS, affected, describe, holds, legal_targets, move_pool, resolve
from workbench.domain.effects.spec import SELECTORS, EffectSpec, PlayerRef, Source

PAY, DECLINE = "pay", "decline"


@dataclass(frozen=True, slots=True)
class Ask:
    """A decision a resolving effect waits for."""

    player: int
    """Who decides: the controller (mode, target, arrange) or the affected player (unless)."""
    kind: str
    """``mode``, ``target``, ``unless`` or ``arrange``."""
    options: tuple[str, ...]
    """One action argument per option: ``"1"``, ``"1+3"`` (modes), the engine's target argument,
    ``pay``/``decline``, ``"2,1,3"`` (the looked-at cards from the top, in their new order)."""
    labels: tuple[str, ...]
    """What each option does, for people (the action's text)."""
    card: str
    """The card whose effect asks."""
    seen: int = 0
    """``arrange``: how many top cards of the asker's deck it looks at (hidden from the other)."""
    entry: EffectSpec | None = None
    """The entry that asks (for AI players: what a mode's steps or an unless entry would do)."""
    hidden: bool = False
    """The options name cards only the asker may see (its hand, its deck): the others' view
    shows how many there are, and their re-dealt worlds ask again (``reask``)."""


@dataclass(frozen=True, slots=True)
class Paused:
    """A resolution waiting for ``ask``; ``todo`` starts with the entry that asks.

    Each item of ``todo`` is (entry, its target as an adapter ref or None, whether its target is
    still to be chosen: a step of a chosen mode). The source is kept as refs too.
    """

    ask: Ask
    todo: tuple[tuple[EffectSpec, Any, bool], ...]
    controller: int
    name: str
    card: Any
    unit: Any
    attacker: Any
    x: int
    reached: tuple[Any, ...]
    did: int

    def target(self, s: State, a: EffectAdapter) -> Any:
        """The target of the entry that asks (the chosen one, looked up again), or None."""
        ref = self.todo[0][1]
        return None if ref is None else a.deref(s, ref)

    def source(self, s: State, a: EffectAdapter) -> Source:
        """The resolving effect's source, rebuilt on the position ``s``."""
        return _thaw(self, s, a)


def asking(effects: Sequence[EffectSpec]) -> bool:
    """Whether resolving ``effects`` may ask a player (then the engine uses ``run``)."""
    for e in effects:  # a loop, not any() of a generator: asked before every resolution
        if e.asks:
            return True
    return False


def mode_selections(e: EffectSpec) -> list[tuple[int, ...]]:
    """The ways to choose ``e.count`` (default 1) of the options of a choose entry, in order."""
    return list(combinations(range(len(e.options)), e.count or 1))


def mode_args(e: EffectSpec) -> list[str]:
    """The answers a choose entry's mode ask offers (``"1"``, ``"2"`` … or ``"1+2"`` …)."""
    return [mode_arg(sel) for sel in mode_selections(e)]


def mode_arg(selection: tuple[int, ...]) -> str:
    return "+".join(str(i + 1) for i in selection)


def mode_steps(e: EffectSpec, arg: str) -> list[EffectSpec]:
    """The steps a mode answer ``arg`` (``"1"``, ``"1+3"``) of choose entry ``e`` resolves."""
    return [step for i in _indices(arg) for step in e.options[i]]


def _indices(arg: str) -> list[int]:
    return [int(part) - 1 for part in str(arg).split("+")]


def run(effects: Sequence[EffectSpec], targets: Sequence[Any],
        src: Source, s: State, a: EffectAdapter) -> Paused | None:
    """Resolve ``effects`` in order; ``targets`` holds one decoded target (or None) per entry.

    Returns None when all resolved (or the game ended: the adapter's ``settle``), else the
    resolution paused at an entry that asks.
    """
    todo = [(e, None if t is None else a.ref(s, t), False) for e, t in zip(effects, targets)]
    todo += [(e, None, False) for e in effects[len(targets):]]
    return _go(todo, src, s, a)


def resume(p: Paused, answer: Any, s: State, a: EffectAdapter) -> Paused | None:
    """Carry on a paused resolution with the asking player's ``answer`` (one of ``p.ask.options``)."""
    answer = str(answer)
    if answer not in p.ask.options:
        raise ValueError(f"{answer!r} is not one of {', '.join(p.ask.options)}")
    src = _thaw(p, s, a)
    todo = list(p.todo)
    e, ref, _ = todo.pop(0)
    kind = p.ask.kind
    if kind == "mode":
        if a.saying(s):
            a.say(s, f"{src.name}: chooses {p.ask.labels[p.ask.options.index(answer)]}")
        todo[:0] = [(step, None, step.chooses) for step in mode_steps(e, answer)]
    elif kind == "target":
        target = a.unarg(s, e, answer)
        if _step(e, src, target, s, a):
            return None
    elif kind == "unless":
        target = None if ref is None or isinstance(ref, tuple) else a.deref(s, ref)
        if answer == PAY:
            _pay(e, p.ask.player, src, s, a)
            src.did, src.reached = 0, ()
        elif _step(e, src, target, s, a, checked=True):
            return None
    elif kind == "pick":
        card = picked_card(e, answer, src, s, a)
        src.did = VERBS["move"](a, s, e, src, card)  # the condition was checked before asking
        if a.settle(s):
            return None
    elif kind == "arrange":
        deck = a.zone(s, src.controller, "deck")
        n = p.ask.seen
        top = deck[len(deck) - n:][::-1]  # the top card first
        order = [top[int(k) - 1] for k in answer.split(",")]
        deck[len(deck) - n:] = order[::-1]
        if a.saying(s):
            a.say(s, f"{src.name}: {n} card(s) put back on top in the chosen order")
        src.did, src.reached = n, ()
        if a.settle(s):
            return None
    return _go(todo, src, s, a)


def reask(p: Paused, s: State, a: EffectAdapter) -> Paused:
    """``p`` with its ask built again on ``s``: a re-dealt world (``determinize``) for a player who
    does not see a hidden ask's options, so that they come from that world's cards."""
    if not p.ask.hidden:
        return p
    src = _thaw(p, s, a)
    ask = _ask(p.todo[0][0], src, p.target(s, a), s, a)
    return p if ask is None else replace(p, ask=ask)


def picked_card(e: EffectSpec, answer: str, src: Source, s: State, a: EffectAdapter) -> Any:
    """The card a ``pick`` answer names (None: not there, the engine picks)."""
    _, _, pool = move_pool(e, src, s, a, src.controller)
    if e.from_zone == "deck_top":
        k = int(answer) - 1
        return pool[k] if 0 <= k < len(pool) else None
    return next((x for x in pool if a.card_id(s, x) == answer), None)


def _step(e: EffectSpec, src: Source, target: Any, s: State, a: EffectAdapter, checked: bool = False) -> bool:
    """Resolve one entry without asking; True when the game ended."""
    if checked and e.condition is not None:  # unless: the condition was checked before asking
        src.did = VERBS[e.action](a, s, e, src, target)
    else:
        resolve(e, src, target, s, a)
    return a.settle(s)


def _go(todo: list[tuple[EffectSpec, Any, bool]], src: Source, s: State, a: EffectAdapter) -> Paused | None:
    while todo:
        e, ref, choose_target = todo[0]
        if isinstance(ref, tuple) and ref and ref[0] == _GROUP:  # one player's share of an unless entry
            src.reached = tuple(t for t in (a.deref(s, r) for r in ref[1]) if t is not None)
            target = None
        else:
            target = None if ref is None else a.deref(s, ref)
        if choose_target:
            options = legal_targets(e, src, s, a)
            if len(options) > 1:
                args = tuple(str(a.arg(s, t)) for t in options)
                return _pause(Ask(src.controller, "target", args, tuple(a.label(s, t) for t in options),
                                  src.name, entry=e), todo, src, s, a)
            target = options[0] if options else None
            todo[0] = (e, None if target is None else a.ref(s, target), False)
        if e.asks:
            if e.condition is not None and not holds(e.condition, src, s, a):
                resolve(e, src, target, s, a)  # says so; does nothing
                todo.pop(0)
                continue
            ask = _ask(e, src, target, s, a)
            if ask is not None:
                return _pause(ask, todo, src, s, a)
            if e.unless[0] and _several_pay(e, src, target, s, a):
                todo[0:1] = _shares(e, src, target, s, a)  # each affected player decides for its share
                continue
            if e.action in ("choose", "arrange"):  # nothing to decide (one card, no deck)
                n = min(e.amount, len(a.zone(s, src.controller, "deck"))) if e.action == "arrange" else 0
                src.did, src.reached = n, ()
                todo.pop(0)
                continue
            if _step(e, src, target, s, a, checked=True):
                return None
            todo.pop(0)
            continue
        todo.pop(0)
        resolve(e, src, target, s, a)
        if a.settle(s):
            return None
    return None


def _ask(e: EffectSpec, src: Source, target: Any, s: State, a: EffectAdapter) -> Ask | None:
    """The decision entry ``e`` needs now, or None (nothing to decide: it just resolves)."""
    if e.action == "choose":
        picks = mode_selections(e)
        labels = tuple(" and ".join("; then ".join(describe(step) for step in e.options[i]) for i in sel)
                       for sel in picks)
        return Ask(src.controller, "mode", tuple(mode_arg(sel) for sel in picks), labels, src.name, entry=e)
    if e.action == "arrange":
        n = min(e.amount, len(a.zone(s, src.controller, "deck")))
        if n < 2:
            return None
        orders = list(permutations(range(1, n + 1)))
        return Ask(src.controller, "arrange", tuple(",".join(map(str, o)) for o in orders),
                   tuple("top to bottom: " + ", ".join(f"card {k}" for k in o) for o in orders),
                   src.name, seen=n, entry=e)
    if e.action == "move":  # pick: choose
        _, _, pool = move_pool(e, src, s, a, src.controller)
        if len(pool) < 2:
            return None
        if e.from_zone == "deck_top":  # by place among the looked-at cards: only the asker sees them
            return Ask(src.controller, "pick", tuple(str(k) for k in range(1, len(pool) + 1)),
                       tuple(a.label(s, x) for x in pool), src.name, seen=e.look, entry=e, hidden=True)
        by_id: dict[str, Any] = {}
        for x in pool:
            by_id.setdefault(a.card_id(s, x), x)
        if len(by_id) < 2:
            return None
        ids = sorted(by_id)
        return Ask(src.controller, "pick", tuple(ids), tuple(a.label(s, by_id[i]) for i in ids), src.name,
                   entry=e, hidden=e.from_zone in ("hand", "deck"))
    payer = affected_player(e, src, target, s, a)
    kind, n = e.unless
    if payer is None or not can_pay_unless(kind, n, payer, s, a):
        return None
    what = {"pay_life": f"pay {n} life", "mana": f"pay {n} mana", "discard": f"discard {n} card(s)"}[kind]
    return Ask(payer, "unless", (PAY, DECLINE), (f"{what}: {src.name} does nothing",
                                                 f"do not pay: {describe(replace(e, unless=('', 0)))}"),
               src.name, entry=e)


def affected_player(e: EffectSpec, src: Source, target: Any, s: State, a: EffectAdapter) -> int | None:
    """The player an entry affects ("its controller" of "unless its controller pays")."""
    c = src.controller
    sel = e.selector
    if sel.choose:
        if target is None:
            return None
        return target.index if isinstance(target, PlayerRef) else a.owner(s, target)
    if sel.what == "this":
        return c
    if sel.what == "same":
        reached = src.reached
        if not reached:
            return None
        first = reached[0]
        return first.index if isinstance(first, PlayerRef) else a.owner(s, first)
    if sel.what == "attacker":
        return None if src.attacker is None else a.owner(s, src.attacker)
    if sel.side == "controller":
        return c
    foes = a.opponents(s, c)
    return foes[0] if len(foes) == 1 and sel.side == "opponent" else None  # several: see _shares


_GROUP = "share"
"""The ref of a todo item that is one player's share of an unless entry reaching several players."""


def _several_pay(e: EffectSpec, src: Source, target: Any, s: State, a: EffectAdapter) -> bool:
    """Whether an unless entry reaches several players' things (a fusion game of 3-4 players)."""
    sel = e.selector
    return (not sel.choose and sel.what in ("unit", "player") and sel.side != "controller"
            and (len(a.opponents(s, src.controller)) > 1 or sel.side in ("each", "either")))


def _shares(e: EffectSpec, src: Source, target: Any, s: State, a: EffectAdapter) -> list[tuple[EffectSpec, Any, bool]]:
    """An unless entry reaching several players, split into one step per player (in turn order,
    the controller first): each player decides for what it would lose (``target: same``)."""
    reached = affected(e, src, target, s, a)  # random picks are made once, here
    order = [src.controller, *a.opponents(s, src.controller)]
    shares: dict[int, list[Any]] = {}
    for t in reached:
        shares.setdefault(t.index if isinstance(t, PlayerRef) else a.owner(s, t), []).append(a.ref(s, t))
    step = replace(e, selector=SELECTORS["same"], condition=None)  # the condition held for all of it
    return [(step, (_GROUP, tuple(shares[p])), False) for p in order if p in shares]


def can_pay_unless(kind: str, n: int, player: int, s: State, a: EffectAdapter) -> bool:
    if kind == "pay_life":
        return a.life(s, player) > n
    if kind == "discard":
        return len(a.zone(s, player, "hand")) >= n
    if kind == "mana":
        return a.mana(s, player) >= n
    return False


def _pay(e: EffectSpec, player: int, src: Source, s: State, a: EffectAdapter) -> None:
    kind, n = e.unless
    if kind == "pay_life":
        a.pay_life(s, player, n, src)
    elif kind == "mana":
        a.pay_mana(s, player, n, src)
    else:
        hand = list(a.zone(s, player, "hand"))
        ranked = sorted(range(len(hand)), key=lambda i: (a.worth(s, hand[i]), i))
        for i in ranked[:n]:
            a.move_card(s, player, hand[i], "hand", "graveyard", src)
    if a.saying(s):
        a.say(s, f"{src.name}: the unless cost is paid, the effect does nothing")


def _pause(ask: Ask, todo: list[tuple[EffectSpec, Any, bool]], src: Source, s: State,
           a: EffectAdapter) -> Paused:
    ref = a.ref
    return Paused(ask, tuple(todo), src.controller, src.name, src.card,
                  None if src.unit is None else ref(s, src.unit),
                  None if src.attacker is None else ref(s, src.attacker), src.x,
                  tuple(ref(s, t) for t in src.reached), src.did)


def _thaw(p: Paused, s: State, a: EffectAdapter) -> Source:
    deref = a.deref
    reached = tuple(t for t in (deref(s, r) for r in p.reached) if t is not None)
    return Source(p.controller, p.name, p.card, None if p.unit is None else deref(s, p.unit),
                  None if p.attacker is None else deref(s, p.attacker), p.x, reached, p.did)
