"""Parse a card's ``effects`` list for one game: what runs, and why the rest is skipped.

``parse_effects`` is the only effect parser and holds the only parse cache, keyed by the
canonical JSON of the entries, the card kind and the game, so equal rules parse equally in
every engine and an edited mapping is never served stale. Never raises.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard, cast

from workbench.domain.effects.capabilities import Capabilities
from workbench.domain.effects.filters import Condition, read_condition, read_filter, read_zone_count
from workbench.domain.effects.spec import CONTROLLER, EXTRA_DECK, NOTHING, SELECTORS, EffectSpec, Selector
from workbench.domain.effects.vocabulary import (
    ACTIONS,
    DEFAULT_TARGET,
    ARRANGE_MAX,
    CHOOSE_MAX_OPTIONS,
    DURATIONS,
    PICKS,
    SIDES,
    SPEED_RANGE,
    STATIC_CREATURES,
    STATIC_TARGETS,
    TRIGGER_SIDES,
    TRIGGERS,
    UNLESS,
    ZONES,
)

INVALID = "effect.invalid"
"""A skipped entry that breaks the vocabulary (the card validator reports it as an error)."""
UNSIMULATED = "effect.unsimulated"
"""A skipped entry that is valid but not run by this game's engine (a warning)."""

_ENTRY_ONLY = frozenset({"trigger", "cost", "speed", "once_per_turn", "options"})
_HARMFUL = frozenset({"damage", "destroy", "add_poison", "return_to_hand"})
_STATES = frozenset({"position", "tapped", "face_down", "summoned_this_turn"})
"""Filter states that change in play (a standing effect may not filter by them)."""
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


def _whole(value: object) -> TypeGuard[int]:
    """A whole number (an int, not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _entry(index: int, kind: str, entry: object, caps: Capabilities, speed: int,
           step: int = -1) -> EffectSpec | Skipped:
    """One entry; ``step`` >= 0: the step-th step (from 0) of an option of a choose entry."""
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
        if action in caps.why_not:
            return unsimulated(caps.why_not[action])
        return unsimulated(f"the {game} engine does not run {action} (runs: {', '.join(sorted(caps.verbs))})")
    if trigger not in caps.kind_triggers(kind):
        allowed = ", ".join(sorted(caps.kind_triggers(kind))) or "none"
        return unsimulated(f"{game} {kind} cards do not run {trigger} effects (they run: {allowed})")
    options: tuple[tuple[EffectSpec, ...], ...] = ()
    if action == "choose":
        read = _options(index, kind, entry, caps, speed, step)
        if isinstance(read, Skipped):
            return read
        options = read
    # the target: as written, or the one default; "self" decided here, once
    from_zone, to_zone, side = "", "", "own"
    if action == "move":
        zones = (entry.get("from", "field"), entry.get("to"))
        side = entry.get("side", "own")
        for zone in zones:
            if not isinstance(zone, str) or zone not in ZONES:
                return invalid(f"move zone {zone!r} is not a zone")
            if zone not in caps.zones:
                have = ", ".join(sorted(caps.zones)) or "none"
                return unsimulated(f"{game} has no {zone} zone for move (zones: {have})")
        from_zone, to_zone = cast(str, zones[0]), cast(str, zones[1])  # both checked just above
        if from_zone == to_zone == "field" or side not in SIDES:
            return invalid("move needs two different zones and a known side")
    if action in ("negate", "choose"):
        target, selector = "", NOTHING
    elif action == "arrange":
        target, selector = "", Selector("controller", "zone", False)
    elif action == "fusion_summon":
        if "extra_deck" not in caps.zones:
            return unsimulated(f"{game} has no extra deck to fusion summon from (RULES.md §3.10.2 is fusion's)")
        target, selector = "", EXTRA_DECK
    elif action == "move" and from_zone != "field":
        target = ""
        selector = Selector({"own": "controller", "opponent": "opponent", "each": "each"}[str(side)], "zone", False)
    else:
        raw_target = entry.get("target")
        target = raw_target if isinstance(raw_target, str) else DEFAULT_TARGET.get(action, "")
        assert isinstance(target, str)
        allowed_targets = caps.targets.get(action, frozenset())
        if target not in allowed_targets:
            return unsimulated(f"in {game}, {action} cannot target {target or 'nothing'} "
                               f"(targets: {', '.join(sorted(allowed_targets))})")
        if target == "self":
            selector = CONTROLLER if action in caps.self_is_player else SELECTORS["this"]
        else:
            selector = SELECTORS[target]
    # which ones: filter, random, count
    flt = None
    if "filter" in entry:
        flt, problems = read_filter(entry["filter"], None)
        if problems:
            return invalid(problems[0][1])
        assert flt is not None
        missing = flt.keys() - caps.filters
        if missing:
            return unsimulated(f"the {game} engine does not filter by {', '.join(sorted(missing))} "
                               f"(it filters by: {', '.join(sorted(caps.filters)) or 'nothing'})")
        if selector.what not in ("unit", "zone") and action != "modify_cost":
            return invalid("a filter applies to creatures or zone cards, not to players or this card")
    rand = entry.get("random", False)
    count = entry.get("count", 0)
    if not isinstance(rand, bool) or not _whole(count) or count < 0:
        return invalid("random must be true or false and count a whole number")
    if rand:
        if selector.what != "unit":
            return invalid("random picks among creatures")
        selector = Selector(selector.side, "unit", False)
    elif count and selector.choose:
        return invalid("count on a chosen target needs random: true")
    pick = entry.get("pick", "random" if rand else "best")
    look = entry.get("look", 0)
    if pick not in PICKS or not _whole(look) or look < 0 or (look and from_zone != "deck_top"):
        return invalid(f"pick must be {', '.join(PICKS)}, and look a whole number with from: deck_top")
    if pick == "choose" and (from_zone in ("", "field") or side != "own" or int(count) > 1
                             or (from_zone == "deck_top" and not look)):
        return invalid("pick: choose takes one card (count 1) of your own zone (side: own); from deck_top "
                       "it needs look: N")
    # when: if, and how much: per
    condition = per = None
    if "if" in entry:
        condition, problems = read_condition(entry["if"], None)
        if problems:
            return invalid(problems[0][1])
        assert condition is not None
        unsupported = _condition_gap(condition, trigger, 1 if step > 0 else index, caps)
        if unsupported:
            return unsimulated(unsupported)
    if "per" in entry:
        per, problems = read_zone_count("per", entry["per"], None, bounded=False)
        if problems:
            return invalid(problems[0][1])
        assert per is not None
        unsupported = _condition_gap(per, trigger, index, caps)
        if unsupported:
            return unsimulated(unsupported)
    follows = step > 0 or (index > 0 and trigger in caps.grouped)
    if selector.what == "same" and not follows:
        return unsimulated(f"target same needs a step before it that resolves together with it (in {game}: "
                           f"{', '.join(sorted(caps.grouped)) or 'none'} effects)")
    static = ACTIONS[action].static
    if static:
        if trigger != "continuous":
            return invalid(f"{action} is a static rule; its trigger is continuous")
        if target not in STATIC_TARGETS.get(action, STATIC_CREATURES):
            return invalid(f"{action} cannot reach {target}")
        if rand or count:
            return invalid(f"{action} is a static rule: it reaches every match, not random or counted ones")
        if action == "modify_cost":
            selector = Selector({"self": "controller", "opponent": "opponent", "each_player": "each"}[target],
                                "player", False)
    elif trigger == "continuous" and (action != "modify_stats" or selector.choose
                                      or selector.what not in ("unit", "this")):
        return unsimulated("a continuous effect is a standing stat change (modify_stats) on this card "
                           "or on all own or enemy creatures, or a static rule")
    if trigger == "continuous" and flt is not None:
        moving = flt.keys() & (caps.stats | _STATES)
        if moving:
            return unsimulated(f"a standing effect's filter cannot depend on what changes in play "
                               f"({', '.join(sorted(moving))}); filter by printed fields (kind, class, race …)")
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
        elif not _whole(raw_amount) or (raw_amount < 0 and not ACTIONS[action].signed):
            return invalid(f"amount {raw_amount!r} is not a whole number 0 or more")
        else:
            amount = int(raw_amount)
        if action == "arrange" and not 1 <= amount <= ARRANGE_MAX:
            return invalid(f"arrange looks at 1 to {ARRANGE_MAX} cards, not {amount}")
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
    elif duration not in DURATIONS:
        return invalid(f"unknown duration {duration!r}")
    elif duration not in caps.durations:
        return unsimulated(f"the {game} engine has no {duration} duration "
                           f"(it has: {', '.join(sorted(caps.durations))})")
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
    costs: list[tuple[str, int, Any]] = []
    for key in ("pay_life", "discard", "sacrifice", "exile_from_graveyard"):  # remove_counters below
        if key not in cost:
            continue
        value, flt_cost = cost[key], None
        if key == "sacrifice" and isinstance(value, Mapping):
            if "filter" in value:
                flt_cost, problems = read_filter(value["filter"], None)
                if problems:
                    return invalid(problems[0][1])
                assert flt_cost is not None
                if flt_cost.keys() - caps.filters:
                    return unsimulated(f"the {game} engine does not filter by "
                                       f"{', '.join(sorted(flt_cost.keys() - caps.filters))}")
            value = value.get("count", 1)
        if not _whole(value) or value < 1:
            return invalid(f"cost {key} {value!r} is not a whole number 1 or more")
        costs.append((key, int(value), flt_cost))
    raw_counters = cost.get("remove_counters")
    if raw_counters is not None:
        if not isinstance(raw_counters, Mapping) or not raw_counters:
            return invalid("cost remove_counters must map counter names to numbers")
        for name, n in raw_counters.items():
            if not isinstance(name, str) or not _whole(n) or n < 1:
                return invalid(f"cost remove_counters {name}: {n!r} is not a whole number 1 or more")
            costs.append((f"remove_counters:{name.strip().lower()}", int(n), None))
    if costs and trigger != "activated":
        return unsimulated("costs beyond mana and tapping are paid when an effect is activated")
    raw_speed = entry.get("speed", speed)
    low, high = SPEED_RANGE
    if not _whole(raw_speed) or not low <= raw_speed <= high:
        return invalid(f"speed {raw_speed!r} is not {low}-{high}")
    once = entry.get("once_per_turn", True)
    if not isinstance(once, bool):
        return invalid(f"once_per_turn {once!r} is not true or false")
    counter = ""
    if action in ("add_counters", "remove_counters"):
        raw_counter = entry.get("counter")
        if not isinstance(raw_counter, str) or not raw_counter.strip():
            return invalid(f"{action} needs counter: a name")
        counter = raw_counter.strip().lower()
    # version-2 triggers: on_phase names its phases, on_draw / on_phase take a side, on_opponent_play a filter
    phase = ""
    if trigger == "on_phase":
        raw_phase = entry.get("phase")
        names = raw_phase if isinstance(raw_phase, list) else [raw_phase]
        if not names or not all(isinstance(n, str) and n.strip() for n in names):
            return invalid("on_phase needs phase: a phase name or a list of them")
        wanted = {str(n).strip().lower() for n in names}
        if wanted - caps.phases:
            return unsimulated(f"{game} has no phase {', '.join(sorted(wanted - caps.phases))} "
                               f"(phases: {', '.join(sorted(caps.phases))})")
        phase = ",".join(sorted(wanted))
    if trigger in TRIGGER_SIDES:
        side = entry.get("side", "own")
        if side not in SIDES:
            return invalid(f"side {side!r} is not own, opponent or each")
    played = None
    if trigger == "on_opponent_play" and "played" in entry:
        played, problems = read_filter(entry["played"], None)
        if problems:
            return invalid(problems[0][1])
        assert played is not None
        if played.keys() - caps.filters:
            return unsimulated(f"the {game} engine does not filter by "
                               f"{', '.join(sorted(played.keys() - caps.filters))}")
    if duration == "while_on_field" and selector.what not in ("unit", "this", "same"):
        return invalid("while_on_field lasts on creatures")
    unless = ("", 0)
    raw_unless = entry.get("unless")
    if raw_unless is not None:
        if not isinstance(raw_unless, Mapping) or len(raw_unless) != 1:
            return invalid(f"unless must be one of {', '.join(UNLESS)} with a number")
        (pay_key, pay_n), = raw_unless.items()
        if pay_key not in UNLESS or not _whole(pay_n) or pay_n < 1:
            return invalid(f"unless {pay_key}: {pay_n!r}: allowed {', '.join(UNLESS)} with a whole number 1 or more")
        if pay_key not in caps.unless:
            have = ", ".join(sorted(caps.unless)) or "nothing"
            return unsimulated(f"in {game}, a player cannot pay {pay_key} for unless (it can pay: {have})")
        if selector.what == "none":
            return invalid(f"unless needs an entry that affects someone, not {action}")
        unless = (str(pay_key), int(pay_n))
    ready = entry.get("ready", False)
    if not isinstance(ready, bool):
        return invalid(f"ready {ready!r} is not true or false")
    ready = ready and action == "move" and to_zone == "field"
    if ready and not caps.ready:
        return unsimulated(f"the {game} engine has no summoning sickness for ready to lift")
    token: tuple[tuple[str, Any], ...] = ()
    if action == "create_token":
        raw_token = entry.get("token")
        if not isinstance(raw_token, Mapping) or not isinstance(raw_token.get("name"), str):
            return invalid("create_token needs token: a mapping with the token's name and stats")
        for name in caps.stats:
            if not _whole(raw_token.get(name)) or raw_token[name] < 0:
                return invalid(f"token {name} {raw_token.get(name)!r} is not a whole number 0 or more")
        token = tuple((str(k), v) for k, v in raw_token.items())
    harmful = (action in _HARMFUL or (action == "modify_stats" and sum(v for _, v in stats) < 0)
               or (action == "move" and from_zone == "field"))
    spec = caps.spec_type(
        index=index, trigger=trigger, action=action, target=target, selector=selector, amount=amount,
        x=x, stats=stats, duration=str(duration), cost_mana=0 if cost_x else int(mana), cost_x=cost_x,
        cost_tap=tap, speed=int(raw_speed), once_per_turn=once, chooses=selector.choose, harmful=harmful,
        filter=flt, random=rand, count=int(count), condition=condition, per=per, from_zone=str(from_zone),
        to_zone=str(to_zone or ""), side=str(side), pick=str(pick), look=int(look), costs=tuple(costs), counter=counter,
        phase=phase, played=played,
        unless=unless, asks=bool(unless[0]) or action in ("arrange", "choose") or pick == "choose", options=options,
        token=token, ready=ready)
    refusal = caps.refuse(kind, spec)
    if refusal:
        return unsimulated(refusal)
    return spec


def _options(index: int, kind: str, entry: Mapping[str, Any], caps: Capabilities, speed: int,
             step: int) -> tuple[tuple[EffectSpec, ...], ...] | Skipped:
    """The options of ``action: choose``: 2-5, ``count`` (default 1) of them chosen, each a
    sequence of steps. A step is parsed as an entry of its own under the choose entry's trigger;
    one skipped step skips the whole entry, with that step's reason (a mode never silently does
    less than its text)."""
    if step >= 0:
        return Skipped(index, INVALID, "a choose inside a choose is not allowed")
    raw = entry.get("options")
    if not isinstance(raw, (list, tuple)) or not 2 <= len(raw) <= CHOOSE_MAX_OPTIONS:
        return Skipped(index, INVALID, f"choose needs 2 to {CHOOSE_MAX_OPTIONS} options")
    count = entry.get("count", 1)
    if not _whole(count) or not 1 <= count < len(raw):
        return Skipped(index, INVALID, f"choose count {count!r} must be 1 to {len(raw) - 1}")
    options: list[tuple[EffectSpec, ...]] = []
    for k, option in enumerate(raw, 1):
        steps = list(option) if isinstance(option, (list, tuple)) else [option]
        if not steps:
            return Skipped(index, INVALID, f"option {k} has no step")
        parsed: list[EffectSpec] = []
        for n, raw_step in enumerate(steps):
            if not isinstance(raw_step, Mapping) or set(raw_step) & _ENTRY_ONLY:
                return Skipped(index, INVALID, f"option {k}: a step is a mapping without "
                               f"{', '.join(sorted(_ENTRY_ONLY))}")
            result = _entry(index, kind, dict(raw_step, trigger=entry.get("trigger")), caps, speed, n)
            if isinstance(result, Skipped):
                return Skipped(index, result.code, f"option {k}: {result.reason}")
            parsed.append(result)
        options.append(tuple(parsed))
    return tuple(options)


def _condition_gap(c: Condition, trigger: str, index: int, caps: Capabilities) -> str | None:
    """Why the engine cannot evaluate condition ``c`` here, or None."""
    game = caps.game
    if c.kind != "count" and c.kind not in caps.conditions:
        return (f"the {game} engine has no {c.kind} condition "
                f"(it has: {', '.join(sorted(caps.conditions)) or 'none'})")
    if c.kind == "count":
        if "count" not in caps.conditions:
            return f"the {game} engine does not count cards for a condition or per"
        if c.zone not in caps.zones:
            return f"{game} has no {c.zone} zone to count (zones: {', '.join(sorted(caps.zones))})"
        missing = c.filter.keys() - caps.filters if c.filter else frozenset()
        if missing:
            return f"the {game} engine does not filter by {', '.join(sorted(missing))}"
    if c.kind == "counters" and "counters" not in caps.conditions:
        return f"the {game} engine does not count counters"
    if c.kind == "phase":
        unknown = set(c.zone.split(",")) - caps.phases
        if unknown:
            return (f"{game} has no phase {', '.join(sorted(unknown))} "
                    f"(phases: {', '.join(sorted(caps.phases))})")
    if c.kind == "previous" and (index == 0 or trigger not in caps.grouped):
        return (f"if previous needs an entry before it that resolves together with it (in {game}: "
                f"{', '.join(sorted(caps.grouped)) or 'none'} effects)")
    return None


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
