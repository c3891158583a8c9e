"""``workbench validate [GAME] [--deck DECK] [--json]``: check cards and decks against the rules.

Exit 0 when there are no errors (warnings allowed), 1 when there is any error, 2 on usage errors.
"""

from __future__ import annotations

import argparse
from typing import Any

from workbench.cli import add_data_option
from workbench.cli.output import format_problem, open_repo, print_json
from workbench.domain.problems import Problem
from workbench.services.checks import card_problems, deck_problems, game_report


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("validate", help="check cards and decks against their game's rules")
    parser.add_argument("game", nargs="?", help="game id (default: every game)")
    parser.add_argument("--deck", help="check only this deck (needs GAME)")
    parser.add_argument("--card", help="check only this card (needs GAME)")
    parser.add_argument("--layout", action="store_true", help="also check that text fits on the card face")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_data_option(parser)
    parser.set_defaults(func=run, _parser=parser)


def run(args: argparse.Namespace) -> int:
    if (args.deck or args.card) and not args.game:
        args._parser.print_usage()
        print("error: --deck and --card need a GAME")
        return 2
    repo = open_repo(args)
    games, broken = ([args.game], []) if args.game else repo.games_checked()
    result: dict[str, Any] = {}
    errors = 0
    for game in broken:  # one broken game.yaml is reported; the other games are still checked
        where = f"game.yaml (line {game.line})" if game.line else "game.yaml"
        result[game.id] = {"cards": {}, "decks": {}, "unreadable": [(where, game.message)]}
        errors += 1
    for game_id in games:
        if args.deck:
            deck = repo.get_deck(game_id, args.deck)
            report: dict[str, Any] = {"cards": {}, "decks": {deck.id: deck_problems(repo, game_id, deck.data, deck.id)},
                                      "unreadable": []}
        elif args.card:
            card = repo.get_card(game_id, args.card)
            report = {"cards": {card.id: card_problems(repo.game(game_id), card.data, card.id, args.layout)},
                      "decks": {}, "unreadable": []}
        else:
            report = game_report(repo, game_id, with_layout=args.layout)
        result[game_id] = report
        errors += sum(p.is_error for ps in report["cards"].values() for p in ps)
        errors += sum(p.is_error for ps in report["decks"].values() for p in ps)
        errors += len(report["unreadable"])
    if args.json:
        print_json({
            "ok": errors == 0,
            "errors": errors,
            "games": {
                g: {
                    "cards": {i: [p.to_dict() for p in ps] for i, ps in r["cards"].items()},
                    "decks": {i: {"legal": not any(p.is_error for p in ps), "problems": [p.to_dict() for p in ps]}
                              for i, ps in r["decks"].items()},
                    "unreadable": [{"file": f, "error": e} for f, e in r["unreadable"]],
                }
                for g, r in result.items()
            },
        })
    else:
        _print_text(result)
    return 1 if errors else 0


def _print_text(result: dict[str, Any]) -> None:
    total_e = total_w = 0
    for game_id, report in result.items():
        cards: dict[str, list[Problem]] = report["cards"]
        decks: dict[str, list[Problem]] = report["decks"]
        e = sum(p.is_error for ps in list(cards.values()) + list(decks.values()) for p in ps)
        w = sum(not p.is_error for ps in list(cards.values()) + list(decks.values()) for p in ps)
        total_e += e + len(report["unreadable"])
        total_w += w
        print(f"{game_id}: {len(cards)} cards, {len(decks)} decks — {e} errors, {w} warnings")
        for card_id, problems in cards.items():
            for p in problems:
                print(format_problem(p))
        for deck_id, problems in decks.items():
            legal = not any(p.is_error for p in problems)
            print(f"  deck {deck_id}: {'legal' if legal else 'NOT LEGAL'}")
            for p in problems:
                print("  " + format_problem(p))
        for file, reason in report["unreadable"]:
            print(f"  ERROR   {file}: {reason}")
    print(f"{'OK' if total_e == 0 else 'FAILED'}: {total_e} errors, {total_w} warnings")
