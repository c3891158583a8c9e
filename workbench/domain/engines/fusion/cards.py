"""Fusion card definitions as the engine sees them: parsed once, immutable, shared by clones.

A deck hands the engine plain card mappings (docs/effects.md, card_data/fusion/game.yaml). This
module turns each into a :class:`CardDef` with the fields the rules need and a tuple of
:class:`Effect` entries; effects the engine cannot run are kept with ``supported=False`` so the
card still plays without them and playtests list the card as unsimulated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

TRIGGERS = frozenset({"on_play", "on_destroyed", "activated", "continuous", "start_of_turn", "end_of_turn"})
ACTIONS = frozenset(
    {"draw", "damage", "heal", "gain_life", "modify_stats", "destroy", "return_to_hand", "negate", "add_mana"}
)
PLAYER_TARGETS = frozenset({"self", "opponent", "any_player"})
ONE_CREATURE = frozenset({"own_creature", "enemy_creature", "any_creature"})
ALL_CREATURES = frozenset({"own_creatures", "enemy_creatures"})
# Which targets make sense for which action; anything else is unsupported (plays as text).
_TARGETS_FOR: dict[str, frozenset[str]] = {
    "draw": PLAYER_TARGETS,
    "gain_life": PLAYER_TARGETS,
    "add_mana": frozenset({"self"}),
    "negate": frozenset({"", "chain"}),
    "damage": PLAYER_TARGETS | ONE_CREATURE | ALL_CREATURES | frozenset({"this"}),
    "heal": ONE_CREATURE | ALL_CREATURES | frozenset({"self", "this"}),
    "modify_stats": ONE_CREATURE | ALL_CREATURES | frozenset({"self", "this"}),
    "destroy": ONE_CREATURE | ALL_CREATURES | frozenset({"this"}),
    "return_to_hand": ONE_CREATURE | ALL_CREATURES | frozenset({"this"}),
}
_DEFAULT_TARGET = {"draw": "self", "gain_life": "self", "add_mana": "self", "negate": "chain"}
_STAT_KEYS = {"atk": 0, "def": 1}
_NO_TEXT = frozenset({"", "通常生物", "normal creature"})


class Effect:
    """One structured effect entry; ``supported`` says whether this engine runs it."""

    __slots__ = (
        "index", "trigger", "action", "target", "amount", "atk", "dfn", "duration", "speed",
        "once", "cost_mana", "cost_tap", "supported", "choice", "x_amount", "x_mana",
    )

    def __init__(self, index: int, raw: Mapping[str, Any], card_speed: int) -> None:
        self.index = index
        self.trigger = str(raw.get("trigger", ""))
        self.action = str(raw.get("action", ""))
        self.target = str(raw.get("target", _DEFAULT_TARGET.get(self.action, "")))
        amount = raw.get("amount", 0)
        self.amount: int | str = "X" if amount == "X" else _int(amount)
        # "is it X" as a flag: the hot paths test it without comparing an int with a string
        self.x_amount = self.amount == "X"
        stats = raw.get("stats") or {}
        self.atk = _int(stats.get("atk", 0)) if isinstance(stats, Mapping) else 0
        self.dfn = _int(stats.get("def", 0)) if isinstance(stats, Mapping) else 0
        self.duration = str(raw.get("duration", "end_of_turn" if self.trigger != "continuous" else "permanent"))
        self.speed = max(1, min(3, _int(raw.get("speed", card_speed)) or card_speed))
        self.once = bool(raw.get("once_per_turn", True))
        cost = raw.get("cost") or {}
        mana = cost.get("mana", 0) if isinstance(cost, Mapping) else 0
        self.cost_mana: int | str = "X" if mana == "X" else _int(mana)
        self.x_mana = self.cost_mana == "X"
        self.cost_tap = bool(cost.get("tap", False)) if isinstance(cost, Mapping) else False
        self.supported = self._is_supported(stats)
        # A target the controller picks (one creature or either player).
        self.choice = self.target in ONE_CREATURE or self.target == "any_player"

    def _is_supported(self, stats: Any) -> bool:
        if self.trigger not in TRIGGERS or self.action not in ACTIONS:
            return False
        if self.target not in _TARGETS_FOR[self.action]:
            return False
        if self.trigger == "continuous":
            # Only stat changes can be "always on"; a continuous draw has no meaning here.
            return self.action == "modify_stats" and self.target in ALL_CREATURES | {"this", "self"}
        if self.action == "modify_stats":
            return isinstance(stats, Mapping) and bool(set(stats) & set(_STAT_KEYS))
        if self.action == "negate":
            return self.trigger in ("on_play", "activated")
        return True


class CardDef:
    """The rules-relevant fields of one card (shared by every copy and every clone)."""

    __slots__ = (
        "id", "name", "kind", "subtype", "cost", "stars", "atk", "dfn", "taunt", "effects",
        "on_play", "activated", "activated_at", "on_destroyed", "continuous", "start", "end", "is_creature",
        "play_speed", "simulated", "raw", "aimed", "choosy", "x_cost",
        "h_summon", "h_flip", "h_set", "h_lasting", "h_own_bonus", "h_artifact", "h_dmg",
    )

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw = raw
        self.id = str(raw.get("id", raw.get("name", "?")))
        self.name = str(raw.get("name", self.id))
        self.kind = str(raw.get("kind", ""))
        self.subtype = str(raw.get("subtype", "normal") or "normal")
        cost = raw.get("cost", 0)
        self.cost: int | str = "X" if cost == "X" else _int(cost)
        self.x_cost = self.cost == "X"  # tested as a flag in the hot paths (no int-to-string comparison)
        self.is_creature = self.kind == "creature" or (self.kind == "item" and self.subtype == "artifact_creature")
        self.stars = _int(raw.get("stars", 0))
        self.atk = _int(raw.get("atk", 0))
        self.dfn = _int(raw.get("def", 0))
        keywords = raw.get("keywords") or []
        self.taunt = isinstance(keywords, (list, tuple)) and "taunt" in keywords
        card_speed = 2 if (self.kind == "magic" and self.subtype == "quick") else 1
        raw_effects = raw.get("effects") or []
        effects = tuple(
            Effect(i, e, card_speed) for i, e in enumerate(raw_effects) if isinstance(e, Mapping)
        )
        self.effects = effects
        ok = tuple(e for e in effects if e.supported)
        self.on_play = tuple(e for e in ok if e.trigger == "on_play")
        self.activated = tuple(e for e in ok if e.trigger == "activated")
        self.activated_at = {e.index: e for e in self.activated}  # by effect index (activate actions)
        self.on_destroyed = tuple(e for e in ok if e.trigger == "on_destroyed")
        self.continuous = tuple(e for e in ok if e.trigger == "continuous")
        self.start = tuple(e for e in ok if e.trigger == "start_of_turn")
        self.end = tuple(e for e in ok if e.trigger == "end_of_turn")
        # Playing it needs a target choice (or a chain link to negate).
        self.aimed = any(e.choice or e.action == "negate" for e in self.on_play)
        self.choosy = any(e.choice for e in self.on_play)  # an on_play effect with a chosen target
        # The speed of playing the card itself: quick magic 2, an on_play effect may raise it.
        self.play_speed = max([card_speed] + [e.speed for e in self.on_play if "speed" in _keys(raw_effects, e)])
        # "【通常生物】" / "通常生物。" (normal creature) is no effect text at all.
        text = str(raw.get("text", "") or "").strip().strip("。.【】[] ").lower()
        self.simulated = text in _NO_TEXT or bool(ok) or self.taunt
        # Static parts of the heuristic player's scores (agents.py), computed once per card.
        self.h_summon = 2.0 + 0.5 * (self.atk + self.dfn)
        self.h_flip = 3.0 + 0.5 * (self.atk + self.dfn)
        self.h_set = 0.6 if self.subtype == "quick" or self.play_speed >= 2 else -1.0
        self.h_lasting = self.kind == "magic" and self.subtype in ("continuous", "field", "equip", "aura")
        self.h_own_bonus = sum(e.atk + e.dfn for e in self.continuous if e.target == "own_creatures")
        self.h_artifact = self.kind == "item" and self.subtype == "artifact"
        # the one on_play effect when it is damage to a chosen creature: the heuristic scores
        # such plays (the most frequent kind it scores) without a call per action
        one = self.on_play[0] if len(self.on_play) == 1 else None
        self.h_dmg = one if one is not None and one.action == "damage" and one.target in ONE_CREATURE else None

    @property
    def quick(self) -> bool:
        """True for cards that may be used outside the own main phase (speed 2 or more)."""
        return self.play_speed >= 2


def _keys(raw_effects: Any, effect: Effect) -> Any:
    entry = raw_effects[effect.index]
    return entry if isinstance(entry, Mapping) else {}


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


_CACHE: dict[int, tuple[Mapping[str, Any], CardDef]] = {}


def card_def(raw: Mapping[str, Any]) -> CardDef:
    """Return the parsed :class:`CardDef` of a card mapping, cached by object identity.

    Decks hand the same mapping object for every copy and every game of a playtest, so parsing
    happens once per card. Never raises: odd values read as 0 / unsupported.
    """
    key = id(raw)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is raw:
        return hit[1]
    if len(_CACHE) > 20_000:
        _CACHE.clear()
    parsed = CardDef(raw)
    _CACHE[key] = (raw, parsed)
    return parsed
