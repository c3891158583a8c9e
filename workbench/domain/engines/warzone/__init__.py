"""The warzone rules engine (RULES.md §1): ``ENGINE`` for the shared engine interface.

Modules: ``cards`` (card instances and their parsed effects), ``adapter`` (what warzone runs of
the effect vocabulary and its primitives for the effect interpreter), ``rules`` (pure rule
arithmetic: recruit limits, reach, battle, Damage Cards), ``units`` (mutable zones), ``state``
(turn structure, legal actions), ``combat`` (attacks, interception, battles, damage) and
``effects`` (spells, traps, triggered effects) as mixins of the state, ``setup`` (new games,
scenario positions, snapshots) and ``agents`` (random, heuristic and Monte Carlo players).
See docs/engines/warzone.md.
"""

from __future__ import annotations

from workbench.domain.engines.base import Engine, RandomAgent
from workbench.domain.engines.warzone.adapter import CAPABILITIES
from workbench.domain.engines.warzone.agents import HeuristicAgent, MonteCarloAgent, search_agent
from workbench.domain.engines.warzone.cards import SUPPORTED_ACTIONS
from workbench.domain.engines.warzone.rules import DEFAULT_OPTIONS
from workbench.domain.engines.warzone.setup import from_setup, new_game, snapshot
from workbench.domain.engines.warzone.state import WarzoneState

ENGINE = Engine(
    game="warzone",
    new_game=new_game,
    agents={"random": RandomAgent, "heuristic": HeuristicAgent, "montecarlo": MonteCarloAgent,
            "search": search_agent},
    supported_actions=SUPPORTED_ACTIONS,
    capabilities=CAPABILITIES,
    from_setup=from_setup,
    snapshot=snapshot,
)

__all__ = ["ENGINE", "DEFAULT_OPTIONS", "WarzoneState", "HeuristicAgent", "MonteCarloAgent"]
