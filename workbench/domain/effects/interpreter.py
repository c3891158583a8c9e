"""The one effect interpreter: which targets an effect reaches, and what each verb does there.

A verb is one small function in ``VERBS`` (Forge's ``ApiType`` + one effect class per action,
fireplace's ``TargetedAction``). It asks the game's adapter for the primitives. Adding an action
is one function here plus, where a game needs it, one adapter method.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

from workbench.domain.effects.adapter import EffectAdapter, State, Target
from workbench.domain.effects.filters import Condition, Filter, matches, norm
from workbench.domain.effects.spec import PLAYERS, EffectSpec, PlayerRef, Source
from workbench.domain.effects.statics import EMPTY as EMPTY_RULES
from workbench.domain.effects.statics import StaticRules

Verb = Callable[[EffectAdapter, State, EffectSpec, Source, Any], int]
"""A verb carries out one effect and returns how many things it did."""


def _sides(side: str, c: int, s: State, a: EffectAdapter) -> tuple[int, ...]:
    """The players a side names: the controller, its opponents (each of them with three or more
    players, in turn order), or the controller and then its opponents."""
    if side in ("controller", "own"):
        return (c,)
    if side == "opponent":
        return tuple(a.opponents(s, c))
    return (c, *a.opponents(s, c))


def _pool(e: EffectSpec, src: Source, s: State, a: EffectAdapter) -> list[Any]:
    """Every unit on the selector's side(s) that passes the filter, own side first."""
    c = src.controller
    sel = e.selector
    side = sel.side
    if side == "controller":
        units = a.units(s, c)
    else:
        others = a.opponents(s, c)
        if side == "opponent" and len(others) == 1:  # a two-player game: one list, as _sides gives
            units = a.units(s, others[0])
        else:
            units = [u for p in _sides(side, c, s, a) for u in a.units(s, p)]
    f = e.filter
    if f is not None:
        units = [u for u in units if matches(f, u, src, s, a)]
    if sel.choose or e.random:  # a target (chosen or random), not a mass effect: static rules apply
        rules = a.statics(s)
        if rules is not None and rules.untargetable:
            units = [u for u in units if u not in rules.untargetable]
    return units


def targetable(s: State, a: EffectAdapter, u: Any) -> bool:
    """Whether no static rule in play keeps ``u`` from being a target (cannot_be_targeted)."""
    rules = a.statics(s)
    return rules is None or u not in rules.untargetable


def legal_targets(e: EffectSpec, src: Source, s: State, a: EffectAdapter) -> list[Target]:
    """The choices of a single-target effect: own side first, then the opponent's."""
    sel = e.selector
    c = src.controller
    if sel.what == "player":
        return [PLAYERS[p] for p in (c, *a.opponents(s, c))] if sel.choose else []
    if sel.what != "unit" or not sel.choose:
        return []
    return _pool(e, src, s, a)


def affected(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> list[Target]:
    """Whom the effect reaches (see ``_reach``); kept in ``src.reached`` for a ``target: same``
    step after it. Each verb calls it once, so a random pick is made once."""
    reached = _reach(e, src, chosen, s, a)
    if e.selector.what in ("unit", "player"):
        src.reached = tuple(reached)
    return reached


def _reach(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> list[Target]:
    """Whom the effect reaches: the chosen target, all that match, or the fixed one.

    A chosen unit no longer in play (or no longer matching), and a card that is gone, give no
    target: the effect fizzles. ``random`` picks ``count`` (one by default) of the matches.
    """
    sel = e.selector
    what = sel.what
    c = src.controller
    if what == "unit":
        if sel.choose:
            if chosen is None or not a.in_play(s, chosen) or not targetable(s, a, chosen):
                return []
            return [chosen] if e.filter is None or matches(e.filter, chosen, src, s, a) else []
        units = _pool(e, src, s, a)
        if e.random:
            n = e.count or 1
            if len(units) > n:
                # One pick is ``choice``: the very draw of ``sample(units, 1)`` (one random index
                # below len(units)) without its set-up (tests/domain/test_effects_plain_path.py).
                units = [a.rng(s).choice(units)] if n == 1 else a.rng(s).sample(units, n)
        elif e.count and len(units) > e.count:
            units = units[:e.count]
        return units
    if what == "player":
        if sel.choose:
            return [chosen] if isinstance(chosen, PlayerRef) else []
        if sel.side == "controller":
            return [PLAYERS[c]]
        return [PLAYERS[p] for p in _sides(sel.side, c, s, a)]
    if what == "this":  # the card itself while in play; seth: also in its own on_destroyed effects
        u = src.unit
        return [u] if u is not None and (e.trigger == "on_destroyed" or a.in_play(s, u)) else []
    if what == "attacker":  # the attacking creature; seth's on_damaged: each monster whose damage it was
        att = src.attacker
        if isinstance(att, tuple):
            return [u for u in att if a.in_play(s, u)]
        return [att] if att is not None and a.in_play(s, att) else []
    if what == "same":  # a step of a sequence: what the step before reached, still there
        return [t for t in src.reached if isinstance(t, PlayerRef) or a.in_play(s, t)]
    return []


def count_matching(c: Condition, src: Source, s: State, a: EffectAdapter) -> int:
    """How many cards of ``c.zone`` on ``c.side`` pass ``c.filter``."""
    total = 0
    for p in _sides(c.side, src.controller, s, a):
        items = a.units(s, p) if c.zone == "field" else a.zone(s, p, c.zone)
        if c.filter is None:
            total += len(items)
        else:
            total += sum(1 for x in items if matches(c.filter, x, src, s, a))
    return total


def _within(value: int, c: Condition) -> bool:
    return (c.low is None or value >= c.low) and (c.high is None or value <= c.high)


def holds(c: Condition, src: Source, s: State, a: EffectAdapter) -> bool:
    """Whether condition ``c`` (an ``if:``) holds now for the controller of ``src``."""
    kind = c.kind
    if kind == "count":
        return _within(count_matching(c, src, s, a), c)
    if kind == "previous":
        return src.did > 0
    if kind == "phase":
        return a.phase(s) in c.zone.split(",")
    if kind == "summoned_this_turn":
        return src.unit is not None and a.summoned_this_turn(s, src.unit)
    if kind == "turn":
        return _within(a.turn(s), c)
    if kind == "counters":
        return src.unit is not None and _within(a.counters(s, src.unit, c.counter), c)
    players = _sides(c.side, src.controller, s, a)
    if kind == "life":
        return all(_within(a.life(s, p), c) for p in players)
    if kind in ("hand", "damage_pile"):
        return all(_within(len(a.zone(s, p, kind)), c) for p in players)
    raise ValueError(f"unknown condition {kind}")


def _amount(e: EffectSpec, src: Source, s: State | None = None, a: EffectAdapter | None = None) -> int:
    n = src.x if e.x else e.amount
    if e.per is not None and a is not None:
        n *= count_matching(e.per, src, s, a)
    return n


def _units(e: EffectSpec, src: Source, chosen: Any, s: State, a: EffectAdapter) -> list[Any]:
    """The units an effect on creatures reaches; says so when there is none."""
    targets = affected(e, src, chosen, s, a)
    if not targets:
        a.say(s, f"{src.name}: {e.action} has no target")
    return targets


def _each_unit(e: EffectSpec, src: Source, chosen: Any, s: State, a: EffectAdapter,
               act: Callable[[Any], object]) -> int:
    this = e.selector.what == "this"
    done = 0
    for u in _units(e, src, chosen, s, a):
        if isinstance(u, PlayerRef):
            continue  # target: same after a step on players
        if this or a.in_play(s, u):  # an earlier target's fate may have removed it
            act(u)
            done += 1
    return done


def _players(e: EffectSpec, src: Source, chosen: Any, s: State, a: EffectAdapter,
             act: Callable[[int], object]) -> int:
    targets = [t for t in affected(e, src, chosen, s, a) if isinstance(t, PlayerRef)]
    for t in targets:
        act(t.index)
    return len(targets)


def _draw(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    n = _amount(e, src, s, a)
    return _players(e, src, chosen, s, a, lambda p: a.draw(s, p, n, src))


def _gain_life(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    n = _amount(e, src, s, a)
    return _players(e, src, chosen, s, a, lambda p: a.gain_life(s, p, n, src))


def _damage(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    n = _amount(e, src, s, a)
    if e.selector.what == "player":
        return _players(e, src, chosen, s, a, lambda p: a.damage_player(s, p, n, src))
    done = _each_unit(e, src, chosen, s, a, lambda u: a.damage_unit(s, u, n, src))
    if e.selector.what == "same":
        done += _players(e, src, chosen, s, a, lambda p: a.damage_player(s, p, n, src))
    return done


def _heal(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    n = _amount(e, src, s, a)
    return _each_unit(e, src, chosen, s, a, lambda u: a.heal(s, u, n, src))


def _modify(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    targets = _units(e, src, chosen, s, a)
    if not targets:
        return 0
    this = e.selector.what == "this"
    done = 0
    for u in targets:
        if not isinstance(u, PlayerRef) and (this or a.in_play(s, u)):
            a.modify(s, u, e, src)
            done += 1
    a.modified(s, e, src)
    return done


def _destroy(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    return _each_unit(e, src, chosen, s, a, lambda u: a.destroy(s, u, src))


def _bounce(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    return _each_unit(e, src, chosen, s, a, lambda u: a.bounce(s, u, src))


def _poison(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    n = _amount(e, src, s, a)
    return _each_unit(e, src, chosen, s, a, lambda u: a.add_counters(s, u, "poison", n, src))


def _mana(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    n = _amount(e, src, s, a)
    return _players(e, src, chosen, s, a, lambda p: a.add_mana(s, p, n, src))


def _add_counters(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    n = _amount(e, src, s, a)
    return _each_unit(e, src, chosen, s, a, lambda u: a.add_counters(s, u, e.counter, n, src))


def _remove_counters(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    n = _amount(e, src, s, a)
    return _each_unit(e, src, chosen, s, a, lambda u: a.remove_counters(s, u, e.counter, n, src))


def _negate(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    a.negate(s, e, src, chosen)
    return 1


def _picked(e: EffectSpec, pool: list[Any], s: State, a: EffectAdapter) -> list[Any]:
    """``count`` (default 1) cards of ``pool`` (zone order, top/latest first) by ``e.pick``."""
    n = e.count or 1
    if len(pool) <= n:
        return pool
    if e.pick == "random":
        return a.rng(s).sample(pool, n)
    if e.pick == "first":
        return pool[:n]
    ranked = sorted(range(len(pool)), key=lambda i: (-a.worth(s, pool[i]), i))  # stable: top first
    return [pool[i] for i in ranked[:n]]


def move_pool(e: EffectSpec, src: Source, s: State, a: EffectAdapter,
              p: int) -> tuple[list[Any], list[Any], list[Any]]:
    """A move from a zone: player ``p``'s zone, the cards seen (top / latest first; ``look``: the
    top N) and the pool it takes from (those passing the filter)."""
    zone = a.zone(s, p, "deck" if e.from_zone == "deck_top" else e.from_zone)
    seen = zone[::-1]  # top of the deck / the latest card first
    if e.look:
        seen = seen[:e.look]
    pool = [x for x in seen if matches(e.filter, x, src, s, a)] if e.filter is not None else seen
    if e.from_zone == "deck_top" and not e.look:
        pool = seen[:e.count or 1] if e.filter is None else pool[:e.count or 1]
    return zone, seen, pool


def _move(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    """Zone moves: the target creatures leave the field, or cards of a zone go to another."""
    to = e.to_zone
    if e.from_zone == "field":
        return _each_unit(e, src, chosen, s, a, lambda u: a.leave(s, u, to, src))
    moved = 0
    for p in _sides(e.selector.side, src.controller, s, a):
        zone, seen, pool = move_pool(e, src, s, a, p)
        # pick: choose — the card the controller chose (effects.asks); else the engine picks
        picked = [chosen] if chosen is not None and chosen in pool else _picked(e, pool, s, a)
        for card in picked:
            if a.move_card(s, p, card, e.from_zone, to, src):
                moved += 1
                if e.ready:  # it may attack this turn (RULES.md §3.10.1)
                    a.make_ready(s, card)
        if e.look:
            rest = [x for x in seen if x in zone]
            for card in rest:  # the ones looked at and left go under the deck, in order
                zone.remove(card)
                zone.insert(0, card)
        if e.from_zone == "deck":
            a.shuffle(s, p)  # a searched deck is shuffled
    if not moved:
        a.say(s, f"{src.name}: no card to move from {e.from_zone}")
    return moved


def _create_token(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    """``count`` tokens (default 1) for each player reached (RULES.md §3.10.3)."""
    n = e.count or 1
    made = 0
    for t in affected(e, src, chosen, s, a):
        if isinstance(t, PlayerRef):
            made += a.create_tokens(s, t.index, e, n, src)
    return made


def find_materials(needs: Sequence[tuple[Filter | None, int]], pool: Sequence[Any], src: Source, s: State,
                   a: EffectAdapter) -> list[Any] | None:
    """Distinct cards of ``pool`` (in order of preference) that meet every ``(filter, count)``
    need, or None when they cannot all be met. A small search: the most demanding need first.

    The cards that fit a need are looked up once for its ``count`` slots, and a need fewer cards
    fit than it counts fails at once (the search could not fill its slots either;
    tests/domain/test_effects_materials_search.py compares it with the search over every slot).
    One or two slots are the search's loops written out (no recursion)."""
    total = 0
    for _, n in needs:
        total += n
    if total > len(pool):
        return None
    fitting = a.material_fits
    fits: list[list[int]] = []  # per slot: the places in ``pool`` of the cards that fit it
    for f, n in needs:
        fit = fitting(s, f, pool, src)
        if len(fit) < n:
            return None
        fits.extend([fit] * n)
    if len(fits) == 1:  # one slot: the search takes the first card that fits
        return [pool[fits[0][0]]]
    if len(fits) == 2:  # two slots (most materials): the search's two loops, the smaller first
        first, second = (fits[0], fits[1]) if len(fits[0]) <= len(fits[1]) else (fits[1], fits[0])
        for k in first:
            for j in second:
                if j != k:
                    return [pool[k], pool[j]] if k < j else [pool[j], pool[k]]
        return None
    sizes = [len(fit) for fit in fits]
    order = sorted(range(len(fits)), key=sizes.__getitem__)
    taken: list[int] = []

    def place(depth: int) -> bool:
        if depth == len(order):
            return True
        for k in fits[order[depth]]:
            if k not in taken:
                taken.append(k)
                if place(depth + 1):
                    return True
                taken.pop()
        return False

    return [pool[k] for k in sorted(taken)] if place(0) else None


def fusion_options(e: EffectSpec, src: Source, s: State, a: EffectAdapter) -> list[tuple[Any, list[Any]]]:
    """The extra-deck creatures ``e`` may bring out now, each with the materials it would take
    (the cheapest that fit: hand first, then the field)."""
    c = src.controller
    pool: list[Any] | None = None  # sorted once an extra-deck creature may be brought out
    out: list[tuple[Any, list[Any]]] = []
    for card in a.zone(s, c, "extra_deck"):
        if e.filter is not None and not matches(e.filter, card, src, s, a):
            continue
        needs = a.materials(s, card)
        if not needs:
            continue  # an extra-deck creature without materials cannot be fusion summoned
        if pool is None:
            worth = partial(a.worth, s)
            pool = (sorted(a.zone(s, c, "hand"), key=worth)
                    + sorted((u for u in a.units(s, c) if u is not src.unit), key=worth))
        mats = find_materials(needs, pool, src, s, a)
        if mats is not None and a.has_room(s, c, mats):
            out.append((card, mats))
    return out


def _fusion_summon(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> int:
    """Send the materials to the graveyard, then special summon the extra-deck creature
    (RULES.md §3.10.2); the engine picks the one worth most."""
    options = fusion_options(e, src, s, a)
    if not options:
        a.say(s, f"{src.name}: no extra-deck creature can be fusion summoned")
        return 0
    ranked = sorted(range(len(options)), key=lambda k: (-a.worth(s, options[k][0]), k))
    card, mats = options[ranked[0]]
    c = src.controller
    for m in mats:
        if a.in_play(s, m):
            a.leave(s, m, "graveyard", src)
        else:
            a.move_card(s, c, m, "hand", "graveyard", src)
    return 1 if a.special_summon(s, c, card, "extra_deck", src) else 0


VERBS: dict[str, Verb] = {
    "draw": _draw, "damage": _damage, "heal": _heal, "gain_life": _gain_life, "modify_stats": _modify,
    "destroy": _destroy, "return_to_hand": _bounce, "add_poison": _poison, "add_mana": _mana,
    "negate": _negate, "move": _move, "add_counters": _add_counters, "remove_counters": _remove_counters,
    "create_token": _create_token, "fusion_summon": _fusion_summon,
}


def _cheapest(items: list[Any], n: int, s: State, a: EffectAdapter) -> list[Any]:
    ranked = sorted(range(len(items)), key=lambda i: (a.worth(s, items[i]), i))
    return [items[i] for i in ranked[:n]]


def _fodder(f: Filter | None, src: Source, s: State, a: EffectAdapter) -> list[Any]:
    """The controller's creatures a sacrifice may take: not the card itself, passing ``f``."""
    return [u for u in a.units(s, src.controller)
            if u is not src.unit and u is not src.card and matches(f, u, src, s, a)]


def can_pay(e: EffectSpec, src: Source, s: State, a: EffectAdapter) -> bool:
    """Whether the controller can pay the costs of ``e`` beyond mana and tapping."""
    c = src.controller
    for kind, n, f in e.costs:
        if kind == "pay_life":
            if a.life(s, c) <= n:
                return False
        elif kind == "discard":
            if len(a.zone(s, c, "hand")) < n:
                return False
        elif kind == "exile_from_graveyard":
            if len(a.zone(s, c, "graveyard")) < n:
                return False
        elif kind == "sacrifice" and len(_fodder(f, src, s, a)) < n:
            return False
        elif kind.startswith("remove_counters:"):
            if src.unit is None or a.counters(s, src.unit, kind.split(":", 1)[1]) < n:
                return False
    return True


def pay(e: EffectSpec, src: Source, s: State, a: EffectAdapter) -> None:
    """Pay the costs of ``e`` beyond mana and tapping; the engine picks the cards worth least."""
    c = src.controller
    for kind, n, f in e.costs:
        if kind == "pay_life":
            a.pay_life(s, c, n, src)
        elif kind == "discard":
            for card in _cheapest(list(a.zone(s, c, "hand")), n, s, a):
                a.move_card(s, c, card, "hand", "graveyard", src)
        elif kind == "exile_from_graveyard":
            for card in _cheapest(list(a.zone(s, c, "graveyard")), n, s, a):
                a.move_card(s, c, card, "graveyard", "exile", src)
        elif kind == "sacrifice":
            for u in _cheapest(_fodder(f, src, s, a), n, s, a):
                a.destroy(s, u, src)
        elif kind.startswith("remove_counters:") and src.unit is not None:
            a.remove_counters(s, src.unit, kind.split(":", 1)[1], n, src)


_UNIT_VERBS = frozenset({"damage", "heal", "add_poison", "add_counters", "remove_counters", "destroy",
                         "return_to_hand", "modify_stats"})
"""The verbs of the short paths at units (``_act``: one primitive per unit reached; modify_stats
then ``modified`` once)."""
_PLAYER_VERBS = frozenset({"draw", "gain_life", "damage", "add_mana"})
"""The verbs of the short path ``_at_players`` (at a player selector)."""
_BY_AMOUNT = frozenset({"damage", "heal", "add_poison", "add_counters", "remove_counters", "draw",
                        "gain_life", "add_mana"})
"""The verbs that take an amount (``_amount``): on the short paths only a fixed one (no X, no per)."""

PLAIN_PATH = True
"""Let ``resolve`` take the short path for plain entries (``is_plain``); False: always the general
verbs of ``VERBS`` (the plain definition; tests/domain/test_effects_plain_path.py compares both)."""


def is_plain(e: EffectSpec) -> bool:
    """Whether ``e`` takes a short path: a verb with one primitive per target (damage, heal,
    poison, counters, destroy, return to hand, modify stats; draw, gain life, mana and damage at
    players) of a fixed amount (no X, no ``per``) at a unit, this card, the attacker or a player —
    not a ``target: same`` step, zone moves, tokens, summons, negation or the asking actions. For
    those entries the general verb's steps (``_amount``, ``affected``, ``_reach``, ``_each_unit``
    or ``_players``) reduce to what the short path (``_SHORT``) does in one call."""
    return _shortcut(e) > 0


def _shortcut(e: EffectSpec) -> int:
    """The place in ``_SHORT`` of ``e``'s short path (0: none, the general verb)."""
    action = e.action
    if action in _BY_AMOUNT and (e.x or e.per is not None):
        return 0
    sel = e.selector
    what = sel.what
    if what == "player":
        return 4 if action in _PLAYER_VERBS else 0
    if action not in _UNIT_VERBS:
        return 0
    if what == "unit":
        return 1 if sel.choose else 3
    return 2 if what == "this" else 3 if what == "attacker" else 0


def _act(e: EffectSpec, u: Any, src: Source, s: State, a: EffectAdapter) -> None:
    """The primitive of unit verb ``e.action`` (``_UNIT_VERBS``) on ``u``, as its verb calls it."""
    action = e.action
    if action == "damage":
        a.damage_unit(s, u, e.amount, src)
    elif action == "add_poison":
        a.add_counters(s, u, "poison", e.amount, src)
    elif action == "modify_stats":
        a.modify(s, u, e, src)
    elif action == "heal":
        a.heal(s, u, e.amount, src)
    elif action == "destroy":
        a.destroy(s, u, src)
    elif action == "return_to_hand":
        a.bounce(s, u, src)
    elif action == "add_counters":
        a.add_counters(s, u, e.counter, e.amount, src)
    else:
        a.remove_counters(s, u, e.counter, e.amount, src)


def _at_chosen(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> int:
    """A unit verb at the chosen unit: ``_reach`` (still in play, targetable, matching), then
    ``_each_unit`` / ``_modify`` on it."""
    if chosen is not None and a.in_play(s, chosen):
        rules = a.statics(s)  # targetable()
        if (rules is None or chosen not in rules.untargetable) and (
                e.filter is None or matches(e.filter, chosen, src, s, a)):
            src.reached = (chosen,)
            action = e.action
            if action == "damage":  # the most frequent two without _act's call
                a.damage_unit(s, chosen, e.amount, src)
            elif action == "add_poison":
                a.add_counters(s, chosen, "poison", e.amount, src)
            else:
                _act(e, chosen, src, s, a)
                if action == "modify_stats":
                    a.modified(s, e, src)
            return 1
    src.reached = ()
    a.say(s, f"{src.name}: {e.action} has no target")
    return 0


def _at_this(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> int:
    """A unit verb at the card itself: while in play (in its own on_destroyed effects too); not
    kept in ``src.reached`` (``affected`` keeps units and players)."""
    u = src.unit
    if u is not None and (e.trigger == "on_destroyed" or a.in_play(s, u)):
        action = e.action
        if action == "modify_stats":  # the most frequent two without _act's call
            a.modify(s, u, e, src)
            a.modified(s, e, src)
        elif action == "heal":
            a.heal(s, u, e.amount, src)
        else:
            _act(e, u, src, s, a)
        return 1
    a.say(s, f"{src.name}: {e.action} has no target")
    return 0


def _at_all(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> int:
    """A unit verb at every match of a side (``count`` of them, or ``count`` drawn at random as
    ``_reach`` draws them; kept in ``src.reached``) or at the attacker(s) still in play, then the
    primitive on each one still in play, in order."""
    if e.selector.what == "attacker":
        att = src.attacker
        if isinstance(att, tuple):
            units = [u for u in att if a.in_play(s, u)]
        else:
            units = [att] if att is not None and a.in_play(s, att) else []
    else:
        units = _pool(e, src, s, a)
        k = e.count
        if e.random:
            k = k or 1
            if len(units) > k:
                units = [a.rng(s).choice(units)] if k == 1 else a.rng(s).sample(units, k)
        elif k and len(units) > k:
            units = units[:k]
        src.reached = tuple(units)
    if not units:
        a.say(s, f"{src.name}: {e.action} has no target")
        return 0
    action = e.action
    done = 0
    for u in units:
        # An earlier target's fate may have removed it; before the first one nothing happened
        # since the target was found in play (a unit listed by the adapter or checked).
        if not done or a.in_play(s, u):
            if action == "modify_stats":  # the most frequent three without _act's call
                a.modify(s, u, e, src)
            elif action == "damage":
                a.damage_unit(s, u, e.amount, src)
            elif action == "add_poison":
                a.add_counters(s, u, "poison", e.amount, src)
            else:
                _act(e, u, src, s, a)
            done += 1
    if action == "modify_stats":
        a.modified(s, e, src)
    return done


def _at_players(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> int:
    """A player verb (draw, gain_life, damage, add_mana) at a player selector: the players
    ``_reach`` names (``_sides``: the controller, its opponents, or both; kept in ``src.reached``
    as ``affected`` keeps them), the primitive for each in order."""
    sel = e.selector
    action = e.action
    n = e.amount
    if not sel.choose:
        c = src.controller
        side = sel.side
        if side == "opponent":
            others = a.opponents(s, c)
            if len(others) == 1:  # a two-player game: one opponent
                p = others[0]
                src.reached = (PLAYERS[p],)
                if action == "damage":
                    a.damage_player(s, p, n, src)
                else:
                    (a.draw if action == "draw" else a.gain_life if action == "gain_life" else a.add_mana)(s, p, n, src)
                return 1
        elif side in ("controller", "own"):  # the most frequent: gain life or draw
            src.reached = (PLAYERS[c],)
            if action == "gain_life":
                a.gain_life(s, c, n, src)
            elif action == "draw":
                a.draw(s, c, n, src)
            else:
                (a.damage_player if action == "damage" else a.add_mana)(s, c, n, src)
            return 1
        players: tuple[Any, ...] = tuple([PLAYERS[p] for p in _sides(side, c, s, a)])
    else:
        players = (chosen,) if isinstance(chosen, PlayerRef) else ()
    src.reached = players
    act = (a.damage_player if action == "damage" else a.draw if action == "draw"
           else a.gain_life if action == "gain_life" else a.add_mana)
    for t in players:
        act(s, t.index, n, src)
    return len(players)


def _general(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> int:
    """The general verb (``resolve`` calls it itself for an entry without a short path)."""
    return VERBS[e.action](a, s, e, src, chosen)


Short = Callable[[EffectSpec, Source, "Target | None", State, EffectAdapter], int]
"""A short path: carries out entry ``e`` for ``src`` as ``VERBS[e.action]`` does."""

_SHORT: tuple[Short, ...] = (_general, _at_chosen, _at_this, _at_all, _at_players)
"""The short paths by ``EffectSpec.plain`` (``_shortcut``); 0: none, the general verb."""


def resolve(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> int:
    """Carry out one effect; ``chosen`` is the decoded target of a single-target one.

    Returns how many things it did (targets reached, cards moved); an unmet ``if`` does
    nothing. ``src.did`` keeps it for an ``if: {previous: true}`` after it. The caller settles
    (state-based checks) when it is done; ``resolve_all`` does so itself. Plain entries
    (``is_plain``) take a short path of ``_SHORT``; it decides nothing the verb would not.
    """
    plain = e.plain
    if plain > 0 and e.condition is None and PLAIN_PATH:  # the most frequent: a short path, no if
        src.did = done = _SHORT[plain](e, src, chosen, s, a)
        return done
    if e.condition is not None and not holds(e.condition, src, s, a):
        a.say(s, f"{src.name}: the condition of {e.action} does not hold")
        done = 0
        src.reached = ()
    else:
        if plain < 0:  # first use of this entry: decide once (the field is not part of its value)
            plain = _shortcut(e)
            object.__setattr__(e, "plain", plain)
        if plain and PLAIN_PATH:
            done = _SHORT[plain](e, src, chosen, s, a)
        else:
            done = VERBS[e.action](a, s, e, src, chosen)  # affected() keeps src.reached for a next same
    src.did = done
    return done


def resolve_all(effects: Sequence[EffectSpec], src: Source, chosen: Sequence[Any], s: State,
                a: EffectAdapter) -> bool:
    """Resolve ``effects`` in order; ``chosen`` holds the raw chosen arguments of the ones that
    choose, in order (an action's arguments). Stops, returning True, when the game ended."""
    i = 0
    for e in effects:
        target = None
        if e.chooses:
            raw = chosen[i] if i < len(chosen) else None
            i += 1
            target = a.decode(s, e, raw) if raw is not None else None
        resolve(e, src, target, s, a)
        if a.settle(s):
            return True
    return False


_WHO = {
    "opponent": "the opponent", "any_player": "a player", "own_creature": "an own creature",
    "enemy_creature": "an enemy creature", "any_creature": "a creature",
    "own_creatures": "each own creature", "enemy_creatures": "each enemy creature", "this": "this card",
    "attacker": "the attacker",
}


def describe(e: EffectSpec, target: str = "") -> str:
    """A short text of what the effect does, e.g. ``damage 300 to an enemy creature``."""
    text = _describe(e, target)
    kind, n = e.unless
    if kind:
        text += (f" unless its controller discards {n} card(s)" if kind == "discard"
                 else f" unless its controller pays {n} {'life' if kind == 'pay_life' else 'mana'}")
    return text


def _describe(e: EffectSpec, target: str = "") -> str:
    who = target or ("you" if e.selector.what == "player" and e.target == "self"
                     else _WHO.get(e.target, "this card"))
    amount = "X" if e.x else str(e.amount)
    if e.action == "modify_stats":
        changes = ", ".join(f"{k} {v:+d}" for k, v in e.stats)
        lasting = "" if e.permanent else " until end of turn"
        return f"{who}: {changes}{lasting}"
    if e.action == "negate":
        return "negate what it answers"
    if e.action == "destroy":
        return f"destroy {who}"
    if e.action == "return_to_hand":
        return f"return {who} to its owner's hand"
    if e.action == "add_poison":
        return f"{amount} poison counter(s) on {who}"
    if e.action == "choose":
        return f"choose {e.count or 1}: " + " / ".join("; then ".join(describe(s) for s in o) for o in e.options)
    if e.action == "arrange":
        return f"look at the top {amount} cards of your deck, put them back in any order"
    if e.action == "move":
        return f"move {who if e.from_zone == 'field' else e.count or 1} from {e.from_zone} to {e.to_zone}"
    if e.action == "create_token":
        stats = "/".join(str(v) for k, v in e.token if k != "name" and isinstance(v, int))
        return f"{who} create {e.count or 1} {e.token_field('name', 'token')} token(s) {stats}".rstrip()
    if e.action == "fusion_summon":
        return "fusion summon a creature from the extra deck"
    verb = {"draw": "draws", "gain_life": "gains life", "add_mana": "gains mana"}.get(e.action)
    if verb:
        text = f"{who} {verb} {amount}" if who != "you" else f"{verb.replace('s', '', 1)} {amount}"
    else:
        text = f"{e.action.replace('_', ' ')} {amount} to {who}"
    return text


def static_rules(sources: Iterable[tuple[Source, EffectSpec]], s: State, a: EffectAdapter) -> StaticRules:
    """The table of the static rules of ``sources`` (each rule with the source of its card)."""
    rules = StaticRules()
    any_rule = False
    for src, e in sources:
        any_rule = True
        if e.action == "modify_cost":
            sel = e.selector.side
            others = tuple(a.opponents(s, src.controller))
            players = (src.controller, *others) if sel == "each" else (
                (src.controller,) if sel == "controller" else others)
            for p in players:
                rules.costs.append((p, e.filter, e.amount, src))
            continue
        units = [u for u in affected(e, src, None, s, a)]
        if e.action == "cannot_be_targeted":
            rules.untargetable.update(units)
        elif e.action == "cannot_be_attacked":
            rules.unattackable.update(units)
        elif e.action == "cannot_be_blocked":
            rules.unblockable.update(units)
        elif e.action == "cannot_attack":
            rules.no_attack.update(units)
        elif e.action == "double_damage":
            for u in units:
                rules.doubled[u] = rules.doubled.get(u, 1) * 2
        elif e.action == "reduce_damage":
            for u in units:
                rules.reduced[u] = rules.reduced.get(u, 0) + e.amount
    return rules if any_rule else EMPTY_RULES
