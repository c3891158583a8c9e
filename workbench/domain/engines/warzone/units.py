"""Mutable pieces of a warzone position: creatures on the field and each player's zones."""

from __future__ import annotations

from workbench.domain.engines.warzone.cards import BATTLING, Card

PLAYER_NAMES = ("P1", "P2")
"""How logs and ``any_player`` targets name players 0 and 1."""


class Unit:
    """A creature on the field: its card plus damage, position and this turn's flags."""

    __slots__ = ("card", "iid", "cls", "owner", "damage", "pos", "attacked", "pos_changed",
                 "used", "eot_str", "eot_res", "perm_str", "perm_res", "zero_ok", "counters",
                 "face_down")

    def __init__(self, card: Card, pos: str = BATTLING, face_down: bool = False) -> None:
        self.card = card
        self.iid = card.iid
        self.cls = card.cls
        self.owner = card.owner
        self.damage = 0
        self.pos = pos
        self.attacked = False
        self.pos_changed = False
        self.used = False
        self.eot_str = 0
        self.eot_res = 0
        self.perm_str = 0
        self.perm_res = 0
        # A Guarding creature left at exactly 0 by a 0/0 battle lives on (§1.9.3).
        self.zero_ok = False
        self.counters: dict[str, int] | None = None  # named counters of effects (docs/effects.md)
        self.face_down = face_down  # a set creature (§1.12.7): hidden from the opponent

    def copy(self) -> Unit:
        """An independent copy (the card is shared: it never changes)."""
        u = Unit.__new__(Unit)
        u.card = self.card
        u.iid = self.iid
        u.cls = self.cls
        u.owner = self.owner
        u.damage = self.damage
        u.pos = self.pos
        u.attacked = self.attacked
        u.pos_changed = self.pos_changed
        u.used = self.used
        u.eot_str = self.eot_str
        u.eot_res = self.eot_res
        u.perm_str = self.perm_str
        u.perm_res = self.perm_res
        u.zero_ok = self.zero_ok
        u.counters = dict(self.counters) if self.counters else None
        u.face_down = self.face_down
        return u


class Player:
    """One player's Life Points and zones (§1.5). The deck's top card is the list's last."""

    __slots__ = ("life", "deck", "hand", "field", "pile", "discard", "exiled", "areas", "decked",
                 "traps", "hand_acts", "war_spells", "quick_spells", "rows_cache", "units_cache",
                 "quick", "settable")

    def __init__(self, life: int) -> None:
        self.life = life
        self.deck: list[Card] = []
        self.hand: list[Card] = []
        self.field: list[Unit] = []
        self.pile: list[Card] = []
        self.discard: list[Card] = []
        self.exiled: list[Card] = []
        self.areas: list[Card | None] = [None, None, None]
        self.decked = False
        # Traps set face down (§1.12.2) with the turn each was set: usable in a later turn.
        self.traps: list[tuple[Card, int]] = []
        # (hand as a tuple, recruitable bands, actions of cards without targets, cards with
        # targets): the hand part of the legal actions, reused while the hand is unchanged.
        self.hand_acts: tuple | None = None
        self.war_spells: tuple | None = None  # (hand, its spells): the War phase's spells
        self.quick_spells: tuple[list[Card], bool] | None = None  # (hand, holds a quick spell)
        # rows(), kept until the field changes: whoever adds or removes a creature calls
        # field_changed().
        self.rows_cache: tuple[int, int, int] | None = None
        self.units_cache: dict[str, Unit] | None = None  # unit(): instance name -> creature
        # False when none of this player's cards is a quick spell or has a quick effect (a new
        # game knows it from the deck; a player only ever holds its own cards): the chain
        # windows then look at its set traps only (WarzoneState._may_answer).
        self.quick = True
        # False when none of its cards is a settable creature (§1.12.7): its field then never
        # holds a face-down creature, and the AI players need not look for one.
        self.settable = True

    def copy(self) -> Player:
        """An independent copy: lists are copied, cards shared, units copied."""
        p = Player.__new__(Player)
        p.life = self.life
        p.deck = self.deck[:]
        p.hand = self.hand[:]
        p.field = [u.copy() for u in self.field]
        p.pile = self.pile[:]
        p.discard = self.discard[:]
        p.exiled = self.exiled[:]
        p.areas = self.areas  # areas never move during play
        p.decked = self.decked
        p.traps = self.traps[:]
        p.hand_acts = self.hand_acts  # immutable, keyed by the hand itself
        p.war_spells = self.war_spells
        p.quick_spells = self.quick_spells
        p.rows_cache = self.rows_cache
        p.units_cache = None  # the copy has units of its own
        p.quick = self.quick
        p.settable = self.settable
        return p

    def field_changed(self) -> None:
        """Forget what was derived from the field (call after adding or removing a creature)."""
        self.rows_cache = None
        self.units_cache = None

    def rows(self) -> tuple[int, int, int]:
        """How many creatures stand in rows 1, 2 and 3."""
        rows = self.rows_cache
        if rows is not None:
            return rows
        r1 = r2 = r3 = 0
        for u in self.field:
            c = u.cls
            if c == 1:
                r1 += 1
            elif c == 2:
                r2 += 1
            else:
                r3 += 1
        rows = self.rows_cache = (r1, r2, r3)
        return rows

    def unit(self, iid: str) -> Unit | None:
        """The unit with instance name ``iid`` on this player's field, or None."""
        units = self.units_cache
        if units is None:
            units = self.units_cache = {u.iid: u for u in self.field}
        return units.get(iid)

    def card_count(self) -> int:
        """Cards this player owns in all zones (for conservation checks)."""
        return (len(self.deck) + len(self.hand) + len(self.field) + len(self.pile)
                + len(self.discard) + len(self.exiled) + len(self.traps)
                + sum(1 for a in self.areas if a))
