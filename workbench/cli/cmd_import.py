"""``workbench import GAME FILE``: import cards (CSV, XLSX, Lackey carddata, Dvorak dump) or a deck
(Lackey .dek, Cockatrice .cod, text list). A dry run is always shown first; nothing is written until it is confirmed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from workbench.cli import add_data_option
from workbench.domain.errors import DataError
from workbench.services.imports import plan as import_plan
from workbench.services.imports.tabular import MAX_FILE_BYTES
from workbench.storage.repository import Repository

SYMBOLS = {"create": "+", "change": "~", "unchanged": "=", "skip": "!"}


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``import`` sub-command."""
    parser = subparsers.add_parser(
        "import",
        help="import cards or a deck from CSV, XLSX, Lackey, Dvorak or a deck list (dry run first)",
        description="Show what an import would create or change, with every problem; then write it "
                    "after confirmation (--yes, or answer the prompt).",
    )
    parser.add_argument("game", help="game id, e.g. warzone")
    parser.add_argument("file", help="the file to import")
    parser.add_argument("--dry-run", action="store_true", help="only show the plan; write nothing")
    parser.add_argument("--mapping", metavar="MAP", help='column mapping, e.g. "Card Name=name,Atk=atk,Notes="')
    parser.add_argument("--kind", choices=list(import_plan.FILE_KINDS), help="file kind (default: detected)")
    parser.add_argument("--deck", metavar="DECK", help="deck id for a deck file (default: from the file name)")
    parser.add_argument("-y", "--yes", action="store_true", help="write without asking")
    parser.add_argument("-v", "--verbose", action="store_true", help="list unchanged rows too")
    add_data_option(parser)
    parser.set_defaults(func=run)


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 50 else text[:47] + "..."


def print_plan(plan: import_plan.ImportPlan, verbose: bool = False) -> None:
    """The dry-run report: one line per row, its changes and problems, then the totals."""
    print(f"dry run: {plan.source} ({plan.kind}) into {plan.game_id}")
    for note in plan.notes:
        print(f"  note: {note}")
    for row in plan.rows:
        if row.action == "unchanged" and not row.problems and not verbose:
            continue
        print(f"  {SYMBOLS[row.action]} row {row.row}: {row.action} {row.card_id or '-'} {row.name!r}")
        if row.action == "change":
            for name, old, new in row.changes:
                print(f"      {name}: {_show(old)} -> {_show(new)}")
        for problem in row.problems:
            print(f"      {problem}")
    if plan.deck:
        deck = plan.deck
        print(f"  {SYMBOLS[deck.action]} deck {deck.deck_id}: {deck.action} {deck.name!r} ({deck.cards} cards)")
        for zone, content in deck.data.get("zones", {}).items():
            print(f"      {zone}: {sum(content.values())} cards")
        for problem in deck.problems:
            print(f"      {problem}")
    counts = plan.counts()
    print("total: " + ", ".join(f"{n} {k}" for k, n in counts.items()) + f"; {plan.problem_count()} problems")


def run(args: argparse.Namespace) -> int:
    """Dry run, then (confirmed) apply. 0 when all went in, 1 when rows were skipped or failed."""
    path = Path(args.file)
    if not path.is_file():
        print(f"error: {path} is not a file", file=sys.stderr)
        return 2
    if path.stat().st_size > MAX_FILE_BYTES:
        raise DataError(f"{path} is {path.stat().st_size:,} bytes; imports are limited to {MAX_FILE_BYTES:,}")
    repo = Repository(Path(args.data))
    plan = import_plan.dry_run(repo, args.game, path.name, path.read_bytes(), mapping=args.mapping,
                               kind=args.kind, deck_id=args.deck)
    print_plan(plan, args.verbose)
    counts = plan.counts()
    skipped = counts["skip"] > 0
    if args.dry_run:
        print("nothing was written (dry run)")
        return 1 if skipped else 0
    if counts["create"] + counts["change"] == 0:
        print("nothing to write")
        return 1 if skipped else 0
    if not args.yes:
        if not sys.stdin.isatty():
            print("nothing was written: confirm with --yes (no terminal to ask)")
            return 1
        answer = input(f"write {counts['create']} new and {counts['change']} changed? [y/N] ")
        if answer.strip().lower() not in {"y", "yes"}:
            print("nothing was written")
            return 1
    result = import_plan.apply(repo, args.game, plan)
    print(f"written: {len(result.created)} created, {len(result.changed)} changed, {len(result.failed)} failed")
    for failure in result.failed:
        print(f"  failed: {failure}")
    return 1 if result.failed or skipped else 0
