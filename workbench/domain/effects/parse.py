"""Parse a card's ``effects`` list for one game: what runs, and why the rest is skipped.

``parse_effects`` is the only effect parser and holds the only parse cache, keyed by the
canonical JSON of the entries, the card kind and the game, so equal rules parse equally in
every engine and an edited mapping is never served stale. Never raises.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.domain.effects.capabilities import Capabilities
from workbench.domain.effects.spec import CONTROLLER, NOTHING, SELECTORS, EffectSpec
from workbench.domain.effects.vocabulary import ACTIONS, DEFAULT_TARGET, SPEED_RANGE, TRIGGERS

INVALID = "effect.invalid"
"""A skipped entry that breaks the vocabulary (the card validator reports it as an error)."""
UNSIMULATED = "effect.unsimulated"
"""A skipped entry that is valid but not run by this game's engine (a warning)."""

_HARMFUL = frozenset({"damage", "destroy", "add_poison", "return_to_hand"})
_PLAIN_TEXTS = frozenset({"", "通常生物", "normal creature"})


@dataclass(frozen=True)
class Skipped:
    index: int
    code: str
    reason: str


@dataclass(frozen=True)
class ParsedEffects:
    runnable: tuple[EffectSpec, ...]
    skipped: tuple[Skipped, ...]
    by_trigger: Mapping[str, tuple[EffectSpec, ...]] = field(default_factory=dict)

    def of(self, trigger: str) -> tuple[EffectSpec, ...]:
        return self.by_trigger.get(trigger, ())


_CACHE: dict[str, ParsedEffects] = {}


def parse_effects(kind: str, entries: object, caps: Capabilities, speed: int = 1) -> ParsedEffects:
    """The runnable effects of a card of ``kind`` in ``caps.game``, and the skipped entries.

    ``speed`` is the card's own chain speed (fusion quick magic 2), the default of ``speed``.
    """
    try:
        key = json.dumps([caps.game, kind, speed, entries], sort_keys=True, default=str)
    except (TypeError, ValueError):
        key = ""
    hit = _CACHE.get(key) if key else None
    if hit is not None:
        return hit
    parsed = _parse(kind, entries, caps, speed)
    if key:
        if len(_CACHE) > 20_000:
            _CACHE.clear()
        _CACHE[key] = parsed
    return parsed


def _parse(kind: str, entries: object, caps: Capabilities, speed: int) -> ParsedEffects:
    if entries is None:
        entries = []
    if not isinstance(entries, (list, tuple)):
        return ParsedEffects((), (Skipped(0, INVALID, "effects must be a list"),))
    runnable: list[EffectSpec] = []
    skipped: list[Skipped] = []
    for index, entry in enumerate(entries):
        result = _entry(index, kind, entry, caps, speed)
        if isinstance(result, Skipped):
            skipped.append(result)
        else:
            runnable.append(result)
    by_trigger: dict[str, tuple[EffectSpec, ...]] = {}
    for spec in runnable:
        by_trigger[spec.trigger] = by_trigger.get(spec.trigger, ()) + (spec,)
    return ParsedEffects(tuple(runnable), tuple(skipped), by_trigger)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry(index: int, kind: str, entry: object, caps: Capabilities, speed: int) -> EffectSpec | Skipped:
    game = caps.game

    def invalid(reason: str) -> Skipped:
        return Skipped(index, INVALID, reason)

    def unsimulated(reason: str) -> Skipped:
        return Skipped(index, UNSIMULATED, reason)

    if not isinstance(entry, Mapping):
        return invalid("the entry is not a mapping")
    trigger, action = entry.get("trigger"), entry.get("action")
    if not isinstance(trigger, str) or trigger not in TRIGGERS:
        return invalid(f"unknown trigger {trigger!r}")
    if not isinstance(action, str) or action not in ACTIONS:
        return invalid(f"unknown action {action!r}")
    if action not in caps.verbs:
        return unsimulated(f"the {game} engine does not run {action} (runs: {', '.join(sorted(caps.verbs))})")
    if trigger not in caps.kind_triggers(kind):
        allowed = ", ".join(sorted(caps.kind_triggers(kind))) or "none"
        return unsimulated(f"{game} {kind} cards do not run {trigger} effects (they run: {allowed})")
    # the target: as written, or the one default; "self" decided here, once
    if action == "negate":
        target, selector = "", NOTHING
    else:
        raw_target = entry.get("target")
        target = raw_target if isinstance(raw_target, str) else DEFAULT_TARGET.get(action, "")
        allowed_targets = caps.targets.get(action, frozenset())
        if target not in allowed_targets:
            return unsimulated(f"in {game}, {action} cannot target {target or 'nothing'} "
                               f"(targets: {', '.join(sorted(allowed_targets))})")
        if target == "self":
            selector = CONTROLLER if action in caps.self_is_player else SELECTORS["this"]
        else:
            selector = SELECTORS[target]
    if trigger == "continuous" and (action != "modify_stats" or selector.choose
                                    or selector.what not in ("unit", "this")):
        return unsimulated("a continuous effect is a standing stat change (modify_stats) on this card "
                           "or on all own or enemy creatures")
    # how much
    amount, x = 0, False
    cost = entry.get("cost")
    if cost is None:
        cost = {}
    if not isinstance(cost, Mapping):
        return invalid(f"cost {cost!r} is not a mapping")
    if ACTIONS[action].needs_amount:
        raw_amount = entry.get("amount")
        if raw_amount == "X":  # the mana paid for the entry's X cost, or for the card's own X cost
            if not caps.x_amounts:
                return unsimulated(f"{game} has no X costs")
            x = True
        elif not _whole(raw_amount) or raw_amount < 0:  # type: ignore[operator]
            return invalid(f"amount {raw_amount!r} is not a whole number 0 or more")
        else:
            amount = int(raw_amount)  # type: ignore[arg-type]
    stats: tuple[tuple[str, int], ...] = ()
    if action == "modify_stats":
        raw_stats = entry.get("stats")
        if not isinstance(raw_stats, Mapping) or not raw_stats:
            return invalid("modify_stats needs stats")
        for name, change in raw_stats.items():
            if name not in caps.stats:
                return unsimulated(f"{name!r} is not a {game} stat (stats: {', '.join(sorted(caps.stats))})")
            if not _whole(change):
                return invalid(f"stat change {name}: {change!r} is not a whole number")
        stats = tuple((str(k), int(v)) for k, v in raw_stats.items())
    duration = entry.get("duration", "end_of_turn")
    if trigger == "continuous":
        duration = "permanent"
    elif duration not in ("end_of_turn", "permanent"):
        return invalid(f"unknown duration {duration!r}")
    # costs
    for key in cost:
        if key not in caps.costs:
            have = ", ".join(sorted(caps.costs)) or "no costs"
            return unsimulated(f"{game} has no {key} cost (it has: {have})")
    mana = cost.get("mana", 0)
    cost_x = mana == "X"
    if not cost_x and (not _whole(mana) or mana < 0):
        return invalid(f"cost mana {mana!r} is not a whole number 0 or more, or X")
    if cost_x and not caps.x_amounts:
        return unsimulated(f"{game} has no X costs")
    tap = cost.get("tap", False)
    if not isinstance(tap, bool):
        return invalid(f"cost tap {tap!r} is not true or false")
    raw_speed = entry.get("speed", speed)
    low, high = SPEED_RANGE
    if not _whole(raw_speed) or not low <= raw_speed <= high:
        return invalid(f"speed {raw_speed!r} is not {low}-{high}")
    once = entry.get("once_per_turn", True)
    if not isinstance(once, bool):
        return invalid(f"once_per_turn {once!r} is not true or false")
    harmful = action in _HARMFUL or (action == "modify_stats" and sum(v for _, v in stats) < 0)
    spec = caps.spec_type(
        index=index, trigger=trigger, action=action, target=target, selector=selector, amount=amount,
        x=x, stats=stats, duration=str(duration), cost_mana=0 if cost_x else int(mana), cost_x=cost_x,
        cost_tap=tap, speed=int(raw_speed), once_per_turn=once, chooses=selector.choose, harmful=harmful)
    refusal = caps.refuse(kind, spec)
    if refusal:
        return unsimulated(refusal)
    return spec


def simulated(card: Mapping[str, Any], parsed: ParsedEffects, caps: Capabilities) -> bool:
    """Whether playtests play ``card`` as written: the one rule of every engine.

    False when an entry is skipped, a keyword is one the engine does not know, or the card has
    rules text but nothing runs (no effect, no known keyword).
    """
    if parsed.skipped:
        return False
    raw_keywords = card.get("keywords") or []
    keywords = {str(k).lower() for k in raw_keywords} if isinstance(raw_keywords, (list, tuple)) else {str(raw_keywords)}
    if keywords - caps.keywords:
        return False
    text = str(card.get("text") or "").strip().strip("。.【】[] ").lower()
    return text in _PLAIN_TEXTS or bool(parsed.runnable) or bool(keywords & caps.keywords)
