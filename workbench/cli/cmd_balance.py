"""``workbench balance GAME DECK --vs DECK_B -n N``: what each card of DECK is worth, by swapping it.

For each distinct card of DECK, the same seeds are played with its copies replaced by a baseline
card (docs/playtests.md, "Balance report"); the paired change in DECK's win rate is printed with
its 95 % interval, largest first.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

from workbench.cli import add_data_option
from workbench.cli.output import open_repo, print_json


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``balance`` sub-command."""
    parser = subparsers.add_parser(
        "balance",
        help="what each card of a deck is worth: the same games with the card swapped for a baseline",
        description=("For each distinct card of DECK, play the same seeds against --vs with that card's copies "
                     "replaced by a baseline (the game's vanilla card, or a blank card with the kind's average "
                     "stats) and report the paired change in DECK's win rate with a 95% interval."),
    )
    parser.add_argument("game", help="game id")
    parser.add_argument("deck", help="the deck whose cards are measured: deck id or @FILE")
    parser.add_argument("--vs", required=True, help="the opponent: deck id or @FILE")
    parser.add_argument("--games", "-n", type=int, default=1000,
                        help="games per card (every seed twice, seats swapped; default 1000)")
    parser.add_argument("--seed", "-s", type=int, default=0, help="root seed (default 0)")
    parser.add_argument("--workers", "-w", type=int, default=None, help="worker processes (default: every core)")
    parser.add_argument("--agents", default="heuristic,heuristic", help="players for DECK and --vs")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE", help="rule option override")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    add_data_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the balance report; print text or JSON. Returns 0, or 2 for usage errors."""
    import sys

    from workbench.cli.cmd_playtest import deck_ref, parse_pairs, progress_bar
    from workbench.services.playtest.balance import balance_report

    if args.games < 2:
        print("error: --games must be at least 2", file=sys.stderr)
        return 2
    repo = open_repo(args)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(agents) == 1:
        agents *= 2
    with contextlib.ExitStack() as stack:
        bar = stack.enter_context(progress_bar(not args.quiet, f"balance {args.deck}"))
        result = balance_report(repo, args.game, deck_ref(args.deck), deck_ref(args.vs), args.games, seed=args.seed,
                                agents=agents, overrides=parse_pairs(args.option), workers=args.workers, progress=bar)
    print_json(result) if args.json else _print(result)
    return 0


def _pts(v: float | None) -> str:
    return "—" if v is None else f"{100 * v:+.1f}"


def _print(result: dict[str, Any]) -> None:
    rate = result["win_rate_a"]
    print(f"Balance of {result['deck_a']} against {result['deck_b']} ({result['game']}): {result['games_per_card']} games "
          f"per card, seed {result['seed']}; as built it wins {100 * rate['value']:.1f}% "
          f"({100 * rate['ci95'][0]:.1f}–{100 * rate['ci95'][1]:.1f})")
    print("  change in win rate the card makes (with it − with the baseline), points, 95% interval, paired:")
    for row in result["cards"]:
        c = row["change"]
        flag = "  changes nothing" if row["no_change"] else ("  unclear" if row["unclear"] else "")
        ci = f"{_pts(c['ci95'][0])} to {_pts(c['ci95'][1])}" if c["ci95"] else "—"
        print(f"    {row['name']:<28} ×{row['copies']} {_pts(c['value']):>6} ({ci}){flag}")
    if result["cards"]:
        print(f"  baseline: {result['cards'][0]['baseline']}")
    if result["mean_width"]:
        print(f"  common seeds: mean interval width {100 * result['mean_width']:.1f} points, against "
              f"{100 * result['mean_unpaired_width']:.1f} for unpaired runs of the same size")
    print(f"  {result['games']} games in {result['elapsed_s']} s ({result['games_per_s']} games/s)")
