"""The engine interface, checked the same way for every engine (OpenSpiel's random_sim_test).

Random playouts of the bundled decks, and at every step: the observation is a pure function of
what a player may know (ISMCTS's assertion ``determinize(p).observe(p) == observe(p)``), the
re-deal really re-deals, depends only on the observation, keeps the acting player's legal
actions in the same places; clones are independent; a game replays exactly from its seed and
actions; ``copy()`` covers every slot of the mutable pieces.
"""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from workbench.domain.engines import load_engine
from workbench.domain.engines.base import Action, State
from workbench.domain.engines.search import Honest

ROOT = Path(__file__).resolve().parents[3]
GAMES = ("warzone", "fusion", "seth")


@lru_cache(maxsize=None)
def bundled(game: str) -> tuple[Any, Any, dict[str, Any]]:
    """The first two bundled decks of ``game`` and its default options (logging off)."""
    from workbench.storage.repository import Repository
    from workbench.storage.scenario_files import game_option_defaults

    repo = Repository(ROOT / "card_data")
    decks = sorted(d.id for d in repo.list_decks(game))[:2]
    _, defaults = game_option_defaults(ROOT / "card_data", game)
    return repo.deck_cards(game, decks[0]), repo.deck_cards(game, decks[1]), dict(defaults, _log=False)


def new_game(game: str, seed: int, log: bool = False) -> State:
    a, b, options = bundled(game)
    return load_engine(game).new_game(a, b, dict(options, _log=log), seed)


def random_joint(state: State, rng: random.Random) -> dict[int, Action]:
    out = {}
    for p in state.to_act():
        legal = state.legal_actions(p)
        out[p] = legal[rng.randrange(len(legal))]
    return out


def apply(state: State, joint: dict[int, Action]) -> None:
    if len(joint) == 1:
        state.apply(next(iter(joint.values())))
    else:
        state.apply_joint(joint)


def positions(game: str, games: int, every: int = 1):
    """Positions of random playouts (every ``every``-th step)."""
    for seed in range(games):
        state = new_game(game, seed)
        rng = random.Random(seed)
        n = 0
        while not state.is_terminal():
            if n % every == 0:
                yield state
            apply(state, random_joint(state, rng))
            n += 1


@pytest.mark.parametrize("game", GAMES)
def test_redeal_keeps_the_observation_at_every_step(game: str) -> None:
    steps = 0
    for state in positions(game, 4):
        for p in (0, 1):
            key = state.observe(p).key()
            world = state.determinize(p, random.Random(steps))
            assert world.observe(p).key() == key, (game, steps, p)
            assert state.observe(p).key() == key  # determinize left the position alone
        steps += 1
    assert steps > 50


@pytest.mark.parametrize("game", GAMES)
def test_redeal_depends_only_on_the_observation(game: str) -> None:
    """Two positions a player cannot tell apart re-deal to the same world for one generator
    state, and the acting player's legal actions keep their places (Honest maps by place)."""
    from workbench.domain.engines import load_engine

    snapshot = load_engine(game).snapshot
    checked = 0
    for n, state in enumerate(positions(game, 3, every=3)):
        for p in (0, 1):
            other = state.determinize(p, random.Random(1000 + n))  # same view, other hidden cards
            a = state.determinize(p, random.Random(n))
            b = other.determinize(p, random.Random(n))
            assert snapshot(a) == snapshot(b), (game, n, p)
            if p in state.to_act():
                kinds = [x.kind for x in state.legal_actions(p)]
                assert [x.kind for x in other.legal_actions(p)] == kinds
                checked += 1
    assert checked > 10


@pytest.mark.parametrize("game", ("warzone", "fusion"))
def test_redeal_changes_what_is_hidden(game: str) -> None:
    """The re-deal is not a copy: the opponent's hand differs in most re-dealt worlds."""
    state = new_game(game, 5)
    snapshot = load_engine(game).snapshot
    hands = {tuple(snapshot(state.determinize(0, random.Random(k)))["players"][1]["hand"])
             for k in range(10)}
    assert len(hands) > 5
    decks = {tuple(snapshot(state.determinize(0, random.Random(k)))["players"][0]["deck"])
             for k in range(10)}
    assert len(decks) > 5


def test_fusion_face_down_cards_are_hidden_and_redealt() -> None:
    for state in positions("fusion", 12):
        q = 1 - state.actor
        hidden = state.hidden_from(state.actor)
        if hidden and any(i in state.crea[q] for i in hidden):
            break
    else:
        pytest.fail("no random fusion game set a creature")
    p = state.actor
    key = state.observe(p).key()
    for i in hidden:
        assert state.names[i] not in key  # not even its instance name
    seen = set()
    for k in range(20):
        world = state.determinize(p, random.Random(k))
        seen.add(tuple(sorted(world.cards[i].id for i in world.hidden_from(p))))
        for i in world.hidden_from(p):
            card = world.cards[i]
            assert (card.kind == "creature" and card.stars <= world.opts.set_max_stars
                    if i in world.crea[q] else card.kind == "magic")
    assert len(seen) > 1


SETH_PICKS = {
    "cards": {
        "hexer": {"name": "Hexer", "power": 4, "damage": 1, "health": 9, "speed": ["fast"],
                  "element": "magical",
                  "effects": [{"trigger": "activated", "action": "damage", "target": "enemy_creature",
                               "amount": 2}]},
        "mender": {"name": "Mender", "power": 4, "damage": 1, "health": 9, "speed": ["fast"],
                   "element": "physical",
                   "effects": [{"trigger": "activated", "action": "heal", "target": "own_creature",
                                "amount": 2}]},
    },
    "players": [
        {"monsters": [{"name": "a-hexer", "card": "hexer"}, {"name": "a-mender", "card": "mender"}]},
        {"monsters": [{"name": "b-hexer", "card": "hexer"}, {"name": "b-mender", "card": "mender"}]},
    ],
}


def test_seth_opponent_picks_are_hidden_and_repicked() -> None:
    """Both pick one ability and both still pick: P2's first pick is hidden from P1 (P1 sees
    the same whichever ability P2 picked), and the re-deal re-picks it and its target."""
    engine = load_engine("seth")
    state = engine.from_setup(SETH_PICKS, bundled("seth")[2], 0)
    state.apply_joint({0: Action("assign", ("a-hexer", "a-mender")),
                       1: Action("assign", ("b-hexer", "b-mender"))})
    one = state.clone()
    two = state.clone()
    one.apply_joint({0: Action("activate", ("a-hexer", 0, "b-hexer")),
                     1: Action("activate", ("b-hexer", 0, "a-hexer"))})
    two.apply_joint({0: Action("activate", ("a-hexer", 0, "b-hexer")),
                     1: Action("activate", ("b-mender", 0, "b-hexer"))})
    assert one.to_act() == (0, 1) and two.to_act() == (0, 1)
    assert one.observe(0).key() == two.observe(0).key()
    assert one.observe(1).key() != two.observe(1).key()
    picks = {tuple((m.name, e.index, t.name if t else None) for m, e, t, _ in
                   one.determinize(0, random.Random(k)).queued[1]) for k in range(30)}
    assert len(picks) > 2  # which ability and which target are both re-picked


@pytest.mark.parametrize("game", GAMES)
def test_clones_are_independent_and_games_replay(game: str) -> None:
    a = new_game(game, 11, log=True)
    b = a.clone()
    snapshot = load_engine(game).snapshot
    rng = random.Random(3)
    moves = []
    while not a.is_terminal() and len(moves) < 400:
        before = snapshot(b)
        joint = random_joint(a, rng)
        moves.append(joint)
        apply(a, joint)
        assert snapshot(b) == before  # playing on a does not touch its clone
        apply(b, joint)
        assert snapshot(b) == snapshot(a)
    replay = new_game(game, 11, log=True)
    for joint in moves:
        apply(replay, joint)
    assert snapshot(replay) == snapshot(a) and replay.log == a.log


def _plain(value: Any) -> Any:
    """Copied pieces (units in a list) compared by their slots, everything else by value."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if hasattr(value, "copy") and hasattr(type(value), "__slots__"):
        return {n: _plain(getattr(value, n)) for n in type(value).__slots__ if hasattr(value, n)}
    return value


def _slots_copied(obj: Any) -> None:
    copy = obj.copy()
    for name in type(obj).__slots__:
        if hasattr(obj, name) and name != "units_cache":  # a cache the copy rebuilds
            assert hasattr(copy, name), f"{type(obj).__name__}.copy() drops {name}"
            assert _plain(getattr(copy, name)) == _plain(getattr(obj, name)), \
                f"{type(obj).__name__}.{name}"


def test_copy_covers_every_slot() -> None:
    wz = new_game("warzone", 2)
    rng = random.Random(0)
    while not any(pl.field for pl in wz.p):
        apply(wz, random_joint(wz, rng))
    for pl in wz.p:
        _slots_copied(pl)
        for u in pl.field:
            _slots_copied(u)
    seth = new_game("seth", 2)
    for m in seth.everyone:
        _slots_copied(m)


@pytest.mark.parametrize("game", GAMES)
def test_honest_wrapper_plays_legal_moves(game: str) -> None:
    engine = load_engine(game)
    state = new_game(game, 4)
    players = [Honest(engine.agents["heuristic"](s), s) for s in (1, 2)]
    n = 0
    while not state.is_terminal() and n < 300:
        apply(state, {p: players[p].choose(state, p) for p in state.to_act()})
        n += 1
    assert n > 3 and (state.is_terminal() or n == 300)


def test_warzone_face_down_creatures_are_hidden_and_redealt() -> None:
    """A set creature shows its row and flags only; the re-deal puts another unseen settable
    creature of its Class there (renaming it in the pending attack), and the heuristic decides
    the same whichever lurker it is."""
    from tests.domain.engines.warzone_fixtures import options as wz_options

    engine = load_engine("warzone")
    lurker = {"kind": "creature", "class": 2, "degree": 2, "strength": 700, "resilience": 600,
              "keywords": ["settable"]}
    setup = {
        "turn": 4, "active": 0, "phase": "war",
        "cards": {"knight": {"name": "Knight", "kind": "creature", "class": 1, "degree": 2,
                             "strength": 600, "resilience": 450},
                  "reed": dict(lurker, name="Reed Lurker"),
                  "mire": dict(lurker, name="Mire Lurker", strength=100, resilience=100)},
        "players": [
            {"field": [{"card": "knight", "position": "battling"}], "deck": ["knight"] * 6},
            {"field": [{"card": "reed", "position": "guarding", "face_down": True}],
             "hand": ["mire"], "deck": ["knight"] * 6}],
    }
    state = engine.from_setup(setup, wz_options(_log=False), 1)
    key = state.observe(0).key()
    assert "Reed Lurker" not in key and "b-reed-1" not in key  # ("reed" is in the unseen pool)
    assert state.observe(1).key() != key  # its owner sees it
    names = set()
    for k in range(12):
        world = state.determinize(0, random.Random(k))
        assert world.observe(0).key() == key
        names.add(world.p[1].field[0].card.name)
    assert names == {"Reed Lurker", "Mire Lurker"}
    agent = engine.agents["heuristic"]
    other = state.determinize(0, random.Random(3))
    mine = state.legal_actions(0).index(agent(5).choose(state, 0))
    assert other.legal_actions(0).index(agent(5).choose(other, 0)) == mine


@pytest.mark.parametrize("game", GAMES)
def test_nobody_is_to_act_exactly_when_the_game_is_over(game: str) -> None:
    """``to_act()`` is empty exactly at a terminal position: ``play_game`` and the search's
    ``rollout`` ask ``is_terminal`` only when nobody is to act. Checked on every position of
    random and heuristic games (the end included), their clones and re-dealt worlds."""
    from workbench.domain.engines import load_engine

    heuristic = load_engine(game).agents["heuristic"]
    ends = 0
    for seed in range(6):
        state = new_game(game, seed)
        rng = random.Random(seed)
        players = [heuristic(seed), heuristic(seed + 1)] if seed % 2 else None
        while True:
            for s in (state, state.clone(), state.determinize(seed % 2, random.Random(seed))):
                assert (len(s.to_act()) == 0) == s.is_terminal(), (game, seed)
            if state.is_terminal():
                ends += 1
                break
            if players is None:
                apply(state, random_joint(state, rng))
            else:
                apply(state, {p: players[p].choose(state, p) for p in state.to_act()})
    assert ends == 6
