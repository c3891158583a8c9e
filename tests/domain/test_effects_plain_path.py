"""The interpreter's short path for plain entries (``interpreter.is_plain`` / ``_plain``) must do
what the general verbs do: the same targets, primitives, log lines, ``src.reached`` and count.
Each test compares the short path against ``interpreter.PLAIN_PATH = False`` (every entry through
``VERBS``) on positions of random games of every engine, and whole games both ways."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from workbench.domain.effects import interpreter
from workbench.domain.effects.interpreter import is_plain, legal_targets, resolve
from workbench.domain.effects.parse import parse_effects
from workbench.domain.effects.spec import SELECTORS, EffectSpec, Source
from workbench.domain.engines import load_engine
from workbench.domain.engines.base import State, play_game

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("seth", "fusion", "warzone")
KIND = {"seth": "monster", "fusion": "creature", "warzone": "creature"}


@lru_cache(maxsize=None)
def _bundled(game: str) -> tuple[Any, Any, dict[str, Any]]:
    from workbench.storage.repository import Repository
    from workbench.storage.scenario_files import game_option_defaults

    repo = Repository(ROOT / "card_data")
    decks = sorted(d.id for d in repo.list_decks(game))[:2]
    _, defaults = game_option_defaults(ROOT / "card_data", game)
    return repo.deck_cards(game, decks[0]), repo.deck_cards(game, decks[1]), dict(defaults)


def _new_game(game: str, seed: int, log: bool) -> State:
    a, b, options = _bundled(game)
    return load_engine(game).new_game(a, b, dict(options, _log=log), seed)


def _entries(game: str) -> list[EffectSpec]:
    """Every entry of a short path the game runs (each verb of ``_SHORT`` at each target but
    ``same``, amounts 0-3, several triggers, random picks, counts and filters), parsed as a card's
    effects are."""
    engine = load_engine(game)
    caps = engine.capabilities
    assert caps is not None
    stat = sorted(caps.stats)[0]
    verbs = sorted((interpreter._UNIT_VERBS | interpreter._PLAYER_VERBS) & set(caps.targets))
    raw: list[dict[str, Any]] = []
    for verb in verbs:
        extra: dict[str, Any] = {}
        if verb == "modify_stats":
            extra = {"stats": {stat: -1}, "duration": "end_of_turn"}
        elif verb in ("add_counters", "remove_counters"):
            extra = {"counter": "charge"}
        for target in sorted(caps.targets[verb]):
            if target == "same":
                continue
            for amount in (0, 1, 3):
                for trigger in ("on_play", "on_destroyed"):
                    raw.append({"trigger": trigger, "action": verb, "target": target, "amount": amount, **extra})
                if target in ("enemy_creature", "own_creature", "any_creature"):
                    raw.append({"trigger": "on_play", "action": verb, "target": target, "amount": amount,
                                "random": True, **extra})
                    raw.append({"trigger": "on_play", "action": verb, "target": target, "amount": amount,
                                "random": True, "count": 2, **extra})
                    raw.append({"trigger": "on_play", "action": verb, "target": target, "amount": amount,
                                "filter": {stat: {"min": 2}}, **extra})
                if target in ("enemy_creatures", "own_creatures"):
                    for more in ({"count": 1}, {"count": 2}, {"filter": {stat: {"max": 2}}},
                                 {"filter": {"other": True}}):
                        raw.append({"trigger": "on_play", "action": verb, "target": target, "amount": amount,
                                    **more, **extra})
    parsed = parse_effects(KIND[game], [{k: v for k, v in r.items() if k != "amount" or r["action"] not in
                                          ("destroy", "return_to_hand", "modify_stats")} for r in raw], caps)
    return [e for e in parsed.runnable if is_plain(e)]


def _source(game: str, s: Any, p: int, e: EffectSpec, rng: random.Random) -> Source:
    """The source of ``e`` for player ``p``: one of its units on the field (or none, for a spell)."""
    adapter = _adapter(game)
    if game == "seth":  # every seth effect is a monster's, removed ones' too (on_destroyed)
        src = adapter.source(rng.choice(s.teams[p]), e)
        if rng.random() < 0.5:  # on_damaged: each monster whose damage it was
            src.attacker = tuple(rng.sample(s.teams[1 - p], rng.randrange(3)))
        return src
    units = adapter.units(s, p)
    if not units or rng.random() < 0.15:
        return Source(p, "Probe")
    u = rng.choice(units)
    if game == "fusion":
        src = adapter.source(s, p, u, 0)
    else:
        src = adapter.source(s, p, u.card, u.iid, None)
    foes = adapter.units(s, 1 - p)
    if foes and rng.random() < 0.5:  # an answer to an attack (target: attacker)
        src.attacker = rng.choice(foes)
    return src


def _any_unit(game: str, s: Any, rng: random.Random) -> Any:
    """A unit of the game, maybe no longer (or not yet) in play."""
    if game == "seth":
        return rng.choice(s.everyone)
    if game == "fusion":
        return rng.randrange(len(s.cards))
    return None  # warzone units leave no handle behind: a gone target decodes to None


def _adapter(game: str) -> Any:
    import importlib

    return importlib.import_module(f"workbench.domain.engines.{game}.adapter").ADAPTER


def _after(game: str, s: Any) -> tuple[Any, ...]:
    snap = load_engine(game).snapshot
    assert snap is not None
    return (snap(s), list(s.log), s.rng.getstate())


def _ref(game: str, s: Any, t: Any) -> Any:
    """``t`` as a value a clone of ``s`` looks up again (seth's monsters by name)."""
    if t is None or game != "seth" or not hasattr(t, "name"):
        return _adapter(game).ref(s, t)
    return t.name


def _deref(game: str, s: Any, r: Any) -> Any:
    if r is None:
        return None
    if game == "seth" and isinstance(r, str):
        return s.by_name[r]
    return _adapter(game).deref(s, r)


def _resolved(game: str, s: Any, e: EffectSpec, src: Source, chosen: Any, short: bool) -> tuple[Any, ...]:
    clone = s.clone()
    if game == "fusion" and not clone.counters:
        # FusionState.clone shares an empty counters table with the position it copies: a first
        # counter in the clone would land in ``s`` too (reported to the fusion engine's owner)
        clone.counters = {}
    adapter = _adapter(game)
    att = src.attacker
    mine = Source(src.controller, src.name, _deref(game, clone, _ref(game, s, src.card)),
                  _deref(game, clone, _ref(game, s, src.unit)),
                  tuple(_deref(game, clone, _ref(game, s, t)) for t in att) if isinstance(att, tuple)
                  else _deref(game, clone, _ref(game, s, att)))
    target = _deref(game, clone, _ref(game, s, chosen))
    old = interpreter.PLAIN_PATH
    interpreter.PLAIN_PATH = short
    try:
        done = resolve(e, mine, target, clone, adapter)
    finally:
        interpreter.PLAIN_PATH = old
    reached = tuple(_ref(game, clone, t) for t in mine.reached)
    return (done, mine.did, reached) + _after(game, clone)


@pytest.mark.parametrize("game", GAMES)
def test_the_short_path_resolves_plain_entries_as_the_verbs_do(game: str) -> None:
    entries = _entries(game)
    assert {e.action for e in entries} >= ({"damage", "heal", "add_poison", "destroy", "modify_stats"}
                                           if game == "seth" else {"damage", "heal", "draw", "gain_life",
                                                                   "destroy", "return_to_hand", "modify_stats"})
    assert any(e.random for e in entries) and any(e.filter for e in entries) and any(e.count for e in entries)
    kinds = {interpreter._shortcut(e) for e in entries}
    assert kinds == ({1, 2, 3} if game == "seth" else {1, 2, 3, 4})  # every short path is compared
    runs = 0
    for seed in range(12):
        rng = random.Random(seed)
        s = _new_game(game, seed, log=True)
        steps = 0
        while not s.is_terminal() and steps < 400:
            if steps % 7 == 3:
                for _ in range(4):
                    e = rng.choice(entries)
                    p = rng.randrange(2)
                    src = _source(game, s, p, e, rng)
                    chosen = None
                    if e.chooses:
                        options = legal_targets(e, src, s, _adapter(game))
                        if options and rng.random() < 0.7:
                            chosen = rng.choice(options)
                        elif e.selector.what == "unit" and rng.random() < 0.8:
                            chosen = _any_unit(game, s, rng)  # maybe gone: the effect fizzles
                    short = _resolved(game, s, e, src, chosen, True)
                    general = _resolved(game, s, e, src, chosen, False)
                    assert short == general, (game, seed, steps, e)
                    runs += 1
            acting = s.to_act()
            joint = {q: rng.choice(s.legal_actions(q)) for q in acting}
            if len(joint) == 1:
                s.apply(next(iter(joint.values())))
            else:
                s.apply_joint(joint)
            steps += 1
    assert runs > 100


@pytest.mark.parametrize("game", GAMES)
def test_games_play_the_same_on_the_short_path_and_the_general_one(game: str) -> None:
    engine = load_engine(game)
    taken = 0
    short = interpreter._SHORT

    def counting(path: Any) -> Any:
        def run(*args: Any) -> int:
            nonlocal taken
            taken += 1
            return int(path(*args))
        return run

    def games(short: bool) -> list[tuple[Any, ...]]:
        old = interpreter.PLAIN_PATH
        interpreter.PLAIN_PATH = short
        try:
            out = []
            for seed in range(16):
                kinds = ("heuristic", "heuristic") if seed % 2 else ("random", "heuristic")
                s = _new_game(game, seed, log=True)
                result = play_game(s, [engine.agents[kinds[0]](seed), engine.agents[kinds[1]](seed + 1)])
                out.append((result.winner, result.turns, result.reason, list(s.log)))
            return out
        finally:
            interpreter.PLAIN_PATH = old

    interpreter._SHORT = (short[0], *map(counting, short[1:]))
    try:
        shortly = games(True)
    finally:
        interpreter._SHORT = short
    assert shortly == games(False)
    assert taken > 20  # the bundled decks' plain effects took the short path


def test_an_entry_is_plain_only_without_what_the_general_verbs_weigh() -> None:
    caps = load_engine("fusion").capabilities
    assert caps is not None

    def one(entry: dict[str, Any]) -> EffectSpec:
        (e,) = parse_effects("creature", [dict({"trigger": "on_play"}, **entry)], caps).runnable
        return e

    assert is_plain(one({"action": "damage", "target": "enemy_creature", "amount": 2}))
    assert is_plain(one({"action": "draw", "target": "self", "amount": 1}))
    assert is_plain(one({"action": "heal", "target": "own_creatures", "amount": 1}))
    assert is_plain(one({"action": "damage", "target": "enemy_creature", "amount": 1, "random": True}))
    assert is_plain(one({"action": "damage", "target": "enemy_creatures", "amount": 1, "filter": {"attribute": "fire"}}))
    assert is_plain(one({"action": "damage", "target": "enemy_creatures", "amount": 1, "random": True, "count": 2}))
    assert is_plain(one({"action": "damage", "target": "attacker", "amount": 1, "trigger": "on_damaged"}))
    assert is_plain(one({"action": "destroy", "target": "enemy_creature"}))
    assert is_plain(one({"action": "gain_life", "target": "self", "amount": 2}))
    assert is_plain(one({"action": "modify_stats", "target": "own_creatures", "stats": {"atk": 1}}))
    not_plain: list[dict[str, Any]] = [
        {"action": "draw", "target": "self", "amount": 1, "per": {"zone": "graveyard"}},
        {"action": "damage", "target": "enemy_creature", "amount": "X"},
        {"action": "move", "target": "enemy_creature", "to": "hand"},
        {"action": "negate", "target": "opponent"},
        {"action": "fusion_summon"},
    ]
    for entry in not_plain:
        assert not is_plain(one(entry)), entry
    e = one({"action": "damage", "target": "enemy_creature", "amount": 2})
    object.__setattr__(e, "plain", 1)  # as resolve() notes it on first use
    assert replace(e).plain == -1  # a copy is decided afresh on its first use
    same = replace(e, selector=SELECTORS["same"])
    assert same.plain == -1 and not is_plain(same)  # e.g. asks.py's shared-target step
    assert same == replace(e, selector=SELECTORS["same"])  # the note is not part of the value


def test_one_random_pick_is_the_draw_of_sample() -> None:
    """``_reach`` picks one random target with ``choice``: the same index, the same generator
    state after, as ``sample(units, 1)``."""
    for seed in range(200):
        for n in range(1, 12):
            units = list(range(n))
            a, b = random.Random(seed), random.Random(seed)
            assert a.sample(units, 1) == [b.choice(units)]
            assert a.getstate() == b.getstate()
