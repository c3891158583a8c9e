"""Fusion with three and four players (RULES.md §3.9): seating, whole games, what each player sees.

The rules themselves are pinned by the scenarios ``card_data/fusion/scenarios/4*-multi-*.yaml``;
these tests play whole games with the bundled decks.
"""

from __future__ import annotations

import random

import pytest

from tests.domain.engines.test_engine_contract import bundled
from workbench.domain.engines.base import play_game
from workbench.domain.engines.fusion import ENGINE
from workbench.domain.engines.fusion.state import FusionState


def pod(seats: int, seed: int, **options: object) -> FusionState:
    a, b, defaults = bundled("fusion")
    decks = [(a, b)[k % 2] for k in range(seats)]
    state = ENGINE.new_seated(decks, {**defaults, **options}, seed)
    assert isinstance(state, FusionState)
    return state


def test_two_decks_through_new_seated_are_the_two_player_game() -> None:
    a, b, options = bundled("fusion")
    one = ENGINE.new_game(a, b, options, 7)
    two = ENGINE.new_seated([a, b], options, 7)
    assert one.observe(0).key() == two.observe(0).key()
    assert isinstance(two, FusionState) and two.np == 2


@pytest.mark.parametrize("seats", [1, 5])
def test_fusion_seats_two_to_four(seats: int) -> None:
    a, _, options = bundled("fusion")
    with pytest.raises(ValueError, match="2 to 4"):
        ENGINE.new_seated([a] * seats, options, 0)


@pytest.mark.parametrize("seats", [3, 4])
def test_the_first_player_is_chosen_at_random_and_only_it_skips_its_first_draw(seats: int) -> None:
    firsts = set()
    for seed in range(40):
        state = pod(seats, seed, max_mulligans=0)
        firsts.add(state.first)
        assert state.active == state.first and state.turn == 1
        assert all(len(h) == 5 for h in state.hand)  # turn 1: the first player did not draw
        # play the turn round: every other player draws its first card
        for k in range(1, seats):
            state.apply(next(a for a in state.legal_actions(state.actor) if a.kind == "end"))
            while state.step == "window":  # another player may use a normal item first (§3.10.6)
                state.apply(next(a for a in state.legal_actions(state.actor) if a.kind == "pass"))
            seat = (state.first + k) % seats
            assert state.active == seat and len(state.hand[seat]) == 6
    assert firsts == set(range(seats))


@pytest.mark.parametrize("seats,agent", [(3, "random"), (3, "heuristic"), (4, "random"), (4, "heuristic")])
def test_whole_games_end_with_a_ranking(seats: int, agent: str) -> None:
    for seed in range(6):
        state = pod(seats, seed)
        result = play_game(state, [ENGINE.agents[agent](seed * 10 + k) for k in range(seats)])
        assert len(result.places) == seats
        assert sorted(result.places)[0] == 1
        assert abs(sum(result.score(p) for p in range(seats)) - 1.0) < 1e-9
        if result.winner is not None:
            assert result.places[result.winner] == 1 and result.places.count(1) == 1
        out = [p for p in range(seats) if result.places[p] >= 3]  # dropped out before the end
        for p in out:  # a player who dropped out has no cards left in the game (§3.9.5)
            assert not (state.hand[p] or state.deck[p] or state.crea[p] or state.magic[p] or state.grave[p])


def test_a_shared_first_place_splits_the_score() -> None:
    from workbench.domain.engines.base import GameResult

    result = GameResult(None, "draw", 9, (1, 3, 1, 2))
    assert [result.score(p) for p in range(4)] == [0.5, 0.0, 0.5, 0.0]
    assert GameResult(None, "draw", 9).score(1) == 0.5  # two players


def test_three_player_redeal_keeps_each_view_and_hides_both_opponents() -> None:
    state = pod(3, 3)
    players = [ENGINE.agents["heuristic"](k) for k in range(3)]
    checked = 0
    for _ in range(400):
        if state.is_terminal():
            break
        (p,) = state.to_act()
        world = state.determinize(p, random.Random(checked))
        assert world.observe(p).key() == state.observe(p).key()
        seen = state.observe(p)
        for q in range(3):
            if q != p:
                assert "hand" not in seen.public["players"][q]
                assert seen.public["players"][q]["hand_count"] == len(state.hand[q])
        if checked % 25 == 0:  # the other players' hands are re-dealt, own hand kept
            assert sorted(world.hand[p]) == sorted(state.hand[p])
        checked += 1
        state.apply(players[p].choose(state, p))
    assert checked > 50


def test_search_player_plays_a_three_player_game() -> None:
    state = pod(3, 1)
    agents = [ENGINE.agents["search"](1, budget=4), ENGINE.agents["heuristic"](2), ENGINE.agents["heuristic"](3)]
    result = play_game(state, agents)
    assert len(result.places) == 3


def test_the_turn_line_sets_each_seats_life_apart() -> None:
    """A pod's turn line lists the lives by " / " (joined by "-", 23-21-5--9 hid which were negative)."""
    imp = {"name": "火花小鬼", "kind": "creature", "cost": 1, "stars": 1, "atk": 2, "def": 2, "attribute": "fire",
           "subtype": "恶魔"}
    setup = {"turn": 6, "active": 0, "phase": "main2", "cards": {"imp": imp},
             "players": [{"life": life, "deck": [{f"{seat}-d1": "imp"}]} for seat, life in zip("abcd", (23, 21, 5, 1))]}
    state = ENGINE.from_setup(setup, {"players": 4, "_log": True}, 0)
    state.apply(next(a for a in state.legal_actions(0) if a.kind == "end"))
    assert "Turn 7 — P2's turn: life 23 / 21 / 5 / 1, mana 3/3, hand 0, deck 1" in state.log
