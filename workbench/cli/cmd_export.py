"""``workbench export GAME FORMAT``: write a game's cards and decks for another program.

Formats: lackey, dvorak-lackey, mush, dvorak-mush, cockatrice, tts, csv, xlsx. Files go to
``exports/<game>/<format>/`` unless ``-o`` names a folder.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from workbench.cli import add_data_option
from workbench.services.exports import run as export_run
from workbench.storage.repository import Repository

DEFAULT_EXPORTS = "exports"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``export`` sub-command."""
    parser = subparsers.add_parser(
        "export",
        help="export a game to LackeyCCG, Dvorak, MUSHcode, Cockatrice, Tabletop Simulator or a spreadsheet",
        description="Export a game's cards (and decks). See docs/exports.md for loading each format.",
    )
    parser.add_argument("game", help="game id, e.g. warzone")
    parser.add_argument("format", choices=list(export_run.FORMATS), help="export format")
    parser.add_argument("--deck", metavar="DECK", help="only this deck (the card list stays whole for lackey and cockatrice)")
    parser.add_argument("-o", "--output", metavar="PATH", help="output folder (default exports/<game>/<format>/)")
    parser.add_argument("--base-url", metavar="URL",
                        help="where the files will be hosted: Lackey auto-update, Cockatrice picurl, TTS image URLs")
    parser.add_argument("--server", choices=["pennmush", "tinymux"], default="pennmush",
                        help="MUSH server (mush, dvorak-mush)")
    parser.add_argument("--ascii", action="store_true",
                        help="fold to ASCII: mush and dvorak-mush text (always for pennmush); "
                             "lackey card names and zone labels (originals in OriginalName)")
    parser.add_argument("--exports", default=os.environ.get("WORKBENCH_EXPORTS", DEFAULT_EXPORTS), metavar="DIR",
                        help="exports folder (default ./exports or $WORKBENCH_EXPORTS)")
    add_data_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the export and list its files and notes; 0 on success. WorkbenchErrors propagate to main."""
    repo = Repository(Path(args.data))
    result = export_run.run(
        repo, args.game, args.format, export_root=Path(args.exports),
        out=Path(args.output) if args.output else None, deck_id=args.deck, base_url=args.base_url,
        server=args.server, ascii_only=args.ascii,
    )
    print(f"{export_run.FORMATS[args.format]}: {len(result.files)} files in {result.folder}")
    print(f"  main file: {result.main}")
    if result.zip:
        print(f"  zip: {result.zip}")
    for note in result.notes:
        print(f"  note: {note}")
    return 0
