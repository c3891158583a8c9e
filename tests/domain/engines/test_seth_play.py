"""Whole seth games: random-playout invariants, replay determinism, AI strength."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.domain.engines.seth_teams import DEFAULTS, decks
from workbench.domain.engines.base import Action, play_game
from workbench.domain.engines.seth import ENGINE, SethState
from workbench.domain.errors import IllegalAction


def _check_invariants(state: SethState) -> None:
    for p, team in enumerate(state.teams):
        assert len(team) == 5  # card counts are conserved: removed monsters stay in the team list
        for m in team:
            assert m.owner == p and m.damage_taken >= 0 and m.poison >= 0
            assert m.alive == (m.damage_taken < m.health), m.name
            if state.step == "assign" and m in state.eligible[p]:
                assert m.alive and not m.assigned and state.phase in m.card.phases
    acting = state.to_act()
    if state.is_terminal():
        assert acting == () and state.legal_actions(0) == [] and state.legal_actions(1) == []
    else:
        assert acting and all(state.legal_actions(p) for p in acting)
        assert 1 <= state.round <= state.max_rounds


@pytest.mark.slow
def test_random_playouts_never_crash_and_always_terminate() -> None:
    rng = random.Random(2024)
    a, b = decks()
    results = {0: 0, 1: 0, None: 0}
    for game in range(1000):
        options = dict(DEFAULTS, _log=game % 10 == 0,
                       flight_once_per_phase=game % 3 != 0, damage_persists=game % 4 != 0)
        first, second = (a, b) if game % 2 == 0 else (b, a)
        state = ENGINE.new_game(first, second, options, game)
        steps = 0
        while not state.is_terminal():
            _check_invariants(state)
            joint = {}
            for p in state.to_act():
                legal = state.legal_actions(p)
                joint[p] = legal[rng.randrange(len(legal))]
            state.apply_joint(joint)
            steps += 1
            assert steps < 5000
        _check_invariants(state)
        result = state.result()
        results[result.winner] += 1
        assert result.reason and result.turns <= DEFAULTS["max_rounds"]
    assert results[0] and results[1]  # both line-ups win some random games


def test_sample_decks_random_playouts(repo) -> None:
    options = repo.game("seth").default_options()
    ids = [d.id for d in repo.list_decks("seth")]
    assert len(ids) >= 2
    rng = random.Random(5)
    for game in range(150):
        a, b = rng.sample(ids, 2)
        state = ENGINE.new_game(repo.deck_cards("seth", a), repo.deck_cards("seth", b), options, game)
        agents = [ENGINE.agents["random"](game), ENGINE.agents["random"](game + 1)]
        play_game(state, agents, max_steps=5000)
        _check_invariants(state)


def _replay(seed: int, agents: tuple[str, str]) -> tuple[list[str], list[Any]]:
    a, b = decks()
    state = ENGINE.new_game(a, b, DEFAULTS, seed)
    players = [ENGINE.agents[agents[0]](seed), ENGINE.agents[agents[1]](seed + 1)]
    moves = []
    while not state.is_terminal():
        joint = {p: players[p].choose(state, p) for p in state.to_act()}
        moves.append(joint)
        state.apply_joint(joint)
    return state.log, moves


def test_same_seed_same_actions_same_log() -> None:
    log1, moves = _replay(11, ("random", "heuristic"))
    log2, _ = _replay(11, ("random", "heuristic"))
    assert log1 == log2 and log1[-1].startswith("Game over")
    # Replaying the recorded actions on a fresh state gives the same log too.
    a, b = decks()
    state = ENGINE.new_game(a, b, DEFAULTS, 11)
    for joint in moves:
        state.apply_joint({p: Action(x.kind, x.args) for p, x in joint.items()})
    assert state.log == log1
    assert _replay(12, ("random", "random"))[0] != _replay(13, ("random", "random"))[0]


def test_log_can_be_switched_off() -> None:
    a, b = decks()
    state = ENGINE.new_game(a, b, dict(DEFAULTS, _log=False), 3)
    play_game(state, [ENGINE.agents["heuristic"](0), ENGINE.agents["random"](1)])
    assert state.log == [] and state.is_terminal()


def test_heuristic_actions_are_legal() -> None:
    a, b = decks()
    for seed in range(60):
        state = ENGINE.new_game(a, b, DEFAULTS, seed)
        agents = [ENGINE.agents["heuristic"](seed), ENGINE.agents["random"](seed)]
        while not state.is_terminal():
            joint = {p: agents[p].choose(state, p) for p in state.to_act()}
            for p, action in joint.items():
                probe = state.clone()
                if len(probe.to_act()) == 1:
                    probe.apply(action)  # raises IllegalAction if the heuristic cheated
            state.apply_joint(joint)


def _win_rate(agent: str, opponent: str, games: int) -> float:
    a, b = decks()
    wins = 0.0
    for game in range(games):
        seat = game % 2  # alternate seats and decks
        first, second = (a, b) if game % 2 == 0 else (b, a)
        first, second = (first, second) if game % 4 < 2 else (second, first)
        players = [ENGINE.agents[opponent](game), ENGINE.agents[opponent](game)]
        players[seat] = ENGINE.agents[agent](game)
        state = ENGINE.new_game(first, second, dict(DEFAULTS, _log=False), game)
        result = play_game(state, players)
        wins += 1.0 if result.winner == seat else 0.5 if result.winner is None else 0.0
    return wins / games


def test_heuristic_beats_random_clearly() -> None:
    assert _win_rate("heuristic", "random", 200) >= 0.8


@pytest.mark.slow
def test_lookahead_player_beats_random_and_exploits_heuristic_play() -> None:
    assert _win_rate("montecarlo", "random", 4) >= 0.75
    # Mirror matches (both players with the same line-up, seats alternating), 100 per line-up:
    # the look-ahead player beats the heuristic. Since the heuristic mixes its holds (issue 15
    # item 7) one seat no longer decides a heuristic mirror, so a handful of games no longer
    # shows it: measured 53 and 65 of 100 (59 %, Wilson 95 % from 52 %), asked: more than 55 %.
    wins = 0
    for deck in decks():
        for game in range(100):
            seat = game % 2
            players = [ENGINE.agents["heuristic"](game), ENGINE.agents["heuristic"](game)]
            players[seat] = ENGINE.agents["montecarlo"](game)
            state = ENGINE.new_game(deck, deck, dict(DEFAULTS, _log=False), game)
            wins += play_game(state, players).winner == seat
    assert wins > 110


def test_apply_needs_the_acting_player() -> None:
    a, b = decks()
    state = ENGINE.new_game(a, b, DEFAULTS, 1)
    with pytest.raises(IllegalAction):
        state.apply_joint({0: Action("assign", ()), 1: Action("assign", ()), 2: Action("assign", ())})


def test_heuristic_keeps_a_lone_decoy_back_in_proportion_to_the_threat(repo) -> None:
    """Issue 15 item 7: the Ashen Drake (Medium/Slow) is Skyburn's only monster left for the Slow
    phase once the Adept struck in the Fast one, and Rot and Stone's Slow monsters wait there: the
    heuristic keeps it back with probability threat / (threat + its Damage) even with hold 0."""
    from workbench.domain.engines.seth.agents import HeuristicAgent
    from workbench.domain.engines.seth.state import ASSIGN

    options = repo.game("seth").default_options()
    state = ENGINE.new_game(repo.deck_cards("seth", "skyburn-blitz"),
                            repo.deck_cards("seth", "rot-and-stone"), options, 1)
    plain = [HeuristicAgent(1, hold=0.0, jitter=0.0), HeuristicAgent(2, hold=0.0, jitter=0.0)]
    while not (state.step == ASSIGN and state.phase == 1 and 0 in state.to_act()):
        state.apply_joint({p: plain[p].choose(state, p) for p in state.to_act()})
    drake = next(m for m in state.eligible[0] if "ashen-drake" in m.name)
    assert not any(m.alive and not m.assigned and m is not drake for m in state.by_phase[0][2])
    threat = sum(o.damage for o in state.by_phase[1][2] if o.alive and not o.assigned)
    expected = threat / (threat + drake.damage)
    kept = sum(drake.name not in HeuristicAgent(seed, hold=0.0).choose(state, 0).args
               for seed in range(600))
    assert 0.3 < expected < 0.9 and abs(kept / 600 - expected) < 0.07, (kept, expected)
