"""Damage splits and element factors (RULES.md §2.3.3-5 and §2.4).

A player's total is kept per element. A split allocates each element's amount among the legal
targets; any split is legal (``split`` with ``(target, element, amount)`` triples). The legal
action list offers a small but useful sample: everything on one target (``focus``), an even
spread, and "just enough to remove one target, the rest on another".
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from workbench.domain.engines.base import Action
from workbench.domain.engines.seth.cards import ELEMENTS
from workbench.domain.errors import IllegalAction

if TYPE_CHECKING:  # pragma: no cover
    from workbench.domain.engines.seth.state import Monster, SethState

ELEMENT_ORDER = {e: i for i, e in enumerate(ELEMENTS)}
_ceil = math.ceil


def factor(state: SethState, element: str, target: Monster) -> float:
    """The multiplier ``element`` damage gets against ``target`` (resist ½, vulnerable ×2)."""
    return target.mult.get(element, 1.0)


def element_damage(state: SethState, amount: int, element: str, target: Monster) -> int:
    """Damage ``amount`` of ``element`` deals to ``target`` after factors, rounded down (§2.4)."""
    f = target.mult.get(element, 1.0)
    if f == 1.0:
        return amount
    return int(amount * f + 1e-9)  # amounts are never negative, so int() rounds down


def focus_action(target: Monster) -> Action:
    """The split that puts everything on ``target`` (built once per monster and kept)."""
    action = target.focus
    if action is None:
        action = target.focus = Action("focus", (target.name,), f"everything on {target.label}")
    return action


def describe_total(total: dict[str, int]) -> str:
    """``4 fire + 3 poison`` for log lines."""
    return " + ".join(f"{amount} {element}" for element, amount in total.items()) or "0"


def describe_split(state: SethState, action: Action) -> str:
    """A readable account of a checked focus/split action for log lines."""
    if action.kind == "focus":
        return f"all on {state.by_name[action.args[0]].label}"
    return "; ".join(f"{amount} {element} on {state.by_name[t].label}" for t, element, amount in action.args)


_SPLITS: dict[tuple[Any, ...], Action] = {}
KNOWN_SPLITS = True
"""``check_split`` checks a split ``_split_action`` built (kept in ``_SPLITS``) for legality
only; False: every split gets the full check (the plain definition; the tests compare both)."""


def check_split(state: SethState, player: int, action: Action) -> Action:
    """Validate a focus/split choice and return it in canonical form.

    ``split`` args are (target, element, amount) triples, or (target, amount) pairs when the total
    has a single element; every element's amounts must add up to that element's total.
    Raises IllegalAction otherwise.
    """
    if action.kind == "focus":
        args = action.args
        if len(args) == 1:
            for m in state.targets[player]:
                if m.name == args[0]:
                    return action
    legal = state.targets[player]
    total = state.totals[player]
    if KNOWN_SPLITS and action.kind == "split" and _SPLITS.get(action.args) is action:
        # Built by _split_action: (target, element, amount) triples with amounts above 0, no
        # (target, element) twice. Only legality and this state's order are left to check;
        # anything else takes the full check below (which raises the right error).
        dealt: dict[str, int] = {}
        order = state.order
        previous = -1
        for target, element, amount in action.args:
            hit = state.by_name.get(target)
            if hit is None or hit not in legal or element not in total:
                break
            rank = order[target] * 8 + ELEMENT_ORDER[element]
            if rank <= previous:
                break
            previous = rank
            dealt[element] = dealt.get(element, 0) + amount
        else:
            if dealt == total:
                return action
    if action.kind == "focus":
        raise IllegalAction(f"{action.args[0] if action.args else '?'} is not a legal target "
                            f"(targets: {', '.join(sorted(m.name for m in legal))})")
    if action.kind != "split":
        raise IllegalAction(f"P{player + 1} must split damage now (focus or split), not {action.kind!r}")
    given: dict[str, int] = {}
    parts = []
    single = next(iter(total)) if len(total) == 1 else None
    order, by_name = state.order, state.by_name
    canonical = True  # parts in team order, elements in ELEMENT_ORDER, no zero, no repeats
    previous = -1
    for raw in action.args:
        part = tuple(raw) if isinstance(raw, (list, tuple)) else (raw,)
        if len(part) == 2 and single is not None:
            part = (part[0], single, part[1])
        if len(part) != 3:
            raise IllegalAction(f"a split part is (target, element, amount), got {part!r}")
        target, element, amount = part
        hit = by_name.get(target)
        if hit is None or hit not in legal:  # names are unique, so this is "target names a legal target"
            raise IllegalAction(f"{target} is not a legal target (targets: {', '.join(sorted(x.name for x in legal))})")
        if element not in total:
            raise IllegalAction(f"P{player + 1} has no {element} damage to split")
        if amount.__class__ is not int or amount < 0:
            raise IllegalAction(f"split amounts are whole numbers ≥ 0, got {amount!r}")
        parts.append(part)
        given[element] = given.get(element, 0) + amount
        rank = order[target] * 8 + ELEMENT_ORDER[element]  # team order, then element order
        if rank <= previous or amount == 0 or part is not raw:
            canonical = False
        previous = rank
    for element, amount in total.items():
        if given.get(element, 0) != amount:
            raise IllegalAction(f"the split gives {given.get(element, 0)} {element} damage; the total is {amount}")
    # Keep the caller's action (and its text) when it is already in canonical form.
    if canonical:
        return action
    merged: dict[tuple[str, str], int] = {}
    for target, element, amount in parts:
        merged[(target, element)] = merged.get((target, element), 0) + amount
    return _split_action(state, merged)




def _split_action(state: SethState, merged: dict[tuple[str, str], int]) -> Action:
    """The canonical ``split`` action for (target, element) -> amount: parts in team order, no zeros."""
    parts = [(t, e, a) for (t, e), a in merged.items() if a > 0]
    if len(parts) > 1:
        # Sort by team order, then element order (each (target, element) appears once).
        order = state.order
        ranked = [(order[t] * 16 + ELEMENT_ORDER.get(e, 9), t, e, a) for t, e, a in parts]
        ranked.sort()
        parts = [(t, e, a) for _, t, e, a in ranked]
    args = tuple(parts)
    # The same splits recur across the games of a playtest; an Action costs more than a look-up.
    action = _SPLITS.get(args)
    if action is None:
        if len(_SPLITS) > 20_000:
            _SPLITS.clear()
        action = _SPLITS[args] = Action("split", args, "; ".join(f"{a} {e} on {t}" for t, e, a in args))
    return action


def flight_extra(state: SethState, player: int, target: Monster) -> int:
    """How much Flight will take off ``player``'s next damage to ``target`` this phase (§2.5)."""
    if not target.card.flight or not state.flight_reduction or target not in state.now[target.owner]:
        return 0
    for x in state.now[player]:  # a loop, not any(): a generator costs a call
        if x.card.flight:
            return 0
    if state.flight_once and target.name in state.flight_used:
        return 0
    return state.flight_reduction


KILL_COST_CACHE = True
"""Keep ``kill_cost`` results by what they depend on (``_KILL_COSTS``); False: price every
call (the plain definition; the tests compare both)."""
_KILL_COSTS: dict[tuple[Any, ...], tuple[dict[str, float], dict[str, int] | None]] = {}


def kill_cost(state: SethState, player: int, target: Monster, budget: dict[str, int],
              items: tuple[tuple[str, int], ...] | None = None) -> dict[str, int] | None:
    """The least of ``budget`` (per element) that removes ``target`` this phase, or None.

    Uses the most effective elements first and accounts for Flight. The answer depends only on
    the damage still needed, Flight's cut, the target's element factors, the budget and the
    Flight Decision, so it is kept by those (the same few recur in every game of a batch):
    callers must not change the mapping returned. ``items`` is ``tuple(budget.items())`` when
    the caller has it (it prices several targets against one budget).
    """
    need = target.health - target.damage_taken
    if need <= 0:
        return {}
    cut = flight_extra(state, player, target) if target.card.flight else 0
    mult = target.mult
    if not KILL_COST_CACHE:
        return _kill_cost(need, cut, mult, budget, state.flight_once)
    key = (need, cut, id(mult), state.flight_once, tuple(budget.items()) if items is None else items)
    try:  # (a subscript in a try costs less than a dict.get call when the answer is kept)
        hit = _KILL_COSTS[key]
    except KeyError:
        hit = None
    if hit is not None and hit[0] is mult:  # the entry holds its mapping, so the id is not reused
        return hit[1]
    cost = _kill_cost(need, cut, mult, budget, state.flight_once)
    if len(_KILL_COSTS) > 20_000:
        _KILL_COSTS.clear()
    _KILL_COSTS[key] = (mult, cost)
    return cost


def _kill_cost(need: int, cut: int, mult: dict[str, float], budget: dict[str, int],
               flight_once: bool) -> dict[str, int] | None:
    """``kill_cost`` for ``need`` damage (> 0) still to deal, ``cut`` taken off by Flight."""
    if len(budget) == 1:
        # The common case: one element, priced directly.
        for element, available in budget.items():
            a = _units(mult[element], need + cut)
            return {element: a} if a is not None and a <= available else None
    spent: dict[str, int] = {}
    elements = list(budget)
    if len(elements) == 2:
        # sorted(budget, key=mult.get, reverse=True) for two: a stable sort swaps only on ">".
        if mult[elements[1]] > mult[elements[0]]:
            elements.reverse()
    else:
        elements.sort(key=mult.__getitem__, reverse=True)  # mult has every element
    for element in elements:
        available = budget[element]
        if available <= 0:
            continue
        f = mult[element]
        want = need + cut
        a = _units(f, want)
        if a is None:
            continue
        if a <= available:
            spent[element] = a
            return spent
        spent[element] = available
        dealt = available if f == 1.0 else int(available * f + 1e-9)  # element_damage
        if dealt > cut:
            need -= dealt - cut
        if flight_once:
            cut = 0
        if need <= 0:
            return spent
    return None


def _units_for(state: SethState, element: str, target: Monster, effective: int) -> int | None:
    """The fewest units of ``element`` that deal at least ``effective`` to ``target`` (None: never)."""
    return _units(target.mult[element], effective)


def _units(f: float, effective: int) -> int | None:
    """The fewest units at factor ``f`` that deal at least ``effective`` (None: never)."""
    if f == 1.0:
        return effective if effective > 1 else 1
    if f <= 0:
        return None
    a = _ceil(effective / f - 1e-9)
    if a < 1:
        a = 1
    while int(a * f + 1e-9) < effective:  # element_damage with a factor other than 1
        a += 1
    return a


PLAN_CACHE = True
"""``plan_action`` and ``element_plan_action`` keep the action of each plan by its items and the
team order (``_PLANS``), so a plan seen before is not sorted and looked up again; False: they
call ``_split_action`` every time (the plain definition; the tests compare both)."""
_PLANS: dict[tuple[Any, ...], tuple[dict[str, int], Action]] = {}


def plan_action(state: SethState, plan: dict[tuple[str, str], int]) -> Action:
    """``_split_action(state, plan)``: the canonical split of a (target, element) -> amount plan.

    The canonical form depends only on the plan's items (sorted by the team order, each
    (target, element) once) and on ``state.order``, so it is kept by those (the heuristic makes
    the same few plans in every game of a batch).
    """
    if not PLAN_CACHE:
        return _split_action(state, plan)
    order = state.order
    key = (id(order), frozenset(plan.items()))
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is order:  # the entry holds the order, so the id is not reused
        return hit[1]
    action = _split_action(state, plan)
    _keep_plan(key, order, action)
    return action


def element_plan_action(state: SethState, element: str, plan: dict[str, int]) -> Action:
    """``plan_action`` of a plan of one element, given as target -> amount."""
    if not PLAN_CACHE:
        return _split_action(state, {(name, element): a for name, a in plan.items()})
    order = state.order
    key = (id(order), element, frozenset(plan.items()))
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is order:
        return hit[1]
    action = _split_action(state, {(name, element): a for name, a in plan.items()})
    _keep_plan(key, order, action)
    return action


def _keep_plan(key: tuple[Any, ...], order: dict[str, int], action: Action) -> None:
    if len(_PLANS) > 20_000:
        _PLANS.clear()
    _PLANS[key] = (order, action)


def split_candidates(state: SethState, player: int) -> list[Action]:
    """A small, useful sample of legal splits: focus each target, an even spread, kill-then-rest."""
    targets = state.targets[player]
    total = state.totals[player]
    actions = [focus_action(t) for t in targets]
    seen: set[tuple[Any, ...]] = {
        _split_action(state, {(t.name, e): a for e, a in total.items()}).args for t in targets
    }
    n = len(targets)
    even: dict[tuple[str, str], int] = {}
    for element, amount in total.items():
        share, extra = divmod(amount, n)
        for i, t in enumerate(targets):
            even[(t.name, element)] = share + (1 if i < extra else 0)
    _add(state, actions, seen, even)
    for t in targets:
        cost = kill_cost(state, player, t, total)
        if not cost:
            continue
        rest = {e: total[e] - cost.get(e, 0) for e in total}
        if not any(rest.values()):
            continue
        for u in targets:
            if u is t:
                continue
            merged = {(t.name, e): a for e, a in cost.items()}
            for e, a in rest.items():
                if a:
                    merged[(u.name, e)] = merged.get((u.name, e), 0) + a
            _add(state, actions, seen, merged)
    return actions


def _add(state: SethState, actions: list[Action], seen: set[tuple[Any, ...]],
         merged: dict[tuple[str, str], int]) -> None:
    action = _split_action(state, merged)
    if action.args not in seen:
        seen.add(action.args)
        actions.append(action)
