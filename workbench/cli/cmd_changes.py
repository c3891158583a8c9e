"""``workbench changes``: who changed which card or deck, and when (the audit log of the data folder)."""

from __future__ import annotations

import argparse

from workbench.cli import add_data_option
from workbench.cli.output import open_repo, print_json


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("changes", help="show the recorded changes (who, when, what)")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--user", help="only changes by this user ('local' for local mode and the CLI)")
    parser.add_argument("--id", dest="item", help="only this card or deck id")
    parser.add_argument("--limit", type=int, default=50, help="the last N matching changes (default 50; 0: all)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_data_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    entries = [
        e for e in open_repo(args).audit.entries()
        if (not args.game or e.get("game") == args.game)
        and (not args.user or e.get("actor") == args.user)
        and (not args.item or e.get("id") == args.item)
    ]
    if args.limit > 0:
        entries = entries[-args.limit:]
    if args.json:
        print_json(entries)
        return 0
    for e in entries:
        versions = f"{e.get('old_version') or '-'} -> {e.get('new_version') or '-'}"
        print(f"{e.get('time', '?'):29} {str(e.get('actor')):16} {str(e.get('action')):6} "
              f"{e.get('type')} {e.get('game')}/{e.get('id')}  {versions}")
    print(f"{len(entries)} changes")
    return 0
