"""``workbench games``: list the games of the data folder."""

from __future__ import annotations

import argparse

from workbench.cli import add_data_option
from workbench.cli.output import open_repo, print_json


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("games", help="list the games of the data folder")
    add_data_option(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    rows = []
    for game_id in repo.list_games():
        definition = repo.game(game_id)
        cards, _ = repo.list_cards_tolerant(game_id)
        decks, _ = repo.list_decks_tolerant(game_id)
        rows.append({"id": game_id, "name": definition.name, "cards": len(cards), "decks": len(decks),
                     "kinds": list(definition.kinds), "zones": list(definition.zones)})
    if args.json:
        print_json(rows)
        return 0
    for row in rows:
        print(f"{row['id']:10} {row['name']}  ({row['cards']} cards, {row['decks']} decks)")
    return 0
