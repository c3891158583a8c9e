"""Fusion card definitions as the engine sees them: parsed once, immutable, shared by clones.

A deck hands the engine plain card mappings (docs/effects.md, card_data/fusion/game.yaml). This
module turns each into a :class:`CardDef` with the fields the rules need and a tuple of
:class:`Effect` entries (parsed by ``workbench.domain.effects`` against ``adapter.CAPABILITIES``);
entries the engine cannot run are in ``skipped`` with their reason, so the card still plays
without them and playtests list the card as unsimulated.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.domain.effects.materials import read_materials
from workbench.domain.effects.parse import parse_effects, simulated
from workbench.domain.engines.fusion.adapter import (
    ALL_CREATURES,
    CAPABILITIES,
    ONE_CREATURE,
    PLAYER_TARGETS,
    Effect,
)

__all__ = ["ACTIONS", "ALL_CREATURES", "ONE_CREATURE", "PLAYER_TARGETS", "CardDef", "Effect", "card_def"]

ACTIONS = CAPABILITIES.verbs
"""Effect actions of docs/effects.md this engine runs."""


class CardDef:
    """The rules-relevant fields of one card (shared by every copy and every clone)."""

    __slots__ = (
        "id", "name", "kind", "subtype", "cost", "stars", "atk", "dfn", "taunt", "effects",
        "on_play", "activated", "activated_at", "on_destroyed", "continuous", "start", "end", "is_creature",
        "on_attack", "on_attacked", "on_leave", "on_block", "on_blocked",
        "on_damaged", "on_deal_damage", "on_enter", "on_draw", "on_opponent_play", "on_phase", "statics", "v2",
        "play_speed", "simulated", "skipped", "raw", "aimed", "choosy", "x_cost", "printed_cost",
        "h_summon", "h_flip", "h_set", "h_lasting", "h_own_bonus", "h_artifact", "h_dmg", "h_guess",
        "token", "extra", "materials", "makes_tokens", "fuses",
    )

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw = raw
        self.id = str(raw.get("id", raw.get("name", "?")))
        self.name = str(raw.get("name", self.id))
        self.kind = str(raw.get("kind", ""))
        self.subtype = str(raw.get("subtype", "normal") or "normal")
        cost = raw.get("cost", 0)
        self.printed_cost: int | str = "X" if cost == "X" else _int(cost)
        """The cost as printed: a number or ``"X"`` (what a ``cost`` filter compares)."""
        self.x_cost = cost == "X"  # tested as a flag in the hot paths (no int-to-string comparison)
        self.cost = 0 if self.x_cost else _int(cost)
        """The mana to pay; an X cost (``x_cost``) pays all the mana left instead."""
        self.is_creature = self.kind == "creature" or (self.kind == "item" and self.subtype == "artifact_creature")
        self.stars = _int(raw.get("stars", 0))
        self.atk = _int(raw.get("atk", 0))
        self.dfn = _int(raw.get("def", 0))
        keywords = raw.get("keywords") or []
        self.taunt = isinstance(keywords, (list, tuple)) and "taunt" in keywords
        card_speed = 2 if (self.kind == "magic" and self.subtype == "quick") else 1
        parsed = parse_effects(self.kind, raw.get("effects"), CAPABILITIES, card_speed)
        self.effects: tuple[Effect, ...] = parsed.runnable  # type: ignore[assignment]  # spec_type is Effect
        self.skipped = parsed.skipped
        self.on_play: tuple[Effect, ...] = parsed.of("on_play")  # type: ignore[assignment]  # (same)
        self.activated: tuple[Effect, ...] = parsed.of("activated")  # type: ignore[assignment]  # (same)
        self.activated_at = {e.index: e for e in self.activated}  # by effect index (activate actions)
        self.on_destroyed: tuple[Effect, ...] = parsed.of("on_destroyed")  # type: ignore[assignment]
        standing: tuple[Effect, ...] = parsed.of("continuous")  # type: ignore[assignment]
        self.continuous = tuple(e for e in standing if not e.static)  # stat changes
        self.statics = tuple(e for e in standing if e.static)  # static rules (effects/statics.py)
        self.start: tuple[Effect, ...] = parsed.of("start_of_turn")  # type: ignore[assignment]
        self.end: tuple[Effect, ...] = parsed.of("end_of_turn")  # type: ignore[assignment]
        self.on_attack: tuple[Effect, ...] = parsed.of("on_attack")  # type: ignore[assignment]
        self.on_attacked: tuple[Effect, ...] = parsed.of("on_attacked")  # type: ignore[assignment]
        self.on_leave: tuple[Effect, ...] = parsed.of("on_leave")  # type: ignore[assignment]
        self.on_block: tuple[Effect, ...] = parsed.of("on_block")  # type: ignore[assignment]
        self.on_blocked: tuple[Effect, ...] = parsed.of("on_blocked")  # type: ignore[assignment]
        self.on_damaged: tuple[Effect, ...] = parsed.of("on_damaged")  # type: ignore[assignment]
        self.on_deal_damage: tuple[Effect, ...] = parsed.of("on_deal_damage")  # type: ignore[assignment]
        self.on_enter: tuple[Effect, ...] = parsed.of("on_enter")  # type: ignore[assignment]
        self.on_draw: tuple[Effect, ...] = parsed.of("on_draw")  # type: ignore[assignment]
        self.on_opponent_play: tuple[Effect, ...] = parsed.of("on_opponent_play")  # type: ignore[assignment]
        self.on_phase: tuple[Effect, ...] = parsed.of("on_phase")  # type: ignore[assignment]
        # What of effects v2 item 8 the card uses: the state looks for these only when a card has them.
        self.v2 = frozenset(t for t in ("on_damaged", "on_deal_damage", "on_enter", "on_draw", "on_opponent_play",
                                        "on_phase") if parsed.of(t)) | (
            frozenset({"static"}) if self.statics else frozenset()) | (
            frozenset({"while_on_field"}) if any(e.duration == "while_on_field" for e in self.effects)
            else frozenset())
        # Playing it needs a target choice (or a chain link to negate).
        self.aimed = any(e.choice or e.action == "negate" for e in self.on_play)
        self.choosy = any(e.choice for e in self.on_play)  # an on_play effect with a chosen target
        # The speed of playing the card itself: quick magic 2, an on_play effect may raise it.
        # (an effect's speed defaults to the card's, so only a faster one raises it)
        self.play_speed = max([card_speed] + [e.speed for e in self.on_play])
        # "【通常生物】" / "通常生物。" (normal creature) is no effect text at all.
        self.simulated = simulated(raw, parsed, CAPABILITIES)
        # §3.10: a token (made by an effect, ceases to exist off the field), an extra-deck creature
        # and its materials ((filter, count) needs), the effects that make tokens or fusion summon
        self.token = raw.get("token") is True
        self.extra = self.is_creature and raw.get("extra") is True
        self.materials = read_materials(raw["materials"], None)[0] if raw.get("materials") is not None else ()
        self.makes_tokens = tuple(e for e in self.effects if e.action == "create_token")
        self.fuses = any(e.action == "fusion_summon" for e in self.effects)
        # Static parts of the heuristic player's scores (agents.py), computed once per card.
        self.h_summon = 2.0 + 0.5 * (self.atk + self.dfn)
        self.h_flip = 3.0 + 0.5 * (self.atk + self.dfn)
        self.h_set = 0.6 if self.subtype == "quick" or self.play_speed >= 2 else -1.0
        self.h_lasting = self.kind == "magic" and self.subtype in ("continuous", "field", "equip", "aura")
        self.h_own_bonus = sum(e.atk + e.dfn for e in self.continuous if e.target == "own_creatures")
        self.h_artifact = self.kind == "item" and self.subtype == "artifact"
        # what a creature adds to the face-down guesses (agents._guess): ATK, DEF, stars
        self.h_guess = (self.atk, self.dfn, self.stars) if self.kind == "creature" else None
        # the one on_play effect when it is damage to a chosen creature: the heuristic scores
        # such plays (the most frequent kind it scores) without a call per action
        one = self.on_play[0] if len(self.on_play) == 1 else None
        self.h_dmg = one if one is not None and one.action == "damage" and one.target in ONE_CREATURE else None

    @property
    def quick(self) -> bool:
        """True for cards that may be used outside the own main phase (speed 2 or more)."""
        return self.play_speed >= 2


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

