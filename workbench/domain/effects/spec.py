"""What the interpreter needs of one effect entry, decided once at parse time (frozen, slotted).

``Selector`` is fireplace's selector idea as a closed table: whose side, what kind of thing, and
whether the controller chooses one or the effect reaches all that match. ``"self"`` is resolved
once, in ``parse.py``: for a verb the game aims at players it is the controller, else the card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.domain.effects.filters import Condition, Filter
from workbench.domain.effects.vocabulary import STATIC_ACTIONS as _STATIC


@dataclass(frozen=True, slots=True)
class Selector:
    side: str
    """``controller``, ``opponent``, ``either`` (one of both) or ``each`` (both)."""
    what: str
    """``player``, ``unit`` (a creature or monster in play), ``this``, ``attacker``, ``zone``
    (cards of a zone, for move), ``same`` (what the entry before reached) or ``none``."""
    choose: bool
    """True: the controller picks one; False: every match (or the one fixed thing)."""


SELECTORS: Mapping[str, Selector] = {
    "opponent": Selector("opponent", "player", False),
    "any_player": Selector("either", "player", True),
    "own_creature": Selector("controller", "unit", True),
    "enemy_creature": Selector("opponent", "unit", True),
    "any_creature": Selector("either", "unit", True),
    "own_creatures": Selector("controller", "unit", False),
    "enemy_creatures": Selector("opponent", "unit", False),
    "this": Selector("controller", "this", False),
    "attacker": Selector("opponent", "attacker", False),
    "each_player": Selector("each", "player", False),
    "same": Selector("controller", "same", False),
}
CONTROLLER = Selector("controller", "player", False)
"""``self`` for a verb aimed at players."""
NOTHING = Selector("controller", "none", False)
"""``negate``: it answers whatever it chains to, no target."""
EXTRA_DECK = Selector("controller", "zone", False)
"""``fusion_summon``: the controller's extra deck (its ``filter`` narrows the creatures)."""


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A player as an effect target (not a bare int: fusion's units are ints)."""

    index: int


PLAYERS = (PlayerRef(0), PlayerRef(1), PlayerRef(2), PlayerRef(3))
"""Player targets by seat (fusion seats up to four, RULES.md §3.9)."""


@dataclass(frozen=True, slots=True)
class EffectSpec:
    """One runnable entry of a card's ``effects`` list.

    ``target`` is the name as written (or the default of ``vocabulary.DEFAULT_TARGET``),
    ``selector`` what it means in this game. Engines may subclass it (``Capabilities.spec_type``)
    to add their stat changes as named fields for their hot paths; ``__post_init__`` fills them.
    """

    index: int
    trigger: str
    action: str
    target: str
    selector: Selector
    amount: int = 0
    x: bool = False
    """``amount: X``: the mana paid for the X cost (``Source.x``)."""
    stats: tuple[tuple[str, int], ...] = ()
    duration: str = "end_of_turn"
    cost_mana: int = 0
    cost_x: bool = False
    cost_tap: bool = False
    speed: int = 1
    once_per_turn: bool = True
    chooses: bool = False
    """The controller picks one target for it (one unit or either player)."""
    harmful: bool = False
    """It hurts its target (AI players aim it at the enemy; seth's automatic targets)."""
    filter: Filter | None = None
    """Which units (or zone cards) it may reach."""
    random: bool = False
    """The target(s) are picked at random among the matching ones, nobody is asked."""
    count: int = 0
    """How many: cards a move takes, targets picked at random (0: one, or every match)."""
    condition: Condition | None = None
    per: Condition | None = None
    from_zone: str = ""
    to_zone: str = ""
    side: str = "own"
    pick: str = "best"
    look: int = 0
    counter: str = ""
    """add_counters / remove_counters: the counters' name (lower case)."""
    ready: bool = False
    """move to: field: the creature enters without summoning sickness (RULES.md §3.10.1)."""
    token: tuple[tuple[str, Any], ...] = ()
    """create_token: the token's fields as written (name, stats, …), in order."""
    costs: tuple[tuple[str, int, Filter | None], ...] = ()
    """Costs beyond mana and tapping: (kind, how many, which cards), e.g. ("discard", 1, None);
    remove_counters is ("remove_counters:NAME", N, None)."""
    phase: str = ""
    """on_phase: the phase names that start it, comma-separated (lower case)."""
    played: Filter | None = None
    """on_opponent_play: which of the opponent's cards start it (None: any)."""

    @property
    def static(self) -> bool:
        """A static rule (cannot_be_targeted …): queried through ``effects/statics.py``, not resolved."""
        return self.action in _STATIC
    options: tuple[tuple[EffectSpec, ...], ...] = ()
    """``action: choose``: the options, each a sequence of steps (``count`` of them are chosen)."""
    unless: tuple[str, int] = ("", 0)
    """``unless: {pay_life: N}``: the affected player may pay this to stop the entry ("", 0: none)."""
    asks: bool = False
    """Resolving it asks a player (a mode, an unless payment, an order): ``effects.asks``."""
    plain: int = field(default=-1, init=False, repr=False, compare=False)
    """Which short path ``interpreter.resolve`` may take for it (``interpreter.is_plain``): its
    place in ``interpreter._SHORT`` (1 unit verbs, 2 player verbs), 0 none (the general verb), -1
    not known yet — the interpreter fills it on first use. Not an ``__init__``
    argument, so a ``dataclasses.replace`` copy (another target, a condition …) starts unknown."""

    @property
    def permanent(self) -> bool:
        return self.duration == "permanent"

    def token_field(self, name: str, default: Any = None) -> Any:
        for key, value in self.token:
            if key == name:
                return value
        return default

    def stat(self, name: str) -> int:
        for key, change in self.stats:
            if key == name:
                return change
        return 0


@dataclass(slots=True)
class Source:
    """Who resolves an effect: its controller and the engine's handles on the card.

    ``card`` is the engine's own handle (warzone: the card, seth: the monster, fusion: the card
    index); ``unit`` is the card itself as a target, or None when it cannot be one (not in
    play, or not a creature); ``attacker`` the attacking unit a trap answers; ``x`` the X paid.
    """

    controller: int
    name: str
    card: Any = None
    unit: Any = None
    attacker: Any = None
    x: int = 0
    reached: tuple[Any, ...] = ()
    """What the entry resolved last reached (``target: same``)."""
    did: int = -1
    """How many things the entry resolved last did (-1: none resolved yet): ``if: {previous: true}``."""
