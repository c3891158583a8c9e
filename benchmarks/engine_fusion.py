"""Benchmark the fusion engine on one core: games/s with heuristic and random players, decisions/s.

Times are CPU seconds of this process (time.process_time), so other jobs on a shared machine do
not distort the per-core figure. Batch playtests run with the game log off (option ``_log``
false); ``--log`` measures with the readable log on as well.

Usage: python3 benchmarks/engine_fusion.py [--games N] [--log] [--winrate N] [--decks card_data|builtin]
       [--fingerprint N] [--players 3|4]
Decks: the first two decks of card_data/fusion when they exist, else the engine's built-in samples.
``--fingerprint N`` prints, instead of timings, a hash of N seeded games per pairing (winner,
turns, reason and every action): a speed change that keeps the games keeps the hash.
``--players 3`` (or 4) measures games of that many players (RULES.md §3.9): the two decks
alternate around the table, seats rotate, and the "win share" is the first agent kind's share of
the wins against the fair share 1/N; the two-player figures and fingerprints are unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.domain.engines.fusion import ENGINE  # noqa: E402
from workbench.domain.engines.fusion.samples import sample_deck  # noqa: E402

DEFAULTS = {
    "start_life": 20, "start_hand": 5, "max_mulligans": 3, "mana_cap": 10, "hand_limit": 6,
    "max_creatures": 5, "max_set_magic": 5, "set_max_stars": 4, "first_player_skips_draw": True,
    "target_strikes_back": True,
}


def load_decks(source: str):
    """(deck_a, deck_b, options, names): card_data decks when asked and present, else samples."""
    if source == "card_data":
        try:
            from workbench.storage.repository import Repository
            from workbench.storage.scenario_files import game_option_defaults

            repo = Repository(ROOT / "card_data")
            ids = sorted(d.id for d in repo.list_decks("fusion"))[:2]
            _, defaults = game_option_defaults(ROOT / "card_data", "fusion")
            if len(ids) == 2:
                a, b = repo.deck_cards("fusion", ids[0]), repo.deck_cards("fusion", ids[1])
                return a, b, defaults or DEFAULTS, ids
            print("(card_data/fusion has fewer than two decks; using the built-in samples)")
        except Exception as exc:  # storage may be changing under us: fall back to the samples
            print(f"(card_data decks not usable: {exc}; using the built-in samples)")
    return sample_deck("aggro"), sample_deck("control"), DEFAULTS, ["aggro", "control"]


def run(kinds: tuple[str, str], games: int, deck_a, deck_b, options) -> tuple[float, float, float, float]:
    """Play ``games`` games, seats and decks alternating; return (games/s, decisions/s, win share of kinds[0], turns)."""
    decisions = wins = turns = 0
    start = time.process_time()
    for g in range(games):
        a, b = (deck_a, deck_b) if g % 2 == 0 else (deck_b, deck_a)
        seat = (g // 2) % 2  # the seat of kinds[0]; decks and seats alternate independently
        agents = [ENGINE.agents[kinds[0]](2 * g), ENGINE.agents[kinds[1]](2 * g + 1)]
        if seat:
            agents.reverse()
        state = ENGINE.new_game(a, b, options, g)
        while not state.is_terminal():
            (p,) = state.to_act()
            state.apply(agents[p].choose(state, p))
            decisions += 1  # counted here rather than by wrapping the agents: no extra call per decision
        result = state.result()
        turns += result.turns
        wins += result.winner == seat
    spent = max(time.process_time() - start, 1e-9)
    return games / spent, decisions / spent, wins / games, turns / games


def run_multi(kinds: tuple[str, str], games: int, deck_a, deck_b, options, players: int) -> tuple[float, float, float, float]:
    """``games`` games of ``players`` seats, decks alternating around the table (A, B, A, B),
    the first agent kind in one seat that rotates; (games/s, decisions/s, that seat's share of
    the wins, turns)."""
    decisions = 0
    share = turns = 0.0
    start = time.process_time()
    for g in range(games):
        decks = [(deck_a, deck_b)[(k + g // players) % 2] for k in range(players)]
        seat = g % players
        agents = [ENGINE.agents[kinds[0] if k == seat else kinds[1]](players * g + k) for k in range(players)]
        state = ENGINE.new_seated(decks, options, g)
        while not state.is_terminal():
            (p,) = state.to_act()
            state.apply(agents[p].choose(state, p))
            decisions += 1
        result = state.result()
        turns += result.turns
        share += result.score(seat)
    spent = max(time.process_time() - start, 1e-9)
    return games / spent, decisions / spent, share / games, turns / games


def fingerprint(kinds: tuple[str, str], games: int, deck_a, deck_b, options) -> str:
    """A hash of ``games`` seeded games (seats and decks as in ``run``): every action and result."""
    digest = hashlib.sha256()
    for g in range(games):
        a, b = (deck_a, deck_b) if g % 2 == 0 else (deck_b, deck_a)
        seat = (g // 2) % 2
        agents = [ENGINE.agents[kinds[0]](2 * g), ENGINE.agents[kinds[1]](2 * g + 1)]
        if seat:
            agents.reverse()
        state = ENGINE.new_game(a, b, options, g)
        while not state.is_terminal():
            (p,) = state.to_act()
            action = agents[p].choose(state, p)
            digest.update(repr((p, action.kind, action.args)).encode())
            state.apply(action)
        result = state.result()
        digest.update(repr((result.winner, result.turns, result.reason)).encode())
    return digest.hexdigest()[:16]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--log", action="store_true", help="also measure with the game log on")
    parser.add_argument("--winrate", type=int, default=1000, help="games of heuristic vs random (0: skip)")
    parser.add_argument("--decks", choices=["card_data", "builtin"], default="card_data")
    parser.add_argument("--fingerprint", type=int, metavar="N",
                        help="print a hash of N seeded games per pairing instead of timings")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="seats per game (3 or 4: the multiplayer rules, RULES.md §3.9)")
    args = parser.parse_args()
    deck_a, deck_b, options, names = load_decks(args.decks)
    if args.players > 2:
        print(f"fusion engine, {args.players} players, decks {names[0]} and {names[1]} alternating, "
              f"{args.games} games per line, one core (CPU time)")
        opts = {**options, "_log": False}
        for kinds in (("heuristic", "heuristic"), ("random", "random")):
            gps, dps, _, turns = run_multi(kinds, args.games, deck_a, deck_b, opts, args.players)
            print(f"  {kinds[0]:>9} vs {kinds[1]:<9}: {gps:8.1f} games/s  {dps:9.0f} decisions/s  {turns:5.1f} turns/game")
        if args.winrate:
            for kinds in (("heuristic", "random"), ("search", "heuristic")):
                games = args.winrate if kinds[0] != "search" else max(args.players, args.winrate // 25)
                _, _, share, _ = run_multi(kinds, games, deck_a, deck_b, opts, args.players)
                print(f"  one {kinds[0]} among {kinds[1]} players takes {share:.1%} of the wins in {games} games "
                      f"(fair share {1 / args.players:.1%})")
        return
    if args.fingerprint:
        opts = {**options, "_log": args.log}
        for kinds in (("heuristic", "heuristic"), ("random", "random"), ("heuristic", "random")):
            print(f"  {kinds[0]:>9} vs {kinds[1]:<9}: {fingerprint(kinds, args.fingerprint, deck_a, deck_b, opts)}")
        return
    print(f"fusion engine, decks {names[0]} vs {names[1]}, {args.games} games per line, one core (CPU time)")
    modes = [False, True] if args.log else [False]
    for log in modes:
        opts = {**options, "_log": log}
        for kinds in (("heuristic", "heuristic"), ("random", "random")):
            gps, dps, _, turns = run(kinds, args.games, deck_a, deck_b, opts)
            print(f"  {kinds[0]:>9} vs {kinds[1]:<9} log {'on ' if log else 'off'}: {gps:8.1f} games/s  "
                  f"{dps:9.0f} decisions/s  {turns:5.1f} turns/game")
    if args.winrate:
        _, _, share, _ = run(("heuristic", "random"), args.winrate, deck_a, deck_b, {**options, "_log": False})
        print(f"  heuristic beats random in {share:.1%} of {args.winrate} games (seats and decks alternate)")
        for deck, name in ((deck_a, names[0]), (deck_b, names[1])):
            _, _, share, _ = run(("heuristic", "random"), args.winrate, deck, deck, {**options, "_log": False})
            print(f"  mirror {name}: heuristic beats random in {share:.1%} of {args.winrate} games (seats alternate)")


if __name__ == "__main__":
    main()
