"""The one engine interface shared by every game, in the spirit of OpenSpiel's State API.

A game is built from two decks, the game's rule options and a seed. Randomness comes only from
the state's own ``rng``, so a game replays exactly from (decks, options, seed, actions).
Simultaneous choices are explicit: when ``to_act()`` names more than one player, each chooses
and the choices are applied together with ``apply_joint``.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, Self, TypeVar

if TYPE_CHECKING:
    from workbench.domain.effects.capabilities import Capabilities

CardData = Mapping[str, Any]
"""One card as the engine sees it: the card's fields plus ``id``."""

DeckCards = Mapping[str, Sequence[CardData]]
"""A deck resolved for play: zone id -> one card mapping per copy."""


@dataclass(frozen=True)
class Action:
    """A move: a kind (``"recruit"``, ``"attack"``, ``"pass"`` …) and hashable arguments.

    ``text`` is the readable description used in logs and replays.
    """

    kind: str
    args: tuple[Any, ...] = ()
    text: str = ""

    def __str__(self) -> str:
        return self.text or f"{self.kind}{self.args if self.args else ''}"


@dataclass(frozen=True)
class GameResult:
    """How a game ended: ``winner`` is a seat (0, 1, …) or None (draw); ``reason`` names the rule.

    ``places`` (games of more than two players, fusion §3.9.5): each seat's final place, 1 for
    the winner; players who dropped out at the same moment share a place, so a draw is several
    seats on place 1. Empty for two-player games.
    """

    winner: int | None
    reason: str
    turns: int
    places: tuple[int, ...] = ()

    @property
    def draw(self) -> bool:
        return self.winner is None

    def score(self, player: int) -> float:
        """``player``'s share of the win: 1 won, 0 lost, a draw split among the seats that share
        first place (0.5 for a two-player draw)."""
        if self.winner is not None:
            return 1.0 if self.winner == player else 0.0
        if not self.places:
            return 0.5
        first = sum(1 for place in self.places if place == 1)
        return 1.0 / first if self.places[player] == 1 else 0.0


@dataclass
class GameStats:
    """What a playtest needs to know about each player's cards in one game."""

    drawn: list[set[str]] = field(default_factory=lambda: [set(), set()])
    played: list[set[str]] = field(default_factory=lambda: [set(), set()])
    unsimulated: set[str] = field(default_factory=set)
    opening: list[set[str]] = field(default_factory=lambda: [set(), set()])
    """Cards in each player's opening hand as kept (after mulligans); empty for games without one."""
    facts: list[dict[str, set[str]]] = field(default_factory=lambda: [{}, {}])
    """Other per-card facts of the game by name, e.g. seth's ``survived`` (docs/playtests.md)."""

    @classmethod
    def of(cls, players: int) -> GameStats:
        """Empty statistics for ``players`` seats."""
        return cls(drawn=[set() for _ in range(players)], played=[set() for _ in range(players)],
                   opening=[set() for _ in range(players)], facts=[{} for _ in range(players)])

    def copy(self) -> GameStats:
        """An independent copy (every set copied). Every clone of a position makes one, so the
        sets are copied by ``map`` and an empty facts table without a comprehension."""
        return GameStats(
            drawn=list(map(set, self.drawn)),
            played=list(map(set, self.played)),
            unsimulated=set(self.unsimulated),
            opening=list(map(set, self.opening)),
            facts=[{k: set(v) for k, v in f.items()} if f else {} for f in self.facts],
        )


@dataclass(frozen=True)
class Observation:
    """What one player may know of a position (OpenSpiel's observation / information state).

    ``public`` holds what both players see (life, fields, face-up cards, discard piles, the sizes
    of hidden zones); ``private`` what only ``player`` sees (its hand, its face-down cards, its
    own pending picks). Two positions with equal :meth:`key` are the same information state for
    ``player``: a fair agent decides the same in both.
    """

    player: int
    public: Mapping[str, Any]
    private: Mapping[str, Any]

    def key(self) -> str:
        """Canonical JSON of the observation: equal keys, equal information."""
        return json.dumps([self.player, self.public, self.private], sort_keys=True, default=str,
                          ensure_ascii=False)


class State(ABC):
    """A position in one game. Subclasses implement the rules of their game."""

    __slots__ = ()  # so a subclass may keep its fields in slots (one without __slots__ has a dict)

    rng: random.Random
    log: list[str]
    stats: GameStats

    def observe(self, player: int) -> Observation:
        """``player``'s view of this position: what it may know, nothing more.

        Engines with hidden information override this; the default is perfect information.
        """
        raise NotImplementedError(f"{type(self).__name__} does not define observe()")

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A clone in which everything ``player`` cannot see is re-dealt from ``rng``.

        Postcondition (checked by tests/domain/engines/test_engine_contract.py):
        ``result.observe(player).key() == self.observe(player).key()``. The re-deal depends only
        on that observation and ``rng``: two positions ``player`` cannot tell apart give the same
        world for the same generator state, so an agent that only sees such worlds is fair.
        """
        raise NotImplementedError(f"{type(self).__name__} does not define determinize()")

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Players who must choose now; empty when the game is over, and only then (``play_game``
        and the search's playouts ask ``is_terminal`` only when nobody is to act)."""

    @abstractmethod
    def legal_actions(self, player: int) -> list[Action]:
        """The actions ``player`` may take now (empty when it is not to act)."""

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply one player's action. Raises IllegalAction when it is not legal."""

    def apply_joint(self, actions: Mapping[int, Action]) -> None:
        """Apply simultaneous choices, one per player in ``to_act()``.

        The default handles games with no simultaneous moves by applying the single action.
        Raises IllegalAction when a player is missing or an action is illegal.
        """
        from workbench.domain.errors import IllegalAction

        acting = self.to_act()
        if set(actions) != set(acting):
            raise IllegalAction(f"expected choices from players {acting}, got {tuple(actions)}")
        for player in acting:
            self.apply(actions[player])

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def result(self) -> GameResult:
        """The result of a finished game. Raises ValueError while it is still running."""

    @abstractmethod
    def clone(self) -> Self:
        """A cheap independent copy (no deepcopy in the hot path) for look-ahead."""


S = TypeVar("S", bound=State)
"""One game's state type (``WarzoneState`` …): engines, agents and search are generic in it."""

S_contra = TypeVar("S_contra", bound=State, contravariant=True)


class Agent(Protocol[S_contra]):
    """A player: picks one of the legal actions. ``Agent[WarzoneState]`` plays warzone only; a
    plain ``Agent`` (``Agent[State]`` such as :class:`RandomAgent`) plays any game."""

    def choose(self, state: S_contra, player: int) -> Action: ...


AgentFactory = Callable[[int], Agent[S]]
"""Makes an agent from a seed (an engine's ``agents`` values: ``AgentFactory[WarzoneState]``)."""


class RandomAgent:
    """Picks uniformly among the legal actions with its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, player: int) -> Action:
        actions = state.legal_actions(player)
        return actions[self.rng.randrange(len(actions))]


@dataclass(frozen=True)
class Engine(Generic[S]):
    """What an engine module exports as ``ENGINE``: an ``Engine[WarzoneState]`` makes warzone
    states and warzone agents (a plain ``Engine``, e.g. from :func:`load_engine`, any game's)."""

    game: str
    new_game: Callable[[DeckCards, DeckCards, Mapping[str, Any], int], S]
    agents: Mapping[str, AgentFactory[S]]
    supported_actions: frozenset[str] = frozenset()
    """Effect actions (docs/effects.md) this engine runs; others are reported as unsimulated."""
    capabilities: Capabilities | None = None
    """What the engine runs of the effect vocabulary (``workbench.domain.effects``)."""
    from_setup: Callable[[Mapping[str, Any], Mapping[str, Any], int], S] | None = None
    """Build a position from a scenario's ``setup`` mapping (docs/scenarios.md)."""
    snapshot: Callable[[S], dict[str, Any]] | None = None
    """The observable state as plain nested data, for scenario ``expect`` blocks."""
    new_pod: Callable[[Sequence[DeckCards], Mapping[str, Any], int], S] | None = None
    """A game of ``len(decks)`` seats in turn order (engines that seat more than two players,
    e.g. fusion §3.9); None for two-player games only."""
    max_players: int = 2
    """The most seats :attr:`new_pod` takes."""
    board_template: str | None = None
    """A Jinja file laying out this engine's table (docs/play.md), usually beside the engine
    module: ``str(Path(__file__).with_name("board.html"))``; None for the generic board."""

    def new_seated(self, decks: Sequence[DeckCards], options: Mapping[str, Any], seed: int) -> S:
        """A game of ``decks`` (one per seat): :attr:`new_game` for two, :attr:`new_pod` beyond.

        Raises ValueError when the engine does not seat that many players.
        """
        if len(decks) == 2:
            return self.new_game(decks[0], decks[1], options, seed)
        if self.new_pod is None or not 2 <= len(decks) <= self.max_players:
            raise ValueError(f"{self.game} seats {'2' if self.new_pod is None else f'2 to {self.max_players}'} "
                             f"players, not {len(decks)}")
        return self.new_pod(decks, options, seed)


AGENT_LABELS = {"random": "random", "heuristic": "heuristic", "montecarlo": "Monte Carlo",
                "search": "strong (search)"}
"""How the web app names the agent kinds (``search`` is the strong player)."""


MAX_SEARCH_BUDGET = 10_000
"""The largest search budget (iterations per decision) a playtest, gauntlet or the CLI accepts:
a budget beyond it would tie a worker up for hours."""


def parse_agent(spec: str) -> tuple[str, int | None]:
    """``"search:64"`` -> ``("search", 64)``: an agent name and an optional search budget
    (iterations per decision). Raises ValueError for a budget that is not a positive integer."""
    name, sep, budget = str(spec).strip().partition(":")
    if not sep:
        return name, None
    if not budget.isdigit() or int(budget) < 1:
        raise ValueError(f"agent {spec!r}: the budget after ':' must be a positive whole number")
    return name, int(budget)


def agent_problem(engine: Engine[Any], spec: str) -> str | None:
    """Why ``spec`` names no agent of ``engine`` (None when it does)."""
    try:
        name, budget = parse_agent(spec)
    except ValueError as exc:
        return str(exc)
    if name not in engine.agents:
        return (f"unknown agent {name!r}: engine {engine.game!r} has no agent {name!r}; "
                f"agents: {', '.join(sorted(engine.agents))}")
    if budget is not None and name != "search":
        return f"agent {spec!r}: only the search player takes a budget (search:N)"
    if budget is not None and budget > MAX_SEARCH_BUDGET:
        return f"agent {spec!r}: the search budget is at most {MAX_SEARCH_BUDGET:,} iterations per decision"
    return None


def make_agent(engine: Engine[S], spec: str, seed: int) -> Agent[S]:
    """The agent ``spec`` (``name`` or ``search:BUDGET``) of ``engine``, seeded.

    Raises ValueError when ``spec`` names no agent (see :func:`agent_problem`).
    """
    problem = agent_problem(engine, spec)
    if problem:
        raise ValueError(problem)
    name, budget = parse_agent(spec)
    factory = engine.agents[name]
    # Only the search factory takes a budget, and agent_problem() refused a budget for any other
    # name: AgentFactory is the one-argument signature every factory has, hence the ignore.
    return factory(seed) if budget is None else factory(seed, budget=budget)  # type: ignore[call-arg]


def play_game(
    state: S,
    agents: Sequence[Agent[S]],
    max_steps: int = 100_000,
) -> GameResult:
    """Play ``state`` to the end with one agent per player and return the result.

    Raises RuntimeError when the game does not end within ``max_steps`` decisions (an engine bug).
    """
    # the state's methods and the agents' choose bound once: this loop runs every decision
    is_terminal, to_act, apply = state.is_terminal, state.to_act, state.apply
    choosers = [agent.choose for agent in agents]
    for _ in range(max_steps):
        acting = to_act()
        if len(acting) == 1:  # one player to act: the game is running (to_act is empty once over)
            player = acting[0]
            apply(choosers[player](state, player))
        elif is_terminal():
            return state.result()
        else:
            state.apply_joint({p: choosers[p](state, p) for p in acting})
    raise RuntimeError(f"game did not end within {max_steps} decisions")
