"""AI players for seth: a sensible heuristic player and a flat Monte Carlo look-ahead player.

The heuristic player assigns every monster that can act (a monster kept back deals nothing and,
when nothing is assigned, the opponent may hit any monster anyway), but not one whose poison
would remove it; activates abilities at the best target; and splits damage to remove as many
valuable enemy monsters as possible, putting the rest on the most dangerous survivor.
"""

from __future__ import annotations

import math
from typing import Any, cast
import random
from operator import itemgetter
from typing import Any

from workbench.domain.engines.base import Action, Agent, State
from workbench.domain.engines.seth import combat
from workbench.domain.engines.seth.cards import Effect
from workbench.domain.engines.seth.state import ABILITY, ASSIGN, DONE, SPLIT, Monster, SethState, seeded


def _value(m: Monster) -> float:
    # A monster's threat: what it deals per round, a little for its size. The card keeps
    # power * 0.5 + 1 (size_value); every term is a multiple of 0.5, so the sum is exact in any
    # order.
    return m.damage * 3 + m.card.size_value


# Building a frozen dataclass costs more than a dict look-up, and the same few moves recur in
# every game of a playtest: chosen actions are kept by their arguments (with their text).
_ACTIONS: dict[tuple, Action] = {}
_ASSIGNS: dict[tuple, Action] = {}


def _cached(kind: str, args: tuple) -> Action:
    """The Action ``kind args`` with its readable text, built once and kept.

    Raises nothing; the caches are emptied when they grow past 20,000 entries.
    """
    cache = _ASSIGNS if kind == "assign" else _ACTIONS
    key = args if kind == "assign" else (kind, args)
    action = cache.get(key)
    if action is None:
        if len(cache) > 20_000:
            cache.clear()
        if kind == "assign":
            text = "assign " + (", ".join(args) or "nothing")
        else:
            text = f"{kind} {args[0]} #{args[1]}" + (f" mode {args[3]}" if len(args) > 3 else "")
        action = cache[key] = Action(kind, args, text)
    return action


def _dump_target(rest: list[Monster], element: str, values: dict[str, float]) -> Monster:
    """Where leftover ``element`` damage counts most: the best factor, then the highest value.

    The first such monster in ``rest`` wins ties, as ``max`` with a (factor, value) key would.
    """
    best = rest[0]
    best_f, best_v = best.mult[element], values[best.name]
    for t in rest:
        f = t.mult[element]
        if f > best_f or (f == best_f and values[t.name] > best_v):
            best, best_f, best_v = t, f, values[t.name]
    return best


# Sort key for (value per point, …) rows, sorted best first with reverse=True: the sort stays
# stable, so ties keep target order. itemgetter runs in C, unlike a lambda.
_first = itemgetter(0)


class HeuristicAgent:
    """Plays seth sensibly with cheap rules (no look-ahead).

    Seth has no hidden deck and no dice: two fixed strategies would play the same game for every
    seed, so a playtest would only ever report 0 % or 100 %. Like a person, the player mixes:
    a monster that could also act in a later phase of this round is kept for it as a decoy
    when it alone could take the opponent's attack there (with the probability of what it would
    soak there against what it deals now), else sometimes (``hold``); and target values are
    jittered a little (``jitter``) — all from its own seeded generator, so a game still replays
    exactly from its seeds. The decoy rule makes the result depend little on ``hold``
    (benchmarks/agents.py --hold-sweep; docs/engines/seth.md).
    """

    def __init__(self, seed: int = 0, hold: float = 0.3, jitter: float = 0.15) -> None:
        self.seed = seed
        self.rng = seeded(seed)
        self.hold = hold
        self.jitter = jitter

    def choose(self, state: SethState, player: int) -> Action:
        """Pick ``player``'s action at the current step (assignment, ability or split)."""
        step = state.step
        if step == ASSIGN:
            return self._assign(state, player)
        if step == SPLIT:
            return self._split(state, player)
        if step == ABILITY:
            return self._ability(state, player)
        return state.legal_actions(player)[0]

    def _assign(self, state: SethState, player: int) -> Action:
        phase, rng, hold = state.phase, self.rng, self.hold
        by_phase = state.by_phase
        names = []
        for m in state.eligible[player]:
            if m.poison >= m.health - m.damage_taken:
                continue  # its poison would remove it on assignment
            last = m.card.last_phase
            if last > phase:
                # It could also act later this round. When it alone could answer the
                # opponent's monsters of that phase, it is a decoy there (§2.3.4: their damage
                # must go to assigned monsters, or else anywhere): it is kept back with
                # probability threat / (threat + its own Damage), the share of what it would
                # soak later in what it would deal now (a value-proportional mix, no constant).
                threat = 0
                for o in by_phase[1 - player][last]:
                    if o.alive and not o.assigned:
                        threat += o.damage
                alone = threat > 0
                if alone:
                    for x in by_phase[player][last]:
                        if x is not m and x.alive and not x.assigned:
                            alone = False
                            break
                if alone:
                    if rng.random() < threat / (threat + m.damage):
                        continue
                # Otherwise mixing: sometimes keep it for the later phase anyway.
                elif hold and rng.random() < hold:
                    continue
            names.append(m.name)
        key = tuple(names)
        try:  # (a subscript in a try costs less than a dict.get call when the action is kept)
            return _ASSIGNS[key]
        except KeyError:
            return _cached("assign", key)

    def _ability(self, state: SethState, player: int) -> Action:
        best: tuple[Any, ...] | None = None
        best_score = 0.0  # only a pick that scores above 0 is worth making
        mandatory = False
        for source, index, effect, must in state.slots[player]:
            if must:
                mandatory = True
            elif source.poison >= source.health - source.damage_taken:
                continue  # activating would remove it through poison
            bonus = 1000 if must else 0
            if effect.action == "choose":  # the best mode, with its step's best target
                kind = "trigger" if must else "activate"
                for arg, step in state._modes(effect):
                    steps = state.picked_mode(effect, arg).options[0]  # type: ignore[union-attr]
                    base = float(bonus)
                    for plain in steps:
                        if not plain.chooses:
                            base += self._plain_score(source, cast(Effect, plain))
                    if step is None:
                        if base > best_score:
                            best_score, best = base, (kind, source, index, None, arg)
                        continue
                    targets = state._targets_for(source, step)
                    top, t = self._best_target(state, player, source, step, targets, base, best_score)
                    if t is not None:
                        best_score, best = top, (kind, source, index, t, arg)
                continue
            if effect.single_target:
                targets = state._targets_for(source, effect)
                top, t = self._best_target(state, player, source, effect, targets, bonus, best_score)
                if t is not None:
                    best_score, best = top, ("trigger" if must else "activate", source, index, t, None)
            elif bonus + 1.0 > best_score:  # no target to pick: worth 1
                best_score, best = bonus + 1.0, ("trigger" if must else "activate", source, index, None, None)
        if best is None:
            if not mandatory:
                return DONE
            return state.legal_actions(player)[0]
        kind, source, index, t, mode = best  # mode None: not a choose ability
        if mode is None:
            args: tuple[Any, ...] = (source.name, index, t.name if t else "")
        else:
            args = (source.name, index, t.name if t else "", mode)
        try:
            return _ACTIONS[(kind, args)]
        except KeyError:
            return _cached(kind, args)

    @staticmethod
    def _plain_score(source: Monster, e: Effect) -> float:
        """How good an untargeted step of a mode is (on ``source`` itself or a whole side)."""
        if e.action == "heal":
            return min(e.amount, source.damage_taken) + 0.1 if source.damage_taken else 0.1
        if e.action == "modify_stats":
            return max(0.5, float(e.damage_mod + e.health_mod))
        return 1.0 + e.amount

    @staticmethod
    def _best_target(state: SethState, player: int, source: Monster, effect: Effect, targets: list[Monster],
                     base: float, best_score: float) -> tuple[float, Monster | None]:
        """The first of ``targets`` with the highest score for ``source``'s single-target
        ``effect`` plus ``base``, if that beats ``best_score``: (its score, it); else
        (best_score, None). A score ≤ 0 is no use (an own monster hurt, an enemy helped)."""
        found = None
        harmful, action, amount = effect.harmful, effect.action, effect.amount
        twice = amount * 2  # poison on a monster not assigned yet counts double
        # enemy_creature lists enemies only: a harmful effect then has no wrong target
        check = not (harmful and effect.target == "enemy_creature")
        for t in targets:
            if check and harmful != (t.owner != player):
                score = -1.0  # never hurt an own monster or help an enemy
            else:
                value = t.damage * 3 + t.card.size_value  # _value(t)
                if action == "add_poison":
                    score = (amount if t.assigned else twice) + value * 0.01
                elif action == "damage":
                    f = t.mult[source.card.element]
                    dealt = amount if f == 1.0 else int(amount * f + 1e-9)
                    left = t.health - t.damage_taken
                    if left < 1:
                        left = 1
                    score = value * (3 if dealt >= left else dealt / left)
                elif action == "destroy":
                    score = value * 3
                elif action == "heal":
                    score = min(amount, t.damage_taken) + 0.1 if t.damage_taken else -1.0
                else:
                    score = value + (2 if t in state.now[t.owner] else 0)
            if base:  # (adding 0 gives the same score: no new float)
                score += base
            if score > best_score:
                best_score, found = score, t
        return best_score, found

    def _split(self, state: SethState, player: int) -> Action:
        totals = state.totals[player]
        targets = state.targets[player]
        jitter = self.jitter
        if jitter:
            random_ = self.rng.random  # one draw per target, in target order
            values = {}
            for t in targets:  # _value(t), jittered
                values[t.name] = (t.damage * 3 + t.card.size_value) * (1 + jitter * (2 * random_() - 1))
        else:
            values = {t.name: _value(t) for t in targets}
        if len(totals) == 1:
            return self._split_one(state, player, targets, values)
        budget = dict(totals)
        plan: dict[tuple[str, str], int] = {}
        # Remove what can be removed, most valuable per point of damage first.
        costs = []
        kill_cost = combat.kill_cost
        items = tuple(budget.items())  # the key of the full budget, priced once per target
        for t in targets:
            cost = kill_cost(state, player, t, budget, items)
            if cost is not None:
                units = sum(cost.values())
                costs.append((values[t.name] / (units if units > 1 else 1), t, cost))
        if len(costs) > 1:
            costs.sort(key=_first, reverse=True)
        killed = set()
        for _, t, cost in costs:
            for e, a in cost.items():
                if budget[e] < a:
                    cost = kill_cost(state, player, t, budget)  # the budget shrank: price it again
                    break
            if cost is None:
                continue
            for e, a in cost.items():
                budget[e] -= a
                plan[(t.name, e)] = plan.get((t.name, e), 0) + a
            killed.add(t.name)
        if any(budget.values()):
            # The rest on a survivor (damage stays, §2.3): per element, where it counts most.
            rest = []  # a loop: a comprehension costs a call of its own
            for t in targets:
                if t.name not in killed:
                    rest.append(t)
            rest = rest or targets
            for e, a in budget.items():
                if a:
                    dump = _dump_target(rest, e, values)
                    plan[(dump.name, e)] = plan.get((dump.name, e), 0) + a
        first = next(iter(plan))[0]
        for name, _ in plan:
            if name != first:
                return combat.plan_action(state, plan)
        t = state.by_name[first]
        return t.focus or combat.focus_action(t)

    @staticmethod
    def _split_one(state: SethState, player: int, targets: list[Monster], values: dict[str, float]) -> Action:
        """The same plan as ``_split`` for a total of one element, without the general pricing."""
        ((element, left),) = state.totals[player].items()
        priced = []
        for t in targets:
            need = t.health - t.damage_taken
            if t.card.flight:
                need += combat.flight_extra(state, player, t)
            if t.mult[element] == 1.0:
                units: int | None = need if need > 1 else 1  # combat._units_for without factors
            else:
                units = combat._units_for(state, element, t, need)
            if units is not None and units <= left:
                priced.append((values[t.name] / (units if units > 1 else 1), t, units))
        if len(priced) > 1:
            priced.sort(key=_first, reverse=True)
        plan: dict[str, int] = {}
        for _, t, units in priced:
            if units <= left:
                plan[t.name] = units
                left -= units
        if left:
            rest = []
            for t in targets:
                if t.name not in plan:
                    rest.append(t)
            rest = rest or targets
            dump = _dump_target(rest, element, values)
            plan[dump.name] = plan.get(dump.name, 0) + left
        if len(plan) == 1:
            t = state.by_name[next(iter(plan))]
            return t.focus or combat.focus_action(t)
        return combat.element_plan_action(state, element, plan)


class MonteCarloAgent:
    """Look-ahead over cloned states: each legal action is tried and the game played out.

    Playouts use the heuristic player for both sides; ``noise`` is the share of the opponent's
    modelled choices that are random instead (flat Monte Carlo, averaged over ``samples``
    playouts). With the default noise 0 the playouts are deterministic, one sample per action
    suffices, and the player is an exact one-step best response to heuristic play — it beat the
    heuristic player in every mirror game measured. The heuristic's own choice is kept unless
    another action scores better by more than ``margin``.
    """

    def __init__(self, seed: int = 0, samples: int = 1, margin: float = 0.0, noise: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.samples = samples if noise > 0 else 1
        self.margin = margin
        self.noise = noise  # share of the opponent's modelled choices that are random
        self.fast = HeuristicAgent(seed)

    def choose(self, state: State, player: int) -> Action:
        """Pick the action whose playouts score best (the heuristic's choice on ties)."""
        assert isinstance(state, SethState)
        default = self.fast.choose(state, player)
        actions = state.legal_actions(player)
        if len(actions) <= 1:
            return default
        if len(actions) > 16:
            actions = self.rng.sample(actions, 16)
        worlds = [self.rng.getrandbits(32) for _ in range(self.samples)]
        best, best_score = default, self._score(state, player, default, worlds) + self.margin
        for action in actions:
            if action.kind == default.kind and action.args == default.args:
                continue
            score = self._score(state, player, action, worlds)
            if score > best_score:
                best, best_score = action, score
        return best

    def _score(self, state: SethState, player: int, action: Action, worlds: list[int]) -> float:
        total = 0.0
        for world in worlds:
            # the opponent's hidden ability picks re-picked (State.determinize), not read
            trial = state.determinize(player, random.Random(world))
            joint = {p: action if p == player else self._opponent(trial, p) for p in trial.to_act()}
            trial.apply_joint(joint)
            total += self._playout(trial, player)
        return total / self.samples

    def _opponent(self, trial: SethState, p: int) -> Action:
        if self.rng.random() < self.noise:
            legal = trial.legal_actions(p)
            return legal[self.rng.randrange(len(legal))]
        return self.fast.choose(trial, p)

    def _playout(self, trial: SethState, player: int) -> float:
        for _ in range(2000):
            if trial.over:
                break
            trial.apply_joint({p: self.fast.choose(trial, p) if p == player else self._opponent(trial, p)
                               for p in trial.to_act()})
        if not trial.over or trial.winner is None:
            return 0.5
        return 1.0 if trial.winner == player else 0.0


# ---------------------------------------------------------------------- the search player

SEARCH_BUDGET = 48
"""Default playouts per searched decision of ``search`` (benchmarks/agents.py measures it)."""
SEARCH_HORIZON = 400  # decisions: seth games are short, playouts go to the end
SEARCH_SETTLE = 0.3
"""A simultaneous step stops early once a third of its playouts (whole sweeps over the
opponent's candidates) show the heuristic's choice standing (search.py ``settle``): the search
kept the heuristic's choice in 95-99 % of assignments, and the stop halved the CPU time of
seth's search-vs-heuristic games (skyburn-blitz, 12 games alternating in one process: 0.33 →
0.17 CPU s a game) with the same results."""


def position_value(state: SethState, player: int) -> float:
    """A 0-1 estimate of ``player``'s chances: each side's monsters in play weighted by what
    they deal and the health they have left, squashed by a logistic curve."""
    score = 0.0
    for p, sign in ((player, 1.0), (1 - player, -1.0)):
        for m in state.teams[p]:
            if m.alive:
                score += sign * (m.damage * 2 + max(0, m.remaining - m.poison) + 2)
    return 1.0 / (1.0 + math.exp(-score / 10.0))


def _search_candidates(state: State, player: int, acts: list[Action]) -> list[Action]:
    """The heuristic's plain choice (no jitter) first, then the choices a person would weigh
    against it: at an assignment the same set with one monster more or fewer (whether to keep a
    monster back is the decision of the step), elsewhere the choices of jittered heuristics
    (other kill orders and dump targets); then the listed actions."""
    assert isinstance(state, SethState)
    first = HeuristicAgent(0, jitter=0.0).choose(state, player)
    out = [first]
    seen = {(first.kind, first.args)}

    def add(action: Action) -> None:
        key = (action.kind, action.args)
        if key not in seen:
            seen.add(key)
            out.append(action)

    if state.step == ASSIGN:
        chosen = set(first.args)
        by_args = {a.args: a for a in acts}
        for m in state.eligible[player]:
            names = tuple(x.name for x in state.eligible[player]
                          if (x.name in chosen) != (x is m))
            if names in by_args:
                add(by_args[names])
        for action in acts[::-1]:  # assignments of more monsters first
            add(action)
    else:
        for k in range(1, 7):
            add(HeuristicAgent(k).choose(state, player))
        for action in acts:
            add(action)
    return out


def search_agent(seed: int = 0, budget: int = SEARCH_BUDGET,
                 horizon: int = SEARCH_HORIZON, **tuning: Any) -> Agent[SethState]:
    """The strong seth player: at simultaneous steps a payoff matrix of both players' best
    candidates estimated by heuristic playouts and solved by regret matching (the decision is
    drawn from the equilibrium strategy); at one-player steps root ISMCTS (engines/search.py)."""
    from workbench.domain.engines.search import SearchAgent

    return SearchAgent(seed, HeuristicAgent, position_value, _search_candidates,
                       **{"budget": budget, "horizon": horizon, "settle": SEARCH_SETTLE,
                          **tuning})


__all__ = ["HeuristicAgent", "MonteCarloAgent", "DONE", "search_agent"]
