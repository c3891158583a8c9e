"""The seth game state: rounds of Fast, Medium and Slow phases with simultaneous choices (§2.3).

Each phase has up to three simultaneous steps, each a node where both players (those with a
real choice) are in ``to_act()`` and choose together through ``apply_joint``:

1. ``assign`` — a subset of the monsters with this phase's speed not yet assigned this round;
2. ``activate``/``trigger``/``done`` — one ability at a time, repeated until ``done``; the picks
   stay hidden and resolve together when both players are done;
3. ``focus``/``split`` — how the total Damage is split among the opponent's assigned monsters
   (any of its monsters when it assigned none).

A player with a single possible choice (no eligible monster, no ability, one target) is not
asked: the engine makes the forced choice, which keeps games short to play and to search.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from dataclasses import replace
from typing import Any, ClassVar, cast

from workbench.domain.effects.asks import mode_arg, mode_selections, mode_steps
from workbench.domain.effects.interpreter import holds, legal_targets, matches, resolve
from workbench.domain.effects.spec import Source
from workbench.domain.effects.statics import StaticRules
from workbench.domain.engines.base import Action, GameResult, GameStats, State
from workbench.domain.engines.fields import field_copier
from workbench.domain.engines.seth import combat
from workbench.domain.engines.seth.adapter import ADAPTER
from workbench.domain.engines.seth.cards import ELEMENTS, PHASES, Effect, MonsterCard
from workbench.domain.engines.seth.observe import Observe
from workbench.domain.errors import IllegalAction

ASSIGN, ABILITY, SPLIT, OVER = "assign", "ability", "split", "over"
DONE = Action("done", (), "done")
PHASE_TITLES = ("Fast", "Medium", "Slow")
_SUBSETS: dict[tuple[str, ...], list[Action]] = {}
_NAME = attrgetter("name")

COUNT_REMOVALS = True
"""The damage split takes the phase's assigned monsters as they are when no monster was removed
since their assignment (``SethState.removals``, ``assigned_at``); False: it looks at each
assigned monster (the plain reading; the tests compare both). A module switch: the split reads
it every phase, and a class attribute read through the state costs a type look-up each time."""

QUICK_SEED = True
"""``seeded`` hands an int seed straight to the C generator (``random.Random.seed`` does just that
for an int, after its Python-level checks) and ``clone`` copies a generator into one made without
seeding; False: ``random.Random(seed)``, and ``random.Random()`` with ``setstate`` (the plain
definitions; the tests compare the generators' states)."""
_new_object = object.__new__
_new_random = random.Random.__new__
_seed_random = _random.Random.seed


def seeded(seed: Any) -> random.Random:
    """``random.Random(seed)``: for an int, the same generator state without the Python-level
    ``__init__`` and ``seed`` calls (every game seeds a generator per agent and one for its
    state, and seeding is most of making one)."""
    if not QUICK_SEED or seed.__class__ is not int:
        return random.Random(seed)
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # as Random.seed leaves it (not in typeshed)
    return rng


def _copy_rng(rng: random.Random) -> random.Random:
    """An independent copy of ``rng``: ``setstate`` sets all of a generator's state, so the copy
    starts from one made without seeding (``random.Random()`` seeds from the system first)."""
    if not QUICK_SEED:
        copy = random.Random()
    else:
        copy = _new_random(random.Random)
    copy.setstate(rng.getstate())
    return copy


class Monster:
    """One monster in play: its card plus what happened to it (damage, poison, modifiers)."""

    __slots__ = ("card", "name", "owner", "damage_taken", "poison", "alive", "assigned",
                 "ever_assigned", "round_damage", "round_health", "perm_damage", "perm_health",
                 "cont_damage", "cont_health", "damage", "health", "mult", "focus", "counters", "src")

    def __init__(self, card: MonsterCard, name: str, owner: int) -> None:
        self.card = card
        self.name = name
        self.owner = owner
        self.damage_taken = 0
        self.poison = 0
        self.alive = True
        self.assigned = False  # assigned in this round (§2.3: once per round)
        self.ever_assigned = False  # on_play triggers on the first assignment
        self.round_damage = self.round_health = 0  # until end of round
        self.perm_damage = self.perm_health = 0
        self.cont_damage = self.cont_health = 0  # from continuous effects in play
        self.damage = card.damage  # effective values, kept current by recalc()
        self.health = card.health
        self.mult: dict[str, float] = {}  # every element -> its damage factor against it (set by the state)
        self.focus: Action | None = None  # the "everything on it" split, built once (combat.focus_action)
        self.counters: dict[str, int] | None = None  # named counters of effects (poison is its own)
        self.src: Source | None = None  # the Source its effects resolve with (SethState._source)

    def copy(self) -> Monster:
        """An independent copy (shared card data; its own counters; no Source yet)."""
        m = _new_object(Monster)  # Monster.__new__ (it has none of its own) without the look-up
        m.card = self.card
        m.name = self.name
        m.owner = self.owner
        m.damage_taken = self.damage_taken
        m.poison = self.poison
        m.alive = self.alive
        m.assigned = self.assigned
        m.ever_assigned = self.ever_assigned
        m.round_damage = self.round_damage
        m.round_health = self.round_health
        m.perm_damage = self.perm_damage
        m.perm_health = self.perm_health
        m.cont_damage = self.cont_damage
        m.cont_health = self.cont_health
        m.damage = self.damage
        m.health = self.health
        m.mult = self.mult
        m.focus = self.focus
        m.counters = dict(self.counters) if self.counters else None
        m.src = None  # a Source names its monster: the copy makes its own
        return m

    def recalc(self) -> None:
        """Recompute the effective Damage and Health after a modifier changed."""
        self.damage = max(0, self.card.damage + self.round_damage + self.perm_damage + self.cont_damage)
        self.health = self.card.health + self.round_health + self.perm_health + self.cont_health

    @property
    def remaining(self) -> int:
        return self.health - self.damage_taken

    @property
    def label(self) -> str:
        return f"{self.card.name} ({self.name})"


class SethState(Observe, State):
    """A position of the seth game. Build it with ``new_game`` or ``from_setup`` (setup.py)."""

    # Every field a position has (set by __init__ and _index, copied by clone): 52 names overflow
    # the 30 an instance dict keeps in CPython's compact shared-keys table, and a slot reads
    # faster than that plain dict. The class switches below stay class attributes (a test sets
    # one on the class, not on a state).
    __slots__ = (
        "teams", "_seed", "_rng", "log", "stats", "options", "logging", "resist_factor",
        "vulnerable_factor", "max_rounds", "flight_reduction", "flight_once", "damage_persists",
        "by_name", "order", "left", "living", "has_round_triggers", "has_continuous", "has_statics",
        "static_rules", "has_damage_triggers", "has_phase_triggers", "has_counters", "hurt", "round_changes", "bound",
        "round", "phase", "step", "_to_act", "winner", "reason", "over", "settled", "removals",
        "assigned_at", "eligible", "now", "flight_used", "slots", "queued", "finished", "totals",
        "targets", "choice",
        # the look-ups of _index
        "everyone", "sides", "by_phase", "static_holders", "phase_sources", "round_sources",
        "cont_sources",
    )

    reach_only: ClassVar[bool] = True
    """Compare after each ability only the monsters it can change (``_changeable``); False:
    compare every monster (the plain reading; the tests compare both)."""
    one_alone: ClassVar[bool] = True
    """Resolve a lone queued ability straight on the monsters (``_resolve_one``); False: always
    note and sum each ability's changes (the plain §2.7.2 reading; the tests compare both)."""
    in_turn: ClassVar[bool] = True
    """Resolve queued abilities that commute (``_commute``) one after another straight on the
    monsters while the log is off; False: note and sum their changes (the plain reading; the
    tests compare both). A logged game always sums: its lines tell each ability's result as the
    sum computes it, from the starting state ("now 2" poison counters, not the running total)."""
    settle_once: ClassVar[bool] = True
    """After a removal, look for more monsters to remove only when a change since could have
    brought one to 0 Health (it clears ``settled``); False: always look again (the plain loop;
    the tests compare both)."""
    note_round_changes: ClassVar[bool] = True
    """The end of a round undoes end-of-round stat changes only after one was made
    (``round_changes``); False: it looks at every monster each round (the plain definition;
    the tests compare both)."""
    index_copies: ClassVar[bool] = True
    """``clone`` maps the look-ups of ``_index`` to the copied monsters (``_copy_index``); False:
    it builds them again from the cards (the plain definition; the tests compare both)."""
    keep_sources: ClassVar[bool] = True
    """Each monster's effects resolve with one Source kept on the monster, reset as a new one
    would be (``_source``); False: a new Source per effect (``ADAPTER.source``, the plain
    definition; the tests compare both)."""
    note_counters: ClassVar[bool] = True
    """A lone ability looks for counters summed to nothing only in a game whose cards can put
    named counters (``has_counters``); False: it looks at every monster each time (the plain
    definition; the tests compare both)."""
    skip_empty: ClassVar[bool] = True
    """A phase in which nobody assigned a monster ends right after the assignment; False: it
    goes through the (empty) ability and split steps (the plain reading; the tests compare both)."""

    def __init__(self, teams: list[list[Monster]], options: Mapping[str, Any], seed: int,
                 round_no: int = 1, phase: int = 0) -> None:
        self.teams = teams
        self._seed = seed
        self._rng: random.Random | None = None  # seth needs no chance; made on first use
        self.log: list[str] = []
        self.stats = GameStats()
        self.options = options  # read-only; the line-up check of snapshots uses it
        self.logging = bool(options.get("_log", True))
        self.resist_factor = float(options.get("resist_factor", 0.5))
        self.vulnerable_factor = float(options.get("vulnerable_factor", 2))
        self.max_rounds = int(options.get("max_rounds", 50) or 50)
        self.flight_reduction = int(options.get("flight_reduction", 1))
        self.flight_once = bool(options.get("flight_once_per_phase", True))
        self.damage_persists = bool(options.get("damage_persists", True))
        # One pass over the monsters: names, order, element tables, which triggers exist.
        by_name: dict[str, Monster] = {}
        order: dict[str, int] = {}
        left = [0, 0]  # monsters in play per player
        round_triggers = continuous = statics = damage_triggers = phase_triggers = counters = False
        resist, vulnerable = self.resist_factor, self.vulnerable_factor
        for p, team in enumerate(teams):
            for m in team:
                order[m.name] = len(by_name)
                by_name[m.name] = m
                card = m.card
                m.mult = _multipliers(card, resist, vulnerable)
                if m.alive:
                    left[p] += 1
                if card.effects:
                    triggered = card.triggered
                    round_triggers = round_triggers or "start_of_turn" in triggered or "end_of_turn" in triggered
                    continuous = continuous or "continuous" in triggered
                    statics = statics or any(e.static for e in triggered.get("continuous", ()))
                    damage_triggers = damage_triggers or "on_damaged" in triggered or "on_deal_damage" in triggered
                    phase_triggers = phase_triggers or "on_phase" in triggered
                    counters = counters or _adds_counters(card.effects)
        self.by_name = by_name
        self.order = order
        self.left = left
        # Each player's monsters in play, in team order: shared read-only lists, replaced (never
        # changed in place) when a monster is removed (_remove_dead).
        self.living = [[m for m in team if m.alive] for team in teams]
        self.has_round_triggers = round_triggers
        self.has_continuous = continuous
        self.has_statics = statics
        self.static_rules: StaticRules | None = None  # the static rules in play (adapter.statics)
        self.has_damage_triggers = damage_triggers
        self.has_phase_triggers = phase_triggers
        # Whether a card of the game can add or remove named counters (poison is a field of its
        # own): only adding makes a monster's counters table (SethEffects.counter_map).
        self.has_counters = counters or any(m.counters for m in by_name.values())
        # Damage taken since the last check, for on_damaged/on_deal_damage: (monster, the monsters
        # whose damage it was). Only filled when a card of the game has such a trigger.
        self.hurt: list[tuple[Monster, tuple[Monster, ...]]] = []
        # Whether a stat change lasting to the end of the round may have been made this round
        # (SethEffects.modify sets it): only then does the round's end look for changes to undo.
        self.round_changes = True
        # while_on_field stat changes: (source monster, changed monster, +damage, +health)
        self.bound: list[tuple[Monster, Monster, int, int]] = []
        self._index()
        self.round = round_no
        self.phase = phase
        self.step = ASSIGN
        self._to_act: tuple[int, ...] = ()
        self.winner: int | None = None
        self.reason = ""
        self.over = False
        # True while no monster can have reached its Health since a removal check found none:
        # every change that could (lethal damage, destroy, lower Health) clears it, and
        # _remove_dead returns at once while it is set.
        self.settled = False
        self.removals = 0  # removal checks that removed monsters, this game
        self.assigned_at = 0  # ``removals`` when this phase's monsters were assigned
        # per phase
        self.eligible: list[list[Monster]] = [[], []]
        self.now: list[list[Monster]] = [[], []]  # assigned in this phase
        self.flight_used: set[str] = set()
        # ability step
        self.slots: list[list[tuple[Monster, int, Effect, bool]]] = [[], []]  # (monster, index, effect, mandatory)
        self.queued: list[list[tuple[Monster, Effect, Monster | None, bool]]] = [[], []]
        self.finished = [True, True]
        # split step
        self.totals: list[dict[str, int]] = [{}, {}]
        self.targets: list[list[Monster]] = [[], []]
        self.choice: dict[int, Action] = {}

    def _index(self) -> None:
        """Look-ups over the monsters that stay fixed for a game (clone rebuilds them).

        ``everyone`` is both teams in order; ``by_phase[p][phase]`` the player's monsters of that
        speed (eligibility then only checks alive/assigned); ``round_sources`` and
        ``cont_sources`` the monsters with start/end-of-round and continuous effects, in team
        order, so the hot path does not scan every card for triggers.
        """
        teams = self.teams
        self.everyone = teams[0] + teams[1]
        first = len(teams[0])  # indexes in everyone of P1's, P2's and all monsters
        self.sides = (range(first), range(first, len(self.everyone)), range(len(self.everyone)))
        by_phase: list[list[list[Monster]]] = [[[], [], []], [[], [], []]]
        starts: list[Monster] = []
        ends: list[Monster] = []
        cont_sources: list[Monster] = []
        statics: list[Monster] = []
        phased: list[Monster] = []
        for p in (0, 1):
            lists = by_phase[p]
            for m in teams[p]:  # team order is kept in every list
                card = m.card
                for phase in card.phases:
                    lists[phase].append(m)
                triggered = card.triggered
                if triggered:
                    if "start_of_turn" in triggered:
                        starts.append(m)
                    if "end_of_turn" in triggered:
                        ends.append(m)
                    if "continuous" in triggered:
                        cont_sources.append(m)
                        if any(e.static for e in triggered["continuous"]):
                            statics.append(m)
                    if "on_phase" in triggered:
                        phased.append(m)
        self.by_phase = by_phase
        self.static_holders = statics
        self.phase_sources = phased
        self.round_sources = {"start_of_turn": starts, "end_of_turn": ends}
        self.cont_sources = cont_sources

    # ------------------------------------------------------------------ interface

    @property
    def rng(self) -> random.Random:
        """The state's seeded generator (seth's rules need no chance; agents and extensions may)."""
        if self._rng is None:
            self._rng = seeded(self._seed)
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value

    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def is_terminal(self) -> bool:
        return self.over

    def result(self) -> GameResult:
        if not self.over:
            raise ValueError("the game is still running")
        return GameResult(self.winner, self.reason, self.round)

    def legal_actions(self, player: int) -> list[Action]:
        if player not in self._to_act:
            return []
        if self.step == ASSIGN:
            return list(_subset_actions(self.eligible[player]))  # a copy: callers may reorder it
        if self.step == ABILITY:
            return self._ability_actions(player)
        if self.step == SPLIT:
            return combat.split_candidates(self, player)
        return []

    def apply(self, action: Action) -> None:
        acting = self._to_act
        if len(acting) != 1:
            if not acting:
                raise IllegalAction("the game is over")
            raise IllegalAction(f"players {list(acting)} choose together here: use apply_joint")
        # The common case in play (one player with a choice): the same steps as apply_joint
        # without building a mapping.
        p = acting[0]
        step = self.step
        if step == ASSIGN:
            picked = self._check_assign(p, action)
            self._resolve_assign([picked, []] if p == 0 else [[], picked])
        elif step == ABILITY:
            self._record_picks(((p, self._check_pick(p, action)),))
        elif step == SPLIT:
            self.choice[p] = combat.check_split(self, p, action)
            self._resolve_split()
        else:
            raise IllegalAction("the game is over")

    def apply_joint(self, actions: Mapping[int, Action]) -> None:
        acting = self._to_act
        wrong = len(actions) != len(acting)
        for p in acting:
            if p not in actions:
                wrong = True
        if wrong:
            raise IllegalAction(f"expected choices from players {list(self._to_act)}, got {sorted(actions)}")
        # Validate every choice before changing anything, so a refused joint move leaves no trace.
        step = self.step
        if step == ASSIGN:
            chosen: list[list[Monster]] = [[], []]
            for p, a in actions.items():
                chosen[p] = self._check_assign(p, a)
            self._resolve_assign(chosen)
        elif step == ABILITY:
            picks = [(p, self._check_pick(p, a)) for p, a in actions.items()]
            self._record_picks(picks)
        elif step == SPLIT:
            checked = {p: combat.check_split(self, p, a) for p, a in actions.items()}
            self.choice.update(checked)
            self._resolve_split()
        else:
            raise IllegalAction("the game is over")

    def clone(self) -> SethState:
        """A cheap independent copy for look-ahead: copied monsters and the lists that hold
        them, shared card data and read-only fields (no deepcopy)."""
        other = SethState.__new__(SethState)
        _copy_shared(self, other)  # the fields shared as they are; the others are made below
        # new_game copies an opening per game, so this is on the hot path too: every list of
        # monsters is mapped with map over the look-up of each monster's copy (a C loop, where a
        # comprehension would be a function call of its own).
        everyone = self.everyone
        # (a loop: a Python function called from map runs in an evaluation loop of its own,
        # where a call from Python code runs in the caller's)
        copies = []
        for m in everyone:
            copies.append(m.copy())
        to: dict[Monster, Monster] = dict(zip(everyone, copies))  # monster -> its copy
        get = to.__getitem__
        first = len(self.teams[0])
        other.teams = [copies[:first], copies[first:]]
        # ``order`` holds the names in ``everyone``'s order (built from the teams in order), so
        # its keys pair with the copies without reading each copy's name (unless names repeat).
        order = self.order
        if len(order) == len(copies):
            other.by_name = dict(zip(order, copies))
        else:
            other.by_name = dict(zip(map(_NAME, copies), copies))
        if self.index_copies:
            self._copy_index(other, get)
        else:
            other._index()
        other.static_rules = None
        other.hurt = [(to[m], tuple(map(get, by))) for m, by in self.hurt] if self.hurt else []
        other.bound = [(to[m], to[t], d, h) for m, t, d, h in self.bound] if self.bound else []
        other._rng = _copy_rng(self._rng) if self._rng is not None else None
        other.log = list(self.log)
        other.stats = self.stats.copy()
        a, b = self.eligible
        other.eligible = [list(map(get, a)) if a else [], list(map(get, b)) if b else []]
        a, b = self.now
        other.now = [list(map(get, a)) if a else [], list(map(get, b)) if b else []]
        a, b = self.targets
        other.targets = [list(map(get, a)) if a else [], list(map(get, b)) if b else []]
        a, b = self.living
        other.living = [list(map(get, a)) if a else [], list(map(get, b)) if b else []]
        other.flight_used = set(self.flight_used)
        slots, queued = self.slots, self.queued
        if slots[0] or slots[1]:
            other.slots = [[(to[m], i, e, k) for m, i, e, k in s] if s else [] for s in slots]
        else:
            other.slots = [[], []]
        if queued[0] or queued[1]:
            other.queued = [[(to[m], e, to[t] if t else None, a) for m, e, t, a in q] if q else []
                            for q in queued]
        else:
            other.queued = [[], []]
        other.finished = list(self.finished)
        other.left = list(self.left)
        other.totals = [dict(self.totals[0]), dict(self.totals[1])]
        other.choice = dict(self.choice)
        return other

    def _copy_index(self, other: SethState, get: Callable[[Monster], Monster]) -> None:
        """``other._index()`` for a copy of this state (``get``: each monster's copy): the same
        look-ups with the monsters replaced, without reading the cards again."""
        other.everyone = other.teams[0] + other.teams[1]
        (a0, a1, a2), (b0, b1, b2) = self.by_phase  # by player, then by phase (Fast, Medium, Slow)
        # (an empty list is made, not mapped: map and list cost as much as a few items do)
        other.by_phase = [[list(map(get, a0)) if a0 else [], list(map(get, a1)) if a1 else [],
                           list(map(get, a2)) if a2 else []],
                          [list(map(get, b0)) if b0 else [], list(map(get, b1)) if b1 else [],
                           list(map(get, b2)) if b2 else []]]
        other.static_holders = list(map(get, self.static_holders)) if self.static_holders else []
        other.phase_sources = list(map(get, self.phase_sources)) if self.phase_sources else []
        starts, ends = self.round_sources["start_of_turn"], self.round_sources["end_of_turn"]
        other.round_sources = {"start_of_turn": list(map(get, starts)) if starts else [],
                               "end_of_turn": list(map(get, ends)) if ends else []}
        other.cont_sources = list(map(get, self.cont_sources)) if self.cont_sources else []

    def fresh(self, seed: int) -> SethState:
        """A copy of this (unplayed) position for a new game with ``seed`` (setup.new_game)."""
        other = self.clone()
        other._seed = seed
        other._rng = None
        return other

    # ------------------------------------------------------------------ helpers

    def say(self, text: str) -> None:
        """Add a line to the readable log (unless logging is off for batch playtests)."""
        if self.logging:
            self.log.append(text)

    def alive(self, player: int) -> list[Monster]:
        """The player's monsters still in play, in team order (a new list)."""
        return list(self.living[player])

    def where(self) -> str:
        """``Round N, Phase`` for log lines."""
        return f"Round {self.round}, {PHASE_TITLES[self.phase]}"

    # ------------------------------------------------------------------ flow

    def start(self, new_round: bool) -> None:
        """Begin play: run start-of-round triggers when ``new_round``, then the current phase."""
        if self.has_continuous:
            self.refresh_continuous()
        if new_round:
            self.say(f"Round {self.round}")
            self._round_triggers("start_of_turn")
            if self._check_end():
                return
        self._begin_phase()

    def _begin_phase(self) -> None:
        while True:
            phase = self.phase
            self.now = [[], []]
            if self.flight_used:
                self.flight_used = set()
            if self.has_phase_triggers:
                self._phase_triggers()
                if self._check_end():
                    return
            by_phase = self.by_phase
            # Plain loops: in the hot path a comprehension costs a function call of its own.
            e0: list[Monster] = []
            for m in by_phase[0][phase]:
                if m.alive and not m.assigned:
                    e0.append(m)
            e1: list[Monster] = []
            for m in by_phase[1][phase]:
                if m.alive and not m.assigned:
                    e1.append(m)
            self.eligible = [e0, e1]
            if e0 or e1:
                self.step = ASSIGN
                self._to_act = (0, 1) if e0 and e1 else (0,) if e0 else (1,)
                return
            if self._next_phase():
                return

    def _next_phase(self) -> bool:
        """Move to the next phase (or round); True when the game ended on the way."""
        if self.phase < 2:
            self.phase += 1
            return False
        self._end_round()
        if self.over:
            return True
        if self.round >= self.max_rounds:
            self._finish(None, f"round limit of {self.max_rounds} reached: a draw (§2.6)")
            return True
        self.round += 1
        self.phase = 0
        for m in self.everyone:
            m.assigned = False
        if self.logging:
            self.log.append(f"Round {self.round}")
        self._round_triggers("start_of_turn")
        return self._check_end()

    def _end_round(self) -> None:
        self._round_triggers("end_of_turn")
        if self._check_end():
            return
        changed = False
        heal = not self.damage_persists
        if self.round_changes or heal or not self.note_round_changes:
            self.round_changes = False
            for m in self.everyone:
                if m.round_damage or m.round_health:
                    m.round_damage = m.round_health = 0
                    m.recalc()
                    changed = True
                if heal and m.alive and m.damage_taken:
                    m.damage_taken = 0  # option damage_persists false: monsters heal between rounds
        if changed:
            self.settled = False  # Health went back down
            self._remove_dead()
            self._check_end()

    def _finish(self, winner: int | None, reason: str) -> None:
        for p in (0, 1):  # per-card facts for the playtest report (docs/playtests.md)
            facts = self.stats.facts[p]
            # Each fact's set is made when a first card has it (facts.setdefault, without a new
            # set per card): the same keys in the same order.
            dealt = facts.get("dealt_damage")
            took = facts.get("took_damage")
            survived = facts.get("survived")
            for m in self.teams[p]:
                card = m.card
                if m.ever_assigned and card.damage > 0:
                    if dealt is None:
                        dealt = facts["dealt_damage"] = set()
                    dealt.add(card.id)
                if m.alive:
                    if m.damage_taken > 0:
                        if took is None:
                            took = facts["took_damage"] = set()
                        took.add(card.id)
                    if survived is None:
                        survived = facts["survived"] = set()
                    survived.add(card.id)
                else:
                    if took is None:
                        took = facts["took_damage"] = set()
                    took.add(card.id)
        self.over = True
        self.winner = winner
        self.reason = reason
        self.step = OVER
        self._to_act = ()
        self.say(f"Game over: {reason}")

    def _check_end(self) -> bool:
        """End the game when a team is gone (§2.6); True when it is over."""
        if self.over:
            return True
        left = self.left
        if left[0] and left[1]:
            return False  # both teams still have monsters in play
        gone0 = left[0] == 0
        gone1 = left[1] == 0
        if gone0 and gone1:
            self._finish(None, "both teams were removed at once: a draw (§2.6)")
        elif gone0:
            self._finish(1, "all of P1's monsters were removed: P2 wins (§2.6)")
        elif gone1:
            self._finish(0, "all of P2's monsters were removed: P1 wins (§2.6)")
        return self.over

    # ------------------------------------------------------------------ step 1: assignment

    def _check_assign(self, player: int, action: Action) -> list[Monster]:
        if action.kind != "assign":
            raise IllegalAction(f"P{player + 1} must assign monsters now, not {action.kind!r}")
        eligible = self.eligible[player]
        names = action.args
        if not names:
            return []
        wanted = set(names)
        # The eligible list is in team order, so the chosen monsters come out in team order.
        chosen = []
        for m in eligible:
            if m.name in wanted:
                chosen.append(m)
        if len(chosen) == len(names):
            return chosen
        if len(wanted) != len(names):
            raise IllegalAction("a monster can be assigned only once")
        for name in names:
            hit = self.by_name.get(name) if isinstance(name, str) else None
            if hit is None or hit not in eligible:
                why = "not yours" if name not in self.by_name or self.by_name[name].owner != player else (
                    "removed" if not self.by_name[name].alive else
                    "already assigned this round" if self.by_name[name].assigned else
                    f"not {PHASES[self.phase]}")
                raise IllegalAction(f"{name} cannot be assigned in this phase ({why})")
        raise IllegalAction(f"{names!r} is not a set of {PHASES[self.phase]} monsters of P{player + 1}")

    def _resolve_assign(self, chosen: list[list[Monster]]) -> None:
        """Assign each player's monsters (lists in team order, one per player)."""
        self.now = chosen
        self.assigned_at = self.removals
        if self.logging:
            for p in (0, 1):
                ms = chosen[p]
                what = ", ".join(m.label for m in ms) if ms else "nothing"
                self.say(f"{self.where()} — P{p + 1} assigns {what}")
        poisoned = False
        for p in (0, 1):
            ms = chosen[p]
            if not ms:
                continue
            played = self.stats.played[p]
            for m in ms:
                m.assigned = True
                played.add(m.card.id)
                if m.poison:
                    poisoned = True
                    self._hurt(m, m.poison, None, "", poison=True)
        if poisoned and (self.hurt or not self.settled):
            self._settle_damage()
            if self._check_end():
                return
        if not (chosen[0] or chosen[1]) and self.skip_empty:  # (a class switch: read when it matters)
            # Nobody assigned: no abilities to pick, no damage to split (§2.3.2-5). The steps
            # are left as _begin_abilities and _begin_split would leave them.
            slots, queued, totals, targets = self.slots, self.queued, self.totals, self.targets
            slots[0], slots[1], queued[0], queued[1] = [], [], [], []
            self.finished[:] = (True, True)
            totals[0], totals[1] = {}, {}
            targets[0], targets[1] = self.living[1], self.living[0]
            self.choice = {}
            self._end_phase()
            return
        self._begin_abilities()

    # ------------------------------------------------------------------ step 2: abilities

    def _begin_abilities(self) -> None:
        now, all_slots, queued, finished = self.now, self.slots, self.queued, self.finished
        for p in (0, 1):
            slots: list[tuple[Monster, int, Effect, bool]] = []
            waiting: list[tuple[Monster, Effect, Monster | None, bool]] = []
            all_slots[p] = slots
            queued[p] = waiting
            if not now[p]:
                finished[p] = True
                continue
            for m in now[p]:
                if not m.alive:
                    continue
                if m.ever_assigned:  # on_play triggered on its first assignment: only activations
                    for effect in m.card.activated:
                        slots.append((m, effect.index, effect, False))
                    continue
                m.ever_assigned = True
                for effect in m.card.abilities:  # activated and on_play, in card order
                    trigger = effect.trigger
                    if trigger == "activated":
                        slots.append((m, effect.index, effect, False))
                    elif trigger == "on_play":
                        if effect.picked and not self._can_pick(m, effect):
                            # Nothing it may pick (a filter no monster matches, every target
                            # untargetable): the trigger does nothing, as a pick of no target would.
                            self.say(f"{m.name}'s on-play ability {effect.index} has no legal target and does nothing")
                        elif effect.picked:
                            slots.append((m, effect.index, effect, True))
                        else:
                            waiting.append((m, effect, None, False))
            finished[p] = not slots
        if all_slots[0] or all_slots[1]:
            self.step = ABILITY
            self._to_act = (0, 1) if all_slots[0] and all_slots[1] else (0,) if all_slots[0] else (1,)
            return
        if queued[0] or queued[1]:
            self._resolve_abilities()
        else:
            self._begin_split()

    def _targets_for(self, m: Monster, effect: Effect) -> list[Monster]:
        """The monsters a single-target effect of ``m`` may pick: own, then enemy, in team order
        (callers must not change the list: it may be one of ``living``)."""
        target = effect.target
        if effect.filter is not None or self.has_statics:  # the interpreter's matching, targetable monsters
            return legal_targets(effect, ADAPTER.source(m, effect), self, ADAPTER)
        if target == "enemy_creature":
            return self.living[1 - m.owner]
        if target == "own_creature":
            return self.living[m.owner]
        return self.living[m.owner] + self.living[1 - m.owner]

    def _may_target(self, m: Monster, effect: Effect, target: Monster) -> bool:
        """Whether ``target`` is in ``_targets_for(m, effect)``, without building the list."""
        if not target.alive:
            return False
        if self.has_statics:
            rules = ADAPTER.statics(self)
            if rules is not None and target in rules.untargetable:
                return False
        if effect.filter is not None and not matches(effect.filter, target, ADAPTER.source(m, effect),
                                                     None, ADAPTER):
            return False
        if effect.target == "enemy_creature":
            return target.owner != m.owner
        if effect.target == "own_creature":
            return target.owner == m.owner
        return True

    def _ability_actions(self, player: int) -> list[Action]:
        actions: list[Action] = []
        mandatory = False
        for m, index, effect, must in self.slots[player]:
            kind = "trigger" if must else "activate"
            mandatory = mandatory or must
            if effect.action == "choose":  # a mode (and its step's target) is part of the pick
                for arg, step in self._modes(effect):
                    if step is None:
                        actions.append(Action(kind, (m.name, index, "", arg), f"{kind} {m.name} #{index} mode {arg}"))
                        continue
                    for t in self._targets_for(m, step):
                        actions.append(Action(kind, (m.name, index, t.name, arg),
                                              f"{kind} {m.name} #{index} mode {arg} on {t.name}"))
            elif effect.single_target:
                for t in self._targets_for(m, effect):
                    actions.append(Action(kind, (m.name, index, t.name), f"{kind} {m.name} #{index} on {t.name}"))
            else:
                actions.append(Action(kind, (m.name, index, ""), f"{kind} {m.name} #{index}"))
        if not mandatory:
            actions.append(DONE)
        return actions

    def _can_pick(self, m: Monster, effect: Effect) -> bool:
        """Whether a picked ability of ``m`` has at least one pick: a mode without a target, or a
        legal target for its (or a mode's) targeted step."""
        if effect.action == "choose":
            return any(step is None or self._targets_for(m, step) for _, step in self._modes(effect))
        if effect.single_target:
            return bool(self._targets_for(m, effect))
        return True

    @staticmethod
    def _modes(effect: Effect) -> list[tuple[str, Effect | None]]:
        """A choose ability's modes: (answer, the step that takes the pick's target, or None)."""
        out = []
        for selection in mode_selections(effect):
            arg = mode_arg(selection)
            steps = mode_steps(effect, arg)
            out.append((arg, cast("Effect | None", next((s for s in steps if s.chooses), None))))
        return out

    def picked_mode(self, effect: Effect, arg: Any) -> Effect | None:
        """The choose ability narrowed to mode ``arg`` (its steps only), or None when no such mode."""
        arg = str(arg)
        if arg not in [a for a, _ in self._modes(effect)]:
            return None
        return replace(effect, options=(tuple(mode_steps(effect, arg)),), mode=arg)

    def _check_pick(self, player: int, action: Action) -> tuple[int, Monster | None, Effect | None, Monster | None]:
        if action.kind == "done":
            if any(must for _, _, _, must in self.slots[player]):
                raise IllegalAction("an on-play trigger still needs a target")
            return (-1, None, None, None)
        if action.kind not in ("activate", "trigger") or len(action.args) not in (3, 4):
            raise IllegalAction(f"choose an ability (activate/trigger MONSTER INDEX TARGET [MODE]) or done, not {action}")
        args = action.args
        name, index, target_name = args[0], args[1], args[2]  # (a slice would build a tuple)
        trigger = action.kind == "trigger"
        for slot, (m, i, effect, must) in enumerate(self.slots[player]):
            # Indexes may come as text from a replay or the CLI: compare as text when not equal.
            if m.name == name and must == trigger and ((i == index and index.__class__ is int) or str(i) == str(index)):
                target = None
                aim = effect
                if effect.action == "choose":
                    narrowed = self.picked_mode(effect, action.args[3]) if len(action.args) == 4 else None
                    if narrowed is None:
                        modes = ", ".join(a for a, _ in self._modes(effect))
                        raise IllegalAction(f"{m.name}'s ability {index} needs a mode: one of {modes}")
                    step = next((s for s in narrowed.options[0] if s.chooses), None)
                    effect = narrowed
                    if step is None:
                        return (slot, m, effect, None)
                    aim = step  # type: ignore[assignment]
                if aim.single_target:
                    target = self.by_name.get(target_name if target_name.__class__ is str else str(target_name))
                    if target is None or not self._may_target(m, aim, target):
                        raise IllegalAction(f"{target_name} is not a legal target for {m.name}")
                return (slot, m, effect, target)
        raise IllegalAction(f"{name} has no unused ability {index} to {action.kind} now")

    def _record_picks(self, picks: Iterable[tuple[int, tuple[int, Monster | None, Effect | None, Monster | None]]]
                      ) -> None:
        """Queue each (player, checked pick) (``_check_pick``; slot -1: done); resolve when both are done."""
        for p, (slot, m, effect, target) in picks:
            if slot < 0:
                self.finished[p] = True
                continue
            assert m is not None and effect is not None
            slots = self.slots[p]
            must = slots[slot][3]
            del slots[slot]
            self.queued[p].append((m, effect, target, not must))
            if not slots:
                self.finished[p] = True
        finished = self.finished
        if not (finished[0] and finished[1]):
            self._to_act = (1,) if finished[0] else (0,) if finished[1] else (0, 1)
            return
        self._resolve_abilities()

    def _resolve_abilities(self) -> None:
        if not (self.queued[0] or self.queued[1]):
            self._begin_split()
            return
        if len(self.queued[0]) + len(self.queued[1]) == 1 and self.one_alone:
            self._resolve_one()
            return
        if not self.logging and self.in_turn and self._commute():
            self._resolve_in_turn()
            return
        # §2.7.2: every ability is computed against the state as resolution began, then all
        # results are applied at once (no seat gains from resolving first). Each one runs on
        # the starting values; its changes are noted and undone before the next one runs.
        monsters = self.everyone
        start = [_mutable(m) for m in monsters]
        counters_start = [dict(m.counters) if m.counters else None for m in monsters]
        counter_deltas: dict[int, dict[str, int]] = {}
        flight_start = self.flight_used
        flight_after = set(flight_start)
        deltas: dict[int, list[int]] = {}
        poisoned_by: dict[int, int] = {}  # monster -> abilities that changed its poison (for the log)
        destroyed: set[int] = set()
        any_effect = False
        for p in (0, 1):
            for m, effect, target, activation in self.queued[p]:
                any_effect = True
                self.flight_used = set(flight_start)
                poisoned = self._run_ability(p, m, effect, target, activation)
                flight_after |= self.flight_used
                for k in self._changeable(m, effect) if self.reach_only else range(len(monsters)):
                    x = monsters[k]
                    now = _mutable(x)
                    was = start[k]
                    if now != was:
                        if now[1] != was[1]:
                            poisoned_by[k] = poisoned_by.get(k, 0) + 1
                        d = deltas.setdefault(k, [0] * len(was))
                        for f in range(len(was)):
                            d[f] += now[f] - was[f]
                        # destroyed by the effect (not the activator's own poison damage)
                        if effect.action == "destroy" and now[0] > (poisoned if x is m else was[0]):
                            destroyed.add(k)
                        _restore(x, was)
                    if x.counters or counters_start[k]:
                        before = counters_start[k] or {}
                        after = x.counters or {}
                        if after != before:
                            counted = counter_deltas.setdefault(k, {})
                            for name in set(before) | set(after):
                                counted[name] = counted.get(name, 0) + after.get(name, 0) - before.get(name, 0)
                            x.counters = dict(before) if before else None
            self.queued[p] = []
        self.flight_used = flight_after
        for k, cd in counter_deltas.items():
            x = monsters[k]
            table = dict(x.counters or {})
            for name, dv in cd.items():
                left = table.get(name, 0) + dv
                if left > 0:
                    table[name] = left
                else:
                    table.pop(name, None)
            x.counters = table or None
        for k, d in deltas.items():
            x = monsters[k]
            _restore(x, [v + dv for v, dv in zip(start[k], d)])
            if x.damage_taken < 0:
                x.damage_taken = 0  # two heals of the same damage heal it once
            if self.logging and poisoned_by.get(k, 0) > 1:  # each said "now" from the start: the sum
                self.say(f"  {x.label} has {x.poison} poison counter(s) after the abilities resolved together")
            if k in destroyed:
                x.damage_taken = max(x.damage_taken, x.health)
            if x.damage_taken >= x.health:
                self.settled = False
        if any_effect and (self.hurt or not self.settled):  # settled: nothing can have been removed
            self._settle_damage()
            if self._check_end():
                return
        self._begin_split()

    def _changeable(self, m: Monster, effect: Effect) -> Sequence[int]:
        """Indexes in ``everyone``, in order, of the monsters one ability of ``m`` can change:
        ``m`` itself (its poison), and the side(s) its target names (``Effect.reach``)."""
        own, enemy = effect.reach
        if own and enemy:
            return self.sides[2]
        if own:
            return self.sides[m.owner]
        mine = self.teams[m.owner].index(m) + (len(self.teams[0]) if m.owner else 0)
        if not enemy:
            return (mine,)
        return (mine, *self.sides[1]) if m.owner == 0 else (*self.sides[0], mine)

    def _commute(self) -> bool:
        """Whether the queued abilities, run one after another, give §2.7.2's sum: each only adds
        (``Effect.adds``: poison, damage, stat changes; sums do not depend on the order), and none
        reads what an earlier one may have changed — an activator's poison, which it pays (§2.5),
        or the once-per-phase Flight of an assigned flyer two damaging abilities may both hit
        (each sees it unused in the sum, only the first one in turn)."""
        poisoned = [False, False]  # sides an earlier ability may have put poison on
        poisoned_self: list[Monster] = []  # monsters an earlier ability poisons themselves
        hits = [0, 0]  # damaging abilities that may reach each side
        for p in (0, 1):
            for m, effect, _, activation in self.queued[p]:
                if not effect.adds:
                    return False
                if activation and (poisoned[m.owner] or m in poisoned_self):
                    return False
                own, enemy = effect.reach
                if effect.action == "add_poison":
                    poisoned[m.owner] = poisoned[m.owner] or own
                    poisoned[1 - m.owner] = poisoned[1 - m.owner] or enemy
                    if not (own or enemy):
                        poisoned_self.append(m)  # target this: its own monster
                elif effect.action == "damage":
                    hits[m.owner] += own or not enemy  # this (its own monster) or its own side
                    hits[1 - m.owner] += enemy
        if self.flight_once and self.flight_reduction:
            for side in (0, 1):
                if hits[side] > 1 and self._flight_cuts(side):
                    return False
        return True

    def _flight_cuts(self, side: int) -> bool:
        """Whether Flight can reduce damage to a monster of ``side`` in this phase (``flight_cut``):
        it assigned a flyer still in play and the opponent assigned none."""
        now = self.now
        for x in now[1 - side]:  # loops, not any(): a generator costs a call
            if x.card.flight:
                return False
        for x in now[side]:
            if x.card.flight and x.alive:
                return True
        return False

    def _resolve_in_turn(self) -> None:
        """§2.7.2 for abilities that commute (``_commute``): each runs straight on the monsters, in
        the order of the sum (P1's first), which changes what the sum changes."""
        for p in (0, 1):
            for m, effect, target, activation in self.queued[p]:
                self._run_ability(p, m, effect, target, activation)
            self.queued[p] = []
        if self.hurt or not self.settled:
            self._settle_damage()
            if self._check_end():
                return
        self._begin_split()

    def _resolve_one(self) -> None:
        """§2.7.2 with one ability queued: it alone runs on the state as resolution began, so
        it runs straight on the monsters (the same result as noting and summing its changes)."""
        p = 0 if self.queued[0] else 1
        (m, effect, target, activation), = self.queued[p]
        self.queued[p] = []
        self._run_ability(p, m, effect, target, activation)
        if self.has_counters or not self.note_counters:
            for x in self.everyone:  # counters summed to nothing are dropped, as the sum drops them
                table = x.counters
                if table and 0 in table.values():
                    x.counters = {name: n for name, n in table.items() if n > 0} or None
        if self.hurt or not self.settled:
            self._settle_damage()
            if self._check_end():
                return
        self._begin_split()

    def _run_ability(self, p: int, m: Monster, effect: Effect, target: Monster | None, activation: bool) -> int:
        """Resolve one picked ability of player ``p``: an activation first costs ``m`` its poison
        (§2.5), then its effect runs. Returns the damage ``m`` had when its effect began."""
        if self.logging:
            on = f" on {target.label}" if target else ""
            if activation:
                self.say(f"{self.where()} — P{p + 1} activates {m.label}: {effect.describe()}{on}")
            else:
                self.say(f"{self.where()} — P{p + 1}'s {m.label} on play: {effect.describe()}{on}")
        if activation and m.poison:
            self._hurt(m, m.poison, None, "", poison=True)
        poisoned = m.damage_taken
        self.run_effect(m, effect, target)
        return poisoned

    # ------------------------------------------------------------------ effects

    def run_effect(self, source: Monster, effect: Effect, target: Monster | None) -> None:
        """Apply one effect of ``source``; ``target`` is the chosen monster of a single-target one
        (of a picked mode: of its step that takes a target)."""
        src = self._source(source, effect)
        if effect.action == "choose":  # a picked mode (picked_mode): its steps, in order
            if effect.condition is not None and not holds(effect.condition, src, self, ADAPTER):
                return
            for step in effect.options[0]:
                resolve(step, src, target if step.chooses else None, self, ADAPTER)
            return
        resolve(effect, src, target, self, ADAPTER)

    def _source(self, m: Monster, effect: Effect) -> Source:
        """``ADAPTER.source(m, effect)`` for resolving ``effect``: the Source kept on ``m`` with
        what a new one would hold (``keep_sources``). An effect resolves to its end before
        another of its monster starts (triggers wait in ``hurt``), so one Source per monster
        serves them all; static rules keep their own (``ADAPTER.static_sources``)."""
        src = m.src
        if src is None:  # (with keep_sources off no Source is kept, so each one is new)
            src = ADAPTER.source(m, effect)
            if self.keep_sources:
                m.src = src
            return src
        src.unit = m if m.alive or effect.trigger == "on_destroyed" else None  # as ADAPTER.source
        src.attacker = None
        src.x = 0
        src.reached = ()
        src.did = -1
        return src

    def _round_triggers(self, trigger: str) -> None:
        if not self.has_round_triggers:
            return
        ran = False
        for m in self.round_sources[trigger]:  # team order, P1's first, as the rules read
            if not m.alive:
                continue
            for effect in m.card.triggered[trigger]:
                ran = True
                target = self.auto_target(m, effect) if effect.single_target else None
                if self.logging:
                    self.say(f"{m.label} ({trigger.replace('_', ' ')}): {effect.describe()}"
                             + (f" on {target.label}" if target else ""))
                self.run_effect(m, effect, target)
        if ran and (self.hurt or not self.settled):
            self._settle_damage()

    def auto_target(self, source: Monster, effect: Effect) -> Monster | None:
        """The target of a triggered single-target effect nobody is asked about (documented rule).

        Harmful effects hit the enemy with the least remaining health, helpful ones the own
        monster with the most damage taken; ties go to team order.
        """
        candidates = self._targets_for(source, effect)
        if effect.harmful:
            pool = [m for m in candidates if m.owner != source.owner] or candidates
            return min(pool, key=lambda m: m.remaining, default=None)
        pool = [m for m in candidates if m.owner == source.owner] or candidates
        return max(pool, key=lambda m: m.damage_taken, default=None)

    def refresh_continuous(self) -> None:
        """Recompute the standing stat changes of continuous effects from the monsters in play."""
        self.settled = False  # Health may have dropped: the next removal check looks at everyone
        # Sum the standing changes per monster, then touch only the monsters whose sum moved
        # (every other modifier change recalculates right away, so the rest are current).
        changes: dict[Monster, list[int]] = {}
        teams = self.teams
        for m in self.cont_sources:
            if not m.alive:
                continue
            for effect in m.card.triggered["continuous"]:
                if effect.static:
                    continue  # a static rule (adapter.statics), not a stat change
                if effect.target in ("this", "self"):
                    targets = [m]
                elif effect.target == "own_creatures":
                    targets = teams[m.owner]
                else:
                    targets = teams[1 - m.owner]
                if effect.filter is not None:  # e.g. "your Undead get +1 Damage"
                    source = ADAPTER.source(m, effect)
                    targets = [t for t in targets if matches(effect.filter, t, source, self, ADAPTER)]
                for t in targets:
                    change = changes.get(t)
                    if change is None:
                        change = changes[t] = [0, 0]
                    change[0] += effect.damage_mod
                    change[1] += effect.health_mod
        for m in self.everyone:
            damage, health = changes.get(m) or (0, 0)
            if damage != m.cont_damage or health != m.cont_health:
                m.cont_damage = damage
                m.cont_health = health
                m.recalc()

    # ------------------------------------------------------------------ damage

    def _hurt(self, m: Monster, amount: int, source: Monster | None, why: str, poison: bool = False,
              dealers: tuple[Monster, ...] = ()) -> None:
        """Add damage to ``m``; Flight (§2.5) reduces damage that is not poison.

        ``why`` is only read for the log (poison names its counters itself), so callers pass ""
        when logging is off.
        """
        if poison:
            if amount <= 0:
                return
            if self.logging:
                why = f"{amount} poison counter(s)"
        elif amount > 0 and m.card.flight:
            amount = self.flight_cut(m, amount)
            if amount <= 0:
                return
        elif amount <= 0:
            return
        m.damage_taken += amount
        if m.damage_taken >= m.health:
            self.settled = False
        if self.has_damage_triggers:
            self.hurt.append((m, (source,) if source is not None else dealers))
        if self.logging:
            self.log.append(f"  {m.label} takes {amount} from {why} ({max(0, m.health - m.damage_taken)} health left)")

    def _damage_triggers(self) -> None:
        """Run the on_damaged and on_deal_damage effects of the damage taken since the last
        check (docs/effects.md, seth): each at once, in the order the damage was taken; the
        damage they deal starts the next round of triggers (at most 20 rounds)."""
        for _ in range(20):
            hurt = self.hurt
            if not hurt:
                return
            self.hurt = []
            for victim, by in hurt:
                if victim.alive and victim.card.triggered:
                    for effect in victim.card.triggered.get("on_damaged", ()):
                        self._run_damage_trigger(victim, effect, by, "on damaged")
                for m in by:
                    if m.alive and m.card.triggered:
                        for effect in m.card.triggered.get("on_deal_damage", ()):
                            self._run_damage_trigger(m, effect, (victim,), "on deal damage")
        self.hurt = []

    def _run_damage_trigger(self, m: Monster, effect: Effect, other: tuple[Monster, ...], why: str) -> None:
        target = self.auto_target(m, effect) if effect.single_target else None
        if self.logging:
            self.say(f"  {m.label} ({why}): {effect.describe()}" + (f" on {target.label}" if target else ""))
        src = self._source(m, effect)
        src.attacker = other  # on_damaged: the monsters whose damage it took (target: attacker)
        resolve(effect, src, target, self, ADAPTER)

    def _phase_triggers(self) -> None:
        """Run the on_phase effects of the monsters in play whose phase begins now."""
        name = PHASES[self.phase]
        ran = False
        for m in self.phase_sources:  # team order, P1's first
            if not m.alive:
                continue
            for effect in m.card.triggered["on_phase"]:
                if name in effect.phase.split(","):
                    ran = True
                    target = self.auto_target(m, effect) if effect.single_target else None
                    if self.logging:
                        self.say(f"{m.label} ({name} phase begins): {effect.describe()}"
                                 + (f" on {target.label}" if target else ""))
                    self.run_effect(m, effect, target)
        if ran:
            self._settle_damage()

    def _end_bound(self, dead: list[Monster]) -> None:
        """The while_on_field changes of removed monsters end (which can remove more: the loop of
        _remove_dead looks again)."""
        keep = []
        for entry in self.bound:
            source, target, d, h = entry
            if source in dead:
                target.perm_damage -= d
                target.perm_health -= h
                target.recalc()
                self.settled = False  # Health may have dropped
            elif target not in dead:
                keep.append(entry)
        self.bound = keep

    def _settle_damage(self) -> None:
        """Damage triggers, then the removal of the monsters at 0 Health."""
        if self.hurt:
            self._damage_triggers()
        if not self.settled:
            self._remove_dead()

    def flight_cut(self, m: Monster, amount: int) -> int:
        """Apply Flight: an assigned flyer takes ``flight_reduction`` less, unless the opponent
        assigned a flyer in this phase; once per phase by default (Decision §2.5)."""
        if not m.card.flight or not self.flight_reduction or m not in self.now[m.owner]:
            return amount
        for x in self.now[1 - m.owner]:  # a loop, not any(): a generator costs a call
            if x.card.flight:
                return amount
        if self.flight_once:
            if m.name in self.flight_used:
                return amount
            self.flight_used.add(m.name)
        return max(0, amount - self.flight_reduction)

    def _remove_dead(self) -> None:
        if self.settled:
            return  # nothing changed that could remove a monster (see __init__)
        # on_destroyed triggers can remove more monsters; loop until nothing changes.
        # Plain loops: in the hot path a comprehension costs a function call of its own.
        left, living, teams, facts = self.left, self.living, self.teams, self.stats.facts
        for _ in range(20):
            dead: list[Monster] = []
            for side in living:  # the monsters in play, in team order (P1's first)
                for m in side:
                    if m.damage_taken >= m.health:
                        dead.append(m)
            if not dead:
                self.settled = True
                return
            # Settled once these are removed, unless a change below could remove more: it clears
            # the flag (an ended while_on_field or standing effect, an on_destroyed effect).
            self.settled = self.settle_once
            lost_source = False
            if "removed_first" not in facts[0] or "removed_first" not in facts[1]:
                self._note_first_removal(dead)
            self.static_rules = None  # a removed monster's static rules end
            if self.bound:
                self._end_bound(dead)
            self.removals += 1
            for m in dead:
                m.alive = False
                left[m.owner] -= 1
                if self.logging:
                    self.log.append(f"  {m.label} is removed")
                if "continuous" in m.card.triggered:
                    lost_source = True
            for p in (0, 1):
                if left[p] != len(living[p]):
                    alive = []
                    for m in teams[p]:
                        if m.alive:
                            alive.append(m)
                    living[p] = alive  # a new list: the old one may be shared (see __init__)
            # Standing effects depend only on which of their sources are alive (they reach
            # every monster of a side, removed ones too), so only losing a source changes them.
            if lost_source:
                self.refresh_continuous()
            for m in dead:
                if "on_destroyed" not in m.card.triggered:
                    continue
                for effect in m.card.triggered["on_destroyed"]:
                    target = self.auto_target(m, effect) if effect.single_target else None
                    if self.logging:
                        self.say(f"  {m.label} (on destroyed): {effect.describe()}"
                                 + (f" on {target.label}" if target else ""))
                    self.run_effect(m, effect, target)
                    if self.hurt:
                        self._damage_triggers()
            if self.settled:
                return
        self.settled = False

    def _note_first_removal(self, dead: list[Monster]) -> None:
        """The playtest fact ``removed_first``: a side's first removed monsters (monsters removed
        together share it)."""
        for p in (0, 1):
            facts = self.stats.facts[p]
            if "removed_first" not in facts:
                first = set()
                for m in dead:  # in team order, as a set comprehension would add them
                    if m.owner == p:
                        first.add(m.card.id)
                if first:
                    facts["removed_first"] = first

    # ------------------------------------------------------------------ steps 3-5: damage split

    def _begin_split(self) -> None:
        acting = []
        choice: dict[int, Action] = {}
        self.choice = choice
        totals, all_targets = self.totals, self.targets
        rules = ADAPTER.statics(self) if self.has_statics else None
        # Each side's assigned monsters still in play: what it deals, and the other's targets.
        # With no removal since the assignment (COUNT_REMOVALS) they all are.
        if self.removals == self.assigned_at and COUNT_REMOVALS:
            standing = self.now
        else:
            standing = []
            for ms in self.now:
                for m in ms:
                    if not m.alive:
                        ms = [x for x in ms if x.alive]
                        break
                standing.append(ms)
        for p in (0, 1):
            total: dict[str, int] = {}
            for m in standing[p]:
                damage = m.damage
                if damage:
                    element = m.card.element
                    if rules is not None:
                        damage = rules.dealt(m, None, damage)
                    # (``in`` and a subscript: no dict.get call on the hot path)
                    total[element] = total[element] + damage if element in total else damage
            # §2.3.4: with no opposing assignment the total goes to any opposing monster.
            targets = standing[1 - p] or self.living[1 - p]
            totals[p] = total
            all_targets[p] = targets
            if not total or not targets:
                continue
            if len(targets) == 1:
                choice[p] = targets[0].focus or combat.focus_action(targets[0])
            else:
                acting.append(p)
        if acting:
            self.step = SPLIT
            self._to_act = tuple(acting)
            return
        self._resolve_split()

    def _resolve_split(self) -> None:
        choice = self.choice
        if choice:
            logging = self.logging
            by_name, totals = self.by_name, self.totals
            rules = ADAPTER.statics(self) if self.has_statics else None
            slow = logging or rules is not None or self.has_damage_triggers
            for p in (0, 1):
                if p not in choice:
                    continue
                action = choice[p]
                dealers = tuple(m for m in self.now[p] if m.alive and m.damage) if slow else ()
                cut: dict[Monster, int] = {}  # reduce_damage left per target: once per split
                if logging:
                    self.say(f"{self.where()} — P{p + 1} splits {combat.describe_total(totals[p])}: "
                             f"{combat.describe_split(self, action)}")
                parts: list[tuple[str, str, int]] | tuple[Any, ...]  # focus: built here; split: the action's parts
                if action.kind == "focus":
                    name = action.args[0]
                    parts = []
                    for element, amount in totals[p].items():
                        parts.append((name, element, amount))
                else:
                    parts = action.args
                for name, element, amount in parts:
                    t = by_name[name]
                    f = t.mult[element]
                    dealt = amount if f == 1.0 else int(amount * f + 1e-9)  # combat.element_damage
                    if rules is not None and t in rules.reduced:
                        left = cut.get(t, rules.reduced[t])
                        less = min(left, dealt)
                        cut[t] = left - less
                        dealt -= less
                    if slow or t.card.flight:
                        self._hurt(t, dealt, None, f"P{p + 1}'s {element} {amount}" if logging else "",
                                   dealers=dealers)
                    elif dealt > 0:
                        t.damage_taken += dealt  # _hurt without Flight and log
                        if t.damage_taken >= t.health:
                            self.settled = False
            self.choice = {}
        self._end_phase()

    def _end_phase(self) -> None:
        """After the damage: removals (§2.3.5), the end of the game (§2.6), the next phase."""
        if self.hurt or not self.settled:
            self._settle_damage()
            if self._check_end():  # only a removal can end the game here
                return
        if not self._next_phase():
            self._begin_phase()


def _adds_counters(effects: Iterable[Effect]) -> bool:
    """Whether one of ``effects`` (or a step of one of its modes) adds or removes named counters."""
    for e in effects:
        if e.action == "add_counters" or e.action == "remove_counters":
            return True
        for option in e.options:
            if _adds_counters(cast("Iterable[Effect]", option)):
                return True
    return False


def _mutable(m: Monster) -> tuple[int, int, int, int, int, int]:
    """What an ability can change on a monster (§2.7.2 sums these changes)."""
    return (m.damage_taken, m.poison, m.round_damage, m.round_health, m.perm_damage, m.perm_health)


def _restore(m: Monster, values: tuple[int, ...] | list[int]) -> None:
    (m.damage_taken, m.poison, m.round_damage, m.round_health, m.perm_damage,
     m.perm_health) = values
    m.recalc()


_MULTS: dict[tuple[int, float, float], tuple[MonsterCard, dict[str, float]]] = {}


def _multipliers(card: MonsterCard, resist: float, vulnerable: float) -> dict[str, float]:
    """Element -> damage factor against ``card``; cached per card object and option values."""
    key = (id(card), resist, vulnerable)
    hit = _MULTS.get(key)
    if hit is not None and hit[0] is card:
        return hit[1]
    mult = {e: _factor(card, e, resist, vulnerable) for e in ELEMENTS}
    if len(_MULTS) > 8192:
        _MULTS.clear()
    _MULTS[key] = (card, mult)
    return mult


def _factor(card: MonsterCard, element: str, resist: float, vulnerable: float) -> float:
    f = 1.0
    if element in card.resist:
        f *= resist
    if element in card.vulnerable:
        f *= vulnerable
    return f


def _subset_actions(eligible: list[Monster]) -> list[Action]:
    """Every subset of the eligible monsters (≤ 32 for a team of 5), the empty one first."""
    key = tuple(m.name for m in eligible)
    cached = _SUBSETS.get(key)
    if cached is not None:
        return cached
    actions = []
    n = len(key)
    for mask in range(1 << n):
        names = tuple(key[i] for i in range(n) if mask >> i & 1)
        text = "assign " + (", ".join(names) if names else "nothing")
        actions.append(Action("assign", names, text))
    if len(_SUBSETS) > 50_000:
        _SUBSETS.clear()
    _SUBSETS[key] = actions
    return actions


_CLONE_MADE = frozenset({
    "teams", "by_name", "everyone", "by_phase", "static_holders", "phase_sources", "round_sources",
    "cont_sources", "static_rules", "hurt", "bound", "_rng", "log", "stats", "eligible", "now", "targets",
    "living", "flight_used", "slots", "queued", "finished", "left", "totals", "choice",
})
"""The fields ``clone`` makes for the copy (they hold monsters or change in place): copying them
first would only be undone."""
_SHARED_FIELDS = tuple(name for name in SethState.__slots__ if name not in _CLONE_MADE)
_copy_shared = field_copier(_SHARED_FIELDS)  # a state -> its clone: the fields shared as they are
