"""Seth's primitives for the effect interpreter (docs/effects.md, seth section).

``CAPABILITIES`` says what seth runs; ``SethEffects`` carries an effect out on a
:class:`~.state.SethState`: ability damage has its monster's element and meets Flight, poison is
a counter, stat changes last for the round or for good. Seth has no players to aim at: every
target is a monster.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from workbench.domain.effects.adapter import BaseAdapter
from workbench.domain.effects.capabilities import Capabilities
from workbench.domain.effects.spec import EffectSpec, Source
from workbench.domain.effects.interpreter import static_rules
from workbench.domain.effects.statics import StaticRules

if TYPE_CHECKING:
    from workbench.domain.engines.seth.state import Monster, SethState

SINGLE_TARGETS = frozenset({"own_creature", "enemy_creature", "any_creature"})
MONSTER_TARGETS = frozenset({"self", "this", "own_creatures", "enemy_creatures"}) | SINGLE_TARGETS


@dataclass(frozen=True, slots=True)
class Effect(EffectSpec):
    """A seth effect: the shared spec plus its Damage/Health change by name."""

    damage_mod: int = 0
    health_mod: int = 0
    single_target: bool = False
    """True when the controller picks one monster (own_creature, enemy_creature, any_creature)."""
    picked: bool = False
    """Its controller picks it in step 2 with a choice: a target, or a mode (``action: choose``)."""
    mode: str = ""
    """A picked mode of a choose ability (``"2"``): ``options`` then holds only its steps."""
    reach: tuple[bool, bool] = (True, True)
    """Whether it can change monsters of its own side, of the enemy side (besides its own
    monster): what §2.7.2's summing compares after it (``SethState._changeable``)."""
    adds: bool = False
    """It only adds to the monsters it reaches — poison counters, damage, a stat change — and
    reads nothing of the position but which monsters are in play (no condition or filter): run
    after other such abilities it gives what it gives alone (``SethState._commute``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "damage_mod", self.stat("damage"))
        object.__setattr__(self, "health_mod", self.stat("health"))
        object.__setattr__(self, "single_target", self.chooses)
        object.__setattr__(self, "picked", self.chooses or self.action == "choose")
        object.__setattr__(self, "reach", _reach(self))
        object.__setattr__(self, "adds", self.action in _ADDING and self.condition is None
                           and self.filter is None and self.per is None and not self.x)

    def describe(self) -> str:
        """A short readable text, e.g. ``damage 2`` or ``modify damage -2``."""
        if self.action == "choose":
            steps = "; ".join(s.describe() for o in self.options for s in o if isinstance(s, Effect))
            return f"mode {self.mode}: {steps}" if self.mode else f"choose one: {steps}"
        if self.action == "modify_stats":
            parts = [f"{k} {v:+d}" for k, v in (("damage", self.damage_mod), ("health", self.health_mod)) if v]
            return "modify " + ", ".join(parts)
        if self.action == "destroy":
            return "destroy"
        return f"{self.action.replace('_', ' ')} {self.amount}"


_ADDING = frozenset({"add_poison", "damage", "modify_stats"})
"""Verbs that add to their targets: poison (+n), damage taken (+n after factors), stat modifiers."""


def _reach(e: EffectSpec) -> tuple[bool, bool]:
    """(own side, enemy side): the sides an effect's target names, or its steps' (a picked mode)."""
    steps = e.options[0] if e.action == "choose" and len(e.options) == 1 else (e,)
    own = enemy = False
    for step in steps:
        target = step.target if step.action != "choose" else ""
        if target in ("this", "self"):
            continue
        if target in ("own_creatures", "own_creature"):
            own = True
        elif target in ("enemy_creatures", "enemy_creature"):
            enemy = True
        else:  # any_creature, or anything else: both sides
            own = enemy = True
    return (own, enemy)


def _refuse(kind: str, e: EffectSpec) -> str | None:
    if e.target == "attacker" and e.trigger != "on_damaged":
        return "in seth only an on_damaged effect names the attacker (the monsters whose damage it took)"
    if e.action == "choose":
        if e.trigger not in ("activated", "on_play"):
            return ("seth asks for a mode only when its controller picks the ability (activated, or a "
                    "monster's first on_play); its other triggers resolve with nobody asked")
        if any(sum(1 for step in option if step.chooses) > 1 for option in e.options):
            return "in seth, a mode names at most one chosen target (the pick carries one target)"
    if e.trigger == "continuous" and e.filter is not None and e.filter.keys() & {"damage", "health"}:
        return "a standing stat change cannot depend on the stats it changes (filter by race, element …)"
    return None


_VERBS = frozenset({"damage", "heal", "add_poison", "modify_stats", "destroy", "add_counters",
                    "remove_counters"})
_STATICS = frozenset({"cannot_be_targeted", "double_damage", "reduce_damage"})
"""Static rules seth runs; it has no attacks to forbid or block and no costs to change."""

CAPABILITIES = Capabilities(
    game="seth",
    triggers={"*": frozenset({"on_play", "on_destroyed", "activated", "continuous", "start_of_turn",
                              "end_of_turn", "on_damaged", "on_deal_damage", "on_phase"})},
    verbs=_VERBS | _STATICS | {"choose"},
    targets={verb: MONSTER_TARGETS | {"attacker"} for verb in _VERBS}
    | {verb: frozenset({"this", "self", "own_creatures", "enemy_creatures"}) for verb in _STATICS},
    stats=frozenset({"damage", "health"}),
    keywords=frozenset({"flight"}),
    filters=frozenset({"race", "element", "speed", "keywords", "name", "power", "damage", "health", "resist",
                       "vulnerable", "other"}),
    zones=frozenset({"field"}),
    conditions=frozenset({"count", "turn", "counters", "phase"}),
    durations=frozenset({"end_of_turn", "permanent", "while_on_field"}),
    phases=frozenset({"fast", "medium", "slow"}),
    refuse=_refuse,
    spec_type=Effect,
    why_not={"create_token": "seth's rules (RULES.md §2) have no tokens: a player fields its five monsters under "
                             "the Power limit and no effect adds one; create_token is fusion's (§3.10.3)",
             "fusion_summon": "seth has no extra deck: fusion_summon is fusion's (RULES.md §3.10.2)"}
)


class SethEffects(BaseAdapter):
    """The interpreter's view of a seth state (stateless: one instance serves every game)."""

    capabilities: ClassVar[Capabilities] = CAPABILITIES

    @staticmethod
    def source(m: Monster, e: EffectSpec) -> Source:
        """The source of an effect of monster ``m``: itself a target while alive, and in its own
        on-destroyed effects."""
        return Source(m.owner, m.card.name, m, m if m.alive or e.trigger == "on_destroyed" else None)

    def units(self, s: SethState, player: int) -> list[Monster]:
        return list(s.living[player])

    def in_play(self, s: SethState, u: Monster) -> bool:
        return u.alive

    def damage_unit(self, s: SethState, u: Monster, n: int, src: Source) -> None:
        m = src.card
        rules = self.statics(s) if s.has_statics else None
        if rules is not None:
            n = rules.dealt(m, None, n)  # doubled by its monster; the reduction after the element
        f = u.mult[m.card.element]  # combat.element_damage (importing combat here costs
        amount = n if f == 1.0 else int(n * f + 1e-9)  # a look-up per call: it imports this module)
        if rules is not None:
            amount = rules.dealt(None, u, amount)
        s._hurt(u, amount, m, f"{m.card.name}'s ability" if s.logging else "")

    def heal(self, s: SethState, u: Monster, n: int, src: Source) -> None:
        healed = min(n, u.damage_taken)
        u.damage_taken -= healed
        if s.logging and healed:
            s.say(f"  {u.label} heals {healed}")

    def add_counters(self, s: SethState, u: Monster, counter: str, n: int, src: Source) -> None:
        if counter != "poison":
            return super().add_counters(s, u, counter, n, src)
        u.poison += n
        if s.logging:
            s.say(f"  {u.label} gets {n} poison counter(s) (now {u.poison})")

    def counter_map(self, s: SethState, u: Monster, create: bool) -> dict[str, int] | None:
        if u.counters is None and create:
            u.counters = {}
        return u.counters

    def counters(self, s: SethState, u: Monster, name: str) -> int:
        return u.poison if name == "poison" else super().counters(s, u, name)

    def remove_counters(self, s: SethState, u: Monster, counter: str, n: int, src: Source) -> None:
        if counter == "poison":
            u.poison = max(0, u.poison - n)
        else:
            super().remove_counters(s, u, counter, n, src)

    def destroy(self, s: SethState, u: Monster, src: Source) -> None:
        u.damage_taken = max(u.damage_taken, u.health)
        s.settled = False
        if s.logging:
            s.say(f"  {u.label} is destroyed")

    def modify(self, s: SethState, u: Monster, e: EffectSpec, src: Source) -> None:
        assert isinstance(e, Effect)
        if e.trigger == "continuous":
            return  # standing effects are applied by refresh_continuous
        if e.permanent or e.duration == "while_on_field":
            if e.duration == "while_on_field":  # undone when its monster is removed (_remove_dead)
                m = src.card
                if m is None or not m.alive:
                    return
                s.bound.append((m, u, e.damage_mod, e.health_mod))
            u.perm_damage += e.damage_mod
            u.perm_health += e.health_mod
        else:
            u.round_damage += e.damage_mod
            u.round_health += e.health_mod
            s.round_changes = True  # undone at the end of the round (SethState._end_round)
        u.recalc()
        s.settled = False
        if s.logging:
            s.say(f"  {u.label} now deals {u.damage} and has {u.health} health")

    def value(self, s: SethState, m: Monster, key: str) -> Any:
        card = m.card
        if key == "damage":
            return m.damage
        if key == "health":
            return m.health
        if key == "power":
            return card.power
        if key == "element":
            return card.element
        if key == "speed":
            from workbench.domain.engines.seth.cards import PHASES

            return [PHASES[i] for i in sorted(card.phases)]
        if key in ("resist", "vulnerable"):
            return sorted(getattr(card, key))
        if key == "name":
            return card.name
        return card.data.get(key)

    def turn(self, s: SethState) -> int:
        return int(s.round)

    def phase(self, s: SethState) -> str:
        from workbench.domain.engines.seth.cards import PHASES

        return PHASES[s.phase] if isinstance(s.phase, int) and 0 <= s.phase < len(PHASES) else str(s.phase)

    def say(self, s: SethState, line: str) -> None:
        if s.logging:
            s.say(line)

    def settle(self, s: SethState) -> bool:
        return False  # the phase removes the dead and checks the end after all picks resolved

    def statics(self, s: SethState) -> StaticRules | None:
        if not s.has_statics:
            return None
        rules = s.static_rules
        if rules is None:  # dropped when a monster is removed (_remove_dead) and by clone
            rules = s.static_rules = static_rules(self.static_sources(s), s, self)
        return rules

    def static_sources(self, s: SethState) -> list[tuple[Source, EffectSpec]]:
        found: list[tuple[Source, EffectSpec]] = []
        for m in s.static_holders:
            if m.alive:
                for e in m.card.triggered["continuous"]:
                    if e.static:
                        found.append((self.source(m, e), e))
        return found


ADAPTER = SethEffects()
