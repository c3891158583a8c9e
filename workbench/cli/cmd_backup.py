"""``workbench backup [-o FILE]``: the whole data folder as one zip archive (see ``restore``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from workbench.cli import add_data_option
from workbench.storage.backup import create_backup, default_backup_name


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("backup", help="write the data folder to one zip archive")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="archive to write (default: backups/workbench-backup-<UTC time>.zip)")
    add_data_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.output) if args.output else Path("backups") / default_backup_name()
    result = create_backup(Path(args.data), out)
    print(f"backup written: {result.path} ({result.files} files, {result.bytes:,} bytes unpacked)")
    for name in result.skipped:
        print(f"  skipped (link or special file): {name}")
    return 0
