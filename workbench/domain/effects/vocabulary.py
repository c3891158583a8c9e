"""The structured effect vocabulary (docs/effects.md) and the checks of a card's ``effects`` list.

One table says which triggers, actions, targets and keys exist, so the card validator, the web
editor's effect rows and the docs agree. Engines run a subset (their ``Capabilities``, see
``capabilities.py``); what they cannot run is reported by ``parse.parse_effects(...).skipped``
(the checks service and playtest reports), not here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

RULE = "docs/effects.md"

TRIGGERS: dict[str, str] = {
    "on_play": "when the card is played (recruited, summoned, cast, first assigned)",
    "on_destroyed": "when the creature or monster is destroyed or removed",
    "activated": "its controller chooses to use it, paying the cost",
    "continuous": "always on while the card is on the field",
    "start_of_turn": "at the start of its controller's turn",
    "end_of_turn": "at the start of its controller's end phase",
    "on_attack": "when this creature declares an attack",
    "on_attacked": "when this creature is chosen as the target of an attack",
    "on_leave": "when this creature leaves the field for any zone (destroyed, returned, exiled, …)",
    "on_block": "when this creature blocks (warzone: intercepts) an attack",
    "on_blocked": "when this attacking creature is blocked (warzone: intercepted)",
    "on_damaged": "when this creature takes damage (in a battle or from an effect)",
    "on_deal_damage": "when this creature deals damage (in a battle or with its effect)",
    "on_enter": "when this creature enters the field from any zone (played, put onto the field, summoned)",
    "on_draw": "while this is on the field, when a player draws a card (side: own, opponent or each)",
    "on_opponent_play": "while this is on the field, when the opponent plays a card (played: a filter)",
    "on_phase": "while this is on the field, when a phase of the game begins (phase: its name; side: whose turn)",
}


@dataclass(frozen=True)
class ActionSpec:
    """One action: what it does and which keys it needs."""

    description: str
    needs_amount: bool = False
    needs_stats: bool = False
    takes_target: bool = True
    static: bool = False
    """A static rule: it holds while its card is on the field (``trigger: continuous`` only)."""
    signed: bool = False
    """Its ``amount`` may be below 0 (a cost change: -1 is one less)."""


ACTIONS: dict[str, ActionSpec] = {
    "draw": ActionSpec("the target player draws cards", needs_amount=True),
    "damage": ActionSpec("damage to a creature, monster or player", needs_amount=True),
    "heal": ActionSpec("remove damage from a creature or monster", needs_amount=True),
    "gain_life": ActionSpec("the target player gains life", needs_amount=True),
    "modify_stats": ActionSpec("change stats for a while or for good", needs_stats=True),
    "destroy": ActionSpec("destroy the target creature or monster"),
    "return_to_hand": ActionSpec("return the target creature to its owner's hand"),
    "negate": ActionSpec("negate the activation or attack it answers", takes_target=False),
    "add_poison": ActionSpec("put poison counters on the target monster", needs_amount=True),
    "add_mana": ActionSpec("the controller gains mana this turn, ignoring the cap", needs_amount=True),
    "add_counters": ActionSpec("put counters of a name (counter: charge) on the target", needs_amount=True),
    "remove_counters": ActionSpec("take counters of a name off the target", needs_amount=True),
    "move": ActionSpec("move cards from a zone to a zone: search the deck, return from the graveyard, "
                       "exile, mill, discard, shuffle into the deck, put onto the field"),
    "cannot_be_targeted": ActionSpec("static: the target creatures cannot be chosen as the target of an effect "
                                     "(nor picked at random)", static=True),
    "cannot_be_attacked": ActionSpec("static: the target creatures cannot be chosen as the target of an attack",
                                     static=True),
    "cannot_be_blocked": ActionSpec("static: the target creatures' attacks cannot be blocked (warzone: "
                                    "intercepted)", static=True),
    "cannot_attack": ActionSpec("static: the target creatures cannot attack", static=True),
    "double_damage": ActionSpec("static: the damage the target creatures deal is doubled", static=True),
    "reduce_damage": ActionSpec("static: the damage the target creatures take is reduced by amount",
                                needs_amount=True, static=True),
    "modify_cost": ActionSpec("static: the cost of the target player's cards (filter) changes by amount "
                              "(-1: one less; never below 0)", needs_amount=True, static=True, signed=True),
    "choose": ActionSpec("choose one (count: 2, choose two) of the options, each a sequence of steps; "
                         "the controller decides when it resolves", takes_target=False),
    "arrange": ActionSpec("look at the top cards of your deck (amount) and put them back in any order",
                          needs_amount=True, takes_target=False),
    "create_token": ActionSpec("create count tokens (creatures made by the effect) with the stats token gives"),
    "fusion_summon": ActionSpec("special summon a creature from the extra deck by sending its materials "
                                "from the hand or field to the graveyard", takes_target=False),
}

STATIC_ACTIONS: frozenset[str] = frozenset(name for name, spec in ACTIONS.items() if spec.static)
"""Static rules: continuous effects the engines query (``effects/statics.py``), not resolved."""

TARGETS: dict[str, str] = {
    "self": "the card's controller (for stat changes and healing: the card itself)",
    "this": "the card itself",
    "opponent": "the opposing player",
    "any_player": "a player of the controller's choice",
    "own_creature": "one of the controller's creatures",
    "enemy_creature": "one of the opponent's creatures",
    "any_creature": "any one creature",
    "own_creatures": "all of the controller's creatures",
    "enemy_creatures": "all of the opponent's creatures",
    "attacker": "the attacking creature (answers to an attack)",
    "each_player": "both players, the controller first",
    "same": "whatever the entry before reached (a sequence of steps with a shared target)",
}

LABELS: dict[str, dict[str, str]] = {
    "triggers": {
        "on_play": "When this is played", "on_destroyed": "When this is destroyed",
        "activated": "Activated: pay the cost", "continuous": "Always, while this is on the field",
        "start_of_turn": "At the start of your turn", "end_of_turn": "At the end of your turn",
        "on_attack": "When this attacks", "on_attacked": "When this is attacked",
        "on_leave": "When this leaves the field", "on_block": "When this blocks",
        "on_blocked": "When this is blocked", "on_damaged": "When this takes damage",
        "on_deal_damage": "When this deals damage", "on_enter": "When this enters the field",
        "on_draw": "When a card is drawn", "on_opponent_play": "When the opponent plays a card",
        "on_phase": "When a phase begins",
    },
    "targets": {
        "self": "You (for a creature's stats: this card)", "this": "This card", "opponent": "The opponent",
        "any_player": "A player you choose", "own_creature": "One of your creatures",
        "enemy_creature": "An enemy creature", "any_creature": "Any one creature",
        "own_creatures": "Each of your creatures", "enemy_creatures": "Each enemy creature",
        "attacker": "The attacking creature", "each_player": "Each player",
        "same": "The same target as the step before",
    },
    "actions": {
        "draw": "Draw cards", "damage": "Deal damage", "heal": "Heal damage", "gain_life": "Gain life",
        "modify_stats": "Change stats", "destroy": "Destroy", "return_to_hand": "Return to the hand",
        "negate": "Negate", "add_poison": "Put poison counters", "add_mana": "Gain mana",
        "add_counters": "Put counters", "remove_counters": "Remove counters", "move": "Move cards",
        "choose": "Choose one —", "arrange": "Look at the top cards and put them back in any order",
    },
    "unless": {
        "pay_life": "Unless its controller pays life", "mana": "Unless its controller pays mana",
        "discard": "Unless its controller discards cards",
    },
}
"""What the card editor shows for each name: words a designer reads, not internal names."""

DEFAULT_TARGET: dict[str, str] = {
    "draw": "self",
    "gain_life": "self",
    "add_mana": "self",
    "heal": "this",
    "modify_stats": "this",
    "damage": "enemy_creature",
    "destroy": "enemy_creature",
    "return_to_hand": "enemy_creature",
    "add_poison": "enemy_creature",
    "move": "enemy_creature",
    "add_counters": "this",
    "remove_counters": "this",
    "cannot_be_targeted": "this",
    "cannot_be_attacked": "this",
    "cannot_be_blocked": "this",
    "cannot_attack": "this",
    "double_damage": "this",
    "reduce_damage": "this",
    "modify_cost": "self",
    "create_token": "self",
}
"""The target of an entry that names none (``negate`` and ``fusion_summon`` take no target)."""

DURATIONS: dict[str, str] = {
    "end_of_turn": "until the end of the turn (seth: of the round)",
    "permanent": "for as long as the card stays in play",
    "until_your_next_turn": "until the start of its controller's next turn (warzone, fusion)",
    "while_on_field": "while the card that made the change stays on the field",
}

ZONES: dict[str, str] = {
    "hand": "the player's hand",
    "deck": "the whole deck: a card is searched for, then the deck is shuffled (to: deck shuffles in)",
    "deck_top": "the top of the deck (from: the top cards in order; to: on top)",
    "deck_bottom": "the bottom of the deck (to: under it)",
    "graveyard": "the graveyard / Discard Pile",
    "exile": "removed from the game",
    "field": "in play (from: the target creatures; to: put onto the field ignoring the cost)",
    "extra_deck": "fusion's extra deck (its creatures come out by fusion_summon, RULES.md §3.10.2)",
    "damage_pile": "warzone's damage pile (Damage Cards, §1.10)",
}

SIDES: dict[str, str] = {
    "own": "the controller's",
    "opponent": "the opponent's",
    "each": "both players', the controller's first",
}

PICKS: dict[str, str] = {
    "best": "the engine picks for the controller: the card worth most (cost and stats; docs/effects.md)",
    "random": "at random",
    "first": "in zone order: the top of the deck first, else the latest card first",
    "choose": "the controller chooses the card, seeing the ones it picks among (one card, its own zone)",
}

FILTER_STATES: dict[str, str] = {
    "other": "true: not the card itself (\"other than this\")",
    "position": "warzone: battling or guarding",
    "tapped": "fusion: true or false",
    "face_down": "fusion: true or false",
    "summoned_this_turn": "true or false: it came onto the field this turn",
}
"""Filter keys about a card in play, beside the game's own card fields and stats."""

COSTS: dict[str, str] = {
    "mana": "fusion: N or X (all mana left)",
    "tap": "true: tap the card (warzone: instead of attacking)",
    "pay_life": "N: the controller pays N life (it must have more than N)",
    "discard": "N: discard N cards from the hand",
    "sacrifice": "N or {count: N, filter: {...}}: destroy N of the controller's other creatures",
    "exile_from_graveyard": "N: exile N cards from the controller's graveyard",
    "remove_counters": "{NAME: N}: take N counters of that name off the card itself",
}
"""``cost:`` keys; the engine picks the cards a cost takes: those worth least (docs/effects.md)."""

CONDITIONS: dict[str, str] = {
    "count": "{zone: field, side: own, filter: {...}, min: N, max: N}: how many matching cards are there",
    "life": "{side: own, min: N, max: N}: the player's life (Life Points)",
    "damage_pile": "{side: own, min: N, max: N}: warzone: cards in the damage pile",
    "hand": "{side: own, min: N, max: N}: cards in the hand",
    "turn": "{min: N, max: N}: the game's turn (seth: round) number",
    "summoned_this_turn": "true: the card itself came onto the field this turn",
    "previous": "true: the entry before this one did something (\"if you do\")",
    "phase": "NAME or [NAMES]: the game's current phase (warzone recruit, war, return; fusion main1, battle, main2; seth fast, medium, slow)",
    "counters": "{counter: NAME, min: N, max: N}: counters of that name on the card itself",
}

KEYS: dict[str, str] = {
    "trigger": "when it happens",
    "action": "what it does",
    "target": "whom it affects",
    "amount": "how much (a whole number; X = the mana paid for an X cost)",
    "stats": "modify_stats: stat name → change, e.g. {strength: 200}",
    "duration": "modify_stats: end_of_turn, until_your_next_turn, while_on_field or permanent",
    "cost": "activated: {mana: N or X, tap: true, pay_life: N, discard: N, sacrifice: N, exile_from_graveyard: N}",
    "speed": "chain speed 1-3 (fusion; warzone: 2 is a quick spell)",
    "once_per_turn": "fusion: usable once per turn per card name (default true)",
    "filter": "which cards count: card fields, stats and states, e.g. {class: 2, strength: {min: 500}}",
    "random": "true: one target (or count targets) at random instead of a choice",
    "count": "how many: cards moved, or targets picked at random (a whole number 1 or more)",
    "from": "move: the zone the cards come from (default field: the target creatures)",
    "to": "move: the zone the cards go to",
    "side": "move from a zone: whose zone, own (default), opponent or each; on_draw: whose draw; on_phase: whose turn",
    "pick": "move from a zone: best (default), random or first",
    "look": "move from deck_top: look at the top N, move count of the matching ones, the rest go under",
    "if": "a condition checked when the effect resolves; unmet, the entry does nothing",
    "per": "{zone, side, filter}: the amount is multiplied by the number of matching cards",
    "counter": "add_counters, remove_counters: the counters' name (seth: poison is the poison of §2.5)",
    "phase": "on_phase: the phase that begins (the game's phase names), or a list of them",
    "played": "on_opponent_play: which cards the opponent plays trigger it, a filter, e.g. {kind: spell}",
    "options": "choose: 2 to 5 options, each one step (a mapping without trigger) or a list of steps",
    "unless": "{pay_life: N} | {mana: N} | {discard: N}: the affected player may pay it to stop the entry",
    "token": "create_token: the token's name and stats, e.g. {name: 衍生物, atk: 1, def: 1}",
    "ready": "move to: field: true puts the creature in play ready to attack this turn (no summoning sickness)",
}

STATIC_TARGETS: dict[str, frozenset[str]] = {
    "modify_cost": frozenset({"self", "opponent", "each_player"}),
}
"""Targets of a static rule: creatures (``this``, ``own_creatures``, ``enemy_creatures``), or
for ``modify_cost`` the players whose cards cost more or less."""
STATIC_CREATURES = frozenset({"this", "self", "own_creatures", "enemy_creatures"})

TRIGGER_SIDES = frozenset({"on_draw", "on_phase"})
"""Triggers that take ``side``: whose draw, whose turn's phase (default own)."""

UNLESS: dict[str, str] = {
    "pay_life": "N: the affected player may pay N life (it must have more than N) to stop the entry",
    "mana": "N: fusion: the affected player may pay N mana to stop the entry",
    "discard": "N: the affected player may discard N cards (the ones worth least) to stop the entry",
}
"""``unless:`` keys: "… unless its controller pays N". The player the entry affects decides."""

CHOOSE_MAX_OPTIONS = 5
ARRANGE_MAX = 5
"""``arrange`` looks at 1 to 5 cards (every order is one choice: 5 cards, 120 orders)."""

SPEED_RANGE = (1, 3)

AddProblem = Callable[..., None]

_ENTRY_ONLY = frozenset({"trigger", "cost", "speed", "once_per_turn", "options"})
"""Keys of a whole entry that a step of a ``choose`` option does not take."""


def vocabulary() -> dict[str, Any]:
    """The vocabulary as plain data (for the web editor and the API)."""
    return {
        "triggers": dict(TRIGGERS),
        "actions": {name: {"description": spec.description, "needs_amount": spec.needs_amount,
                           "needs_stats": spec.needs_stats, "takes_target": spec.takes_target,
                           "static": spec.static, "signed": spec.signed}
                    for name, spec in ACTIONS.items()},
        "targets": dict(TARGETS),
        "default_targets": dict(DEFAULT_TARGET),
        "labels": {part: dict(names) for part, names in LABELS.items()},
        "durations": dict(DURATIONS),
        "zones": dict(ZONES),
        "sides": dict(SIDES),
        "picks": dict(PICKS),
        "filter_states": dict(FILTER_STATES),
        "conditions": dict(CONDITIONS),
        "costs": dict(COSTS),
        "unless": dict(UNLESS),
        "choose": {"max_options": CHOOSE_MAX_OPTIONS, "count": "how many options are chosen (1 or more, "
                   "fewer than the options; default 1)", "step_keys": sorted(set(KEYS) - _ENTRY_ONLY)},
        "arrange": {"max": ARRANGE_MAX},
        "keys": dict(KEYS),
        "speed": list(SPEED_RANGE),
    }


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _one_of(names: Iterable[str]) -> str:
    return ", ".join(names)


def check_effects(effects: object, stat_names: Iterable[str], field: str, add: AddProblem,
                  x_cost: bool = False, filter_keys: Iterable[str] | None = None,
                  path: tuple[int | str, ...] = ()) -> None:
    """Report every entry of ``effects`` that breaks the vocabulary through ``add``.

    ``add(severity, code, message, rule, field=…, actual=…, limit=…)`` is the card validator's
    collector; ``stat_names`` are the game's numeric stats (``modify_stats`` keys); ``x_cost``: the
    card itself costs X, so ``amount: X`` needs no X cost of its own; ``filter_keys`` the names a
    ``filter`` may use (the game's card fields and stats, and ``FILTER_STATES``). Unknown names
    are errors (a typo would silently never run); unknown keys are warnings (kept, not used).
    Every problem carries ``path=(index,)``, the entry's place in the list (``path`` is put in
    front: a step of a choose option is checked with its option's path), so the editor places it
    next to its row without reading the message. Never raises.
    """
    if not isinstance(effects, list):
        return  # the field schema already reports a non-list
    stats_allowed = sorted(stat_names)
    for index, entry in enumerate(effects):
        where = f"effect {index + 1}"
        at_path = path or (index,)

        def bad(code: str, message: str, actual: Any = None, limit: Any = None,
                severity: str = "error", where: str = where, at_path: tuple[int | str, ...] = at_path) -> None:
            add(severity, code, f"{where}: {message}", RULE, field=field, actual=actual, limit=limit,
                path=at_path)

        if not isinstance(entry, Mapping):
            bad("effect.shape", "must be a mapping of keys (trigger, action, target, …)", entry)
            continue
        action = entry.get("action")
        spec = ACTIONS.get(action) if isinstance(action, str) else None
        if action is None:
            bad("effect.missing_action", f"action is missing; one of {_one_of(ACTIONS)}", None, list(ACTIONS))
        elif spec is None:
            bad("effect.unknown_action", f"action is {action!r}; allowed: {_one_of(ACTIONS)}",
                action, list(ACTIONS))
        trigger = entry.get("trigger")
        if trigger is None:
            bad("effect.missing_trigger", f"trigger is missing; one of {_one_of(TRIGGERS)}", None, list(TRIGGERS))
        elif trigger not in TRIGGERS:
            bad("effect.unknown_trigger", f"trigger is {trigger!r}; allowed: {_one_of(TRIGGERS)}",
                trigger, list(TRIGGERS))
        target = entry.get("target")
        if target is not None and target not in TARGETS:
            bad("effect.unknown_target", f"target is {target!r}; allowed: {_one_of(TARGETS)}",
                target, list(TARGETS))
        for key in entry:
            if key not in KEYS:
                bad("effect.unknown_key", f"key {key!r} is not part of the effect vocabulary; it is "
                    f"kept but not used (keys: {_one_of(KEYS)})", key, list(KEYS), severity="warning")
        _check_amount(entry, spec, bad, x_cost)
        _check_stats(entry, spec, action, stats_allowed, bad)
        _check_cost_and_speed(entry, bad)
        _check_reach(entry, action, bad, None if filter_keys is None else sorted(filter_keys))
        _check_trigger_keys(entry, spec, action, trigger, bad, None if filter_keys is None else sorted(filter_keys))
        _check_choices(entry, action, bad, where, stat_names, field, add, x_cost, filter_keys, at_path)
        _check_token(entry, action, stats_allowed, bad, None if filter_keys is None else set(filter_keys))


def _check_choices(entry: Mapping[str, Any], action: object, bad: Callable[..., None], where: str,
                   stat_names: Iterable[str], field: str, add: AddProblem, x_cost: bool,
                   filter_keys: Iterable[str] | None, path: tuple[int | str, ...] = ()) -> None:
    """``unless`` on any entry; ``options`` (and ``count``) of ``choose``, each step checked as an
    entry of its own under the choose entry's trigger."""
    unless = entry.get("unless")
    if unless is not None:
        if action == "choose":
            bad("effect.bad_unless", "unless goes on a step of an option, not on choose itself", unless)
        elif not (isinstance(unless, Mapping) and len(unless) == 1):
            bad("effect.bad_unless", f"unless is {unless!r}; write one of {_one_of(f'{{{k}: N}}' for k in UNLESS)}",
                unless, list(UNLESS))
        else:
            (key, value), = unless.items()
            if key not in UNLESS:
                bad("effect.bad_unless", f"unless key is {key!r}; allowed: {_one_of(UNLESS)}", key, list(UNLESS))
            elif not (_is_int(value) and value >= 1):
                bad("effect.bad_unless", f"unless {key} is {value!r}; a whole number 1 or more", value, 1)
    if action == "arrange":
        amount = entry.get("amount")
        if isinstance(amount, int) and not isinstance(amount, bool) and not 1 <= amount <= ARRANGE_MAX:
            bad("effect.bad_amount", f"arrange looks at {amount!r} cards; 1 to {ARRANGE_MAX}", amount,
                [1, ARRANGE_MAX])
    options = entry.get("options")
    if action != "choose":
        if options is not None:
            bad("effect.unused_key", f"options only apply to choose, not {action}", severity="warning")
        return
    if not isinstance(options, list) or not 2 <= len(options) <= CHOOSE_MAX_OPTIONS:
        bad("effect.bad_options", f"choose needs options: a list of 2 to {CHOOSE_MAX_OPTIONS} options, each a "
            "step (a mapping) or a list of steps", options, [2, CHOOSE_MAX_OPTIONS])
        return
    count = entry.get("count", 1)
    if _is_int(count) and count >= len(options):
        bad("effect.bad_count", f"choose {count} of {len(options)} options leaves nothing to choose; "
            f"count must be 1 to {len(options) - 1}", count, [1, len(options) - 1])
    for k, option in enumerate(options, 1):
        steps = option if isinstance(option, list) else [option]
        if not steps:
            bad("effect.bad_options", f"option {k} has no step", option)
        for n, step in enumerate(steps, 1):
            at = f"{where}, option {k}" + (f", step {n}" if len(steps) > 1 else "")
            step_path = path + ("options", k - 1, n - 1)
            if not isinstance(step, Mapping):
                bad("effect.bad_options", f"option {k}: a step is a mapping (action, target, …)", step,
                    at_path=step_path)
                continue
            extra = sorted(set(step) & _ENTRY_ONLY)
            if extra:
                bad("effect.bad_options", f"option {k}: {', '.join(extra)} belong to the choose entry, not to "
                    f"a step", extra, at_path=step_path)
            if step.get("action") == "choose":
                bad("effect.bad_options", f"option {k}: a choose inside a choose is not allowed", "choose",
                    at_path=step_path)
                continue

            def add_step(severity: str, code: str, message: str, rule: str, at: str = at, **kw: Any) -> None:
                add(severity, code, at + ":" + message.partition(":")[2], rule, **kw)

            inner = {key: value for key, value in step.items() if key not in _ENTRY_ONLY}
            inner["trigger"] = entry.get("trigger")
            check_effects([inner], stat_names, field, add_step, x_cost, filter_keys, step_path)


TOKEN_FIELDS = frozenset({"name", "subtype", "attribute", "keywords", "race", "element", "class"})
"""Printed fields a ``token`` may give besides its stats (the ones a game has)."""


def _check_token(entry: Mapping[str, Any], action: object, stats_allowed: list[str], bad: Callable[..., None],
                 filter_keys: set[str] | None) -> None:
    token = entry.get("token")
    if action != "create_token":
        if token is not None:
            bad("effect.unused_key", f"token only applies to create_token, not {action}", severity="warning")
        return
    example = "{name: 衍生物, " + ", ".join(f"{k}: 1" for k in (stats_allowed or ["atk", "def"])) + "}"
    if not isinstance(token, Mapping):
        bad("effect.bad_token", f"create_token needs token: the token's name and stats, e.g. {example}", token)
        return
    name = token.get("name")
    if not isinstance(name, str) or not name.strip():
        bad("effect.bad_token", f"token needs a name, e.g. {example}", token)
    for stat in stats_allowed:
        value = token.get(stat)
        if not (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            bad("effect.bad_token", f"token {stat} is {value!r}; a whole number 0 or more (the token's "
                f"stats: {_one_of(stats_allowed)})", value, stats_allowed)
    for key in token:
        if key in stats_allowed or key == "name":
            continue
        if key not in TOKEN_FIELDS or (filter_keys is not None and key not in filter_keys):
            allowed = sorted({"name", *stats_allowed} | (TOKEN_FIELDS & (filter_keys or TOKEN_FIELDS)))
            bad("effect.bad_token", f"token key {key!r} is not a token field; allowed: {_one_of(allowed)}",
                key, allowed)


def _check_amount(entry: Mapping[str, Any], spec: ActionSpec | None, bad: Callable[..., None],
                  x_cost: bool = False) -> None:
    amount = entry.get("amount")
    if amount is None:
        if spec is not None and spec.needs_amount:
            bad("effect.missing_amount", f"{entry.get('action')} needs an amount (a whole number)")
        return
    if amount == "X":
        if not x_cost and not (isinstance(entry.get("cost"), Mapping) and entry["cost"].get("mana") == "X"):
            bad("effect.amount_x", "amount X needs an X mana cost (cost: {mana: X}, or the card's cost X)",
                amount)
    elif spec is not None and spec.signed:
        if not _is_int(amount):
            bad("effect.bad_amount", f"amount is {amount!r}; it must be a whole number (-1: one less)", amount)
    elif not _is_int(amount) or amount < 0:
        bad("effect.bad_amount", f"amount is {amount!r}; it must be a whole number 0 or more (or X)", amount, 0)


def _check_stats(entry: Mapping[str, Any], spec: ActionSpec | None, action: object,
                 stats_allowed: list[str], bad: Callable[..., None]) -> None:
    stats = entry.get("stats")
    if stats is None:
        if spec is not None and spec.needs_stats:
            bad("effect.missing_stats", f"modify_stats needs stats, e.g. {{{(stats_allowed or ['atk'])[0]}: 1}}",
                None, stats_allowed)
    elif not isinstance(stats, Mapping) or not stats:
        bad("effect.bad_stats", f"stats is {stats!r}; it must map stat names to whole numbers", stats, stats_allowed)
    else:
        for name, change in stats.items():
            if stats_allowed and name not in stats_allowed:
                bad("effect.unknown_stat", f"stat {name!r} is not a stat of this game; allowed: "
                    f"{_one_of(stats_allowed)}", name, stats_allowed)
            if not _is_int(change):
                bad("effect.bad_stats", f"stats change {name}: {change!r} must be a whole number", change)
    duration = entry.get("duration")
    if duration is not None and duration not in DURATIONS:
        bad("effect.unknown_duration", f"duration is {duration!r}; allowed: {_one_of(DURATIONS)}",
            duration, list(DURATIONS))
    if action not in (None, "modify_stats") and (stats is not None or duration is not None):
        bad("effect.unused_key", f"stats and duration only apply to modify_stats, not {action}",
            severity="warning")


def _check_cost_and_speed(entry: Mapping[str, Any], bad: Callable[..., None]) -> None:
    cost = entry.get("cost")
    if cost is not None:
        if not isinstance(cost, Mapping):
            bad("effect.bad_cost", f"cost is {cost!r}; write {{mana: N, tap: true}}", cost)
        else:
            for key, value in cost.items():
                if key == "mana" and not (value == "X" or (_is_int(value) and value >= 0)):
                    bad("effect.bad_cost", f"cost mana is {value!r}; a whole number 0 or more, or X", value)
                elif key == "tap" and not isinstance(value, bool):
                    bad("effect.bad_cost", f"cost tap is {value!r}; true or false", value)
                elif key == "sacrifice" and isinstance(value, Mapping):
                    if set(value) - {"count", "filter"} or not (_is_int(value.get("count", 1)) and value.get("count", 1) >= 1):
                        bad("effect.bad_cost", f"cost sacrifice is {value!r}; N or {{count: N, filter: {{...}}}}", value)
                elif key in ("pay_life", "discard", "sacrifice", "exile_from_graveyard") and not (
                        _is_int(value) and value >= 1):
                    bad("effect.bad_cost", f"cost {key} is {value!r}; a whole number 1 or more", value, 1)
                elif key == "remove_counters":
                    if not (isinstance(value, Mapping) and value and all(
                            isinstance(k, str) and _is_int(v) and v >= 1 for k, v in value.items())):
                        bad("effect.bad_cost", f"cost remove_counters is {value!r}; write {{charge: 2}}", value)
                elif key not in COSTS:
                    bad("effect.bad_cost", f"cost key {key!r} is unknown; allowed: {_one_of(COSTS)}", key, list(COSTS))
    speed = entry.get("speed")
    low, high = SPEED_RANGE
    if speed is not None and not (_is_int(speed) and low <= speed <= high):
        bad("effect.bad_speed", f"speed is {speed!r}; it must be {low}, 2 or {high}", speed, [low, high])
    once = entry.get("once_per_turn")
    if once is not None and not isinstance(once, bool):
        bad("effect.bad_once_per_turn", f"once_per_turn is {once!r}; true or false", once)


_CHOSEN_TARGETS = ("own_creature", "enemy_creature", "any_creature", "any_player")


def _check_reach(entry: Mapping[str, Any], action: object, bad: Callable[..., None],
                 filter_keys: list[str] | None) -> None:
    """The version-2 keys: filter, random, count, if, per and the zone keys of move."""
    from workbench.domain.effects.filters import read_condition, read_filter, read_zone_count

    def report(problems: list[tuple[str, str, Any, Any]]) -> None:
        for code, message, actual, limit in problems:
            bad(code, message, actual, limit)

    if "filter" in entry:
        report(read_filter(entry["filter"], filter_keys)[1])
    if "if" in entry:
        report(read_condition(entry["if"], filter_keys)[1])
    if "per" in entry:
        report(read_zone_count("per", entry["per"], filter_keys, bounded=False)[1])
    rand = entry.get("random")
    if rand is not None and not isinstance(rand, bool):
        bad("effect.bad_random", f"random is {rand!r}; true or false", rand)
    count = entry.get("count")
    if count is not None and not (_is_int(count) and count >= 1):
        bad("effect.bad_count", f"count is {count!r}; a whole number 1 or more", count, 1)
    counter = entry.get("counter")
    if action in ("add_counters", "remove_counters"):
        if not isinstance(counter, str) or not counter.strip():
            bad("effect.missing_counter", f"{action} needs counter: the counters' name, e.g. charge", counter)
    elif counter is not None:
        bad("effect.unused_key", f"counter only applies to add_counters and remove_counters, not {action}",
            severity="warning")
    ready = entry.get("ready")
    if ready is not None:
        if not isinstance(ready, bool):
            bad("effect.bad_ready", f"ready is {ready!r}; true or false", ready)
        elif action != "move" or entry.get("to") != "field":
            bad("effect.unused_key", "ready only applies to move to: field", severity="warning")
    trigger_side = entry.get("trigger") in TRIGGER_SIDES
    zone_keys = [k for k in ("from", "to", "side", "pick", "look") if k in entry
                 and not (k == "side" and trigger_side)]
    if action != "move":
        if zone_keys:
            bad("effect.unused_key", f"{', '.join(zone_keys)} only apply to move, not {action}",
                severity="warning")
        if (count is not None and action != "create_token" and entry.get("target") in _CHOSEN_TARGETS
                and rand is not True):
            bad("effect.bad_count", f"count on a chosen target needs random: true (players are asked "
                f"for one {entry.get('target')})", count)
        return
    src, dst = entry.get("from", "field"), entry.get("to")
    if dst is None:
        bad("effect.missing_zone", f"move needs to: one of {_one_of(ZONES)}", None, list(ZONES))
    for name, zone in (("from", src), ("to", dst)):
        if zone is not None and zone not in ZONES:
            bad("effect.unknown_zone", f"{name} is {zone!r}; allowed: {_one_of(ZONES)}", zone, list(ZONES))
    if src == dst == "field":
        bad("effect.bad_zone", "move from field to field does nothing; name another zone")
    if src in ("deck_bottom",):
        bad("effect.bad_zone", "from deck_bottom is not a zone to take from; use deck_top or deck", src)
    side = entry.get("side")
    if side is not None and side not in SIDES:
        bad("effect.unknown_side", f"side is {side!r}; allowed: {_one_of(SIDES)}", side, list(SIDES))
    pick = entry.get("pick")
    if pick is not None and pick not in PICKS:
        bad("effect.unknown_pick", f"pick is {pick!r}; allowed: {_one_of(PICKS)}", pick, list(PICKS))
    look = entry.get("look")
    if pick == "choose" and (side not in (None, "own") or (isinstance(count, int) and count > 1)
                             or (src == "deck_top" and look is None) or src == "field"):
        bad("effect.bad_pick", "pick: choose takes one card (count 1) of your own zone (side: own); from "
            "deck_top it needs look: N", pick, ["side: own", "count: 1"])
    look = entry.get("look")
    if look is not None and (not (_is_int(look) and look >= 1) or src != "deck_top"):
        bad("effect.bad_look", f"look is {look!r}; a whole number 1 or more, with from: deck_top", look)
    if src != "field" and "target" in entry:
        bad("effect.unused_key", f"target only applies to move from field, not from {src}",
            severity="warning")
    if src == "field" and (side is not None or pick is not None):
        bad("effect.unused_key", "side and pick apply to move from a zone; from field takes a target",
            severity="warning")


def _check_trigger_keys(entry: Mapping[str, Any], spec: ActionSpec | None, action: object, trigger: object,
                        bad: Callable[..., None], filter_keys: list[str] | None) -> None:
    """Version-2 triggers, static rules and the while_on_field duration."""
    from workbench.domain.effects.filters import read_filter

    if spec is not None and spec.static:
        if trigger is not None and trigger != "continuous":
            bad("effect.static_trigger", f"{action} is a static rule: it holds while the card is on the field, "
                f"so its trigger is continuous (not {trigger})", trigger, ["continuous"])
        target = entry.get("target", DEFAULT_TARGET.get(str(action)))
        allowed = STATIC_TARGETS.get(str(action), STATIC_CREATURES)
        if target is not None and target in TARGETS and target not in allowed:
            bad("effect.static_target", f"{action} reaches {target}; allowed: {_one_of(sorted(allowed))}",
                target, sorted(allowed))
    if trigger == "on_phase":
        phase = entry.get("phase")
        names = phase if isinstance(phase, list) else [phase]
        if phase is None:
            bad("effect.missing_phase", "on_phase needs phase: the name of the phase that begins "
                "(warzone wake, recruit, war, return, night; fusion ready, draw, main1, battle, main2, end; "
                "seth fast, medium, slow)")
        elif not names or not all(isinstance(n, str) and n.strip() for n in names):
            bad("effect.bad_phase", f"phase is {phase!r}; a phase name or a list of them", phase)
    elif "phase" in entry:
        bad("effect.unused_key", f"phase only applies to the on_phase trigger, not {trigger}", severity="warning")
    if trigger in TRIGGER_SIDES:
        side = entry.get("side")
        if side is not None and side not in SIDES:
            bad("effect.unknown_side", f"side is {side!r}; allowed: {_one_of(SIDES)}", side, list(SIDES))
    if "played" in entry:
        if trigger != "on_opponent_play":
            bad("effect.unused_key", f"played only applies to the on_opponent_play trigger, not {trigger}",
                severity="warning")
        else:
            for code, message, actual, limit in read_filter(entry["played"], filter_keys)[1]:
                bad(code, message.replace("filter", "played", 1), actual, limit)
    if entry.get("duration") == "while_on_field" and trigger == "continuous":
        bad("effect.unused_key", "a continuous effect always lasts while its card is on the field; "
            "while_on_field is for a change another trigger makes", severity="warning")
