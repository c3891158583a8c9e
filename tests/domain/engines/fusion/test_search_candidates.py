"""The fusion search player's candidates (issue 15 item 5): the heuristic's choice, then its next
best actions by one-ply score, ranked from the deciding player's view only."""

from __future__ import annotations

import random

from tests.domain.engines.test_engine_contract import bundled
from workbench.domain.engines.fusion import ENGINE, agents
from workbench.domain.engines.fusion.state import FusionState


def _positions(games: int = 8) -> list[tuple[FusionState, int]]:
    """Searched positions (main phases, chain answers, battle windows) with several choices."""
    a, b, options = bundled("fusion")
    out = []
    for g in range(games):
        state = ENGINE.new_game(a, b, options, g)
        seats = [ENGINE.agents["heuristic"](2 * g), ENGINE.agents["heuristic"](2 * g + 1)]
        while not state.is_terminal():
            (p,) = state.to_act()
            if state.step in ("main", "respond", "window") and len(state.legal_actions(p)) > 2:
                out.append((state.clone(), p))
            state.apply(seats[p].choose(state, p))
    return out


def test_the_heuristic_choice_comes_first_then_the_rest_by_score() -> None:
    checked = 0
    for state, p in _positions():
        acts = state.legal_actions(p)
        ranked = agents.HeuristicAgent(0).ranked(state, p, acts)
        assert ranked[0] is agents.HeuristicAgent(0).choose(state, p)
        assert sorted(map(id, ranked)) == sorted(map(id, acts))  # each listed action once
        if state.down.isdisjoint(state.crea[1 - p]):  # nothing masked: the true scores rank
            scores = [agents.HeuristicAgent(0)._score(state, p, a) for a in ranked[1:]]
            assert scores == sorted(scores, reverse=True)
            checked += 1
    assert checked > 100


def test_the_ranking_depends_only_on_what_the_player_sees() -> None:
    """A re-dealt world (other hands, deck orders, face-down creatures) ranks the same places."""
    rng = random.Random(5)
    masked = 0
    for state, p in _positions():
        acts = state.legal_actions(p)
        world = state.determinize(p, rng)
        mine = [acts.index(a) for a in agents.HeuristicAgent(0).ranked(state, p, acts)]
        world_acts = world.legal_actions(p)
        theirs = [world_acts.index(a) for a in agents.HeuristicAgent(0).ranked(world, p, world_acts)]
        assert mine == theirs
        masked += not state.down.isdisjoint(state.crea[1 - p])
    assert masked > 10  # positions where the opponent's face-down creatures are ranked blind


def test_the_search_takes_its_width_from_the_ranking() -> None:
    state, p = next((s, p) for s, p in _positions(2) if len(s.legal_actions(p)) > agents.SEARCH_WIDTH)
    acts = state.legal_actions(p)
    assert agents._search_candidates(state, p, acts) == agents.HeuristicAgent(0).ranked(state, p, acts)[
        : agents.SEARCH_WIDTH]
