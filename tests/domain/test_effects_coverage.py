"""The coverage list of docs/effects.md: every row marked exact runs in its game's engine."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from workbench.domain.effects import parse_effects
from workbench.domain.engines import load_engine
from workbench.domain.validation import validate_card

DOCS = Path(__file__).resolve().parents[2] / "docs" / "effects.md"


def _rows() -> list[tuple[str, str, str, str, str]]:
    section = DOCS.read_text(encoding="utf-8").split("## Coverage: 45 typical effects")[1].split("\n## ")[0]
    rows = []
    for line in section.splitlines():
        match = re.match(r"^\| (\d+) \| (\w+) \| (\w+) \| (.+?) \| (exact|not) \| (.+) \|$", line)
        if match:
            _, game, kind, text, verdict, cell = match.groups()
            rows.append((game, kind, text, verdict, cell))
    return rows


def test_the_list_has_15_effects_per_game_and_at_least_36_exact():
    rows = _rows()
    assert len(rows) == 45
    assert {g: sum(1 for r in rows if r[0] == g) for g in ("warzone", "seth", "fusion")} == {
        "warzone": 15, "seth": 15, "fusion": 15}
    assert sum(1 for r in rows if r[3] == "exact") >= 36


def test_every_exact_row_validates_clean_and_runs_in_its_engine(definitions):
    for game, kind, text, verdict, cell in _rows():
        if verdict != "exact":
            continue
        entries = yaml.safe_load(cell.strip("`"))
        entries = entries if isinstance(entries, list) else [entries]
        parsed = parse_effects(kind, entries, load_engine(game).capabilities)
        assert not parsed.skipped and len(parsed.runnable) == len(entries), (text, parsed.skipped)
        card = {"name": "Coverage", "kind": kind, "effects": entries}
        problems = [p for p in validate_card(definitions[game], card, "c") if p.code.startswith("effect.")]
        assert not problems, (text, problems)

