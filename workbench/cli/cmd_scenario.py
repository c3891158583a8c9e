"""``workbench scenario FILE...``: run rule scenarios and report PASS/FAIL with the first difference."""

from __future__ import annotations

import argparse
import sys

from workbench.cli import add_data_option
from workbench.domain.errors import WorkbenchError
from workbench.services.scenario_runs import ScenarioRunner
from workbench.storage.scenario_files import iter_scenarios


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``scenario`` sub-command."""
    parser = subparsers.add_parser(
        "scenario",
        help="run rule scenarios (YAML files or folders) against the game engines",
        description="Run rule scenarios (docs/scenarios.md): play scenarios in the engines, deck and card "
        "scenarios through the validator, pod scenarios with the playtest runner. Exit 0 when all pass, "
        "1 when any fails.",
    )
    parser.add_argument("paths", nargs="+", metavar="FILE", help="scenario files or folders")
    parser.add_argument("-q", "--quiet", action="store_true", help="print failures and the summary only")
    add_data_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run every scenario named by ``args.paths``; return 0 (all pass), 1 (any fail) or 2 (usage)."""
    runner = ScenarioRunner(args.data)
    passed = failed = 0
    try:
        scenarios = list(iter_scenarios(args.paths))
    except WorkbenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not scenarios:
        print("error: no scenario files found", file=sys.stderr)
        return 2
    for item in scenarios:
        result = runner.run(item.data, str(item.label))
        if result.passed:
            passed += 1
            if not args.quiet:
                print(f"PASS {item.label}: {result.name}")
        else:
            failed += 1
            print(f"FAIL {item.label}: {result.name}: {result.message}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
