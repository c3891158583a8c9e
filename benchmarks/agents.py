"""Strength and speed of the AI players of every game (issue 15).

Each matchup plays seat-swapped pairs: game 2k and 2k+1 use the same seed and the same deck on
both sides (a mirror match); the player under test sits first in one and second in the other, so
neither the deck nor the first-player effect biases the result. A draw counts half. Results print
with a 95 % Wilson interval, and the games/s and decisions/s of the run (CPU time of the worker
processes, and the wall time with ``--jobs`` processes).

Usage:
    python benchmarks/agents.py [--game G] [--deck D] [--games N] [--budget B] [--jobs J]
        [--matchups search-heuristic,heuristic-random,search-search] [--players 3|4] [--per-game]
    python benchmarks/agents.py --game seth --matchups search-search --games 2000   # seats
    python benchmarks/agents.py --hold-sweep 600    # seth: the heuristic's hold constant

``search-search`` is the speed figure of issue 15 (1,000 games on 2 cores in ≤ 5 minutes) and
the seat balance of item 3: it prints the first seat's win rate with its interval, and the time
of 1,000 games extrapolated from the CPU seconds the run took (CPU seconds per game × 1,000 / 2:
two free cores; the machine may be shared, so wall time says little) next to the wall time
extrapolated with the given ``--jobs``.

``--players 3`` (or 4; fusion, RULES.md §3.9) plays pods instead of pairs: each unit is a
rotation of N games on one seed with the same deck in every seat, the player under test in seat
r of game r and the other player in the remaining seats; it prints the tested player's share of
the wins against the fair share 1/N (a Wilson interval over games), for ``search-search`` the
first seat's share.

``--per-game`` also prints each game's winner, turns, end reason and decisions: a speed change
that keeps the games keeps these lines (compare a seeded short run, ``--games 20 --jobs 1``,
before and after).

``--hold-sweep N`` plays N heuristic games (seat-swapped pairs) of seth's two sample line-ups,
rot-and-stone against skyburn-blitz, for each ``hold`` in 0, 0.1, … 0.5 (both sides), and prints
deck A's win rate per value and the spread (issue 15 item 7).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.domain.engines import load_engine  # noqa: E402
from workbench.domain.engines.base import play_game  # noqa: E402
from workbench.domain.stats import wilson_interval  # noqa: E402

GAMES = ("warzone", "fusion", "seth")


def bundled(game: str):
    from workbench.storage.repository import Repository
    from workbench.storage.scenario_files import game_option_defaults

    repo = Repository(ROOT / "card_data")
    decks = sorted(d.id for d in repo.list_decks(game))
    _, defaults = game_option_defaults(ROOT / "card_data", game)
    return {d: repo.deck_cards(game, d) for d in decks}, dict(defaults, _log=False)


class Counting:
    def __init__(self, agent) -> None:
        self.agent = agent
        self.calls = 0

    def choose(self, state, player):
        self.calls += 1
        return self.agent.choose(state, player)


TUNING: dict = {}
"""Extra keyword arguments of the search player (``--tune key=value``), for experiments."""


def make(engine, name: str, seed: int, budget: int | None):
    factory = engine.agents[name]
    if name == "search":
        extra = dict(TUNING)
        if budget is not None:
            extra["budget"] = budget
        return factory(seed, **extra)
    return factory(seed)


def play_pair(task):
    """Two games of one seed: ``a`` first, then ``a`` second. Returns (points of a, decisions,
    points of the first seat, CPU seconds, each game's (winner, turns, reason, decisions))."""
    game, deck, a, b, seed, budget = task
    engine = load_engine(game)
    decks, options = bundled(game)
    cards = decks[deck]
    points = first = 0.0
    decisions = 0
    games = []
    start = time.process_time()
    for seat in (0, 1):
        players = [Counting(make(engine, a, seed * 2 + seat, budget)),
                   Counting(make(engine, b, seed * 2 + seat + 7, budget))]
        if seat:
            players.reverse()
        result = play_game(engine.new_game(cards, cards, options, seed), players)
        calls = sum(p.calls for p in players)
        decisions += calls
        games.append((result.winner, result.turns, result.reason, calls))
        if result.winner is None:
            points += 0.5
            first += 0.5
        else:
            points += result.winner == seat
            first += result.winner == 0
    return points, decisions, first, time.process_time() - start, games


def play_rotation(task):
    """``players`` games of one seed, the same deck in every seat: ``a`` in seat r of game r,
    ``b`` in the other seats. Returns (a's share of the wins, decisions, the first seat's share,
    CPU seconds, each game's (winner, turns, reason, decisions)); a shared first place counts 1/k
    (``GameResult.score``)."""
    game, deck, a, b, seed, budget, players = task
    engine = load_engine(game)
    decks, options = bundled(game)
    options = dict(options, players=players)
    points = first = 0.0
    decisions = 0
    games = []
    start = time.process_time()
    for seat in range(players):
        agents = [Counting(make(engine, a if k == seat else b, seed * players + k + (0 if k == seat else 7), budget))
                  for k in range(players)]
        result = play_game(engine.new_seated([decks[deck]] * players, options, seed), agents)
        calls = sum(p.calls for p in agents)
        decisions += calls
        games.append((result.winner, result.turns, result.reason, calls))
        points += result.score(seat)
        first += result.score(0)
    return points, decisions, first, time.process_time() - start, games


def matchup(game: str, deck: str, a: str, b: str, games: int, budget: int | None,
            jobs: int, players: int = 2) -> dict:
    units = max(1, games // players)
    if players == 2:
        work, tasks = play_pair, [(game, deck, a, b, seed, budget) for seed in range(units)]
    else:
        work, tasks = play_rotation, [(game, deck, a, b, seed, budget, players) for seed in range(units)]
    wall = time.perf_counter()
    if jobs > 1:
        with mp.get_context("fork").Pool(jobs) as pool:
            out = pool.map(work, tasks, chunksize=1)
    else:
        out = [work(t) for t in tasks]
    wall = time.perf_counter() - wall
    n = players * units
    points = sum(o[0] for o in out)
    decisions = sum(o[1] for o in out)
    first = sum(o[2] for o in out)
    cpu = sum(o[3] for o in out)
    low, high = wilson_interval(points, n)
    return {"n": n, "rate": points / n, "low": low, "high": high, "first": first / n,
            "games_s": n / cpu, "decisions_s": decisions / cpu, "wall": wall, "cpu": cpu,
            "games": [g for o in out for g in o[4]]}


def hold_pair(task):
    """Two seth heuristic games (seats swapped) of deck ``a`` against ``b`` with ``hold`` on
    both sides; returns the points of deck a."""
    from workbench.domain.engines.seth.agents import HeuristicAgent

    a, b, hold, seed = task
    engine = load_engine("seth")
    decks, options = bundled("seth")
    points = 0.0
    for seat in (0, 1):
        players = [HeuristicAgent(seed * 2 + seat, hold=hold),
                   HeuristicAgent(seed * 2 + seat + 7, hold=hold)]
        cards = [decks[a], decks[b]]
        if seat:
            cards.reverse()
        result = play_game(engine.new_game(cards[0], cards[1], options, seed), players)
        points += 0.5 if result.winner is None else float(result.winner == seat)
    return points


def hold_sweep(games: int, jobs: int, a: str = "rot-and-stone", b: str = "skyburn-blitz") -> None:
    pairs = max(1, games // 2)
    rates = []
    print(f"seth heuristic vs heuristic, {a} against {b}, {2 * pairs} games per hold value")
    for hold in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5):
        tasks = [(a, b, hold, seed) for seed in range(pairs)]
        if jobs > 1:
            with mp.get_context("fork").Pool(jobs) as pool:
                out = pool.map(hold_pair, tasks, chunksize=max(1, pairs // (4 * jobs)))
        else:
            out = [hold_pair(t) for t in tasks]
        points = sum(out)
        low, high = wilson_interval(points, 2 * pairs)
        rates.append(points / (2 * pairs))
        print(f"  hold {hold:.1f}: {a} wins {rates[-1]:.1%} [{low:.1%}, {high:.1%}]", flush=True)
    print(f"  spread {100 * (max(rates) - min(rates)):.1f} points")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--games", type=int, default=200, help="games per matchup and deck")
    parser.add_argument("--budget", type=int, help="search iterations per decision "
                        "(default: each game's own)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--matchups", default="search-heuristic,heuristic-random,search-search")
    parser.add_argument("--deck", action="append", help="only these decks (default: every bundled one)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="seats per game (3 or 4: fusion pods in rotations, RULES.md §3.9)")
    parser.add_argument("--hold-sweep", type=int, metavar="N",
                        help="seth: N heuristic games per value of the hold constant, then stop")
    parser.add_argument("--per-game", action="store_true",
                        help="also print each game's winner, turns, reason and decisions (to check "
                        "that a speed change keeps the games)")
    parser.add_argument("--tune", action="append", default=[], metavar="KEY=VALUE",
                        help="a keyword argument of the search player (horizon=20, margin=0.05); "
                        "for experiments, the defaults are the shipped ones")
    args = parser.parse_args()
    for item in args.tune:
        key, value = item.split("=", 1)
        TUNING[key] = float(value) if "." in value else int(value)
    if args.hold_sweep:
        hold_sweep(args.hold_sweep, args.jobs)
        return
    games = args.game or (["fusion"] if args.players > 2 else GAMES)
    for game in games:
        engine = load_engine(game)
        if args.players > engine.max_players:
            parser.error(f"{game} seats at most {engine.max_players} players")
        decks, _ = bundled(game)
        if args.deck:
            decks = {d: c for d, c in decks.items() if d in args.deck}
        units = ("seat-swapped mirror pairs" if args.players == 2 else
                 f"mirror rotations of {args.players} games (the player under test in each seat once)")
        print(f"{game}: {args.games} games per line in {units}, "
              f"{args.jobs} processes, search budget {args.budget or 'default'}")
        fair = 1 / args.players
        for pair in args.matchups.split(","):
            a, b = pair.split("-")
            for deck in decks:
                r = matchup(game, deck, a, b, args.games, args.budget, args.jobs, args.players)
                per_1000 = r["wall"] * 1000 / r["n"]
                share = "" if args.players == 2 else f" (fair share {fair:.1%})"
                if a == b:
                    low, high = wilson_interval(r["first"] * r["n"], r["n"])
                    what = (f"first seat wins {r['first']:.1%} [{low:.1%}, {high:.1%}]{share}; 1,000 games ≈ "
                            f"{r['cpu'] * 1000 / r['n'] / 2:.0f} s on 2 free cores "
                            f"({per_1000:.0f} s wall here on {args.jobs} processes)")
                else:
                    what = f"{a} wins {r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]{share}"
                print(f"  {a:>9} vs {b:<9} {deck:<18} {what}; {r['games_s']:8.1f} games/s "
                      f"{r['decisions_s']:9.0f} decisions/s (per core)", flush=True)
                if args.per_game:
                    for k, (winner, turns, reason, calls) in enumerate(r["games"]):
                        print(f"    game {k}: winner {winner} turns {turns} {reason} decisions {calls}")


if __name__ == "__main__":
    main()
