"""Shared CLI helpers: open the repository, print problems readably or as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from workbench.domain.problems import Problem
from workbench.storage.repository import Repository


def open_repo(args: argparse.Namespace) -> Repository:
    """The repository of ``--data``. Raises NotFound when the folder does not exist."""
    repo = Repository(Path(args.data))
    repo.list_games()
    return repo


def print_json(value: Any) -> None:
    """Print machine-readable output (UTF-8, CJK unescaped)."""
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2, default=str)
    sys.stdout.write("\n")


def format_problem(problem: Problem) -> str:
    """One problem as a line: severity, where, message, code."""
    where = problem.card or problem.zone or problem.deck or ""
    field = f".{problem.field}" if problem.field and problem.subject == "card" else ""
    return f"  {problem.severity.upper():7} {where}{field}: {problem.message}  [{problem.code}]"
