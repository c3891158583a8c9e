"""Fusion's primitives for the effect interpreter (docs/effects.md, fusion section).

``CAPABILITIES`` says what fusion runs; ``FusionEffects`` carries an effect out on a
:class:`~.state.FusionState`. Creatures are card indices (ints); players are ``PlayerRef``
(the state's own player tokens are negative ints, decoded here). Damage to a creature wears off
at the end of the turn; stat changes last until then or for good; ``negate`` marks a chain link.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from workbench.domain.effects.adapter import BaseAdapter
from workbench.domain.effects.interpreter import matches, static_rules
from workbench.domain.effects.capabilities import Capabilities
from workbench.domain.effects.spec import PLAYERS, EffectSpec, PlayerRef, Source
from workbench.domain.effects.statics import StaticRules

if TYPE_CHECKING:
    from workbench.domain.engines.fusion.state import FusionState

from workbench.domain.engines.fusion.tokens import TOKEN_POOL, token_card

PLAYER_TARGETS = frozenset({"self", "opponent", "any_player", "each_player", "same"})
ONE_CREATURE = frozenset({"own_creature", "enemy_creature", "any_creature"})
ALL_CREATURES = frozenset({"own_creatures", "enemy_creatures"})


@dataclass(frozen=True, slots=True)
class Effect(EffectSpec):
    """A fusion effect: the shared spec plus the names fusion's hot paths read."""

    atk: int = 0
    dfn: int = 0
    choice: bool = False
    """A target the controller picks (one creature or either player)."""
    x_amount: bool = False
    x_mana: bool = False
    once: bool = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "atk", self.stat("atk"))
        object.__setattr__(self, "dfn", self.stat("def"))
        object.__setattr__(self, "choice", self.chooses)
        object.__setattr__(self, "x_amount", self.x)
        object.__setattr__(self, "x_mana", self.cost_x)
        object.__setattr__(self, "once", self.once_per_turn)

    @property
    def mana(self) -> int | str:
        """The mana cost as the state pays it: a number, or ``"X"`` (all that is left)."""
        return "X" if self.cost_x else self.cost_mana


def _refuse(kind: str, e: EffectSpec) -> str | None:
    if e.trigger == "continuous" and (e.condition is not None or e.per is not None):
        return ("fusion's standing changes hold while their card is face up on the field; an if or per "
                "on a continuous effect is not run")
    if e.duration == "while_on_field" and kind != "creature":
        return f"a {kind} card does not stay on the field as a creature (while_on_field is for creatures)"
    if e.target == "attacker" and e.trigger != "on_damaged":
        return "in fusion only an on_damaged effect names the attacker (the creature whose damage it took)"
    if e.action == "negate" and e.trigger not in ("on_play", "activated"):
        return "negate answers a chain link, so it is played (on_play) or activated"
    if e.action == "move" and "extra_deck" in (e.from_zone, e.to_zone):
        return ("extra-deck creatures come out only by fusion_summon and go back there by themselves "
                "(RULES.md §3.10.2); a move from or to the extra deck is not run")
    return None


_ON_CREATURES = ONE_CREATURE | ALL_CREATURES | {"same", "attacker"}
_STATICS = frozenset({"cannot_be_targeted", "cannot_be_attacked", "cannot_be_blocked", "cannot_attack",
                      "double_damage", "reduce_damage", "modify_cost"})

CAPABILITIES = Capabilities(
    game="fusion",
    triggers={"*": frozenset({"on_play", "on_destroyed", "activated", "continuous", "start_of_turn",
                              "end_of_turn", "on_attack", "on_attacked", "on_leave", "on_block",
                              "on_blocked", "on_damaged", "on_deal_damage", "on_enter", "on_draw",
                              "on_opponent_play", "on_phase"})},
    verbs=frozenset({"draw", "damage", "heal", "gain_life", "modify_stats", "destroy", "return_to_hand",
                     "negate", "add_mana", "move", "add_counters", "remove_counters", "choose", "arrange",
                     "create_token", "fusion_summon"}) | _STATICS,
    targets={"draw": PLAYER_TARGETS, "gain_life": PLAYER_TARGETS, "add_mana": frozenset({"self"}),
             "damage": PLAYER_TARGETS | _ON_CREATURES | {"this"},
             "heal": _ON_CREATURES | {"self", "this"}, "modify_stats": _ON_CREATURES | {"self", "this"},
             "destroy": _ON_CREATURES | {"this"}, "return_to_hand": _ON_CREATURES | {"this"},
             "move": _ON_CREATURES | {"this"}, "add_counters": _ON_CREATURES | {"self", "this"},
             "remove_counters": _ON_CREATURES | {"self", "this"},
             "create_token": frozenset({"self", "opponent", "each_player"})}
    | {verb: frozenset({"this", "self", "own_creatures", "enemy_creatures"}) for verb in _STATICS}
    | {"modify_cost": frozenset({"self", "opponent", "each_player"})},
    stats=frozenset({"atk", "def"}),
    costs=frozenset({"mana", "tap", "pay_life", "discard", "sacrifice", "exile_from_graveyard",
                     "remove_counters"}),
    self_is_player=frozenset({"draw", "gain_life", "damage", "add_mana", "create_token"}),
    x_amounts=True,
    keywords=frozenset({"taunt"}),
    filters=frozenset({"kind", "subtype", "attribute", "stars", "cost", "name", "keywords", "atk", "def",
                       "tapped", "face_down", "summoned_this_turn", "other"}),
    zones=frozenset({"hand", "deck", "deck_top", "deck_bottom", "graveyard", "exile", "field", "extra_deck"}),
    conditions=frozenset({"count", "life", "hand", "turn", "summoned_this_turn", "previous", "counters",
                          "phase"}),
    grouped=frozenset({"on_play", "activated"}),
    durations=frozenset({"end_of_turn", "permanent", "until_your_next_turn", "while_on_field"}),
    phases=frozenset({"ready", "draw", "main1", "battle", "main2", "end"}),
    unless=frozenset({"pay_life", "mana", "discard"}),
    refuse=_refuse,
    spec_type=Effect,
    ready=True,
)


_PRINTED = frozenset({"kind", "subtype", "attribute", "stars", "cost", "name", "keywords"})
"""Filter keys a card's definition decides (not its state in play)."""
_STATIC: dict[int, tuple[bool, Any]] = {}
"""id(filter) -> (whether it tests printed fields only, the filter kept alive)."""


_SEEN_FACE_DOWN = frozenset({"face_down", "tapped", "summoned_this_turn"})
"""What another player's face-down card shows to a filter (see FusionEffects.seen_keys)."""
_SEEN_IN_CREATURE_ZONE = _SEEN_FACE_DOWN | {"kind"}
"""A face-down card in the creature zone is a creature (artifact creatures are set as magic)."""


def card_worth(card: Any) -> float:
    """What the interpreter's cheapest-first choices (materials, costs) rank a card by: its
    printed cost, stars and stats."""
    return float((0 if card.x_cost else int(card.cost)) + card.stars + card.atk + card.dfn)


class FusionEffects(BaseAdapter):
    """The interpreter's view of a fusion state (stateless: one instance serves every game)."""

    capabilities: ClassVar[Capabilities] = CAPABILITIES

    @staticmethod
    def source(s: FusionState, p: int, src: int, x: int) -> Source:
        """The source of an effect of card ``src`` controlled by ``p``; itself a target while it
        is a creature on the field."""
        unit = src if s.cards[src].is_creature else None
        return Source(p, s.cards[src].name, src, unit, None, x)

    def units(self, s: FusionState, player: int) -> list[int]:
        return list(s.crea[player])

    def opponents(self, s: FusionState, player: int) -> tuple[int, ...]:
        return s.opps[player]

    def in_play(self, s: FusionState, u: int) -> bool:
        return s.on_field(u)

    def decode(self, s: FusionState, e: EffectSpec, raw: Any) -> Any:
        if raw is None:
            return None
        if raw < 0:
            return PLAYERS[-1 - raw] if e.selector.what == "player" else None
        return raw if e.selector.what == "unit" else None

    def draw(self, s: FusionState, player: int, n: int, src: Source) -> None:
        s._draw(player, n)
        if s.logging:
            s._say(f"{src.name}: P{player + 1} draws {n}")

    def gain_life(self, s: FusionState, player: int, n: int, src: Source) -> None:
        s.life[player] += n
        if s.logging:
            s._say(f"{src.name}: P{player + 1} gains {n} life ({s.life[player]})")

    def damage_player(self, s: FusionState, player: int, n: int, src: Source) -> None:
        rules = self.statics(s)
        if rules is not None:
            n = rules.dealt(src.unit, None, n)
        s.life[player] -= n
        if s.logging:
            s._say(f"{src.name}: {n} damage to P{player + 1} (life {s.life[player]})")
        if n > 0 and src.unit is not None and s.dmg_watch:
            s.hurt.append((None, src.unit))

    def damage_unit(self, s: FusionState, u: int, n: int, src: Source) -> None:
        rules = self.statics(s)
        if rules is not None:
            n = rules.dealt(src.unit, u, n)
        s.damage[u] = s.damage.get(u, 0) + n
        if s.logging:
            s._say(f"{src.name}: {n} damage to {s._cname(u)}")
        if n > 0 and s.dmg_watch:
            s.hurt.append((u, src.unit))

    def heal(self, s: FusionState, u: int, n: int, src: Source) -> None:
        left = s.damage.get(u, 0) - n
        if left > 0:
            s.damage[u] = left
        else:
            s.damage.pop(u, None)

    def modify(self, s: FusionState, u: int, e: EffectSpec, src: Source) -> None:
        assert isinstance(e, Effect)
        lasting = e.duration == "until_your_next_turn"
        bound = e.duration == "while_on_field"
        if bound and (src.unit is None or not s.on_field(src.unit)):
            return  # its creature has left: the change would end at once
        table = s.mods if e.permanent or lasting or bound else s.eot
        s._sc.pop(u, None)
        old = table.get(u, (0, 0))
        table[u] = (old[0] + e.atk, old[1] + e.dfn)
        if lasting:  # undone at the start of the controller's next turn
            s.lasting.append((src.controller, u, e.atk, e.dfn))
        elif bound:  # undone when its creature leaves the field
            s.bound.append((src.unit, u, e.atk, e.dfn))
        if s.logging:
            s._say(f"{src.name}: {s._cname(u)} gets {e.atk:+d}/{e.dfn:+d}")

    def destroy(self, s: FusionState, u: int, src: Source) -> None:
        s._destroy(u, f" by {src.name}" if s.logging else "")

    def bounce(self, s: FusionState, u: int, src: Source) -> None:
        s._bounce(u)

    def add_mana(self, s: FusionState, player: int, n: int, src: Source) -> None:
        s.mana[player] += n
        if s.logging:
            s._say(f"{src.name}: P{player + 1} gains {n} mana ({s.mana[player]})")

    def negate(self, s: FusionState, e: EffectSpec, src: Source, chosen: Any) -> None:
        if chosen is not None and 0 <= chosen < len(s.chain):
            s.chain[chosen][7] = True  # the link it answers resolves as negated

    # reach: filters, conditions, zone moves

    def value(self, s: FusionState, i: int, key: str) -> Any:
        card = s.cards[i]
        if key == "atk":
            return s.atk(i) if s.on_field(i) else card.atk
        if key == "def":
            return s.dfn(i) if s.on_field(i) else card.dfn
        if key == "tapped":
            return i in s.tapped
        if key == "face_down":
            return i in s.down
        if key == "summoned_this_turn":
            return i in s.sick
        if key == "kind":
            return card.kind
        if key == "subtype":
            return card.subtype
        if key == "stars":
            return card.stars
        if key == "cost":
            return card.printed_cost
        if key == "name":
            return card.name
        return card.raw.get(key)

    def seen_keys(self, s: FusionState, i: int, viewer: int) -> frozenset[str] | None:
        """Another player's face-down card shows where it lies and how (tapped, set this turn),
        and in the creature zone that it is a creature; nothing of its printed fields or stats
        (RULES.md §3.4.2; **Decision** ``face_down_hidden``, default true)."""
        if i not in s.down or s.owner[i] == viewer or not s.opts.hide_down:
            return None
        return _SEEN_IN_CREATURE_ZONE if i in s.crea[s.owner[i]] else _SEEN_FACE_DOWN

    def zone(self, s: FusionState, player: int, name: str) -> list[Any]:
        return {"hand": s.hand, "deck": s.deck, "graveyard": s.grave, "exile": s.exile,
                "extra_deck": s.extra}[name][player]

    def _put(self, s: FusionState, i: int, to: str) -> None:
        owner = s.owner[i]
        card = s.cards[i]
        if card.token:
            return  # a token that leaves the field ceases to exist (§3.10.3)
        if card.extra and to in ("hand", "deck", "deck_top", "deck_bottom"):
            s.extra[owner].append(i)  # an extra-deck creature goes back to the extra deck (§3.10.2)
            return
        if to in ("deck", "deck_top"):
            s.deck[owner].append(i)
            if to == "deck":
                self.shuffle(s, owner)
        elif to == "deck_bottom":
            s.deck[owner].insert(0, i)
        else:
            self.zone(s, owner, to).append(i)

    def move_card(self, s: FusionState, player: int, i: int, frm: str, to: str, src: Source) -> bool:
        owner = s.owner[i]
        if to == "field" and (not s.cards[i].is_creature or not s.room(owner)):
            return False  # only a creature, and only within the creature limit (§3.2, §3.10.1)
        self.zone(s, player, "deck" if frm == "deck_top" else frm).remove(i)
        if s.logging:
            s._say(f"{src.name}: {s._cname(i)} goes from the {frm.replace('_', ' ')} to the "
                   f"{to.replace('_', ' ')}")
        if to != "field":
            self._put(s, i, to)
            return True
        s.crea[owner].append(i)  # put onto the field face up, ignoring the cost, without on_play
        s.sick.add(i)
        if i in s.cont_set:
            s._cb = None
            s._sc = {}
        if s.v2:
            s._entered(i)
        return True

    def leave(self, s: FusionState, u: int, to: str, src: Source) -> bool:
        if to == "hand":
            s._bounce(u)
            return True
        p = s.owner[u]
        if u not in s.crea[p]:
            return False
        s.crea[p].remove(u)
        s._leave_field(u)
        self._put(s, u, to)
        if s.logging:
            s._say(f"{s._cname(u)} of P{p + 1} goes to the {to.replace('_', ' ')}")
        return True

    # creating and summoning (RULES.md §3.10)

    def create_tokens(self, s: FusionState, player: int, e: EffectSpec, n: int, src: Source) -> int:
        raw = token_card(e)  # the one mapping of this kind of token: its instances share it
        crea, cards = s.crea[player], s.cards
        made = 0
        for i in sorted(s.token_ids[player]):
            if made == n:
                break
            if cards[i].raw is raw and i not in crea:
                crea.append(i)
                s.sick.add(i)  # it enters like a summoned creature (§3.4.4)
                made += 1
                if s.cards[i].on_enter:
                    s._entered(i)
                if s.logging:
                    s._say(f"{src.name}: P{player + 1} gets the token {s._cname(i)}")
        if made < n and s.logging:
            s._say(f"{src.name}: {n - made} token(s) not made (the engine keeps {TOKEN_POOL} per kind)")
        return made

    def make_ready(self, s: FusionState, u: int) -> None:
        s.sick.discard(u)

    def materials(self, s: FusionState, card: int) -> Any:
        return s.cards[card].materials

    @staticmethod
    def printed_only(f: Any) -> bool:
        """Whether filter ``f`` (or no filter) tests printed card fields only."""
        if f is None:
            return True
        static = _STATIC.get(id(f))
        if static is None:
            static = _STATIC[id(f)] = (f.keys() <= _PRINTED, f)
        return static[0]

    def static_fusion(self, s: FusionState, e: EffectSpec, extra: list[int]) -> bool:
        """Whether ``fusion_options`` of ``e`` depends on printed fields only (its filter and
        the materials of every creature in ``extra``)."""
        if not self.printed_only(e.filter):
            return False
        for i in extra:
            for f, _ in s.cards[i].materials:
                if not self.printed_only(f):
                    return False
        return True

    def material_fits(self, s: FusionState, f: Any, pool: Any, src: Source) -> list[int]:
        """As the interpreter's ``matches``; a filter on printed fields only is decided once per
        game for every instance (``Shared.mcache``): fusion summons test every card of a hand
        and field."""
        if f is None:
            return list(range(len(pool)))
        if not self.printed_only(f):
            return [k for k, x in enumerate(pool) if matches(f, x, src, s, self)]
        hit = s.mcache.get(id(f))
        if hit is None:
            # every instance's printed fields, face down or not: materials are the summoner's own
            fit = frozenset(i for i in range(len(s.cards)) if matches(f, i, src, s, _UNHIDDEN))
            hit = s.mcache[id(f)] = (fit, f)
        fit = hit[0]
        return [k for k, x in enumerate(pool) if x in fit]

    def has_room(self, s: FusionState, player: int, leaving: Any) -> bool:
        crea, cards = s.crea[player], s.cards
        return s.room(player, sum(1 for m in leaving if m in crea and not cards[m].token))

    def special_summon(self, s: FusionState, player: int, card: int, frm: str, src: Source) -> bool:
        zone = self.zone(s, player, frm)
        if card not in zone or not s.room(player):
            return False
        zone.remove(card)
        s.crea[player].append(card)
        s.sick.add(card)  # summoning sickness (§3.10.1)
        if card in s.cont_set:
            s._cb = None
            s._sc = {}
        s.own_stats().played[player].add(s.cards[card].id)
        if s.logging:
            s._say(f"{src.name}: P{player + 1} special summons {s._cname(card)} from the "
                   f"{frm.replace('_', ' ')}")
        for e in s.cards[card].on_play:  # a summon: its when-summoned effects trigger
            s._trigger(player, card, e)
        if s.cards[card].on_enter:
            s._entered(card)
        return True

    def counter_map(self, s: FusionState, u: int, create: bool) -> dict[str, int] | None:
        table = s.counters.get(u)
        if table is None and create:
            table = s.counters[u] = {}
        return table

    def shuffle(self, s: FusionState, player: int) -> None:
        s.rng.shuffle(s.deck[player])

    def worth(self, s: FusionState, i: int) -> float:
        return card_worth(s.cards[i])

    def life(self, s: FusionState, player: int) -> int:
        return int(s.life[player])

    def pay_life(self, s: FusionState, player: int, n: int, src: Source) -> None:
        s.life[player] -= n
        if s.logging:
            s._say(f"{src.name}: P{player + 1} pays {n} life ({s.life[player]})")

    def summoned_this_turn(self, s: FusionState, u: int) -> bool:
        return u in s.sick

    def say(self, s: FusionState, line: str) -> None:
        if s.logging:
            s._say(line)

    def settle(self, s: FusionState) -> bool:
        return False  # the chain checks creatures and life after each link (_after_resolution)

    # asks: card indices are plain ints (the default ref), players PlayerRef

    def arg(self, s: FusionState, t: Any) -> str:
        from workbench.domain.engines.fusion.state import _PTOK

        return _PTOK[t.index] if isinstance(t, PlayerRef) else str(s.names[t])

    def unarg(self, s: FusionState, e: EffectSpec, raw: str) -> Any:
        from workbench.domain.engines.fusion.state import _PTOK

        if raw in _PTOK:
            return PLAYERS[_PTOK.index(raw)]
        return s.index.get(raw)

    def label(self, s: FusionState, t: Any) -> str:
        return f"P{t.index + 1}" if isinstance(t, PlayerRef) else s._cname(t)

    def card_id(self, s: FusionState, card: Any) -> str:
        return str(s.cards[card].id)

    def owner(self, s: FusionState, u: int) -> int:
        return int(s.owner[u])

    def saying(self, s: FusionState) -> bool:
        return bool(s.logging)

    def mana(self, s: FusionState, player: int) -> int:
        return int(s.mana[player])

    def pay_mana(self, s: FusionState, player: int, n: int, src: Source) -> None:
        s.mana[player] -= n
        if s.logging:
            s._say(f"{src.name}: P{player + 1} pays {n} mana -> {s.mana[player]}")

    # effects v2 item 8: static rules

    def statics(self, s: FusionState) -> StaticRules | None:
        """The static rules in play, kept while the cards on the field (and face down) stay the same."""
        if "static" not in s.v2:
            return None
        hit = s._rules  # (the zones as they were, face-down count, the rules): compared in place, no copy
        if hit is not None and hit[1] == len(s.down) and hit[0] == (s.crea, s.magic, s.field):
            return hit[2]
        rules = static_rules(self.static_sources(s), s, self)
        s._rules = (([list(z) for z in s.crea], [list(z) for z in s.magic], [list(z) for z in s.field]),
                    len(s.down), rules)
        return rules

    def static_sources(self, s: FusionState) -> list[tuple[Source, EffectSpec]]:
        found: list[tuple[Source, EffectSpec]] = []
        for i in s.static_ids:
            p = s.owner[i]
            if i in s.down or not (i in s.crea[p] or i in s.magic[p] or i in s.field[p]):
                continue
            source = self.source(s, p, i, 0)
            for e in s.cards[i].statics:
                found.append((source, e))
        return found


ADAPTER = FusionEffects()


class _AllSeen:
    """The adapter's values with every key seen (a card's printed fields, face down or not)."""

    __slots__ = ("adapter",)

    def __init__(self, adapter: FusionEffects) -> None:
        self.adapter = adapter

    def value(self, s: FusionState, i: int, key: str) -> Any:
        return self.adapter.value(s, i, key)

    def seen_keys(self, s: FusionState, i: int, viewer: int) -> frozenset[str] | None:
        return None


_UNHIDDEN = _AllSeen(ADAPTER)
"""Reads printed fields for the per-game material cache (see FusionEffects.material_fits)."""
