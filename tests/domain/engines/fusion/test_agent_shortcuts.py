"""The fusion heuristic's speed shortcuts must not change play (issue 16 item 1): each has a
module switch in ``fusion/agents.py``; with it off the heuristic uses the plain definition.
Seeded games of the bundled decks (two and three players) play the same either way, and each
table a shortcut reads is compared with what it stands for on played positions."""

from __future__ import annotations

from typing import Any

import pytest

from tests.domain.engines.test_engine_contract import bundled
from workbench.domain.engines.fusion import ENGINE, agents
from workbench.domain.engines.fusion.adapter import ADAPTER

SWITCHES = ("WORTH_TABLE",)


def _trace(players: int, games: int) -> list[tuple[Any, ...]]:
    """Every action and result of ``games`` seeded heuristic games of the bundled decks."""
    a, b, options = bundled("fusion")
    out: list[tuple[Any, ...]] = []
    for g in range(games):
        decks = [(a, b)[(k + g) % 2] for k in range(players)]
        state = ENGINE.new_seated(decks, options, g) if players > 2 else ENGINE.new_game(*decks, options, g)
        seats = [ENGINE.agents["heuristic"](players * g + k) for k in range(players)]
        while not state.is_terminal():
            (p,) = state.to_act()
            action = seats[p].choose(state, p)
            out.append((p, action.kind, action.args))
            state.apply(action)
        result = state.result()
        out.append((result.winner, result.turns, result.reason))
    return out


@pytest.mark.parametrize("switch", SWITCHES)
@pytest.mark.parametrize("players", (2, 3))
def test_games_play_the_same_with_the_shortcut_off(switch: str, players: int) -> None:
    """With the switch off (the plain definition) the same seeds play the same games."""
    assert getattr(agents, switch) is True
    fast = _trace(players, 16)
    setattr(agents, switch, False)
    try:
        plain = _trace(players, 16)
    finally:
        setattr(agents, switch, True)
    assert fast == plain
    assert len(fast) > 1000


def test_the_worth_table_is_what_the_adapter_ranks_by() -> None:
    """``FusionState.worths`` (WORTH_TABLE) holds ``ADAPTER.worth`` of every instance."""
    a, b, options = bundled("fusion")
    state = ENGINE.new_game(a, b, options, 0)
    assert state.worths == [ADAPTER.worth(state, i) for i in range(len(state.cards))]


def test_a_set_is_skipped_only_when_it_cannot_win() -> None:
    """_SET_MOST bounds every set's score (the cards' ``h_set``, a creature's 1.0), and games
    play the same with the skip off (the bound infinite)."""
    a, b, options = bundled("fusion")
    state = ENGINE.new_game(a, b, options, 0)
    assert all(c.h_set <= agents._SET_MOST for c in state.cards)
    fast = _trace(2, 16)
    saved, agents._SET_MOST = agents._SET_MOST, float("inf")
    try:
        plain = _trace(2, 16)
    finally:
        agents._SET_MOST = saved
    assert fast == plain
