"""``workbench restore ARCHIVE [--force] [--dry-run]``: put a backup back as the data folder.

The archive is checked completely before anything is written; an existing data folder is only
replaced with ``--force`` and is then kept beside the restored one. Stop the server first.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli import add_data_option
from workbench.storage.backup import MAX_ENTRIES, Limits, restore_backup


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("restore", help="restore the data folder from a backup archive")
    parser.add_argument("archive", help="a zip written by `workbench backup`")
    parser.add_argument("--force", action="store_true",
                        help="replace an existing data folder (it is kept as <folder>.before-restore-<time>)")
    parser.add_argument("--dry-run", action="store_true", help="check the archive and say what would happen")
    parser.add_argument("--max-files", type=int, default=MAX_ENTRIES, metavar="N",
                        help=f"refuse archives with more entries than this (default {MAX_ENTRIES:,})")
    add_data_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    result = restore_backup(Path(args.archive), Path(args.data), force=args.force, dry_run=args.dry_run,
                            limits=Limits(entries=args.max_files))
    games = ", ".join(result.games) or "no games"
    if result.dry_run:
        print(f"the archive is sound: {result.files} files, {result.bytes:,} bytes ({games}); "
              f"it would be restored to {result.target}")
        if result.needs_force:
            print(f"{result.target} exists and is not empty: the restore needs --force "
                  "(the current folder would be kept beside it)")
        return 0
    print(f"restored {result.files} files ({games}) to {result.target}")
    if result.previous:
        print(f"the previous data folder is kept at {result.previous}")
    return 0
