"""Every shipped rule scenario (card_data/*/scenarios/*.yaml) passes, one test per file; scenarios
of every kind (play, deck, card, pod) run through workbench.services.scenario_runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.services.scenario_runs import ScenarioRunner
from workbench.storage.scenario_files import read_scenarios

DATA = Path(__file__).resolve().parents[2] / "card_data"
FILES = sorted(p for p in DATA.glob("*/scenarios/*.y*ml"))
RUNNER = ScenarioRunner(DATA)


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.name}" for p in FILES])
def test_scenario_file_passes(path: Path) -> None:
    for item in read_scenarios(path):
        result = RUNNER.run(item.data, item.label)
        assert result.passed, f"{item.label}: {result.message}"


def test_every_kind_is_shipped() -> None:
    kinds = {str(item.data.get("kind") or "play") for path in FILES for item in read_scenarios(path)}
    assert kinds == {"play", "deck", "card", "pod"}


def test_examples_in_docs_scenarios_md_pass() -> None:
    import re

    import yaml

    text = (DATA.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    examples = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", text, re.S)
                if "{...}" not in block]
    assert len(examples) >= 5
    assert {e.get("kind", "play") for e in examples} == {"play", "deck", "pod"}
    for example in examples:
        result = RUNNER.run(example)
        assert result.passed, f"docs example {example['name']!r}: {result.message}"
