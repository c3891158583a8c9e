"""Building seth positions: a new game from two teams, a scenario ``setup``, and the snapshot.

Scenario setup (docs/engines/seth.md)::

    round: 1              # default 1
    phase: fast           # fast | medium | slow, default fast; play starts at that phase's assignment
    cards: {imp: {name: Ember Imp, power: 4, damage: 3, health: 4, speed: [fast], element: fire}}
    players:
      - monsters:
          - {name: a-imp, card: imp, damage_taken: 1, poison: 2, assigned: false}
          - {name: a-golem, power: 8, damage: 2, health: 9, speed: [slow]}   # fields inline
      - monsters: [...]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import is_
from typing import Any, cast

from workbench.domain.engines.base import CardData, DeckCards, State
from workbench.domain.engines.seth.cards import (
    PHASE_INDEX,
    PHASES,
    CardError,
    IllegalLineup,
    check_lineup,
    parse_card,
)
from workbench.domain.engines.seth.combat import focus_action
from workbench.domain.engines.seth.state import ASSIGN, ABILITY, SPLIT, Monster, SethState
from workbench.domain.errors import WorkbenchError

PREFIX = ("a", "b")
INSTANCE_KEYS = frozenset({"name", "card", "damage_taken", "poison", "assigned", "alive", "ever_assigned"})


_NAMED: dict[tuple[int, int], tuple[tuple[CardData, ...], tuple[tuple[Any, str], ...]]] = {}


def _team(cards: Sequence[CardData], player: int) -> list[Monster]:
    # Batches start thousands of games from the same deck lists: parse and name them once.
    key = (id(cards), player)
    hit = _NAMED.get(key)
    if hit is None or len(hit[0]) != len(cards) or any(a is not b for a, b in zip(hit[0], cards)):
        seen: dict[str, int] = {}
        named = []
        for raw in cards:
            card = parse_card(raw)
            seen[card.id] = seen.get(card.id, 0) + 1
            named.append((card, f"{PREFIX[player]}-{card.id}" + (f"-{seen[card.id]}" if seen[card.id] > 1 else "")))
        if len(_NAMED) > 4096:
            _NAMED.clear()
        hit = (tuple(cards), tuple(named))  # the card mappings themselves, checked on each hit
        _NAMED[key] = hit
    return [Monster(card, name, player) for card, name in hit[1]]


# Opening positions by (team lists, option values): a game's opening depends on nothing else
# (seth has no chance; the seed only seeds the state's generator), so a batch builds it once and
# copies it for every game. Entries hold the card lists and mappings they were built from.
_OPENINGS: dict[tuple[Any, ...], tuple[Sequence[CardData], tuple[CardData, ...],
                                       Sequence[CardData], tuple[CardData, ...], SethState]] = {}


def _same_cards(kept: tuple[CardData, ...], cards: Sequence[CardData]) -> bool:
    """Whether ``cards`` holds exactly the mapping objects of ``kept``, in order."""
    return len(kept) == len(cards) and all(map(is_, kept, cards))


_LAST_OPTIONS: list[Any] = [None, None, ()]  # the last options mapping, a copy of it, its key


def _options_key(options: Mapping[str, Any]) -> tuple[Any, ...]:
    """The option values an opening depends on, as a hashable key (raises TypeError when a value
    cannot be hashed). ``_deck_seeds`` (per-deck shuffle streams of playtest pairs) means nothing
    here: seth has no deck to shuffle, so it must not split the cache. A batch passes the same
    mapping to every game: its key is kept while the mapping still holds the same values."""
    last = _LAST_OPTIONS
    if options is last[0] and options == last[1]:
        return cast("tuple[Any, ...]", last[2])
    key = tuple(kv for kv in options.items() if kv[0] != "_deck_seeds")
    hash(key)
    last[:] = [options, dict(options), key]
    return key


def new_game(deck_a: DeckCards, deck_b: DeckCards, options: Mapping[str, Any], seed: int) -> SethState:
    """Start a game from two decks (zone ``team``, one card mapping per monster).

    Raises IllegalLineup when a team breaks §2.2 (unless ``options['_allow_illegal']``), CardError
    when a card lacks a field the engine needs.
    """
    cards_a, cards_b = deck_a.get("team", ()), deck_b.get("team", ())
    try:
        wanted = (id(cards_a), id(cards_b), _options_key(options))
        hit = _OPENINGS.get(wanted)
        key: tuple[Any, ...] | None = wanted
    except TypeError:  # an option value that cannot be hashed: build the game directly
        key = hit = None
    if hit is not None and _same_cards(hit[1], cards_a) and _same_cards(hit[3], cards_b):
        state = hit[4].fresh(seed)
        state.options = options  # the caller's mapping, as a directly built state would hold
        return state
    teams = [_team(cards_a, 0), _team(cards_b, 1)]
    if not options.get("_allow_illegal"):
        for p, team in enumerate(teams):
            check_lineup([m.card for m in team], options, f"P{p + 1}")
    state = SethState(teams, options, seed)
    _note_cards(state)
    state.start(new_round=True)
    if key is not None:
        if len(_OPENINGS) > 1024:
            _OPENINGS.clear()
        opening = state.fresh(seed)
        for m in opening.everyone:
            focus_action(m)  # built once here, so the copies of every game share it
        _OPENINGS[key] = (cards_a, tuple(cards_a), cards_b, tuple(cards_b), opening)
    return state


def _note_cards(state: SethState) -> None:
    for p, team in enumerate(state.teams):
        for m in team:
            state.stats.drawn[p].add(m.card.id)  # the whole line-up is in play from the start
            if not m.card.simulated:
                state.stats.unsimulated.add(m.card.id)


def _scenario_card(entry: Mapping[str, Any], library: Mapping[str, Any]) -> dict[str, Any]:
    ref = entry.get("card")
    if isinstance(ref, str):
        if ref not in library:
            raise WorkbenchError(f"setup: card {ref!r} is not in setup.cards")
        card = dict(library[ref])
        card.setdefault("id", ref)
    elif isinstance(ref, Mapping):
        card = dict(ref)
    else:
        card = {k: v for k, v in entry.items() if k not in INSTANCE_KEYS or k == "name"}
        card.setdefault("id", entry.get("name"))
    return card


def from_setup(setup: Mapping[str, Any], options: Mapping[str, Any], seed: int) -> SethState:
    """Build a position from a scenario ``setup`` mapping; play starts at the phase's assignment.

    Raises WorkbenchError (CardError) for an unknown card reference, a missing field, a duplicate
    instance name or an unknown phase.
    """
    library = setup.get("cards") or {}
    players = setup.get("players")
    if not isinstance(players, Sequence) or len(players) != 2:
        raise WorkbenchError("setup.players must list two players")
    teams: list[list[Monster]] = [[], []]
    names: set[str] = set()
    for p, spec in enumerate(players):
        for entry in (spec or {}).get("monsters") or []:
            if not isinstance(entry, Mapping) or "name" not in entry:
                raise WorkbenchError(f"setup.players.{p}.monsters: each monster needs a name")
            name = str(entry["name"])
            if name in names:
                raise WorkbenchError(f"setup: instance name {name!r} is used twice")
            names.add(name)
            card = parse_card(_scenario_card(entry, library))
            m = Monster(card, name, p)
            m.damage_taken = int(entry.get("damage_taken", 0))
            m.poison = int(entry.get("poison", 0))
            m.assigned = bool(entry.get("assigned", False))
            m.ever_assigned = bool(entry.get("ever_assigned", m.assigned))
            m.alive = bool(entry.get("alive", True)) and m.damage_taken < m.health
            teams[p].append(m)
    phase = str(setup.get("phase", "fast")).lower()
    if phase not in PHASE_INDEX:
        raise CardError(f"setup.phase must be one of {', '.join(PHASES)}, got {phase!r}")
    state = SethState(teams, options, seed, round_no=int(setup.get("round", 1)), phase=PHASE_INDEX[phase])
    _note_cards(state)
    if state.has_continuous:
        state.refresh_continuous()
    if not state._check_end():
        state.start(new_round=bool(setup.get("start_of_round", False)))
    return state


def _lineup(state: SethState, player: int) -> dict[str, Any]:
    """The §2.2 check of a player's monsters (all of them, removed ones too) under the options."""
    cards = [m.card for m in state.teams[player]]
    problem = ""
    try:
        check_lineup(cards, state.options, f"P{player + 1}")
    except IllegalLineup as exc:
        problem = str(exc)
    return {"size": len(cards), "power": sum(c.power for c in cards), "legal": not problem, "problem": problem}


def snapshot(state: State) -> dict[str, Any]:
    """The observable position as plain data, for scenario ``expect`` blocks (docs/engines/seth.md)."""
    assert isinstance(state, SethState)
    result = None
    if state.over:
        r = state.result()
        result = {"winner": r.winner, "draw": r.draw, "reason": r.reason, "turns": r.turns}
    players = []
    for p in (0, 1):
        monsters = {
            m.name: {
                "card": m.card.id, "alive": m.alive, "damage_taken": m.damage_taken,
                "remaining": max(0, m.remaining), "health": m.health, "damage": m.damage,
                "poison": m.poison, "assigned": m.assigned, "flight": m.card.flight,
            }
            for m in state.teams[p]
        }
        players.append({
            "monsters": monsters,
            "alive": [m.name for m in state.teams[p] if m.alive],
            "removed": [m.name for m in state.teams[p] if not m.alive],
            "assigned_now": [m.name for m in state.now[p]],
            "total": dict(state.totals[p]) if state.step == SPLIT else {},
            "targets": [m.name for m in state.targets[p]] if state.step == SPLIT else [],
            "lineup": _lineup(state, p),
        })
    step = state.step
    return {
        "round": state.round,
        "phase": PHASES[state.phase],
        "step": step if step in (ASSIGN, ABILITY, SPLIT) else "over",
        "to_act": list(state.to_act()),
        "terminal": state.over,
        "result": result,
        "players": players,
    }
