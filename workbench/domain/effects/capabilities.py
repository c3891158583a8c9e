"""What each game's engine runs, as data: one ``Capabilities`` constant per game.

It replaces the per-engine tables of supported actions, triggers and targets. ``parse.py``
reads it to decide, with one reason per entry, what runs and what is skipped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from workbench.domain.effects.spec import EffectSpec


def no_refusal(kind: str, spec: EffectSpec) -> str | None:
    return None


@dataclass(frozen=True)
class Capabilities:
    game: str
    triggers: Mapping[str, frozenset[str]]
    """Card kind -> the triggers its cards run (``"*"``: any kind)."""
    verbs: frozenset[str]
    targets: Mapping[str, frozenset[str]]
    """Verb -> the target names it may name in this game."""
    stats: frozenset[str]
    """The stat names ``modify_stats`` may change."""
    costs: frozenset[str] = frozenset()
    """Cost keys: warzone ``tap``, fusion ``mana`` and ``tap``, seth none."""
    self_is_player: frozenset[str] = frozenset()
    """Verbs for which ``target: self`` is the controller (else the card itself)."""
    x_amounts: bool = False
    keywords: frozenset[str] = frozenset()
    filters: frozenset[str] = frozenset()
    """Filter keys the engine evaluates (card fields, stats, states)."""
    zones: frozenset[str] = frozenset()
    """Zones ``move`` may name (from and to) and conditions may count."""
    conditions: frozenset[str] = frozenset()
    durations: frozenset[str] = frozenset({"end_of_turn", "permanent"})
    phases: frozenset[str] = frozenset()
    """The phase names an ``if: {phase: …}`` may name."""
    grouped: frozenset[str] = frozenset()
    """Triggers whose entries resolve together, so ``if: {previous: true}`` can see the one before."""
    unless: frozenset[str] = frozenset()
    """What the affected player may pay for ``unless:`` (pay_life, mana, discard); none: not run."""
    refuse: Callable[[str, EffectSpec], str | None] = no_refusal
    """A game rule the tables cannot say, e.g. warzone: negate only on traps."""
    spec_type: type[EffectSpec] = field(default=EffectSpec)
    ready: bool = False
    """``move … to: field, ready: true`` can skip summoning sickness (fusion, RULES.md §3.10.1)."""
    why_not: Mapping[str, str] = field(default_factory=dict)
    """Verb -> why the game's rules cannot have it (the effect.unsimulated reason), e.g. tokens."""

    def kind_triggers(self, kind: str) -> frozenset[str]:
        return self.triggers.get(kind, self.triggers.get("*", frozenset()))
