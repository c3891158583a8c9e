"""Fusion Duel rules engine (RULES.md §3, two to four players); see docs/engines/fusion.md.

Modules: ``cards`` (card definitions and their parsed effects), ``adapter`` (what fusion runs of
the effect vocabulary and its primitives for the effect interpreter), ``state`` (zones, turn flow,
chain, battle), ``setup`` (new games, scenario positions, snapshots), ``agents`` (AI players).
"""

from __future__ import annotations

from workbench.domain.engines.base import Engine, RandomAgent
from workbench.domain.engines.fusion.adapter import CAPABILITIES
from workbench.domain.engines.fusion.agents import HeuristicAgent, MonteCarloAgent, search_agent
from workbench.domain.engines.fusion.cards import ACTIONS
from workbench.domain.engines.fusion.setup import from_setup, new_game, new_pod, snapshot
from workbench.domain.engines.fusion.state import MAX_PLAYERS, FusionState

ENGINE = Engine(
    game="fusion",
    new_game=new_game,
    agents={"random": RandomAgent, "heuristic": HeuristicAgent, "montecarlo": MonteCarloAgent,
            "search": search_agent},
    supported_actions=ACTIONS,
    capabilities=CAPABILITIES,
    from_setup=from_setup,
    snapshot=snapshot,
    new_pod=new_pod,
    max_players=MAX_PLAYERS,
)

__all__ = ["ENGINE", "FusionState", "HeuristicAgent", "MonteCarloAgent"]
