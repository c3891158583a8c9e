"""Seth monster cards as the engine reads them (RULES.md §2.1) and their runnable effects.

A MonsterCard is immutable and shared by every clone of a state; only the Monster instances in
``state.py`` change during a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from workbench.domain.errors import WorkbenchError

PHASES: tuple[str, ...] = ("fast", "medium", "slow")
PHASE_INDEX: dict[str, int] = {name: i for i, name in enumerate(PHASES)}
ELEMENTS: tuple[str, ...] = ("physical", "fire", "poison", "magical")

SUPPORTED_TRIGGERS = frozenset({"on_play", "on_destroyed", "activated", "continuous",
                                "start_of_turn", "end_of_turn"})
SUPPORTED_ACTIONS = frozenset({"damage", "heal", "add_poison", "modify_stats", "destroy"})
SINGLE_TARGETS = frozenset({"own_creature", "enemy_creature", "any_creature"})
SUPPORTED_TARGETS = frozenset({"self", "this", "own_creatures", "enemy_creatures"}) | SINGLE_TARGETS
STAT_KEYS = frozenset({"damage", "health"})
HARMFUL = frozenset({"damage", "destroy", "add_poison"})
SUPPORTED_KEYWORDS = frozenset({"flight"})


class CardError(WorkbenchError):
    """A monster card lacks a field the engine needs or has a value it cannot read."""


class IllegalLineup(WorkbenchError):
    """A team breaks the line-up rules of §2.2 (size, Power limit, copies)."""


@dataclass(frozen=True)
class Effect:
    """One runnable entry of a card's ``effects`` list (docs/effects.md)."""

    trigger: str
    action: str
    target: str
    amount: int
    damage_mod: int
    health_mod: int
    permanent: bool
    index: int = 0
    """Position of the entry in the card's ``effects`` list (ability actions name it)."""
    single_target: bool = False
    """True when the controller picks one monster (own_creature, enemy_creature, any_creature)."""
    harmful: bool = False
    """Whether the effect hurts its target (so AI players aim it at the enemy)."""

    def __post_init__(self) -> None:
        # Derived flags, stored as fields because the hot path reads them many times a game.
        object.__setattr__(self, "single_target", self.target in SINGLE_TARGETS)
        harmful = self.action in HARMFUL or (
            self.action == "modify_stats" and self.damage_mod + self.health_mod < 0
        )
        object.__setattr__(self, "harmful", harmful)

    def describe(self) -> str:
        """A short readable text, e.g. ``damage 2`` or ``modify damage -2``."""
        if self.action == "modify_stats":
            parts = [f"{k} {v:+d}" for k, v in (("damage", self.damage_mod), ("health", self.health_mod)) if v]
            return "modify " + ", ".join(parts)
        if self.action == "destroy":
            return "destroy"
        return f"{self.action.replace('_', ' ')} {self.amount}"


@dataclass(frozen=True)
class MonsterCard:
    """A monster's printed fields (§2.1) and the effects this engine can run."""

    id: str
    name: str
    power: int
    damage: int
    health: int
    phases: frozenset[int]
    element: str
    resist: frozenset[str]
    vulnerable: frozenset[str]
    flight: bool
    effects: tuple[Effect, ...]
    simulated: bool
    """False when the card's text has effects the engine cannot run (reported in playtests)."""
    triggered: Mapping[str, tuple[Effect, ...]]
    """The effects by trigger, for quick look-up in the hot path."""
    last_phase: int = field(init=False, default=0)
    """The latest phase (0-2) the monster can act in; derived from ``phases``."""
    abilities: tuple[Effect, ...] = field(init=False, default=())
    """The ``activated`` and ``on_play`` effects, in card order (step 2 of a phase offers them)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "last_phase", max(self.phases))
        object.__setattr__(self, "abilities",
                           tuple(e for e in self.effects if e.trigger in ("activated", "on_play")))


def _int(card: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = card.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardError(f"monster {card.get('id', '?')!r}: {key} must be an integer, got {value!r}")
    return value


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value.lower()]
    return [str(v).lower() for v in value]


def parse_effect(raw: Mapping[str, Any]) -> Effect | None:
    """Return the runnable Effect for one effects entry, or None when the engine cannot run it."""
    trigger = raw.get("trigger")
    action = raw.get("action")
    target = raw.get("target", "this" if action in ("modify_stats", "heal") else "enemy_creature")
    if trigger not in SUPPORTED_TRIGGERS or action not in SUPPORTED_ACTIONS or target not in SUPPORTED_TARGETS:
        return None
    amount = raw.get("amount", 0)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        return None
    damage_mod = health_mod = 0
    if action == "modify_stats":
        stats = raw.get("stats") or {}
        if not isinstance(stats, Mapping) or not stats or set(stats) - STAT_KEYS:
            return None
        damage_mod = int(stats.get("damage", 0))
        health_mod = int(stats.get("health", 0))
    if trigger == "continuous" and action != "modify_stats":
        return None  # a continuous effect is a standing stat change; anything else cannot run
    if trigger == "continuous" and target in SINGLE_TARGETS:
        return None
    permanent = raw.get("duration", "end_of_turn") == "permanent" or trigger == "continuous"
    return Effect(str(trigger), str(action), str(target), amount, damage_mod, health_mod, permanent)


_PARSED: dict[int, tuple[Mapping[str, Any], MonsterCard]] = {}


def parse_card(card: Mapping[str, Any]) -> MonsterCard:
    """Read one card mapping (card fields plus ``id``) into a MonsterCard.

    Playtests start thousands of games from the same deck mappings, so the result is cached per
    mapping object (the cache holds the mapping, so its id cannot be reused while cached).
    Raises CardError when power, damage, health, speed or element is missing or unreadable.
    """
    hit = _PARSED.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    parsed = _parse_card(card)
    if len(_PARSED) > 4096:
        _PARSED.clear()
    _PARSED[id(card)] = (card, parsed)
    return parsed


def _parse_card(card: Mapping[str, Any]) -> MonsterCard:
    card_id = str(card.get("id") or card.get("name") or "?")
    phases = frozenset(PHASE_INDEX[s] for s in _names(card.get("speed")) if s in PHASE_INDEX)
    if not phases:
        raise CardError(f"monster {card_id!r}: speed must name fast, medium or slow")
    element = str(card.get("element", "physical")).lower()
    if element not in ELEMENTS:
        raise CardError(f"monster {card_id!r}: unknown element {element!r}")
    keywords = set(_names(card.get("keywords")))
    raw_effects = card.get("effects") or []
    effects: list[Effect] = []
    all_run = True
    for position, raw in enumerate(raw_effects):
        effect = parse_effect(raw) if isinstance(raw, Mapping) else None
        if effect is None:
            all_run = False
        else:
            effects.append(replace(effect, index=position))
    text = str(card.get("text") or "").strip()
    runs_something = bool(effects) or bool(keywords & SUPPORTED_KEYWORDS)
    simulated = all_run and (not text or runs_something) and not (keywords - SUPPORTED_KEYWORDS)
    health = _int(card, "health")
    if health < 1:
        raise CardError(f"monster {card_id!r}: health must be at least 1")
    return MonsterCard(
        id=card_id,
        name=str(card.get("name") or card_id),
        power=_int(card, "power", 0),
        damage=_int(card, "damage"),
        health=health,
        phases=phases,
        element=element,
        resist=frozenset(_names(card.get("resist"))),
        vulnerable=frozenset(_names(card.get("vulnerable"))),
        flight="flight" in keywords,
        effects=tuple(effects),
        simulated=simulated,
        triggered={t: tuple(e for e in effects if e.trigger == t) for t in {e.trigger for e in effects}},
    )


def check_lineup(cards: Sequence[MonsterCard], options: Mapping[str, Any], who: str) -> None:
    """Raise IllegalLineup when a team breaks §2.2: size, total Power, copies of one monster."""
    size = options.get("team_size", 5)
    if size is not None and len(cards) != size:
        raise IllegalLineup(f"{who} brings {len(cards)} monsters; a line-up has exactly {size} (§2.2.1)")
    limit = options.get("power_limit", 30)
    total = sum(c.power for c in cards)
    if limit is not None:
        strict = options.get("power_limit_strict", True)
        if total > limit or (strict and total == limit):
            relation = "less than" if strict else "at most"
            raise IllegalLineup(f"{who}'s total Power is {total}; it must be {relation} {limit} (§2.2.2)")
    max_copies = options.get("max_copies")
    if max_copies:
        counts: dict[str, int] = {}
        for c in cards:
            counts[c.id] = counts.get(c.id, 0) + 1
        for card_id, n in counts.items():
            if n > max_copies:
                raise IllegalLineup(f"{who} brings {n} copies of {card_id}; the limit is {max_copies} (§2.2.3)")
