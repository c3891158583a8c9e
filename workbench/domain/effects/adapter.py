"""The per-game surface of the interpreter: zones, targets, stats, players, primitive verbs.

An engine implements :class:`EffectAdapter` once (``engines/<game>/adapter.py``); the
interpreter calls nothing else of it. ``BaseAdapter`` gives the methods a game may leave out:
a game whose capabilities never name a verb never has it called.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, cast

from workbench.domain.effects.capabilities import Capabilities
from workbench.domain.effects.filters import matches
from workbench.domain.effects.spec import EffectSpec, PlayerRef, Source
from workbench.domain.effects.statics import StaticRules

Unit = Any
"""A creature or monster in play, in the engine's own terms (warzone Unit, seth Monster, fusion int)."""
State = Any
Target = Any
"""A ``PlayerRef`` or a unit."""


class EffectAdapter(Protocol):
    capabilities: ClassVar[Capabilities]

    def units(self, s: State, player: int) -> list[Unit]: ...
    """The player's creatures/monsters in play, in rules order (a new list)."""
    def opponents(self, s: State, player: int) -> Sequence[int]: ...
    """The player's opponents still in the game, in turn order after it (two players: the other)."""
    def in_play(self, s: State, u: Unit) -> bool: ...
    def decode(self, s: State, e: EffectSpec, raw: Any) -> Target | None: ...
    """The target a chosen argument of an action names (None: gone, the effect fizzles)."""
    def draw(self, s: State, player: int, n: int, src: Source) -> None: ...
    def gain_life(self, s: State, player: int, n: int, src: Source) -> None: ...
    def damage_player(self, s: State, player: int, n: int, src: Source) -> None: ...
    def damage_unit(self, s: State, u: Unit, n: int, src: Source) -> None: ...
    def heal(self, s: State, u: Unit, n: int, src: Source) -> None: ...
    def modify(self, s: State, u: Unit, e: EffectSpec, src: Source) -> None: ...
    def modified(self, s: State, e: EffectSpec, src: Source) -> None: ...
    """After ``modify`` of every affected unit (warzone: the units left at 0 Resilience go)."""
    def destroy(self, s: State, u: Unit, src: Source) -> None: ...
    def bounce(self, s: State, u: Unit, src: Source) -> None: ...
    def add_counters(self, s: State, u: Unit, counter: str, n: int, src: Source) -> None: ...
    def add_mana(self, s: State, player: int, n: int, src: Source) -> None: ...
    def negate(self, s: State, e: EffectSpec, src: Source, chosen: Any) -> None: ...
    def say(self, s: State, line: str) -> None: ...
    """A log line; a no-op while the game log is off."""
    # reach: filters, conditions and zone moves
    def value(self, s: State, item: Any, key: str) -> Any: ...
    """A filter key of a unit or a zone card: its current stat, printed field or state."""
    def seen_keys(self, s: State, item: Any, viewer: int) -> frozenset[str] | None: ...
    """The filter keys ``viewer`` may read on ``item`` (None: every key); another player's
    face-down card shows only where it lies and how (``filters.matches`` fails the rest)."""
    def rng(self, s: State) -> Any: ...
    """The state's random generator (``random.Random``): random targets and picks."""
    def zone(self, s: State, player: int, name: str) -> list[Any]: ...
    """The player's cards in zone ``name`` (the live list; the top of a deck is its end)."""
    def move_card(self, s: State, player: int, card: Any, frm: str, to: str, src: Source) -> bool: ...
    """Move ``card`` from ``player``'s zone ``frm`` to its owner's zone ``to``; False if it cannot."""
    def leave(self, s: State, u: Unit, to: str, src: Source) -> bool: ...
    """A unit leaves the field for zone ``to`` (not destroyed: no on_destroyed effects)."""
    def shuffle(self, s: State, player: int) -> None: ...
    def worth(self, s: State, card: Any) -> float: ...
    """How much a card is worth (the engine's pick for the controller: the highest)."""
    def life(self, s: State, player: int) -> int: ...
    def turn(self, s: State) -> int: ...
    def summoned_this_turn(self, s: State, u: Unit) -> bool: ...
    def pay_life(self, s: State, player: int, n: int, src: Source) -> None: ...
    def phase(self, s: State) -> str: ...
    def counters(self, s: State, u: Unit, name: str) -> int: ...
    def remove_counters(self, s: State, u: Unit, name: str, n: int, src: Source) -> None: ...
    def settle(self, s: State) -> bool: ...
    """State-based checks after an effect; True when the game is over."""
    def statics(self, s: State) -> StaticRules | None: ...
    """The static rules in play (``effects/statics.py``), cached by the engine; None: the game's
    cards have none."""
    def static_sources(self, s: State) -> list[tuple[Source, EffectSpec]]: ...
    """Every static rule of a card on the field (face up), with its source."""
    # asks (effects.asks): a resolution paused for a player's decision
    def ref(self, s: State, t: Target) -> Any: ...
    """A target as a value a clone of the state can look up again (warzone: the instance name)."""
    def deref(self, s: State, r: Any) -> Target | None: ...
    """The target ``ref`` gave, on position ``s`` (None: no longer there)."""
    def arg(self, s: State, t: Target) -> str: ...
    """A target as an action argument (what a ``target`` choice names)."""
    def unarg(self, s: State, e: EffectSpec, raw: str) -> Target | None: ...
    """The target an action argument names."""
    def label(self, s: State, t: Target) -> str: ...
    def owner(self, s: State, u: Unit) -> int: ...
    """Who controls the unit (the player "unless its controller pays" asks)."""
    def saying(self, s: State) -> bool: ...
    """Whether the game log is on (lines are not built otherwise)."""
    def card_id(self, s: State, card: Any) -> str: ...
    """A zone card's card id (copies share it): what a ``pick`` choice names."""
    def mana(self, s: State, player: int) -> int: ...
    def pay_mana(self, s: State, player: int, n: int, src: Source) -> None: ...
    # creating and summoning (RULES.md §3.10)
    def create_tokens(self, s: State, player: int, e: EffectSpec, n: int, src: Source) -> int: ...
    """Put ``n`` tokens of ``e.token`` onto ``player``'s field; how many were made."""
    def materials(self, s: State, card: Any) -> Sequence[tuple[Any, int]]: ...
    """An extra-deck creature's materials: (filter, count) needs (empty: it has none)."""
    def make_ready(self, s: State, u: Unit) -> None: ...
    """A creature just put onto the field may attack this turn (``ready: true``)."""
    def material_fits(self, s: State, f: Any, pool: Sequence[Any], src: Source) -> list[int]: ...
    """The positions in ``pool`` of the cards that may be a material of need ``f`` (a filter;
    None: any card)."""
    def has_room(self, s: State, player: int, leaving: Sequence[Any]) -> bool: ...
    """Whether a creature may enter ``player``'s field once ``leaving`` (materials) are gone."""
    def special_summon(self, s: State, player: int, card: Any, frm: str, src: Source) -> bool: ...
    """Put ``card`` from zone ``frm`` onto the field ignoring its cost, as a summon (its
    when-summoned effects trigger); False if it cannot."""


class BaseAdapter:
    """Defaults: verbs a game does not run raise (parse never lets them through)."""

    capabilities: ClassVar[Capabilities]

    def _missing(self, verb: str) -> None:
        raise NotImplementedError(f"{self.capabilities.game} does not run {verb}")

    def decode(self, s: State, e: EffectSpec, raw: Any) -> Target | None:
        return raw

    def seen_keys(self, s: State, item: Any, viewer: int) -> frozenset[str] | None:
        """Every key of every card (a game without face-down cards hides none)."""
        return None

    def opponents(self, s: State, player: int) -> Sequence[int]:
        return (1 - player,)

    def draw(self, s: State, player: int, n: int, src: Source) -> None:
        self._missing("draw")

    def gain_life(self, s: State, player: int, n: int, src: Source) -> None:
        self._missing("gain_life")

    def damage_player(self, s: State, player: int, n: int, src: Source) -> None:
        self._missing("damage to a player")

    def heal(self, s: State, u: Unit, n: int, src: Source) -> None:
        self._missing("heal")

    def modified(self, s: State, e: EffectSpec, src: Source) -> None:
        return None

    def bounce(self, s: State, u: Unit, src: Source) -> None:
        self._missing("return_to_hand")

    def counter_map(self, s: State, u: Unit, create: bool) -> dict[str, int] | None:
        """The unit's counters by name (None: it has none and ``create`` is false)."""
        raise NotImplementedError(f"{self.capabilities.game} has no counters")

    def counters(self, s: State, u: Unit, name: str) -> int:
        table = self.counter_map(s, u, False)
        return table.get(name, 0) if table else 0

    def add_counters(self, s: State, u: Unit, counter: str, n: int, src: Source) -> None:
        table = self.counter_map(s, u, True)
        assert table is not None
        table[counter] = table.get(counter, 0) + n
        self.say(s, f"  {src.name}: {n} {counter} counter(s) (now {table[counter]})")

    def remove_counters(self, s: State, u: Unit, counter: str, n: int, src: Source) -> None:
        table = self.counter_map(s, u, False)
        if table and table.get(counter):
            table[counter] = max(0, table[counter] - n)
            self.say(s, f"  {src.name}: {n} {counter} counter(s) removed (now {table[counter]})")

    def add_mana(self, s: State, player: int, n: int, src: Source) -> None:
        self._missing("add_mana")

    def negate(self, s: State, e: EffectSpec, src: Source, chosen: Any) -> None:
        self._missing("negate")

    def say(self, s: State, line: str) -> None:
        return None

    def rng(self, s: State) -> Any:
        return s.rng

    def zone(self, s: State, player: int, name: str) -> list[Any]:
        raise NotImplementedError(f"{self.capabilities.game} has no {name} zone")

    def move_card(self, s: State, player: int, card: Any, frm: str, to: str, src: Source) -> bool:
        raise NotImplementedError(f"{self.capabilities.game} does not move cards")

    def leave(self, s: State, u: Unit, to: str, src: Source) -> bool:
        raise NotImplementedError(f"{self.capabilities.game} does not move creatures to {to}")

    def shuffle(self, s: State, player: int) -> None:
        self.rng(s).shuffle(self.zone(s, player, "deck"))

    def worth(self, s: State, card: Any) -> float:
        return 0.0

    def life(self, s: State, player: int) -> int:
        raise NotImplementedError(f"{self.capabilities.game} has no life")

    def turn(self, s: State) -> int:
        return int(s.turn)

    def summoned_this_turn(self, s: State, u: Unit) -> bool:
        raise NotImplementedError(f"{self.capabilities.game} does not track summoning")

    def pay_life(self, s: State, player: int, n: int, src: Source) -> None:
        raise NotImplementedError(f"{self.capabilities.game} has no life to pay")

    def phase(self, s: State) -> str:
        return str(s.phase)

    def settle(self, s: State) -> bool:
        return False

    def statics(self, s: State) -> StaticRules | None:
        return None

    def static_sources(self, s: State) -> list[tuple[Source, EffectSpec]]:
        return []
    def ref(self, s: State, t: Target) -> Any:
        return t

    def deref(self, s: State, r: Any) -> Target | None:
        return r  # units that are plain values (fusion's card indices) stay valid in clones

    def arg(self, s: State, t: Target) -> str:
        return f"P{t.index + 1}" if isinstance(t, PlayerRef) else str(t)

    def unarg(self, s: State, e: EffectSpec, raw: str) -> Target | None:
        return self.decode(s, e, raw)

    def label(self, s: State, t: Target) -> str:
        return self.arg(s, t)

    def owner(self, s: State, u: Unit) -> int:
        return int(u.owner)

    def saying(self, s: State) -> bool:
        return True

    def card_id(self, s: State, card: Any) -> str:
        return str(getattr(card, "id", card))

    def mana(self, s: State, player: int) -> int:
        raise NotImplementedError(f"{self.capabilities.game} has no mana")

    def pay_mana(self, s: State, player: int, n: int, src: Source) -> None:
        raise NotImplementedError(f"{self.capabilities.game} has no mana to pay")
    def create_tokens(self, s: State, player: int, e: EffectSpec, n: int, src: Source) -> int:
        self._missing("create_token")
        return 0

    def materials(self, s: State, card: Any) -> Sequence[tuple[Any, int]]:
        return ()

    def make_ready(self, s: State, u: Unit) -> None:
        self._missing("ready")

    def material_fits(self, s: State, f: Any, pool: Sequence[Any], src: Source) -> list[int]:
        return [k for k, x in enumerate(pool) if matches(f, x, src, s, cast(EffectAdapter, self))]

    def has_room(self, s: State, player: int, leaving: Sequence[Any]) -> bool:
        return True

    def special_summon(self, s: State, player: int, card: Any, frm: str, src: Source) -> bool:
        self._missing("fusion_summon")
        return False


def player_of(t: Target) -> int | None:
    return t.index if isinstance(t, PlayerRef) else None


__all__ = ["BaseAdapter", "EffectAdapter", "Sequence", "player_of"]
