"""The ``workbench`` command. Each sub-command lives in its own module of this package.

A module ``workbench/cli/cmd_<name>.py`` defines ``register(subparsers)``, which adds its parser
and sets ``func`` to a callable ``(args) -> int`` (the exit code). Modules are discovered, so a
new command needs no edit here.

Exit codes: 0 success, 1 the command ran and found problems (or failed), 2 usage errors.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from workbench.domain.errors import WorkbenchError

DEFAULT_DATA = "card_data"


def add_data_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--data DIR`` (default ``./card_data`` or ``$WORKBENCH_DATA``) to a sub-command."""
    import os

    parser.add_argument(
        "--data",
        default=os.environ.get("WORKBENCH_DATA", DEFAULT_DATA),
        metavar="DIR",
        help="data folder holding one folder per game (default: ./card_data or $WORKBENCH_DATA)",
    )


def build_parser() -> argparse.ArgumentParser:
    """Build the argument parser with every discovered sub-command."""
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="Card Workbench: author, check, print, export and playtest card games.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    package = importlib.import_module(__name__)
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if info.name.startswith("cmd_"):
            module = importlib.import_module(f"{__name__}.{info.name}")
            module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (also used as the console script)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except WorkbenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2 if exc.__class__.__name__ in {"InvalidId", "NotFound", "UsageError"} else 1
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        # A full disk, a read-only or forbidden folder: one clear line, not a traceback.
        known = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
                 errno.EROFS: "the folder is read-only", errno.EACCES: "permission denied",
                 errno.EPERM: "permission denied"}.get(exc.errno or -1)
        if known is None:
            raise
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: {known}{where}; the command stopped (every write is atomic: no file was left half-written)",
              file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
