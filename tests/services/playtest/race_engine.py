"""A tiny engine for runner tests: a race to ``target`` steps, one die roll per turn.

Each copy of a card of kind ``booster`` in a deck adds ``boost`` to every roll of that player,
so decks differ in strength; the player in seat 0 moves first, which gives seat 0 a measurable
edge. The ``slow`` player thinks a quarter second before each roll. Options: ``target`` (default 12), ``boost`` (default 1), ``max_turns`` (a draw beyond).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from workbench.domain.engines.base import Action, DeckCards, Engine, GameResult, GameStats, RandomAgent, State

GO = Action("go", (), "roll and move")
WAIT = Action("pass", (), "wait")


class RaceState(State):
    def __init__(self, decks: tuple[DeckCards, DeckCards], options: Mapping[str, Any], seed: int) -> None:
        self.rng = random.Random(seed)
        self.log = []
        self.logging = bool(options.get("_log", True))
        self.stats = GameStats()
        self.target = int(options.get("target", 12))
        self.max_turns = int(options.get("max_turns", 40))
        self.bonus = [int(options.get("boost", 1)) * sum(1 for c in d.get("main", []) if c.get("kind") == "booster")
                      for d in decks]
        self.library = [[c["id"] for c in d.get("main", [])] for d in decks]
        for lib in self.library:
            self.rng.shuffle(lib)
        self.pos = [0, 0]
        self.active = 0
        self.turn = 1
        self.winner: int | None = None
        self.over = False
        for p in (0, 1):
            self._draw(p)
            self._draw(p)
        for p in (0, 1):
            for c in (d for d in decks[p].get("main", []) if d.get("kind") == "dud"):
                self.stats.unsimulated.add(c["id"])

    def _draw(self, p: int) -> None:
        if self.library[p]:
            self.stats.drawn[p].add(self.library[p].pop())

    def to_act(self) -> tuple[int, ...]:
        return () if self.over else (self.active,)

    def legal_actions(self, player: int) -> list[Action]:
        return [GO, WAIT] if not self.over and player == self.active else []

    def apply(self, action: Action) -> None:
        p = self.active
        if action.kind == "go":
            roll = self.rng.randint(1, 6) + self.bonus[p]
            self.pos[p] += roll
            if self.stats.drawn[p]:
                self.stats.played[p].add(sorted(self.stats.drawn[p])[0])
            if self.logging:
                self.log.append(f"Turn {self.turn}: P{p + 1} rolls {roll}, now at {self.pos[p]}")
            if self.pos[p] >= self.target:
                self.winner, self.over = p, True
                return
        self._draw(p)
        self.active = 1 - p
        if self.active == 0:
            self.turn += 1
            if self.turn > self.max_turns:
                self.over = True

    def is_terminal(self) -> bool:
        return self.over

    def result(self) -> GameResult:
        if not self.over:
            raise ValueError("the race is still running")
        reason = f"P{self.winner + 1} reached {self.target}" if self.winner is not None else "turn limit"
        return GameResult(self.winner, reason, self.turn)

    def clone(self) -> RaceState:
        other = object.__new__(RaceState)
        other.__dict__.update(self.__dict__)
        other.pos = list(self.pos)
        other.library = [list(x) for x in self.library]
        other.stats = self.stats.copy()
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.log = list(self.log)
        return other


class Runner:
    """Always rolls."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, state: State, player: int) -> Action:
        return GO


class Ponderer(Runner):
    """Rolls too, after thinking ``THINK_S`` a decision, as a search player with a large budget does."""

    THINK_S = 0.25

    def choose(self, state: State, player: int) -> Action:
        time.sleep(self.THINK_S)
        return GO


def new_game(deck_a: DeckCards, deck_b: DeckCards, options: Mapping[str, Any], seed: int) -> RaceState:
    return RaceState((deck_a, deck_b), options, seed)


ENGINE = Engine(game="race", new_game=new_game, agents={"heuristic": Runner, "random": RandomAgent, "slow": Ponderer},
                supported_actions=frozenset())
ENGINE_NAME = f"{__name__}:ENGINE"


def deck(boosters: int, plain: int = 10, duds: int = 0, prefix: str = "") -> dict[str, list[dict[str, Any]]]:
    """A race deck: ``boosters`` booster cards, ``plain`` plain cards, ``duds`` unsimulated cards."""
    cards = [{"id": f"{prefix}booster-{i}", "name": f"Booster {i}", "kind": "booster"} for i in range(boosters)]
    cards += [{"id": f"{prefix}plain-{i}", "name": f"Plain {i}", "kind": "plain"} for i in range(plain)]
    cards += [{"id": f"{prefix}dud-{i}", "name": f"Dud {i}", "kind": "dud"} for i in range(duds)]
    return {"main": cards}
