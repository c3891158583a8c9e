"""Every AI player decides from its own view only (issue 15, acceptance 2).

For many positions of heuristic games, a second position that differs only in what the deciding
player cannot see is dealt with ``determinize`` (another deck order, another opposing hand,
other face-down cards, other hidden seth picks). A fair player with the same seed makes the
same decision in both (compared by the action's place in the legal-action list, which depends
only on the player's view). A player that peeks is caught: the last test shows the check fails
for one. ``fusion3`` is fusion with three players (RULES.md §3.9): two opponents' hands and
face-down cards are hidden.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from tests.domain.engines.test_engine_contract import SETH_PICKS, apply, bundled
from workbench.domain.engines import load_engine
from workbench.domain.engines.base import Action, State
from workbench.domain.engines.search import same_action

GAMES = ("warzone", "fusion", "seth", "fusion3")


def engine_of(game: str):
    return load_engine("fusion" if game == "fusion3" else game)


@lru_cache(maxsize=None)
def sample_positions(game: str, games: int = 6, every: int = 4) -> tuple[State, ...]:
    """Positions of heuristic-vs-heuristic games where a player has a real choice."""
    engine = engine_of(game)
    a, b, options = bundled(engine.game)
    out = []
    for seed in range(games):
        if game == "fusion3":
            state = engine.new_seated([a, b, a], options, seed)
        else:
            state = engine.new_game(a, b, options, seed)
        seats = 3 if game == "fusion3" else 2
        players = [engine.agents["heuristic"](seed + 50 * k) for k in range(seats)]
        n = 0
        while not state.is_terminal():
            acting = state.to_act()
            if n % every == 0 and any(len(state.legal_actions(p)) > 1 for p in acting):
                out.append(state.clone())
            apply(state, {p: players[p].choose(state, p) for p in acting})
            n += 1
    if game == "seth":
        # the bundled line-ups rarely leave a pick hidden: add positions where each player has
        # picked one ability and the other's pick waits unseen
        for first in ("b-hexer", "b-mender"):
            state = engine.from_setup(SETH_PICKS, options, 0)
            state.apply_joint({0: Action("assign", ("a-hexer", "a-mender")),
                               1: Action("assign", ("b-hexer", "b-mender"))})
            target = "a-hexer" if first == "b-hexer" else "b-hexer"
            state.apply_joint({0: Action("activate", ("a-hexer", 0, "b-hexer")),
                               1: Action("activate", (first, 0, target))})
            out.extend(state.clone() for _ in range(4))
    return tuple(out)


def place(state: State, player: int, action: Action) -> object:
    try:
        return same_action(state.legal_actions(player), action)
    except ValueError:
        return (action.kind, action.args)  # an unlisted choice names only what is public


def unfair_decisions(game: str, factory, limit: int = 120, worlds: int = 2) -> list[str]:
    found = []
    positions = sample_positions(game)
    step = max(1, len(positions) // limit)
    for n, state in enumerate(positions[::step]):
        for p in state.to_act():
            if len(state.legal_actions(p)) < 2:
                continue
            mine = place(state, p, factory(n).choose(state.clone(), p))
            for k in range(worlds):
                other = state.determinize(p, random.Random(k * 7919 + n))
                assert other.observe(p).key() == state.observe(p).key()
                theirs = place(other, p, factory(n).choose(other, p))
                if theirs != mine:
                    found.append(f"position {n}, P{p + 1}: {mine} vs {theirs}")
                    break
    return found


def agent_names(game: str) -> list[str]:
    return sorted(engine_of(game).agents)


@pytest.mark.parametrize("game,agent", [(g, a) for g in GAMES for a in agent_names(g)
                                        if a not in ("search", "montecarlo")])
def test_fast_players_decide_from_their_view_only(game: str, agent: str) -> None:
    factory = engine_of(game).agents[agent]
    assert unfair_decisions(game, factory) == []


@pytest.mark.slow
@pytest.mark.parametrize("game,agent", [(g, a) for g in GAMES for a in agent_names(g)
                                        if a in ("search", "montecarlo")])
def test_search_players_decide_from_their_view_only(game: str, agent: str) -> None:
    engine = engine_of(game)
    factory = engine.agents[agent]
    assert unfair_decisions(game, lambda seed: factory(seed, budget=8) if agent == "search"
                            else factory(seed), limit=25, worlds=1) == []


@pytest.mark.parametrize("game", ("fusion", "fusion3"))
def test_search_player_decides_from_its_view_only_quick(game: str) -> None:
    """A small-budget search player, on fusion (the game with the most hidden information),
    with two and with three players."""
    factory = load_engine("fusion").agents["search"]
    assert unfair_decisions(game, lambda seed: factory(seed, budget=4), limit=12,
                            worlds=1) == []


class Peeking:
    """A player that reads the opponent's hand: attacks or plays as if it knew it."""

    def __init__(self, game: str) -> None:
        self.game = game

    def choose(self, state: State, player: int) -> Action:
        acts = state.legal_actions(player)
        if self.game == "warzone":
            hidden = [c.iid for c in state.p[1 - player].hand]
        else:
            hidden = [state.names[i] for q, hand in enumerate(state.hand) if q != player for i in hand]
        return acts[hash(min(hidden, default="")) % len(acts)]


@pytest.mark.parametrize("game", ("warzone", "fusion", "fusion3"))
def test_the_check_catches_a_player_that_peeks(game: str) -> None:
    assert unfair_decisions(game, lambda seed: Peeking(game), limit=40)
