"""Benchmark the warzone engine on one core: games/s and decisions/s with heuristic players
and with random players, and the heuristic player's win rate against the random one.

Times are CPU seconds of this process (time.process_time); each figure is the best of
``--repeat`` runs, so other jobs on a shared machine distort it less. Logging is off unless
``--log`` is given (playtests switch it off with the ``_log`` option).

Usage: python3 benchmarks/engine_warzone.py [--games N] [--winrate-games N] [--log]
       [--fingerprint N]
Decks: the two sample decks of card_data/warzone (vanguard-rush, iron-bastion).
``--fingerprint N`` prints a hash of N seeded heuristic games (winner, turns, reason and every
action) instead: a speed change that keeps the heuristic's choices keeps the hash.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.domain.engines.warzone_fixtures import BASTION, RUSH, options, sample_deck  # noqa: E402
from workbench.domain.engines.base import play_game  # noqa: E402
from workbench.domain.engines.warzone import ENGINE  # noqa: E402


class Counting:
    """Wraps an agent to count its decisions."""

    def __init__(self, agent) -> None:
        self.agent = agent
        self.calls = 0

    def choose(self, state, player):
        self.calls += 1
        return self.agent.choose(state, player)


def speed(kind: str, games: int, opts: dict) -> tuple[float, float, float]:
    """(games/s, decisions/s, turns/game) for ``kind`` vs ``kind``, decks and seats alternating."""
    decisions = turns = 0
    rush, bastion = sample_deck(RUSH), sample_deck(BASTION)
    start = time.process_time()
    for i in range(games):
        decks = (rush, bastion) if i % 2 == 0 else (bastion, rush)
        agents = [Counting(ENGINE.agents[kind](i)), Counting(ENGINE.agents[kind](i + 7))]
        state = ENGINE.new_game(decks[0], decks[1], opts, i)
        turns += play_game(state, agents).turns
        decisions += agents[0].calls + agents[1].calls
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed, turns / games


def win_rate(deck_h: str, deck_r: str, games: int, opts: dict) -> float:
    """Share of games the heuristic player wins against the random one; seats alternate."""
    wins = 0
    for i in range(games):
        seat = i % 2
        decks = [sample_deck(deck_r), sample_deck(deck_r)]
        decks[seat] = sample_deck(deck_h)
        agents = [ENGINE.agents["random"](i), ENGINE.agents["random"](i)]
        agents[seat] = ENGINE.agents["heuristic"](i)
        state = ENGINE.new_game(decks[0], decks[1], opts, 10_000 + i)
        wins += play_game(state, agents).winner == seat
    return wins / games


def fingerprint(games: int, opts: dict, kind: str = "heuristic") -> str:
    """A hash of ``games`` seeded ``kind`` games: winner, turns, reason and every action."""
    digest = hashlib.sha256()
    rush, bastion = sample_deck(RUSH), sample_deck(BASTION)

    class Recording(Counting):
        def choose(self, state, player):
            action = super().choose(state, player)
            digest.update(repr((action.kind, action.args)).encode())
            return action

    for i in range(games):
        decks = (rush, bastion) if i % 2 == 0 else (bastion, rush)
        agents = [Recording(ENGINE.agents[kind](i)), Recording(ENGINE.agents[kind](i + 7))]
        result = play_game(ENGINE.new_game(decks[0], decks[1], opts, i), agents)
        digest.update(repr((result.winner, result.turns, result.reason)).encode())
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games per speed run")
    parser.add_argument("--repeat", type=int, default=5, help="speed runs; the best counts")
    parser.add_argument("--winrate-games", type=int, default=1000,
                        help="games per win-rate pairing (0 to skip)")
    parser.add_argument("--log", action="store_true", help="keep the readable log on")
    parser.add_argument("--fingerprint", type=int, default=0, metavar="N",
                        help="print a hash of N seeded heuristic games and stop")
    args = parser.parse_args()
    opts = options(_log=args.log)
    if args.fingerprint:
        for kind in ("heuristic", "random"):
            print(f"fingerprint of {args.fingerprint} {kind} games: "
                  f"{fingerprint(args.fingerprint, opts, kind)}")
        return
    print(f"warzone engine, decks {RUSH} / {BASTION}, log {'on' if args.log else 'off'}, "
          f"CPU time of one process, best of {args.repeat}")
    for kind in ("heuristic", "random"):
        runs = [speed(kind, args.games, opts) for _ in range(args.repeat)]
        gps, dps, turns = max(runs)
        print(f"  {kind:9} vs {kind:9}: {gps:7.0f} games/s  {dps:9.0f} decisions/s  "
              f"{turns:5.1f} turns/game")
    if args.winrate_games:
        n = args.winrate_games
        total = 0.0
        for deck_h, deck_r in ((RUSH, RUSH), (BASTION, BASTION), (RUSH, BASTION), (BASTION, RUSH)):
            rate = win_rate(deck_h, deck_r, n, opts)
            total += rate
            print(f"  heuristic ({deck_h}) vs random ({deck_r}): {rate:6.1%} of {n} games")
        print(f"  heuristic vs random, all four pairings: {total / 4:6.1%} of {4 * n} games")


if __name__ == "__main__":
    main()
