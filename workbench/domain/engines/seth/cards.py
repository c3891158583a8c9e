"""Seth monster cards as the engine reads them (RULES.md §2.1) and their runnable effects
(parsed by ``workbench.domain.effects`` against ``adapter.CAPABILITIES``).

A MonsterCard is immutable and shared by every clone of a state; only the Monster instances in
``state.py`` change during a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.domain.effects.parse import parse_effects
from workbench.domain.effects.parse import simulated as simulated_as_written
from workbench.domain.engines.seth.adapter import CAPABILITIES, SINGLE_TARGETS, Effect
from workbench.domain.errors import WorkbenchError

__all__ = ["ELEMENTS", "PHASES", "PHASE_INDEX", "SINGLE_TARGETS", "SUPPORTED_ACTIONS", "SUPPORTED_KEYWORDS",
           "CardError", "Effect", "IllegalLineup", "MonsterCard", "check_lineup", "parse_card"]

PHASES: tuple[str, ...] = ("fast", "medium", "slow")
PHASE_INDEX: dict[str, int] = {name: i for i, name in enumerate(PHASES)}
ELEMENTS: tuple[str, ...] = ("physical", "fire", "poison", "magical")

SUPPORTED_ACTIONS = CAPABILITIES.verbs
SUPPORTED_KEYWORDS = CAPABILITIES.keywords


class CardError(WorkbenchError):
    """A monster card lacks a field the engine needs or has a value it cannot read."""


class IllegalLineup(WorkbenchError):
    """A team breaks the line-up rules of §2.2 (size, Power limit, copies)."""


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
    activated: tuple[Effect, ...] = field(init=False, default=())
    """The ``activated`` effects, in card order: all that step 2 offers once the monster's
    first assignment (and its on_play triggers) is past."""
    size_value: float = field(init=False, default=1.0)
    """``power * 0.5 + 1``: the part of the heuristic player's value of a monster that its
    Damage does not change (agents._value), kept so the player's hot loops do not recompute it."""
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The card mapping itself (effect filters read its other fields, e.g. race)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "last_phase", max(self.phases))
        object.__setattr__(self, "abilities",
                           tuple(e for e in self.effects if e.trigger in ("activated", "on_play")))
        object.__setattr__(self, "activated", tuple(e for e in self.effects if e.trigger == "activated"))
        object.__setattr__(self, "size_value", self.power * 0.5 + 1)


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
    parsed = parse_effects(str(card.get("kind") or "monster"), card.get("effects"), CAPABILITIES)
    effects = parsed.runnable
    keywords = set(_names(card.get("keywords")))
    simulated = simulated_as_written(dict(card, keywords=sorted(keywords)), parsed, CAPABILITIES)
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
        effects=effects,  # type: ignore[arg-type]  # parsed with CAPABILITIES.spec_type = Effect
        simulated=simulated,
        triggered=parsed.by_trigger,  # type: ignore[arg-type]  # the same Effect specs by trigger
        data=card,
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
