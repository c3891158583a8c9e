"""``workbench cards GAME``: list a game's cards with their key stats."""

from __future__ import annotations

import argparse

from workbench.cli import add_data_option
from workbench.cli.output import open_repo, print_json


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("cards", help="list the cards of a game")
    parser.add_argument("game", help="game id, e.g. warzone")
    parser.add_argument("--kind", help="only cards of this kind")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_data_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    repo = open_repo(args)
    definition = repo.game(args.game)
    cards, unreadable = repo.list_cards_tolerant(args.game)
    if args.kind:
        cards = [c for c in cards if c.data.get("kind") == args.kind]
    if args.json:
        print_json([{"id": c.id, "version": c.version, **c.data} for c in cards])
        return 0
    for card in cards:
        kind = card.data.get("kind", "?")
        kdef = definition.kinds.get(str(kind))
        stats = []
        if kdef:
            for fdef in kdef.fields:
                if fdef.type in {"integer", "number", "string", "list"} and fdef.name in card.data:
                    value = card.data[fdef.name]
                    stats.append(f"{fdef.name}={'/'.join(map(str, value)) if isinstance(value, list) else value}")
        print(f"{card.id:28} {str(card.data.get('name', '')):28} {kind:10} {' '.join(stats)}")
    for item_id, reason in unreadable:
        print(f"{item_id:28} UNREADABLE: {reason}")
    print(f"{len(cards)} cards")
    return 0
