"""Card effects: the vocabulary (docs/effects.md), one parser and one interpreter for all games.

``vocabulary`` holds the tables and ``check_effects`` (the card validator's part); ``parse``
turns a card's entries into ``EffectSpec`` objects against a game's ``Capabilities`` and says
why the rest is skipped; ``interpreter`` resolves them through each engine's adapter
(``engines/<game>/adapter.py``).
"""

from workbench.domain.effects.capabilities import Capabilities
from workbench.domain.effects.parse import ParsedEffects, Skipped, parse_effects, simulated
from workbench.domain.effects.spec import PLAYERS, EffectSpec, PlayerRef, Selector, Source
from workbench.domain.effects.vocabulary import (
    ACTIONS,
    DEFAULT_TARGET,
    DURATIONS,
    KEYS,
    RULE,
    SPEED_RANGE,
    TARGETS,
    TRIGGERS,
    ActionSpec,
    check_effects,
    vocabulary,
)

__all__ = [
    "ACTIONS", "DEFAULT_TARGET", "DURATIONS", "KEYS", "PLAYERS", "RULE", "SPEED_RANGE", "TARGETS",
    "TRIGGERS", "ActionSpec", "Capabilities", "EffectSpec", "ParsedEffects", "PlayerRef", "Selector",
    "Skipped", "Source", "check_effects", "parse_effects", "simulated", "vocabulary",
]
