"""Warzone cards as the engine sees them: immutable card instances with parsed effects.

A deck's card mappings are turned into :class:`Card` objects once per game. Cards never change
while a game runs (damage, position and stat changes live on :class:`~.units.Unit`), so hands,
decks and piles can share them between cloned states.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.domain.effects.parse import ParsedEffects, parse_effects, simulated
from workbench.domain.engines.base import Action
from workbench.domain.engines.warzone.adapter import (
    ALL_CREATURES,
    CAPABILITIES,
    CHOSEN_CREATURE,
    PLAYER_TARGETS,
    Effect,
)
from workbench.domain.engines.warzone.rules import reach_kind

__all__ = ["ALL_CREATURES", "BATTLING", "CHOSEN", "CHOSEN_CREATURE", "GUARDING", "PLAYER_TARGETS",
           "SUPPORTED_ACTIONS", "Card", "Effect", "ParsedEffects", "make_card", "parse_card_effects"]

SUPPORTED_ACTIONS = CAPABILITIES.verbs
"""Effect actions of docs/effects.md this engine runs."""

CHOSEN = CHOSEN_CREATURE | {"any_player"}

BATTLING = "battling"
GUARDING = "guarding"


class Card:
    """One physical card of a player's deck (immutable during play)."""

    __slots__ = ("iid", "id", "name", "kind", "cls", "degree", "strength", "resilience",
                 "master", "text", "owner", "effects", "on_play", "on_destroyed", "activated",
                 "continuous", "start_turn", "end_turn", "on_attack", "on_attacked", "on_leave", "on_block",
                 "on_blocked", "on_damaged", "on_deal_damage", "on_enter", "on_draw", "on_opponent_play",
                 "on_phase", "statics", "filtered", "v2", "unsimulated",
                 "pays", "data", "_proto",
                 "band", "body_band", "value", "plain_play", "recruit_acts", "spell_act", "pos_act",
                 "acts", "list_slot", "play_acts", "lists_targets", "target_acts", "is_trap", "quick", "settable",
                 "heal_trigger", "set_act", "on_attacker", "negates", "quick_effect", "reach_kind")

    # the parsed, owner-independent fields, copied from the card's _Proto (see _STATIC)
    id: str
    name: str
    kind: str
    cls: int
    degree: int
    strength: int
    resilience: int
    master: bool
    text: str
    data: Mapping[str, Any]
    effects: tuple[Effect, ...]
    on_play: tuple[Effect, ...]
    on_destroyed: tuple[Effect, ...]
    activated: tuple[Effect, ...]
    continuous: tuple[Effect, ...]
    start_turn: tuple[Effect, ...]
    end_turn: tuple[Effect, ...]
    on_attack: tuple[Effect, ...]
    on_attacked: tuple[Effect, ...]
    on_leave: tuple[Effect, ...]
    on_block: tuple[Effect, ...]
    on_blocked: tuple[Effect, ...]
    on_damaged: tuple[Effect, ...]
    on_deal_damage: tuple[Effect, ...]
    on_enter: tuple[Effect, ...]
    on_draw: tuple[Effect, ...]
    on_opponent_play: tuple[Effect, ...]
    on_phase: tuple[Effect, ...]
    statics: tuple[Effect, ...]
    filtered: tuple[Effect, ...]
    v2: frozenset[str]
    pays: bool
    unsimulated: bool
    play_acts: tuple[Action, ...]

    def __init__(self, iid: str, data: Mapping[str, Any], owner: int) -> None:
        self.iid = iid
        self.owner = owner
        proto = _proto(data)
        self._proto = proto
        for name in _STATIC:
            setattr(self, name, getattr(proto, name))
        self.band = 0 if self.degree <= 1 else (1 if self.degree <= 3 else 2)
        self.body_band = self.band if self.kind == "creature" else 9  # 9: not a body (AI players)
        self.value = self.strength + self.resilience  # a rough worth of the body (AI players)
        self.plain_play = not any(e.chooses for e in self.on_play)
        # Actions naming this card, built once: legal actions are listed at every decision.
        self.recruit_acts = (Action("recruit", (iid, BATTLING), f"recruit {self.name} (battling)"),
                             Action("recruit", (iid, GUARDING), f"recruit {self.name} (guarding)"))
        self.spell_act = Action("spell", (iid,), f"activate {self.name}")
        self.pos_act = Action("position", (iid,), f"switch the position of {self.name}")
        self.acts: dict[Any, Action] = {}  # attack actions by target, filled on first use
        self.reach_kind = reach_kind(self.cls, self.master)  # its row in rules.reach_by_rows
        self.target_acts: dict[tuple, Any] = {}  # actions by chosen targets, filled on first use
        self.is_trap = self.kind == "trap" and bool(self.on_play)  # may answer (with an effect)
        # A quick spell (an effect of speed 2) may answer in either turn (§1.12.1).
        self.quick = self.kind == "spell" and any(e.speed >= 2 for e in self.on_play)
        keywords = proto.keywords
        self.settable = self.kind == "creature" and "settable" in keywords  # §1.12.7
        self.heal_trigger = "heal_trigger" in keywords  # §1.12.5
        self.set_act = Action("set", (iid,), f"set {self.name} face down")
        # How the hand lists it in Recruitment/Return (state._hand_part): list_slot 0-2 a
        # creature of that Degree band, 3 a spell, 4 a trap to set (Decision §1.12.2), -1 never
        # (an Area is placed, a trap without effect answers nothing); play_acts its actions
        # without a chosen target (a settable creature's set last, §1.12.7), and lists_targets
        # whether its recruit or cast is listed per chosen target (from the field) instead.
        self.lists_targets = not self.plain_play and self.kind in ("creature", "spell")
        set_acts = (self.set_act,) if self.settable else ()
        if self.kind == "creature":
            self.list_slot = self.band
            self.play_acts = (self.recruit_acts if self.plain_play else ()) + set_acts
        elif self.kind == "spell":
            self.list_slot, self.play_acts = 3, (self.spell_act,) if self.plain_play else ()
        elif self.is_trap:
            self.list_slot, self.play_acts = 4, (self.set_act,)
        else:
            self.list_slot, self.play_acts = -1, ()
        self.on_attacker = any(e.target == "attacker" for e in self.on_play)  # answers attacks
        self.negates = any(e.action == "negate" for e in self.on_play)
        # A creature's activated effect of speed 2 is a quick effect: an answer too (§1.12.3).
        self.quick_effect = self.kind == "creature" and any(e.speed >= 2 for e in self.activated)

    def __repr__(self) -> str:
        return f"Card({self.iid})"


class _Proto:
    """The parsed, owner-independent part of a card mapping (shared by all its copies)."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.snapshot = dict(data)  # detects a mapping changed in place since it was parsed
        self.id = str(data.get("id", "card"))
        self.name = str(data.get("name", self.id))
        self.kind = str(data.get("kind", "creature"))
        self.cls = _int(data.get("class"), 1) if self.kind == "creature" else 0
        if self.cls not in (1, 2, 3) and self.kind == "creature":
            self.cls = 1
        self.degree = _int(data.get("degree"), 0)
        self.strength = _int(data.get("strength"), 0)
        self.resilience = _int(data.get("resilience"), 0)
        self.master = bool(data.get("class_master", False))
        self.text = str(data.get("text") or "")
        raw = data.get("keywords") or ()
        self.keywords = frozenset(str(k).lower() for k in (raw if isinstance(raw, (list, tuple))
                                                            else (raw,)))
        parsed = parse_card_effects(self.kind, data.get("effects"))
        self.effects = parsed.runnable
        self.on_play = parsed.of("on_play")
        self.on_destroyed = parsed.of("on_destroyed")
        self.activated = parsed.of("activated")
        standing = parsed.of("continuous")
        # continuous: stat changes (a flag too: its card entering or leaving changes the bonuses);
        # filtered: those reaching the creatures that match a filter, not rows; statics: static rules
        self.continuous = tuple(e for e in standing if not e.static)
        self.filtered = tuple(e for e in self.continuous if e.filter is not None)
        self.statics = tuple(e for e in standing if e.static)
        self.start_turn = parsed.of("start_of_turn")
        self.end_turn = parsed.of("end_of_turn")
        self.on_attack = parsed.of("on_attack")
        self.on_attacked = parsed.of("on_attacked")
        self.on_leave = parsed.of("on_leave")
        self.on_block = parsed.of("on_block")
        self.on_blocked = parsed.of("on_blocked")
        self.on_damaged = parsed.of("on_damaged")
        self.on_deal_damage = parsed.of("on_deal_damage")
        self.on_enter = parsed.of("on_enter")
        self.on_draw = parsed.of("on_draw")
        self.on_opponent_play = parsed.of("on_opponent_play")
        self.on_phase = parsed.of("on_phase")
        # What of effects v2 item 8 the card uses: the state checks these only when a card has them.
        self.v2 = frozenset(t for t in ("on_damaged", "on_deal_damage", "on_enter", "on_draw",
                                        "on_opponent_play", "on_phase") if parsed.of(t)) | (
            {"static"} if self.statics else set()) | ({"filtered"} if self.filtered else set()) | (
            {"while_on_field"} if any(e.duration == "while_on_field" for e in self.effects) else set())
        self.pays = any(e.costs for e in self.activated)  # costs beyond tapping (life, cards)
        # Text the engine cannot run stays text: the card plays without it and is reported.
        self.unsimulated = not simulated(data, parsed, CAPABILITIES)


_STATIC = ("data", "id", "name", "kind", "cls", "degree", "strength", "resilience", "master",
           "text", "effects", "on_play", "on_destroyed", "activated", "continuous", "start_turn",
           "end_turn", "on_attack", "on_attacked", "on_leave", "on_block", "on_blocked", "on_damaged",
           "on_deal_damage", "on_enter", "on_draw", "on_opponent_play", "on_phase", "statics", "filtered",
           "v2", "pays", "unsimulated")
_CACHE: dict[int, _Proto] = {}


def _proto(data: Mapping[str, Any]) -> _Proto:
    """Parse a card mapping once: playtests build thousands of games from the same mappings.

    The cache keeps the mapping itself alive, so an ``id()`` is never reused for another
    mapping while its entry exists; a mapping changed in place is parsed again.
    """
    proto = _CACHE.get(id(data))
    if proto is not None and proto.data is data and proto.snapshot == data:
        return proto
    if len(_CACHE) > 20_000:
        _CACHE.clear()
    proto = _Proto(data)
    _CACHE[id(data)] = proto
    return proto


_CARDS: dict[tuple[int, str, int], Card] = {}


def make_card(iid: str, data: Mapping[str, Any], owner: int) -> Card:
    """The card instance ``iid`` of ``owner`` built from ``data``.

    Cards never change during play, so one instance is shared by every game built from the same
    mapping (a playtest builds thousands of games from the same decks).
    """
    key = (id(data), iid, owner)
    card = _CARDS.get(key)
    if card is not None and card.data is data and _proto(data) is card._proto:
        return card
    if len(_CARDS) > 50_000:
        _CARDS.clear()
    card = Card(iid, data, owner)
    _CARDS[key] = card
    return card


def _int(value: Any, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return default
    return int(value)


def parse_card_effects(kind: str, entries: Any) -> ParsedEffects:
    """The warzone effects of a card of ``kind`` (docs/effects.md): runnable and skipped."""
    return parse_effects(kind, entries, CAPABILITIES)
