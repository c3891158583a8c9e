"""Search shared by every engine: fair players that only ever see a re-dealt world.

OpenSpiel's information-set MCTS samples a world consistent with what the searching player has
seen (``resample_from_infostate``) before each iteration; :meth:`State.determinize` is that
sampler here. Three pieces build on it:

* :class:`Honest` makes any agent fair: it decides in a world re-dealt from the player's
  observation, and the chosen action is mapped back by its place in the legal-action list (the
  list's order depends only on what the player sees, see test_engine_contract.py); an unlisted
  choice (seth's free splits name only public monsters) is passed on as it is.
* :func:`flat_monte_carlo` tries candidate actions in the same re-dealt worlds (common random
  numbers) with a rollout policy and an :class:`Evaluator` at the horizon.
* :class:`SearchAgent` is determinized Monte Carlo search at the root (single-observer ISMCTS
  cut at depth one): each re-dealt world is played out once per candidate (common random
  numbers) with the game's heuristic for a horizon of decisions and scored by the game's
  evaluator; the heuristic's own choice is kept unless another candidate's mean is better by a
  margin. At a simultaneous step
  (seth) both players' candidates span a payoff matrix estimated by playouts in re-dealt worlds;
  regret matching solves it and the decision is drawn from the searching player's equilibrium
  strategy, so it mixes like a Nash player instead of being exploitable by a fixed reply.

A decision with one legal action is never searched.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Generic, Protocol

from workbench.domain.engines.base import S_contra, Action, Agent, S, State


class Evaluator(Protocol[S_contra]):
    """A position's worth for ``player``, 0 (lost) … 1 (won), like the games' position_value."""

    def __call__(self, state: S_contra, player: int, /) -> float: ...


def outcome(state: State, player: int) -> float | None:
    """1 for a won game, 0 for a lost one, 0.5 for a two-player draw (1/k for k players sharing
    first place), None while it runs."""
    if not state.is_terminal():
        return None
    return state.result().score(player)  # with three or more players: a shared first place splits


def same_action(actions: Sequence[Action], wanted: Action) -> int:
    """The index of ``wanted`` in ``actions`` (by identity, then by kind and arguments).

    Raises ValueError when it is not there.
    """
    for i, a in enumerate(actions):
        if a is wanted:
            return i
    for i, a in enumerate(actions):
        if a.kind == wanted.kind and a.args == wanted.args:
            return i
    raise ValueError(f"{wanted} is not among the legal actions")


def step(state: S, choose: Callable[[S, int], Action]) -> None:
    """Apply one decision: the single acting player's, or every acting player's together."""
    acting = state.to_act()
    if len(acting) == 1:
        p = acting[0]
        state.apply(choose(state, p))
    else:
        state.apply_joint({p: choose(state, p) for p in acting})


REUSE_WORLD = True
"""Let :func:`copies` hand out the re-dealt world itself as its last copy; False: clones only (the
plain definition; tests/domain/engines/test_search.py compares both)."""


def copies(world: S, count: int) -> Iterator[S]:
    """``count`` positions to play out from ``world``, one after another: clones of it, and
    ``world`` itself last (the caller uses it no more; one clone fewer per re-dealt world)."""
    for k in range(count):
        yield world if REUSE_WORLD and k == count - 1 else world.clone()


def rollout(state: S, player: int, policy: Agent[S], horizon: int,
            evaluate: Evaluator[S]) -> float:
    """Play ``policy`` for every player for at most ``horizon`` decisions, then score.

    Each decision is :func:`step` with ``policy.choose``, written out with the methods bound
    once: the playouts are most of a search's time (tests/domain/engines/test_search.py
    compares it with the loop of ``step``)."""
    choose = policy.choose
    is_terminal, to_act = state.is_terminal, state.to_act
    for _ in range(horizon):
        acting = to_act()
        if len(acting) == 1:  # one player to act: the game is running (to_act is empty once over)
            p = acting[0]
            state.apply(choose(state, p))
        elif is_terminal():
            break
        else:
            joint = {}
            for p in acting:
                joint[p] = choose(state, p)
            state.apply_joint(joint)
    done = outcome(state, player)
    return done if done is not None else evaluate(state, player)


class Honest(Generic[S]):
    """Wraps any agent so that it decides in a world re-dealt from the player's view only."""

    def __init__(self, inner: Agent[S], seed: int = 0) -> None:
        self.inner = inner
        self.rng = random.Random(seed)

    def choose(self, state: S, player: int) -> Action:
        acts = state.legal_actions(player)
        if len(acts) == 1:
            return acts[0]
        world = state.determinize(player, self.rng)
        chosen = self.inner.choose(world, player)
        try:
            return acts[same_action(world.legal_actions(player), chosen)]
        except ValueError:
            # an unlisted but legal choice (seth's free damage splits): it names only
            # what the player sees, so it means the same in the real position
            return chosen


def flat_monte_carlo(state: S, player: int, candidates: Sequence[Action], policy: Agent[S],
                     evaluate: Evaluator[S], worlds: int, horizon: int,
                     rng: random.Random) -> Action:
    """The candidate with the best mean score over ``worlds`` re-dealt worlds, each candidate
    tried in the same worlds (common random numbers); ties keep the earlier candidate.

    Only for a player who decides alone (``state.to_act() == (player,)``).
    """
    legal = state.legal_actions(player)
    places = [same_action(legal, c) for c in candidates]
    totals = [0.0] * len(candidates)
    for _ in range(worlds):
        world = state.determinize(player, rng)
        world_legal = world.legal_actions(player)
        for k, sim in enumerate(copies(world, len(places))):
            sim.apply(world_legal[places[k]])
            totals[k] += rollout(sim, player, policy, horizon, evaluate)
    best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
    return candidates[best]


PolicyFactory = Callable[[int], Agent[S]]
"""Makes the rollout player from a seed (a fresh one per playout: heuristics keep per-game
memos keyed by the state's identity, which a new clone may reuse)."""


class SearchAgent(Generic[S]):
    """Root-level ISMCTS (see the module docstring) over ``candidates(state, player, legal)``.

    ``budget``: playouts per decision (split evenly among the candidates). ``horizon``:
    decisions played by the ``policy`` after the root action before ``evaluate`` scores the
    position. ``margin``: the mean advantage a candidate needs over the policy's choice.
    ``width``: candidates per player at a simultaneous step (the matrix is width × width).
    ``searches(state, player)`` says which decisions are worth searching (the others are the
    policy's, in a re-dealt world). Seeded: the same seed and view give the same decision.
    """

    def __init__(self, seed: int, policy: PolicyFactory[S], evaluate: Evaluator[S],
                 candidates: Callable[[S, int, list[Action]], list[Action]] | None = None,
                 searches: Callable[[S, int], bool] | None = None,
                 budget: int = 32, horizon: int = 40, margin: float = 0.02,
                 width: int = 4, race_from: int = 0, z: float = 1.0,
                 stretch: float = 2.0, model_weight: float = 0.0,
                 solver_iterations: int = 60, prune: bool = True,
                 settle: float = 0.0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.policy = policy
        self.evaluate = evaluate
        self.candidates = candidates
        self.searches = searches
        self.budget = max(1, int(budget))
        self.horizon = horizon
        self.margin = margin
        self.width = max(2, width)  # candidates per player in a simultaneous step
        self.race_from = race_from  # 0: no racing (an even split of the budget)
        self.z = z
        self.stretch = stretch
        self.model_weight = model_weight  # seth: the weight of the opponent-as-policy column
        self.solver_iterations = solver_iterations
        self.prune = prune  # simultaneous steps: stop playing rows that equal an earlier one
        self.settle = settle  # simultaneous steps: the share of the budget before an early stop
        self.settled = 0
        self.searched = 0  # decisions searched (benchmarks/agents.py prints it)
        self.playouts = 0

    def choose(self, state: S, player: int) -> Action:
        acts = state.legal_actions(player)
        if len(acts) == 1:
            return acts[0]
        if self.searches is not None and not self.searches(state, player):
            return Honest(self.policy(self.rng.getrandbits(32)),
                          self.rng.getrandbits(32)).choose(state, player)
        acting = state.to_act()
        if len(acting) > 1:
            return self._simultaneous(state, player, acts, acting)
        cands = self._candidates(state, player, acts)
        if len(cands) == 1:
            return cands[0]
        self.searched += 1
        return self._ucb(state, player, acts, cands)

    def _candidates(self, state: S, player: int, acts: list[Action]) -> list[Action]:
        if self.candidates is None:
            return acts
        return self.candidates(state, player, acts)

    def _rollout(self, world: S, player: int) -> float:
        return rollout(world, player, self.policy(self.rng.getrandbits(32)), self.horizon,
                       self.evaluate)

    # ------------------------------------------------------------------ one player decides

    def _ucb(self, state: S, player: int, acts: list[Action],
             cands: list[Action]) -> Action:
        """Every candidate in the same re-dealt worlds (common random numbers: the comparison
        is about the action, not the deal), raced against the policy's own choice (the first
        candidate): after ``race_from`` worlds a candidate whose paired advantage over it is
        below ``margin`` by more than ``z`` standard errors is dropped, and its share of the
        budget goes to the candidates still in the race (at most ``stretch`` times the worlds of
        an even split). The first candidate is kept unless another's mean advantage beats
        ``margin``; when every other candidate is dropped the search stops early."""
        places = [_place(acts, c) for c in cands]
        n = len(cands)
        alive = list(range(1, n))
        diff = [0.0] * n  # summed paired advantage over candidate 0
        diff2 = [0.0] * n
        base = max(1, self.budget // n)
        max_worlds = base if self.race_from <= 0 else max(base, int(base * self.stretch))
        budget = self.budget
        used = 0
        rng = self.rng
        margin, z, race_from = self.margin, self.z, self.race_from
        worlds = skipped = 0
        while alive and worlds < max_worlds and (used < budget or worlds < base):
            world = state.determinize(player, rng)
            seed = rng.getrandbits(32)
            world_legal = world.legal_actions(player)
            if len(world_legal) != len(acts):
                # a re-dealt world that lists other choices (it should not: the list depends on
                # the view only): leave it out rather than play a choice that is not there
                skipped += 1
                if skipped > max_worlds:
                    break
                continue
            values = {}
            playing = [0] + alive
            for k, sim in zip(playing, copies(world, len(playing))):
                sim.apply(_in_world(world_legal, places[k], cands[k]))
                values[k] = rollout(sim, player, self.policy(seed), self.horizon, self.evaluate)
            used += 1 + len(alive)
            worlds += 1
            v0 = values[0]
            for k in alive:
                d = values[k] - v0
                diff[k] += d
                diff2[k] += d * d
            if race_from > 0 and worlds >= race_from:
                keep = []
                for k in alive:
                    mean = diff[k] / worlds
                    var = max(0.0, diff2[k] / worlds - mean * mean)
                    if mean + z * math.sqrt(var / worlds) >= margin:
                        keep.append(k)
                alive = keep
        self.playouts += used
        best, best_adv = 0, margin
        if not worlds:
            return cands[0]
        for k in alive:
            adv = diff[k] / worlds
            if adv > best_adv:
                best, best_adv = k, adv
        return cands[best]

    # ------------------------------------------------------------------ simultaneous steps

    def _simultaneous(self, state: S, player: int, acts: list[Action],
                      acting: tuple[int, ...]) -> Action:
        """Both players choose together: estimate the payoff matrix of the two players'
        candidates with playouts in re-dealt worlds, solve it by regret matching, and draw the
        decision from the searching player's equilibrium strategy."""
        other = next(p for p in acting if p != player)
        width = self.width
        mine = self._candidates(state, player, acts)[:width]
        if len(mine) == 1:
            return mine[0]
        rng = self.rng
        # The opponent's options may hang on what it has picked unseen (seth's queued
        # abilities): read them in a re-dealt world, never in the real position.
        seen = state.determinize(player, rng)
        theirs = self._candidates(seen, other, seen.legal_actions(other))[:width]
        self.searched += 1
        n, m = len(mine), len(theirs)
        my_places = [_place(acts, a) for a in mine]
        model = self.model_weight
        cols = m + 1 if model > 0 else m  # column m: the opponent plays the policy (its model)
        totals = [[0.0] * cols for _ in range(n)]
        visits = [[0] * cols for _ in range(n)]
        # Each iteration plays one opponent column against every row in the same re-dealt
        # world with the same playout seed (common random numbers: rows are compared on the
        # same luck); half the iterations go to the model column when there is one.
        # A row that scored exactly as an earlier row in every playout of the first sweep
        # over the columns is the same decision in effect (common random numbers: the same
        # worlds and playout seeds gave the same results, e.g. two splits that kill the same
        # monsters): it stops being played, and its row is the twin's in the matrix.
        alive = list(range(n))
        twin = list(range(n))
        trace: list[list[float]] = [[] for _ in range(n)]
        sweep = max(1, 2 * m if model > 0 else m)
        iterations = max(1, self.budget // n, cols)
        for it in range(iterations):
            if (self.settle and it >= sweep and it % sweep == 0
                    and it >= self.settle * iterations):
                # Settled early: after whole sweeps over the columns (at least ``settle`` of
                # the budget), the policy's choice already stands within a quarter of the
                # margin (the policy keeps its choice in 19 of 20 seth decisions or more).
                if self._solve(totals, visits, twin, m, self.margin / 4)[1]:
                    self.settled += 1
                    return mine[0]
            if it == sweep and self.prune:
                kept: list[int] = []
                for i in alive:
                    same = next((k for k in kept if trace[k] == trace[i]), None)
                    if same is None:
                        kept.append(i)
                    else:
                        twin[i] = same
                alive = kept
                if len(alive) == 1:
                    break
            if model > 0 and it % 2:
                j = m
            else:
                j = (it // 2 if model > 0 else it) % m
            world = state.determinize(player, rng)
            seed = rng.getrandbits(32)
            if j == m:
                reply = self.policy(seed).choose(world, other)
            else:
                their_legal = world.legal_actions(other)
                reply = theirs[j]
                place = _place(their_legal, reply)
                if place is not None:
                    reply = their_legal[place]
                elif reply.kind not in ("split", "focus"):  # not open to it in this world
                    reply = self.policy(seed).choose(world, other)
            my_legal = world.legal_actions(player)  # a clone lists the same: read once a world
            for i, sim in zip(alive, copies(world, len(alive))):
                sim.apply_joint({player: _in_world(my_legal, my_places[i], mine[i]), other: reply})
                v = rollout(sim, player, self.policy(seed), self.horizon, self.evaluate)
                self.playouts += 1
                if it < sweep:
                    trace[i].append(v)
                totals[i][j] += v
                visits[i][j] += 1
        strategy, keep = self._solve(totals, visits, twin, m, self.margin)
        if keep:
            return mine[0]
        return mine[_draw(strategy, rng)]

    def _solve(self, totals: list[list[float]], visits: list[list[int]], twin: list[int],
               m: int, margin: float) -> tuple[list[float], bool]:
        """The searching player's equilibrium strategy of the estimated matrix, and whether the
        policy's own choice (row 0) stands: it does while it is nearly as good as the
        equilibrium (within ``margin``) against the opponent's equilibrium reply."""
        cols = len(totals[0])
        model = self.model_weight
        payoff = [[totals[t][j] / visits[t][j] if visits[t][j] else 0.5 for j in range(cols)]
                  for t in twin]
        if model > 0:
            # Restricted Nash response (Johanson, Zinkevich and Bowling 2007): the opponent
            # plays its model with probability ``model`` and is free otherwise, so the reply
            # exploits the model's habits while staying safe against the free columns.
            payoff = [[model * row[m] + (1 - model) * row[j] for j in range(m)] for row in payoff]
        strategy, answer = equilibrium(payoff, self.solver_iterations)
        n = len(payoff)
        value = sum(strategy[i] * payoff[i][j] * answer[j] for i in range(n) for j in range(m))
        return strategy, sum(payoff[0][j] * answer[j] for j in range(m)) >= value - margin

def _place(legal: Sequence[Action], action: Action) -> int | None:
    """Where ``action`` is listed, or None for an unlisted legal choice (seth's free splits)."""
    try:
        return same_action(legal, action)
    except ValueError:
        return None


def _in_world(legal: Sequence[Action], place: int | None, action: Action) -> Action:
    """The action at ``place`` of a re-dealt world's ``legal`` list (the same decision there,
    whose hidden cards may have other names), or ``action`` itself when it is unlisted. The
    world's list serves each of its clones: a clone lists equal actions, and a world's action
    applied to a clone plays as the clone's own (tests/domain/engines/test_search.py)."""
    return action if place is None else legal[place]


def solve_zero_sum(payoff: list[list[float]], iterations: int = 400) -> list[float]:
    """The row player's equilibrium strategy of the zero-sum matrix game ``payoff`` (see
    :func:`equilibrium`)."""
    return equilibrium(payoff, iterations)[0]


def equilibrium(payoff: list[list[float]],
                iterations: int = 400) -> tuple[list[float], list[float]]:
    """Both players' strategies in a Nash equilibrium of the zero-sum matrix game ``payoff``
    (row player's values; the column player gets 1 - value).

    A pure saddle point (a cell that is its row's minimum and its column's maximum) is returned
    at once. Otherwise both players run regret matching+ (Tammelin 2014: regrets floored at 0,
    the column player updated after the row player, later iterations weighted more in the
    average), which converges to an equilibrium much faster than plain regret matching (Hart
    and Mas-Colell 2000)."""
    n, m = len(payoff), len(payoff[0])
    row_min = [min(r) for r in payoff]
    col_max = [max(payoff[i][j] for i in range(n)) for j in range(m)]
    lower = max(row_min)
    upper = min(col_max)
    if lower >= upper - 1e-12:  # pure saddle point
        i = row_min.index(lower)
        j = col_max.index(upper)
        return ([1.0 if k == i else 0.0 for k in range(n)],
                [1.0 if k == j else 0.0 for k in range(m)])
    r_row, r_col = [0.0] * n, [0.0] * m
    avg = [0.0] * n
    avg_col = [0.0] * m
    rows = range(n)
    cols = range(m)
    for t in range(1, iterations + 1):
        x = _regret_matching(r_row)
        y = _regret_matching(r_col)
        row_vals = [sum([p[j] * y[j] for j in cols]) for p in payoff]
        v = sum([x[i] * row_vals[i] for i in rows])
        for i in rows:
            r = r_row[i] + row_vals[i] - v
            r_row[i] = r if r > 0 else 0.0
            avg[i] += t * x[i]
        x = _regret_matching(r_row)  # alternating: the column player answers the new x
        col_vals = [sum([payoff[i][j] * x[i] for i in rows]) for j in cols]
        v = sum([y[j] * col_vals[j] for j in cols])
        for j in cols:
            r = r_col[j] + v - col_vals[j]  # the column player minimises the row value
            r_col[j] = r if r > 0 else 0.0
            avg_col[j] += t * y[j]
    total = sum(avg)
    total_col = sum(avg_col)
    return [a / total for a in avg], [a / total_col for a in avg_col]


def _regret_matching(regrets: list[float]) -> list[float]:
    positive = [r if r > 0 else 0.0 for r in regrets]
    total = sum(positive)
    if total <= 0:
        return [1.0 / len(regrets)] * len(regrets)
    return [r / total for r in positive]


def _draw(probs: Sequence[float], rng: random.Random) -> int:
    x = rng.random()
    acc = 0.0
    for k, p in enumerate(probs):
        acc += p
        if x < acc:
            return k
    return len(probs) - 1
