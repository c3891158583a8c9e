"""Building warzone positions: a new game from two decks, a scenario position, and snapshots."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.domain.engines.base import DeckCards, State
from workbench.domain.engines.warzone.adapter import ADAPTER
from workbench.domain.engines.warzone.cards import BATTLING, GUARDING, Card, make_card
from workbench.domain.engines.warzone.rules import Config, band_weight
from workbench.domain.engines.warzone.state import PLAYER_NAMES, WarzoneState
from workbench.domain.engines.warzone.units import Unit
from workbench.domain.errors import WorkbenchError

SIDES = ("a", "b")
PHASES = ("start", "recruit", "war", "return")


class SetupError(WorkbenchError):
    """A scenario ``setup`` mapping does not describe a warzone position."""


def _note_unsimulated(state: WarzoneState, cards: Sequence[Card]) -> None:
    for card in cards:
        if card.unsimulated:
            state.stats.unsimulated.add(card.id)


_DECKS: dict[tuple[int, int, int], tuple[Any, ...]] = {}


def _deck_cards(deck: DeckCards, player: int
                ) -> tuple[list[Card], list[Card], frozenset[str], tuple[str, ...], frozenset[str], bool, bool]:
    """The Card instances of a deck's ``main`` and ``area`` zones for ``player``, the ids of
    those cards the engine cannot fully run (``stats.unsimulated``), the Areas' ids, what
    of effects v2 item 8 the cards use (the union of their ``Card.v2``, see ``adapter.flags``)
    whether any of them is a quick spell or has a quick effect (``Player.quick``) and whether
    any is a settable creature (``Player.settable``).

    Instance names are ``<a|b>-<card id>-<copy>``. Playtests build thousands of games from the
    same deck, so the result is cached while the zone lists hold the same mappings.
    """
    main_in = deck.get("main", ())
    area_in = deck.get("area", ())
    key = (id(main_in), id(area_in), player)
    hit = _DECKS.get(key)
    # Valid while both zone lists hold the very same mappings (ids compared at C speed; the
    # cached entry keeps the mappings alive, so their ids cannot be reused meanwhile).
    ids = (*map(id, main_in), -1, *map(id, area_in))
    if hit is not None and hit[0] is main_in and hit[1] == ids:
        return hit[2], hit[3], hit[4], hit[5], hit[7], hit[8], hit[9]
    copies: dict[str, int] = {}

    def make(data: Mapping[str, Any]) -> Card:
        cid = str(data.get("id", "card"))
        copies[cid] = copies.get(cid, 0) + 1
        return make_card(f"{SIDES[player]}-{cid}-{copies[cid]}", data, player)

    main = [make(d) for d in main_in]
    areas = [make(d) for d in area_in][:3]
    unsimulated = frozenset(c.id for c in main + areas if c.unsimulated)
    area_ids = tuple(a.id for a in areas)
    uses = frozenset().union(*(c.v2 for c in main + areas))
    quick = any(c.quick or c.quick_effect for c in main + areas)
    settable = any(c.settable for c in main + areas)
    if len(_DECKS) > 1000:
        _DECKS.clear()
    _DECKS[key] = (main_in, ids, main, areas, unsimulated, area_ids, area_in, uses, quick, settable)
    return main, areas, unsimulated, area_ids, uses, quick, settable


_CONFIGS: dict[int, tuple[Mapping[str, Any], dict[str, Any], Config]] = {}


def _config(options: Mapping[str, Any]) -> Config:
    """``Config(options)``, shared while the same mapping holds the same values (a Config never
    changes, and playtests start thousands of games with one options mapping).

    Raises OptionError for unusable options.
    """
    hit = _CONFIGS.get(id(options))
    if hit is not None and hit[0] is options and hit[1] == options:
        return hit[2]
    cfg = Config(options)
    if len(_CONFIGS) > 100:
        _CONFIGS.clear()
    _CONFIGS[id(options)] = (options, dict(options), cfg)  # keeps the mapping alive: id stays
    return cfg


def new_game(deck_a: DeckCards, deck_b: DeckCards, options: Mapping[str, Any],
             seed: int) -> WarzoneState:
    """Start a game: shuffle each ``main`` deck, place the three Areas, draw the opening hands.

    Player 0 (deck A) takes the first turn; playtest runners swap seats to measure the
    first-player effect. Option ``_deck_seeds`` (two ints, for the decks in seat 0 and seat 1)
    shuffles each deck from its own generator, so a deck's order does not depend on its seat
    (playtest seed pairs); without it both shuffle from the state's generator. Side zones are
    ignored. Raises OptionError for unusable options.
    """
    state = WarzoneState(_config(options), seed)
    stats = state.stats
    deck_seeds = options.get("_deck_seeds")
    state.phase = "start"
    state.to_place = [None, None]
    flags: frozenset[str] = frozenset()
    for player, deck in enumerate((deck_a, deck_b)):
        main, areas, unsimulated, area_ids, uses, quick, settable = _deck_cards(deck, player)
        flags |= uses
        # Shuffle by sorting on one random key per card: uniform, seeded by the state's own
        # generator (or the deck's), and several times faster than random.shuffle's Python loop.
        rand = (state.rng if deck_seeds is None else random.Random(int(deck_seeds[player]))).random
        keys = [rand() for _ in main]
        me = state.p[player]
        # A player only ever holds its own cards (adapter._put: the owner's zones).
        me.quick, me.settable = quick, settable
        me.deck = list(map(main.__getitem__, sorted(range(len(main)), key=keys.__getitem__)))
        state.to_place[player] = list(areas)
        if unsimulated:
            stats.unsimulated.update(unsimulated)
        stats.played[player].update(area_ids)  # placed at the start (§1.3.2)
        state.draw(player, state.cfg.start_hand)
        stats.opening[player] = set(stats.drawn[player])  # no mulligans in warzone
        if state.cfg.log:
            state.say(f"{PLAYER_NAMES[player]} brings Areas "
                      f"{', '.join(a.name for a in areas) or 'none'} and draws "
                      f"{len(me.hand)} cards")
    # What of effects v2 item 8 the cards use (their triggers watch from turn 1): every card
    # is in a deck, a hand or an Area still to place, so it is the decks' (ADAPTER.flags).
    state._flags = flags
    # Each player chooses which Area goes in which row, the first player first (§1.12.4).
    state.next_area_choice()
    state._advance()
    return state


_ENTRY_KEYS = frozenset({
    "name", "card", "position", "damage", "attacked", "position_changed", "used", "face_down",
    "id", "kind", "class", "degree", "strength", "resilience", "class_master", "text", "flavor",
    "effects", "keywords", "number", "art",  # card fields
})


def _card(entry: Any, library: Mapping[str, Any], player: int, taken: set[str],
          where: str) -> tuple[Card, Mapping[str, Any]]:
    """One card of a setup zone: a library id, or a mapping with ``name`` and ``card``/fields."""
    if isinstance(entry, str):
        entry = {"card": entry}
    if not isinstance(entry, Mapping):
        raise SetupError(f"{where}: a card must be a library id or a mapping, got {entry!r}")
    unknown = set(entry) - _ENTRY_KEYS
    if unknown:
        raise SetupError(f"{where}: unknown keys {', '.join(sorted(map(str, unknown)))} "
                         f"(card fields and name, card, position, damage, attacked, "
                         f"position_changed, used, face_down)")
    base = entry.get("card")
    data: dict[str, Any] = {}
    if base is not None:
        if base not in library:
            raise SetupError(f"{where}: card {base!r} is not in setup.cards")
        data.update(library[base])
        data.setdefault("id", str(base))
    for key, value in entry.items():
        if key not in ("name", "card", "position", "damage", "attacked", "position_changed",
                       "used", "face_down"):
            data[key] = value
    iid = entry.get("name")
    if iid is None:
        stem = str(data.get("id", "card"))
        n = 1
        while f"{SIDES[player]}-{stem}-{n}" in taken:
            n += 1
        iid = f"{SIDES[player]}-{stem}-{n}"
    iid = str(iid)
    if iid in taken:
        raise SetupError(f"{where}: instance name {iid!r} is used twice")
    taken.add(iid)
    data.setdefault("id", iid)
    if base is not None and "name" in library[base]:
        data["name"] = library[base]["name"]
    else:
        data.setdefault("name", iid)
    data.setdefault("kind", "creature")
    return Card(iid, data, player), entry


def from_setup(setup: Mapping[str, Any], options: Mapping[str, Any], seed: int) -> WarzoneState:
    """Build a position from a scenario ``setup`` (keys in docs/engines/warzone.md).

    Raises SetupError when the mapping is malformed.
    """
    if not isinstance(setup, Mapping):
        raise SetupError("setup must be a mapping")
    unknown = set(setup) - {"turn", "active", "phase", "cards", "players", "recruited", "deal"}
    if unknown:
        raise SetupError(f"unknown setup keys: {', '.join(sorted(unknown))}")
    deal = bool(setup.get("deal", False))
    if deal and setup.get("phase") != "start":
        raise SetupError("setup.deal (draw the opening hands) needs phase: start")
    state = WarzoneState(Config(options), seed)
    library = setup.get("cards") or {}
    players = setup.get("players") or [{}, {}]
    if not isinstance(players, Sequence) or len(players) != 2:
        raise SetupError("setup.players must list two players")
    taken: set[str] = set()
    to_place: list[list[Card] | None] = []
    for player, spec in enumerate(players):
        spec = spec or {}
        unknown = set(spec) - {"life", "hand", "deck", "field", "damage_pile", "discard",
                               "exiled", "areas", "traps"}
        if unknown:
            raise SetupError(f"players.{player}: unknown keys: {', '.join(sorted(unknown))}")
        me = state.p[player]
        me.life = int(spec.get("life", state.cfg.start_life))

        def cards(key: str, player: int = player) -> list[Card]:
            return [_card(e, library, player, taken, f"players.{player}.{key}")[0]
                    for e in spec.get(key) or ()]

        me.hand = cards("hand")
        me.deck = list(reversed(cards("deck")))  # listed top first; the top is the list's end
        if deal:  # a new game's opening hand from the top of the deck, as new_game draws it (§1.3.1)
            if me.hand:
                raise SetupError(f"players.{player}: with deal the hand is drawn; list no hand")
            state.draw(player, state.cfg.start_hand)
        me.pile = cards("damage_pile")
        me.discard = cards("discard")
        me.exiled = cards("exiled")
        # Traps set face down on an earlier turn (usable now, §1.12.2).
        me.traps = [(card, int(setup.get("turn", 2)) - 1) for card in cards("traps")]
        areas: list[Card | None] = []
        for i, entry in enumerate(spec.get("areas") or ()):
            areas.append(None if entry is None else
                         _card(entry, library, player, taken, f"players.{player}.areas")[0])
        if setup.get("phase") == "start":  # the Areas are still to be placed (§1.12.4)
            to_place.append([a for a in areas if a is not None])
        else:
            state.place_areas(player, areas)
        for entry in spec.get("field") or ():
            card, raw = _card(entry, library, player, taken, f"players.{player}.field")
            if card.kind != "creature":
                raise SetupError(f"players.{player}.field: {card.iid} is not a creature")
            pos = raw.get("position", BATTLING)
            if pos not in (BATTLING, GUARDING):
                raise SetupError(f"players.{player}.field: position of {card.iid} must be "
                                 f"battling or guarding")
            face_down = bool(raw.get("face_down", False))
            if face_down and pos != GUARDING:
                raise SetupError(f"players.{player}.field: a face-down creature ({card.iid}) "
                                 "is in guarding position")
            u = Unit(card, pos, face_down)
            u.damage = int(raw.get("damage", 0))
            u.attacked = bool(raw.get("attacked", False))
            u.pos_changed = bool(raw.get("position_changed", False))
            u.used = bool(raw.get("used", False))
            me.field.append(u)
            me.field_changed()
        _note_unsimulated(state, me.hand + me.deck + [u.card for u in me.field]
                          + [a for a in me.areas if a])
    state.turn = int(setup.get("turn", 2))
    state.active = int(setup.get("active", 0))
    if state.active not in (0, 1):
        raise SetupError("setup.active must be 0 or 1")
    phase = setup.get("phase", "recruit")
    if phase not in PHASES:
        raise SetupError(f"setup.phase must be one of {', '.join(PHASES)}")
    state.phase = phase
    ADAPTER.flags(state)  # what of effects v2 item 8 the cards use: their triggers watch from here
    if phase == "start":  # a new game's start: the Areas are placed, then turn 1 begins
        state.turn = 0
        state.to_place = to_place
        state.next_area_choice()
        state._advance()
        return state
    # The Degrees of the creatures already recruited this turn (for the limit of §1.6.2).
    for degree in setup.get("recruited") or ():
        state.count += 1
        state.highest = max(state.highest, int(degree))
        state.used += band_weight(int(degree))
    state._aura = None
    state._statics = None
    if phase == "war":
        state.step = "declaration"
    state._advance()
    return state


def snapshot(state: State) -> dict[str, Any]:
    """The observable position as plain data for scenario ``expect`` blocks."""
    assert isinstance(state, WarzoneState)
    players = []
    for pl in state.p:
        field = {}
        rows: list[list[str]] = [[], [], []]
        for u in pl.field:
            rows[u.cls - 1].append(u.iid)
            field[u.iid] = {
                "name": u.card.name,
                "class": u.cls,
                "position": u.pos,
                "damage": u.damage,
                "strength": state.strength(u),
                "resilience": state.resilience(u),
                "left": state.left(u),
                "attacked": u.attacked,
                "face_down": u.face_down,
            }
        players.append({
            "life": pl.life,
            "hand": [c.iid for c in pl.hand],
            "hand_count": len(pl.hand),
            "deck": [c.iid for c in reversed(pl.deck)],
            "deck_count": len(pl.deck),
            "damage_pile": [c.iid for c in pl.pile],
            "damage_pile_count": len(pl.pile),
            "discard": [c.iid for c in pl.discard],
            "exiled": [c.iid for c in pl.exiled],
            "traps": [c.iid for c, _ in pl.traps],
            "traps_count": len(pl.traps),
            "areas": [a.iid if a else None for a in pl.areas],
            "field": field,
            "rows": rows,
        })
    pend = state.pending
    pending = None
    chain = [{"kind": link[0], "player": link[1],
              "card": link[5] if link[0] == "attack" else link[2].iid} for link in state.chain]
    if pend is not None:
        if pend[0] == "defend":
            pending = {"kind": "defend", "attacker": pend[1], "target": pend[2] or "direct",
                       "interceptors": list(pend[3])}
        elif pend[0] == "chain":
            pending = {"kind": "chain", "player": pend[1], "links": chain}
        elif pend[0] in ("areas", "heal"):
            pending = {"kind": pend[0], "player": pend[1]}
        elif pend[0] == "ask":  # a resolving effect asks (effects.asks): mode, unless, arrange, target
            ask = pend[2].ask
            pending = {"kind": "ask", "player": pend[1], "ask": ask.kind, "card": ask.card,
                       "options": list(ask.options)}
        else:
            pending = {"kind": "target", "card": pend[2].iid}
    result = None
    if state.over:
        r = state.result()
        result = {"winner": r.winner, "draw": r.draw, "reason": r.reason, "turns": r.turns}
    return {
        "to_act": list(state.to_act()),
        "terminal": state.over,
        "result": result,
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase,
        "step": state.step if state.phase == "war" else None,
        "pending": pending,
        "chain": chain,
        "recruited": {"count": state.count, "highest": state.highest},
        "players": players,
    }
