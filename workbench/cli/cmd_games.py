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
    good, broken = repo.games_checked()
    for game_id in good:
        definition = repo.game(game_id)
        cards, _ = repo.list_cards_tolerant(game_id)
        decks, _ = repo.list_decks_tolerant(game_id)
        rows.append({"id": game_id, "name": definition.name, "cards": len(cards), "decks": len(decks),
                     "kinds": list(definition.kinds), "zones": list(definition.zones)})
    # A game whose game.yaml cannot be read is listed with its problem; the exit code says so.
    for game in broken:
        rows.append({"id": game.id, "name": game.id, "cards": None, "decks": None, "kinds": [], "zones": [],
                     "problem": {"file": game.file, "line": game.line, "message": game.message}})
    if args.json:
        print_json(rows)
        return 1 if broken else 0
    for row in rows:
        if "problem" in row:
            where = row["problem"]["file"] + (f":{row['problem']['line']}" if row["problem"]["line"] else "")
            print(f"{row['id']:10} CANNOT BE READ  {where}: {row['problem']['message']}")
        else:
            print(f"{row['id']:10} {row['name']}  ({row['cards']} cards, {row['decks']} decks)")
    return 1 if broken else 0
