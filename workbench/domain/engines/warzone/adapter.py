"""Warzone's primitives for the effect interpreter (docs/effects.md, warzone section).

``CAPABILITIES`` says what warzone runs; ``WarzoneEffects`` carries an effect out on a
:class:`~.state.WarzoneState`: players draw and take Damage Cards (§1.10), creatures carry
damage and go at 0 Resilience left, stat changes last until the Night or for good.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from workbench.domain.effects.adapter import BaseAdapter
from workbench.domain.effects.capabilities import Capabilities
from workbench.domain.effects.spec import PLAYERS, EffectSpec, PlayerRef, Source
from workbench.domain.effects.interpreter import static_rules
from workbench.domain.effects.statics import StaticRules
from workbench.domain.engines.shuffle import shuffle

if TYPE_CHECKING:
    from workbench.domain.engines.warzone.state import WarzoneState
    from workbench.domain.engines.warzone.units import Unit

PLAYER_NAMES = ("P1", "P2")
PLAYER_TARGETS = frozenset({"self", "opponent", "any_player", "each_player", "same"})
CHOSEN_CREATURE = frozenset({"own_creature", "enemy_creature", "any_creature"})
ALL_CREATURES = frozenset({"own_creatures", "enemy_creatures"})
_ON_CREATURES = CHOSEN_CREATURE | ALL_CREATURES | {"self", "this", "attacker", "same"}


@dataclass(frozen=True, slots=True)
class Effect(EffectSpec):
    """A warzone effect: the shared spec plus its Strength/Resilience change by name."""

    d_str: int = 0
    d_res: int = 0
    tap: bool = False
    """``cost: {tap: true}``: instead of attacking."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "d_str", self.stat("strength"))
        object.__setattr__(self, "d_res", self.stat("resilience"))
        object.__setattr__(self, "tap", self.cost_tap)


def _refuse(kind: str, e: EffectSpec) -> str | None:
    if e.trigger in ("on_attack", "on_attacked", "on_block", "on_blocked") and e.chooses:
        return ("an attack trigger resolves at once, before the defender answers, so it cannot ask for "
                "a target: use a mass target or random: true")
    if e.trigger in ("on_attack", "on_attacked", "on_block", "on_blocked") and (
            e.asks or any(step.asks or step.chooses for option in e.options for step in option)):
        return ("an attack trigger resolves at once, before the defender answers, so it cannot ask a "
                "player (a mode, an unless payment, an order)")
    if e.trigger == "continuous" and (e.condition is not None or e.per is not None):
        return ("warzone's standing changes hold while their card is in play; an if or per on a "
                "continuous effect is not run")
    if e.action == "modify_cost":
        return "warzone cards have no cost to change (Degrees limit recruiting, §1.6.2)"
    if e.duration == "while_on_field" and kind != "creature":
        return f"a {kind} is not on the field, so nothing lasts while it is (while_on_field is for creatures)"
    if e.trigger in ("on_draw", "on_opponent_play", "on_phase") and kind not in ("creature", "area"):
        return f"a {kind} is not in play to watch for {e.trigger}"
    if e.action == "negate" and kind != "trap":
        return "only a trap negates (a spell, or an attack it answers)"
    if e.target == "attacker" and kind != "trap" and e.trigger not in ("on_attacked", "on_block", "on_damaged"):
        return ("only a trap, an on_attacked, on_block or on_damaged effect has an attacker (the creature "
                "attacking, or whose damage it took)")
    if e.from_zone == "exile":
        return "the Exiled zone is out of the game for good (§1.12.6): nothing comes back from it"
    if e.selector.what == "this" and kind != "creature":
        return f"a {kind} is not on the field, so it cannot affect itself"
    return None


_WATCHERS = frozenset({"on_draw", "on_opponent_play", "on_phase"})
_CREATURE_TRIGGERS = frozenset({"on_play", "on_destroyed", "activated", "continuous", "start_of_turn",
                                "end_of_turn", "on_attack", "on_attacked", "on_leave", "on_block",
                                "on_blocked", "on_damaged", "on_deal_damage", "on_enter"}) | _WATCHERS
_STATICS = frozenset({"cannot_be_targeted", "cannot_be_attacked", "cannot_be_blocked", "cannot_attack",
                      "double_damage", "reduce_damage", "modify_cost"})
_STATIC_TARGETS = frozenset({"this", "self", "own_creatures", "enemy_creatures"})

CAPABILITIES = Capabilities(
    game="warzone",
    triggers={"creature": _CREATURE_TRIGGERS, "spell": frozenset({"on_play"}),
              "trap": frozenset({"on_play"}),
              "area": frozenset({"continuous", "start_of_turn", "end_of_turn"}) | _WATCHERS},
    verbs=frozenset({"draw", "damage", "heal", "gain_life", "modify_stats", "destroy", "return_to_hand",
                     "negate", "move", "add_counters", "remove_counters", "choose", "arrange"}) | _STATICS,
    targets={"draw": PLAYER_TARGETS, "gain_life": PLAYER_TARGETS,
             "damage": PLAYER_TARGETS | _ON_CREATURES,
             "heal": _ON_CREATURES, "modify_stats": _ON_CREATURES, "destroy": _ON_CREATURES,
             "return_to_hand": _ON_CREATURES, "move": _ON_CREATURES, "add_counters": _ON_CREATURES,
             "remove_counters": _ON_CREATURES}
    | {verb: _STATIC_TARGETS for verb in _STATICS} | {"modify_cost": frozenset({"self", "opponent", "each_player"})},
    stats=frozenset({"strength", "resilience"}),
    costs=frozenset({"tap", "pay_life", "discard", "sacrifice", "exile_from_graveyard", "remove_counters"}),
    self_is_player=frozenset({"draw", "gain_life", "damage"}),
    filters=frozenset({"kind", "class", "degree", "name", "keywords", "class_master", "strength",
                       "resilience", "position", "other"}),
    zones=frozenset({"hand", "deck", "deck_top", "deck_bottom", "graveyard", "exile", "field",
                     "damage_pile"}),
    conditions=frozenset({"count", "life", "damage_pile", "hand", "turn", "previous", "counters", "phase"}),
    grouped=frozenset({"on_play", "activated"}),
    keywords=frozenset({"heal_trigger", "settable"}),
    durations=frozenset({"end_of_turn", "permanent", "until_your_next_turn", "while_on_field"}),
    phases=frozenset({"wake", "recruit", "war", "return", "night"}),
    unless=frozenset({"pay_life", "discard"}),
    refuse=_refuse,
    spec_type=Effect,
    why_not={"create_token": "warzone's rules (RULES.md §1) have no tokens: every creature is a card recruited "
                             "into a row by its Class; create_token is fusion's (§3.10.3)",
             "fusion_summon": "warzone has no extra deck (RULES.md §1.2): fusion_summon is fusion's (§3.10.2)"}
)


_SEEN_FACE_DOWN = frozenset({"position", "kind"})
"""What an opponent's face-down creature shows to a filter (see WarzoneEffects.seen_keys)."""


class WarzoneEffects(BaseAdapter):
    """The interpreter's view of a warzone state (stateless: one instance serves every game)."""

    capabilities: ClassVar[Capabilities] = CAPABILITIES

    @staticmethod
    def source(s: WarzoneState, c: int, card: Any, src: str | None, attacker: str | None) -> Source:
        """The source of an effect of ``card`` controlled by ``c``; ``src``: its creature's iid."""
        return Source(c, card.name, card, s.unit(src) if src else None,
                      s.unit(attacker) if attacker else None)

    def units(self, s: WarzoneState, player: int) -> list[Unit]:
        return list(s.p[player].field)

    def in_play(self, s: WarzoneState, u: Unit) -> bool:
        a, b = s.p  # the creature itself on a field (an identity scan at C speed)
        return u in a.field or u in b.field

    def ref(self, s: WarzoneState, t: Any) -> Any:
        return t.iid if hasattr(t, "iid") and hasattr(t, "pos") else t

    def deref(self, s: WarzoneState, r: Any) -> Any:
        return s.unit(r) if isinstance(r, str) else r

    def arg(self, s: WarzoneState, t: Any) -> str:
        return PLAYER_NAMES[t.index] if isinstance(t, PlayerRef) else str(t.iid)

    def label(self, s: WarzoneState, t: Any) -> str:
        return PLAYER_NAMES[t.index] if isinstance(t, PlayerRef) else str(getattr(t, "card", t).name)

    def saying(self, s: WarzoneState) -> bool:
        return bool(s.cfg.log)

    def decode(self, s: WarzoneState, e: EffectSpec, raw: Any) -> Any:
        if e.selector.what == "player":
            return PLAYERS[PLAYER_NAMES.index(raw)] if raw in PLAYER_NAMES else None
        return s.unit(raw)

    def draw(self, s: WarzoneState, player: int, n: int, src: Source) -> None:
        if s.cfg.log:
            s.say(f"{src.name}: {PLAYER_NAMES[player]} draws {n}")
        s.draw(player, n)

    def gain_life(self, s: WarzoneState, player: int, n: int, src: Source) -> None:
        s.p[player].life += n
        if s.cfg.log:
            s.say(f"{src.name}: {PLAYER_NAMES[player]} gains {n} Life Points -> {s.p[player].life}")

    def damage_player(self, s: WarzoneState, player: int, n: int, src: Source) -> None:
        rules = self.statics(s)
        if rules is not None:
            n = rules.dealt(src.unit, None, n)
        if s.cfg.log:
            s.say(f"{src.name} deals {n} to {PLAYER_NAMES[player]}")
        s.damage_player(player, n)
        if n > 0 and src.unit is not None:
            s.damaged(None, src.unit)

    def damage_unit(self, s: WarzoneState, u: Unit, n: int, src: Source) -> None:
        rules = self.statics(s)
        if rules is not None:
            n = rules.dealt(src.unit, u, n)
        u.damage += n
        if s.cfg.log:
            s.say(f"{src.name} deals {n} to {u.card.name}")
        if n > 0:
            s.damaged(u, src.unit)
        if s.left(u) <= 0:
            s.destroy(u)  # no Battle Damage from an effect

    def heal(self, s: WarzoneState, u: Unit, n: int, src: Source) -> None:
        u.damage = max(0, u.damage - n)
        if s.cfg.log:
            s.say(f"{src.name} heals {u.card.name} by {n}")

    def modify(self, s: WarzoneState, u: Unit, e: EffectSpec, src: Source) -> None:
        assert isinstance(e, Effect)
        if e.permanent or e.duration in ("until_your_next_turn", "while_on_field"):
            u.perm_str += e.d_str
            u.perm_res += e.d_res
            if e.duration == "while_on_field":  # undone when its creature leaves the field
                if src.unit is None or not self.in_play(s, src.unit):
                    u.perm_str -= e.d_str
                    u.perm_res -= e.d_res
                    return
                s.bound.append((src.unit.iid, u.iid, e.d_str, e.d_res))
            elif not e.permanent:  # undone at the start of the controller's next turn (its Wake)
                s.lasting.append((src.controller, u.iid, e.d_str, e.d_res))
        else:
            u.eot_str += e.d_str
            u.eot_res += e.d_res
        if s.cfg.log:
            s.say(f"{src.name} gives {u.card.name} {e.d_str:+}/{e.d_res:+}")

    def modified(self, s: WarzoneState, e: EffectSpec, src: Source) -> None:
        if e.stat("resilience") < 0:
            s._sweep()

    def destroy(self, s: WarzoneState, u: Unit, src: Source) -> None:
        s.destroy(u)

    def bounce(self, s: WarzoneState, u: Unit, src: Source) -> None:
        s._bounce(u)

    def negate(self, s: WarzoneState, e: EffectSpec, src: Source, chosen: Any) -> None:
        return None  # the response window reads the trap's negate and ends what it answers

    # reach: filters, conditions, zone moves

    def value(self, s: WarzoneState, item: Any, key: str) -> Any:
        unit = item if hasattr(item, "iid") and hasattr(item, "pos") else None
        card = unit.card if unit is not None else item
        if key == "strength":
            return s.strength(unit) if unit is not None else card.strength
        if key == "resilience":
            return s.resilience(unit) if unit is not None else card.resilience
        if key == "position":
            return unit.pos if unit is not None else None
        if key == "class":
            return card.cls
        if key == "degree":
            return card.degree
        if key == "kind":
            return card.kind
        if key == "name":
            return card.name
        if key == "class_master":
            return card.master
        return card.data.get(key)

    def seen_keys(self, s: WarzoneState, item: Any, viewer: int) -> frozenset[str] | None:
        """Another player's face-down creature shows only its position and that it is a
        creature: "A face-down creature's Strength, Resilience and text are hidden from the
        opponent" (RULES.md §1.12.7), so no filter of the opponent's matches them."""
        if getattr(item, "face_down", False) and item.owner != viewer:
            return _SEEN_FACE_DOWN
        return None

    def zone(self, s: WarzoneState, player: int, name: str) -> list[Any]:
        me = s.p[player]
        return {"hand": me.hand, "deck": me.deck, "graveyard": me.discard, "exile": me.exiled,
                "damage_pile": me.pile}[name]

    def _put(self, s: WarzoneState, card: Any, to: str) -> None:
        owner = s.p[card.owner]
        if to in ("deck", "deck_top"):
            owner.deck.append(card)
            if to == "deck":
                self.shuffle(s, card.owner)
        elif to == "deck_bottom":
            owner.deck.insert(0, card)
        else:
            self.zone(s, card.owner, to).append(card)

    def move_card(self, s: WarzoneState, player: int, card: Any, frm: str, to: str, src: Source) -> bool:
        if to == "field" and card.kind != "creature":
            return False  # only a creature can be put onto the field
        self.zone(s, player, "deck" if frm == "deck_top" else frm).remove(card)
        if s.cfg.log:
            where = {"field": "onto the field (Guarding)", "graveyard": "into the Discard Pile"}.get(
                to, f"to the {to.replace('_', ' ')}")
            s.say(f"{src.name}: {PLAYER_NAMES[card.owner]}'s {card.name} goes from the "
                  f"{frm.replace('_', ' ')} {where}")
        if to != "field":
            self._put(s, card, to)
            return True
        from workbench.domain.engines.warzone.cards import GUARDING
        from workbench.domain.engines.warzone.units import Unit

        me = s.p[card.owner]
        unit = Unit(card, GUARDING)
        me.field.append(unit)  # put onto the field: no cost, no recruit limit, no on_play
        me.field_changed()
        s._statics = None
        if s._flags and "filtered" in s._flags:
            s._aura = None  # a standing change with a filter may reach the newcomer
        if card.continuous:
            s._aura = None
            s._sweep()
        s.entered(unit)
        return True

    def leave(self, s: WarzoneState, u: Unit, to: str, src: Source) -> bool:
        if to == "hand":
            s._bounce(u)
            return True
        held: list[Any] = []
        verb = {"graveyard": "is put into the Discard Pile", "exile": "is exiled"}.get(
            to, f"goes to the {to.replace('_', ' ')}")
        if not s._leave_field(u, held, verb):
            return False
        for card in held:
            self._put(s, card, to)
        s._after_leaving(u)
        return True

    def counter_map(self, s: WarzoneState, u: Unit, create: bool) -> dict[str, int] | None:
        if u.counters is None and create:
            u.counters = {}
        return u.counters

    def shuffle(self, s: WarzoneState, player: int) -> None:
        shuffle(s.rng, s.p[player].deck)

    def worth(self, s: WarzoneState, card: Any) -> float:
        card = getattr(card, "card", card)
        return float(card.value + 100 * card.degree)

    def life(self, s: WarzoneState, player: int) -> int:
        return int(s.p[player].life)

    def pay_life(self, s: WarzoneState, player: int, n: int, src: Source) -> None:
        s.p[player].life -= n
        if s.cfg.log:
            s.say(f"{src.name}: {PLAYER_NAMES[player]} pays {n} Life Points -> {s.p[player].life}")

    def say(self, s: WarzoneState, line: str) -> None:
        if s.cfg.log:
            s.say(line)

    def settle(self, s: WarzoneState) -> bool:
        return s._check_end()

    # effects v2 item 8: static rules and the triggers that watch the game

    def flags(self, s: WarzoneState) -> frozenset[str]:
        """What of item 8 the game's cards use (``Card.v2``), found once per game."""
        found = s._flags
        if found is None:
            names: set[str] = set()
            for pl in s.p:
                for zone in (pl.deck, pl.hand, pl.discard, pl.pile, pl.exiled):
                    for card in zone:
                        names |= card.v2
                for u in pl.field:
                    names |= u.card.v2
                for area in pl.areas:
                    if area is not None:
                        names |= area.v2
                for card, _ in pl.traps:
                    names |= card.v2
            for cards in s.to_place or ():
                for card in cards or ():
                    names |= card.v2
            for link in s.chain:
                names |= link[2].v2
            found = s._flags = frozenset(names)
        return found

    def statics(self, s: WarzoneState) -> StaticRules | None:
        rules = s._statics
        if rules is None:
            if "static" not in (s._flags if s._flags is not None else self.flags(s)):
                return None
            rules = s._statics = static_rules(self.static_sources(s), s, self)
        return rules

    def static_sources(self, s: WarzoneState) -> list[tuple[Source, EffectSpec]]:
        found: list[tuple[Source, EffectSpec]] = []
        for p in (0, 1):
            pl = s.p[p]
            for u in pl.field:
                if u.card.statics and not u.face_down:
                    for e in u.card.statics:
                        found.append((Source(p, u.card.name, u.card, u), e))
            for area in pl.areas:
                if area is not None and area.statics:
                    for e in area.statics:
                        found.append((Source(p, area.name, area, None), e))
        return found


ADAPTER = WarzoneEffects()
