"""The fusion engine's speed measures must not change play: the inline shuffle, the cached
creature stats, the heuristic's reused declaration stats and the per-target Action tables.
Each test compares against a path that does not use the shortcut."""

from __future__ import annotations

import random
from typing import Any

import pytest

from workbench.domain.engines.base import RandomAgent
from workbench.domain.engines.fusion import ENGINE, FusionState
from workbench.domain.engines.fusion.agents import HeuristicAgent
from workbench.domain.engines.fusion.samples import sample_deck
from workbench.domain.engines.fusion.state import Shared, shuffle

OPTIONS = {
    "start_life": 20, "start_hand": 5, "max_mulligans": 3, "mana_cap": 10, "hand_limit": 6,
    "max_creatures": 5, "max_set_magic": 5, "set_max_stars": 4, "first_player_skips_draw": True,
    "target_strikes_back": True, "_log": False,
}


def _games(kinds: tuple[str, str], n: int) -> Any:
    """Yield (state, agents) for ``n`` seeded games between the built-in decks, decks alternating."""
    aggro, control = sample_deck("aggro"), sample_deck("control")
    for g in range(n):
        a, b = (aggro, control) if g % 2 == 0 else (control, aggro)
        agents = [ENGINE.agents[kinds[0]](2 * g), ENGINE.agents[kinds[1]](2 * g + 1)]
        yield ENGINE.new_game(a, b, OPTIONS, g), agents


@pytest.mark.parametrize("length", [0, 1, 2, 5, 40, 45, 64, 65])
def test_shuffle_draws_exactly_like_random_shuffle(length: int) -> None:
    """Seeded games replay as before: same order, and the generator is left in the same state."""
    for seed in range(20):
        mine, theirs = random.Random(seed), random.Random(seed)
        x, y = list(range(length)), list(range(length))
        shuffle(mine, x)
        theirs.shuffle(y)
        assert x == y
        assert mine.getstate() == theirs.getstate()


def _fresh_stats(s: FusionState, i: int) -> tuple[int, int]:
    saved = s._cb
    s._cb = None  # recompute the continuous bonuses too
    try:
        return s._stats(i)
    finally:
        s._cb = saved


def test_cached_creature_stats_always_equal_fresh_ones() -> None:
    """After every action each creature's cached (ATK, DEF) is what the rules compute anew."""
    checked = 0
    for kinds in (("heuristic", "heuristic"), ("random", "random")):
        for s, agents in _games(kinds, 24):
            while not s.is_terminal():
                (p,) = s.to_act()
                s.apply(agents[p].choose(s, p))
                for q in (0, 1):
                    for i in s.crea[q]:
                        assert s.atk_dfn(i) == _fresh_stats(s, i), f"stale stats of {s.names[i]}"
                        checked += 1
    assert checked > 1000


def test_reused_declaration_stats_choose_like_a_fresh_agent() -> None:
    """An attack declaration that reuses the previous one's stats picks what a new agent picks."""
    reused = 0
    for s, agents in _games(("heuristic", "heuristic"), 30):
        while not s.is_terminal():
            (p,) = s.to_act()
            agent = agents[p]
            last = agent._decl
            if s.step == "declare" and last is not None and last[0] is s and last[2] + 1 == len(s.attacks):
                reused += 1
                assert agent.choose(s, p) is HeuristicAgent(0).choose(s, p)
            s.apply(agent.choose(s, p))
    assert reused > 50


def _listing_matches_fresh_tables(s: FusionState, agents: list[Any]) -> int:
    seen = 0
    while not s.is_terminal():
        (p,) = s.to_act()
        fresh = s.clone()
        fresh.__dict__.update(Shared(s.cards, s.names, s.owner).fields)  # empty Action caches
        listed = s.legal_actions(p)
        rebuilt = fresh.legal_actions(p)
        assert [(a.kind, a.args, a.text) for a in listed] == [(a.kind, a.args, a.text) for a in rebuilt]
        seen += len(listed)
        s.apply(agents[p].choose(s, p))
    return seen


def test_cached_actions_list_what_fresh_tables_list() -> None:
    """Actions read from the per-target tables (filled over many turns) are the ones a state
    with empty tables builds anew: same kinds, arguments and texts, in the same order."""
    for s, agents in _games(("heuristic", "random"), 6):
        assert _listing_matches_fresh_tables(s, agents) > 100
    logged = ENGINE.new_game(sample_deck("aggro"), sample_deck("control"), {**OPTIONS, "_log": True}, 7)
    assert _listing_matches_fresh_tables(logged, [HeuristicAgent(1), RandomAgent(2)]) > 100
