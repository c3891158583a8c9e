"""Warzone cards as the engine sees them: immutable card instances with parsed effects.

A deck's card mappings are turned into :class:`Card` objects once per game. Cards never change
while a game runs (damage, position and stat changes live on :class:`~.units.Unit`), so hands,
decks and piles can share them between cloned states.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.domain.engines.base import Action

SUPPORTED_ACTIONS = frozenset(
    {"draw", "damage", "heal", "gain_life", "modify_stats", "destroy", "return_to_hand", "negate"}
)
"""Effect actions of docs/effects.md this engine runs."""

PLAYER_TARGETS = frozenset({"self", "opponent", "any_player"})
CHOSEN_CREATURE = frozenset({"own_creature", "enemy_creature", "any_creature"})
ALL_CREATURES = frozenset({"own_creatures", "enemy_creatures"})
CHOSEN = CHOSEN_CREATURE | {"any_player"}

_PLAYER_ACTIONS = frozenset({"draw", "gain_life"})
_CREATURE_ACTIONS = frozenset({"heal", "modify_stats", "destroy", "return_to_hand"})

BATTLING = "battling"
GUARDING = "guarding"


class Effect:
    """One parsed effect entry; only entries the engine can run become an Effect."""

    __slots__ = ("trigger", "action", "target", "amount", "d_str", "d_res", "permanent",
                 "once_per_turn", "tap", "chooses")

    def __init__(self, trigger: str, action: str, target: str, amount: int, d_str: int,
                 d_res: int, permanent: bool, once_per_turn: bool, tap: bool) -> None:
        self.trigger = trigger
        self.action = action
        self.target = target
        self.amount = amount
        self.d_str = d_str
        self.d_res = d_res
        self.permanent = permanent
        self.once_per_turn = once_per_turn
        self.tap = tap
        self.chooses = target in CHOSEN  # the controller picks one target for it


class Card:
    """One physical card of a player's deck (immutable during play)."""

    __slots__ = ("iid", "id", "name", "kind", "cls", "degree", "strength", "resilience",
                 "master", "text", "owner", "effects", "on_play", "on_destroyed", "activated",
                 "continuous", "start_turn", "end_turn", "unsimulated", "data", "_proto",
                 "band", "body_band", "value", "plain_play", "recruit_acts", "spell_act", "pos_act",
                 "acts", "list_slot", "play_acts", "target_acts", "is_trap")

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
        # How the hand lists it in Recruitment/Return: slot 0-2 a creature of that Degree band,
        # 3 a spell, -1 never (traps answer, Areas are placed); play_acts without targets.
        if self.kind == "creature":
            self.list_slot, self.play_acts = self.band, self.recruit_acts
        elif self.kind == "spell":
            self.list_slot, self.play_acts = 3, (self.spell_act,)
        else:
            self.list_slot, self.play_acts = -1, ()
        self.target_acts: dict[tuple, Any] = {}  # actions by chosen targets, filled on first use
        self.is_trap = self.kind == "trap" and bool(self.on_play)  # may answer (with an effect)

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
        parsed, unsupported = parse_effects(self.kind, data.get("effects") or ())
        self.effects = tuple(parsed)
        self.on_play = tuple(e for e in parsed if e.trigger == "on_play")
        self.on_destroyed = tuple(e for e in parsed if e.trigger == "on_destroyed")
        self.activated = tuple(e for e in parsed if e.trigger == "activated")
        self.continuous = tuple(e for e in parsed if e.trigger == "continuous")
        self.start_turn = tuple(e for e in parsed if e.trigger == "start_of_turn")
        self.end_turn = tuple(e for e in parsed if e.trigger == "end_of_turn")
        # Text the engine cannot run stays text: the card plays without it and is reported.
        self.unsimulated = unsupported or (bool(self.text.strip()) and not parsed)


_STATIC = ("data", "id", "name", "kind", "cls", "degree", "strength", "resilience", "master",
           "text", "effects", "on_play", "on_destroyed", "activated", "continuous", "start_turn",
           "end_turn", "unsimulated")
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


def _triggers_for(kind: str) -> frozenset[str]:
    if kind == "creature":
        return frozenset({"on_play", "on_destroyed", "activated", "continuous", "start_of_turn",
                          "end_of_turn"})
    if kind in ("spell", "trap"):
        return frozenset({"on_play"})
    if kind == "area":
        return frozenset({"continuous", "start_of_turn", "end_of_turn"})
    return frozenset()


def _target_ok(kind: str, trigger: str, action: str, target: str) -> bool:
    """Whether the engine can run ``action`` on ``target`` for a card of ``kind``."""
    on_creature = kind == "creature"
    if trigger == "continuous":
        if action != "modify_stats":
            return False
        return target in ALL_CREATURES or (on_creature and target in ("self", "this"))
    if action == "negate":
        return kind == "trap"
    if target == "attacker" and kind != "trap":
        return False
    if action in _PLAYER_ACTIONS:
        return target in PLAYER_TARGETS
    if action == "damage":
        return (target in PLAYER_TARGETS or target in CHOSEN_CREATURE or target in ALL_CREATURES
                or target == "attacker" or (on_creature and target == "this"))
    if action in _CREATURE_ACTIONS:
        if target in ("self", "this"):
            return on_creature and action in ("heal", "modify_stats", "return_to_hand", "destroy")
        return target in CHOSEN_CREATURE or target in ALL_CREATURES or target == "attacker"
    return False


def parse_effects(kind: str, entries: Any) -> tuple[list[Effect], bool]:
    """Parse a card's ``effects`` list.

    Returns the runnable effects and whether any entry could not be run (unknown trigger,
    action or target, or a malformed entry). Never raises: bad entries count as unsupported.
    """
    effects: list[Effect] = []
    unsupported = False
    triggers = _triggers_for(kind)
    if not isinstance(entries, (list, tuple)):
        return effects, True
    for entry in entries:
        if not isinstance(entry, Mapping):
            unsupported = True
            continue
        trigger = entry.get("trigger")
        action = entry.get("action")
        target = entry.get("target") or ("self" if action in _PLAYER_ACTIONS else "")
        if action == "negate":
            target = "activation"  # whatever it answers: a spell, or an attack declaration
        if trigger not in triggers or action not in SUPPORTED_ACTIONS:
            unsupported = True
            continue
        if not _target_ok(kind, trigger, action, target):
            unsupported = True
            continue
        amount = _int(entry.get("amount"), 0)
        d_str = d_res = 0
        if action == "modify_stats":
            stats = entry.get("stats")
            if not isinstance(stats, Mapping):
                unsupported = True
                continue
            d_str = _int(stats.get("strength"), 0)
            d_res = _int(stats.get("resilience"), 0)
            if set(stats) - {"strength", "resilience"}:
                unsupported = True  # e.g. fusion's atk/def: not a warzone stat
            if not d_str and not d_res:
                continue
        elif action in ("draw", "damage", "heal", "gain_life") and amount <= 0:
            unsupported = True
            continue
        cost = entry.get("cost") or {}
        if not isinstance(cost, Mapping) or set(cost) - {"tap"}:
            unsupported = True  # warzone has no mana; a tap means "instead of attacking"
            continue
        effects.append(Effect(
            trigger=str(trigger), action=str(action), target=str(target), amount=amount,
            d_str=d_str, d_res=d_res,
            permanent=entry.get("duration", "end_of_turn") == "permanent",
            once_per_turn=bool(entry.get("once_per_turn", True)),
            tap=bool(cost.get("tap", False)),
        ))
    return effects, unsupported
