"""SethState keeps its fields in slots and clones them with a generated copier (test_fields.py):
the slot list against what a played game sets, and a clone against its origin."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from tests.domain.engines.seth_teams import DEFAULTS, decks
from workbench.domain.engines.seth import ENGINE, Monster, SethState

# A cache, not part of the position: clone resets it, to be worked out again when needed.
_CACHES = ("static_rules",)

# Effects that fill the fields the plain test line-ups leave empty: bound (while_on_field), hurt
# (on_damaged, on_deal_damage), the trigger look-ups of _index (start/end of round, continuous,
# static, on_phase) and removals that run effects (on_destroyed).
_TRIGGERS: list[dict[str, Any]] = [
    {"trigger": "on_play", "action": "modify_stats", "target": "own_creatures", "stats": {"health": 2},
     "duration": "while_on_field"},
    {"trigger": "on_damaged", "action": "damage", "target": "attacker", "amount": 1},
    {"trigger": "on_deal_damage", "action": "add_poison", "target": "enemy_creature", "amount": 1, "random": True},
    {"trigger": "start_of_turn", "action": "add_counters", "target": "this", "counter": "charge", "amount": 1},
    {"trigger": "end_of_turn", "action": "damage", "target": "enemy_creatures", "amount": 1},
    {"trigger": "continuous", "action": "modify_stats", "target": "own_creatures", "stats": {"damage": 1},
     "duration": "permanent"},
    {"trigger": "continuous", "action": "cannot_be_targeted", "target": "this"},
    {"trigger": "on_phase", "phase": "medium", "action": "heal", "target": "own_creatures", "amount": 1},
    {"trigger": "on_destroyed", "action": "damage", "target": "enemy_creatures", "amount": 2},
]


def _new_game(seed: int, triggered: bool) -> SethState:
    """A game of the test line-ups; ``triggered``: each monster given up to two of _TRIGGERS."""
    a, b = decks()
    if triggered:
        rng = random.Random(seed)
        for card in a["team"] + b["team"]:
            card["effects"] = card.get("effects", []) + rng.sample(_TRIGGERS, rng.randint(0, 2))
    return ENGINE.new_game(a, b, dict(DEFAULTS, _allow_illegal=True), seed)


def _played(seed: int, decisions: int, triggered: bool = False) -> SethState:
    """A game after ``decisions`` decisions (heuristic P1, random P2)."""
    s = _new_game(seed, triggered)
    agents = [ENGINE.agents["heuristic"](seed), ENGINE.agents["random"](seed + 1)]
    _play(s, agents, decisions)
    return s


def _play(s: SethState, agents: list[Any], decisions: int | None = None) -> None:
    """Play ``decisions`` steps of ``s`` (all of the game when None), simultaneous ones together."""
    done = 0
    while not s.is_terminal() and (decisions is None or done < decisions):
        acting = s.to_act()
        if len(acting) == 1:
            s.apply(agents[acting[0]].choose(s, acting[0]))
        else:
            s.apply_joint({p: agents[p].choose(s, p) for p in acting})
        done += 1


def _plain(value: Any) -> Any:
    """``value`` as comparable plain data: a monster as its name and what play changes on it
    (clone copies monsters, so the origin's and the clone's are equal but never the same)."""
    if isinstance(value, Monster):
        return ("monster", value.name, value.owner, value.damage_taken, value.poison, value.alive,
                value.assigned, value.ever_assigned, value.round_damage, value.round_health,
                value.perm_damage, value.perm_health, value.cont_damage, value.cont_health,
                value.damage, value.health, value.counters)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_plain(x) for x in value])
    if isinstance(value, dict):
        return ("dict", sorted((repr(k), _plain(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(map(repr, value)))
    if isinstance(value, random.Random):
        return ("random", value.getstate())
    if dataclasses.is_dataclass(value):  # GameStats (of sets, whose repr order a copy may change)
        return (type(value).__name__, [_plain(getattr(value, f.name)) for f in dataclasses.fields(value)])
    return repr(value)


def _position(s: SethState) -> dict[str, Any]:
    return {name: _plain(getattr(s, name)) for name in SethState.__slots__ if name not in _CACHES}


@pytest.mark.parametrize("seed, decisions, triggered", [(7, 0, False), (7, 9, False), (8, 25, False),
                                                        (9, 60, False), (7, 0, True), (5, 8, True)])
def test_every_slot_is_set_by_a_new_game_and_kept_by_a_clone(seed: int, decisions: int, triggered: bool) -> None:
    s = _played(seed, decisions, triggered)
    s.rng.random()  # the generator is made on first use: a clone copies it from then on
    copy = s.clone()
    for name in SethState.__slots__:
        value = getattr(s, name)  # AttributeError: a slot __init__ never sets
        getattr(copy, name)  # ... or one clone leaves unset
        if name not in _CACHES:
            assert _plain(getattr(copy, name)) == _plain(value), name


def _monsters_in(value: Any, found: set[int]) -> set[int]:
    """The ids of the monsters ``value`` holds (in lists, tuples, dicts and sets), into ``found``."""
    if isinstance(value, Monster):
        found.add(id(value))
    elif isinstance(value, (list, tuple, set, frozenset)):
        for x in value:
            _monsters_in(x, found)
    elif isinstance(value, dict):
        for x in value.values():
            _monsters_in(x, found)
    return found


def _positions(seed: int, triggered: bool) -> Any:
    """Every position of a game (heuristic P1, random P2), each in turn."""
    s = _new_game(seed, triggered)
    agents = [ENGINE.agents["heuristic"](seed), ENGINE.agents["random"](seed + 1)]
    while not s.is_terminal():
        yield s
        _play(s, agents, 1)


# 1: an ability decision with a pick queued; 17: a split after an ability hit a flyer (flight_used)
_GAMES = [(1, False), (11, False), (12, False), (17, False), (2, True), (3, True), (4, True)]


@pytest.mark.parametrize("seed, triggered", _GAMES)
def test_a_clone_played_to_the_end_changes_nothing_of_its_origin(seed: int, triggered: bool) -> None:
    for step, s in enumerate(_positions(seed, triggered)):
        if step % 2:
            s.rng.random()  # the generator is made on first use: from then on a clone copies it
        before = _position(s)
        copy = s.clone()
        copy.rng.random()  # seth's rules draw nothing: draw here, from the clone's own generator
        _play(copy, [ENGINE.agents["random"](step), ENGINE.agents["random"](step + 1)])
        after = _position(s)
        assert [name for name in before if before[name] != after[name]] == [], step


@pytest.mark.parametrize("seed, triggered", _GAMES)
def test_a_clone_holds_none_of_its_origins_monsters(seed: int, triggered: bool) -> None:
    for step, s in enumerate(_positions(seed, triggered)):
        copy = s.clone()
        origin: set[int] = set()
        for name in SethState.__slots__:
            _monsters_in(getattr(s, name), origin)
        shared = [name for name in SethState.__slots__ if _monsters_in(getattr(copy, name), set()) & origin]
        assert shared == [], step


def test_no_instance_dict() -> None:
    assert not hasattr(_played(1, 0), "__dict__")
