"""Benchmark the seth engine on one core: games/s with heuristic and random players, decisions/s.

Times are CPU seconds of this process (time.process_time), so other jobs on a shared machine do
not distort the per-core figure.

Usage: python3 benchmarks/engine_seth.py [--games N] [--log] [--fingerprint N]
Uses the sample decks of card_data/seth when two exist, else the line-ups of the engine tests.
Also prints the heuristic player's win rate against the random one (seats alternate).
``--fingerprint N`` prints, instead of timings, a hash of N seeded games per pairing (winner,
rounds and every move): a speed change that keeps the games keeps the hash.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "domain" / "engines"))

from workbench.domain.engines.base import play_game  # noqa: E402
from workbench.domain.engines.seth import ENGINE  # noqa: E402


def load_decks():
    """Two sample decks from card_data/seth (first two by id), else the test line-ups."""
    try:
        from workbench.storage.scenario_files import game_option_defaults
        from workbench.storage.repository import Repository

        repo = Repository(ROOT / "card_data")
        decks = sorted(d.id for d in repo.list_decks("seth"))[:2]
        _, defaults = game_option_defaults(ROOT / "card_data", "seth")
        if len(decks) == 2 and defaults:
            return repo.deck_cards("seth", decks[0]), repo.deck_cards("seth", decks[1]), defaults, decks
    except Exception as exc:  # the repository may still be in the works: fall back to test teams
        print(f"(sample decks not usable: {exc}; using the test line-ups)")
    from seth_teams import DEFAULTS, decks

    a, b = decks()
    return a, b, DEFAULTS, ["ember", "grove"]


class Counting:
    """Wraps an agent to count decisions."""

    def __init__(self, agent) -> None:
        self.agent = agent
        self.calls = 0

    def choose(self, state, player):
        self.calls += 1
        return self.agent.choose(state, player)


def run(kind_a: str, kind_b: str, games: int, deck_a, deck_b, options) -> tuple[float, float, float]:
    """Return (games/s, decisions/s, share of games won by the first agent kind)."""
    decisions = wins = 0
    start = time.process_time()
    for i in range(games):
        # Alternate seats and, independently, which deck the first agent kind plays, so neither
        # the first-player effect nor the matchup biases the win rate.
        seat = i % 2
        agents = [Counting(ENGINE.agents[kind_a](i)), Counting(ENGINE.agents[kind_b](i + 7))]
        if seat:
            agents.reverse()
        decks = (deck_a, deck_b) if (i // 2) % 2 == 0 else (deck_b, deck_a)
        state = ENGINE.new_game(decks[0], decks[1], options, i)
        result = play_game(state, agents)
        decisions += sum(a.calls for a in agents)
        if result.winner is not None and result.winner == seat:
            wins += 1
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed, wins / games


def fingerprint(kind_a: str, kind_b: str, games: int, deck_a, deck_b, options) -> str:
    """A hash of ``games`` seeded games (seats and decks as in ``run``): winners, rounds, moves."""
    digest = hashlib.sha256()

    class Recording:
        def __init__(self, agent) -> None:
            self.agent = agent

        def choose(self, state, player):
            action = self.agent.choose(state, player)
            digest.update(repr((player, action.kind, action.args)).encode())
            return action

    for i in range(games):
        seat = i % 2
        agents = [Recording(ENGINE.agents[kind_a](i)), Recording(ENGINE.agents[kind_b](i + 7))]
        if seat:
            agents.reverse()
        decks = (deck_a, deck_b) if (i // 2) % 2 == 0 else (deck_b, deck_a)
        result = play_game(ENGINE.new_game(decks[0], decks[1], options, i), agents)
        digest.update(repr((result.winner, result.turns)).encode())
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--log", action="store_true", help="keep the readable log on (slower)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per pairing; the fastest is reported (default 3, as timeit does)")
    parser.add_argument("--fingerprint", type=int, metavar="N",
                        help="print a hash of N seeded games per pairing instead of timings")
    args = parser.parse_args()
    deck_a, deck_b, options, names = load_decks()
    options = dict(options, _log=args.log)
    if args.fingerprint:
        for a, b in (("heuristic", "heuristic"), ("random", "random"), ("heuristic", "random")):
            print(f"  {a:>9} vs {b:<9}: {fingerprint(a, b, args.fingerprint, deck_a, deck_b, options)}")
        return
    print(f"seth engine, decks {names[0]} vs {names[1]}, {args.games} games each, log {'on' if args.log else 'off'}")
    for a, b in (("heuristic", "heuristic"), ("random", "random"), ("heuristic", "random")):
        runs = [run(a, b, args.games, deck_a, deck_b, options) for _ in range(max(1, args.repeat))]
        gps, dps, share = max(runs)
        extra = f", {a} wins {share:.1%}" if a != b else ""
        print(f"  {a:>9} vs {b:<9}: {gps:8.0f} games/s  {dps:9.0f} decisions/s{extra}")


if __name__ == "__main__":
    main()
