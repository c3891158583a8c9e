"""The seth engine (RULES.md §2): simultaneous Fast/Medium/Slow phases, damage splits, elements,
poison counters, Flight and the round limit. See docs/engines/seth.md."""

from __future__ import annotations

from workbench.domain.engines.base import Engine, RandomAgent
from workbench.domain.engines.seth.adapter import CAPABILITIES
from workbench.domain.engines.seth.agents import HeuristicAgent, MonteCarloAgent, search_agent
from workbench.domain.engines.seth.cards import SUPPORTED_ACTIONS, IllegalLineup
from workbench.domain.engines.seth.setup import from_setup, new_game, snapshot
from workbench.domain.engines.seth.state import Monster, SethState

ENGINE = Engine(
    game="seth",
    new_game=new_game,
    agents={"random": RandomAgent, "heuristic": HeuristicAgent, "montecarlo": MonteCarloAgent,
            "search": search_agent},
    supported_actions=SUPPORTED_ACTIONS,
    capabilities=CAPABILITIES,
    from_setup=from_setup,
    snapshot=snapshot,
)

__all__ = ["ENGINE", "IllegalLineup", "Monster", "SethState"]
