"""The one effect interpreter: which targets an effect reaches, and what each verb does there.

A verb is one small function in ``VERBS`` (Forge's ``ApiType`` + one effect class per action,
fireplace's ``TargetedAction``). It asks the game's adapter for the primitives. Adding an action
is one function here plus, where a game needs it, one adapter method.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from workbench.domain.effects.adapter import EffectAdapter, State, Target
from workbench.domain.effects.spec import PLAYERS, EffectSpec, PlayerRef, Source

Verb = Callable[[EffectAdapter, State, EffectSpec, Source, Any], None]


def legal_targets(e: EffectSpec, src: Source, s: State, a: EffectAdapter) -> list[Target]:
    """The choices of a single-target effect: own side first, then the opponent's."""
    sel = e.selector
    c = src.controller
    if sel.what == "player":
        return [PLAYERS[c], PLAYERS[1 - c]] if sel.choose else []
    if sel.what != "unit" or not sel.choose:
        return []
    if sel.side == "controller":
        return a.units(s, c)
    if sel.side == "opponent":
        return a.units(s, 1 - c)
    return a.units(s, c) + a.units(s, 1 - c)


def affected(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> list[Target]:
    """Whom the effect reaches: the chosen target, all that match, or the fixed one.

    A chosen unit no longer in play, and a card that is gone, give no target: the effect fizzles.
    """
    sel = e.selector
    what = sel.what
    c = src.controller
    if what == "unit":
        if sel.choose:
            return [chosen] if chosen is not None and a.in_play(s, chosen) else []
        if sel.side == "controller":
            return a.units(s, c)
        if sel.side == "opponent":
            return a.units(s, 1 - c)
        return a.units(s, c) + a.units(s, 1 - c)
    if what == "player":
        if sel.choose:
            return [chosen] if isinstance(chosen, PlayerRef) else []
        return [PLAYERS[c if sel.side == "controller" else 1 - c]]
    if what == "this":
        return [src.unit] if src.unit is not None else []
    if what == "attacker":
        return [src.attacker] if src.attacker is not None and a.in_play(s, src.attacker) else []
    return []


def _amount(e: EffectSpec, src: Source) -> int:
    return src.x if e.x else e.amount


def _units(e: EffectSpec, src: Source, chosen: Any, s: State, a: EffectAdapter) -> list[Any]:
    """The units an effect on creatures reaches; says so when there is none."""
    targets = affected(e, src, chosen, s, a)
    if not targets:
        a.say(s, f"{src.name}: {e.action} has no target")
    return targets


def _each_unit(e: EffectSpec, src: Source, chosen: Any, s: State, a: EffectAdapter,
               act: Callable[[Any], None]) -> None:
    this = e.selector.what == "this"
    for u in _units(e, src, chosen, s, a):
        if this or a.in_play(s, u):  # an earlier target's fate may have removed it
            act(u)


def _draw(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    n = _amount(e, src)
    for t in affected(e, src, chosen, s, a):
        a.draw(s, t.index, n, src)


def _gain_life(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    n = _amount(e, src)
    for t in affected(e, src, chosen, s, a):
        a.gain_life(s, t.index, n, src)


def _damage(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    n = _amount(e, src)
    if e.selector.what == "player":
        for t in affected(e, src, chosen, s, a):
            a.damage_player(s, t.index, n, src)
        return
    _each_unit(e, src, chosen, s, a, lambda u: a.damage_unit(s, u, n, src))


def _heal(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    n = _amount(e, src)
    _each_unit(e, src, chosen, s, a, lambda u: a.heal(s, u, n, src))


def _modify(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    targets = _units(e, src, chosen, s, a)
    if not targets:
        return
    this = e.selector.what == "this"
    for u in targets:
        if this or a.in_play(s, u):
            a.modify(s, u, e, src)
    a.modified(s, e, src)


def _destroy(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    _each_unit(e, src, chosen, s, a, lambda u: a.destroy(s, u, src))


def _bounce(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    _each_unit(e, src, chosen, s, a, lambda u: a.bounce(s, u, src))


def _poison(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    n = _amount(e, src)
    _each_unit(e, src, chosen, s, a, lambda u: a.add_counters(s, u, "poison", n, src))


def _mana(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    n = _amount(e, src)
    for t in affected(e, src, chosen, s, a):
        a.add_mana(s, t.index, n, src)


def _negate(a: EffectAdapter, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
    a.negate(s, e, src, chosen)


VERBS: dict[str, Verb] = {
    "draw": _draw, "damage": _damage, "heal": _heal, "gain_life": _gain_life, "modify_stats": _modify,
    "destroy": _destroy, "return_to_hand": _bounce, "add_poison": _poison, "add_mana": _mana,
    "negate": _negate,
}


def resolve(e: EffectSpec, src: Source, chosen: Target | None, s: State, a: EffectAdapter) -> None:
    """Carry out one effect; ``chosen`` is the decoded target of a single-target one.

    The caller settles (state-based checks) when it is done; ``resolve_all`` does so itself.
    """
    VERBS[e.action](a, s, e, src, chosen)


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
        VERBS[e.action](a, s, e, src, target)
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
    verb = {"draw": "draws", "gain_life": "gains life", "add_mana": "gains mana"}.get(e.action)
    if verb:
        return f"{who} {verb} {amount}"
    return f"{e.action.replace('_', ' ')} {amount} to {who}"
