"""Every shipped rule scenario (card_data/*/scenarios/*.yaml) passes, one test per file."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.domain.scenarios import run_scenario
from workbench.storage.scenario_files import game_option_defaults, read_scenarios

DATA = Path(__file__).resolve().parents[2] / "card_data"
FILES = sorted(p for p in DATA.glob("*/scenarios/*.y*ml"))


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.parent.name}/{p.name}" for p in FILES])
def test_scenario_file_passes(path: Path) -> None:
    for item in read_scenarios(path):
        engine, defaults = game_option_defaults(DATA, item.data["game"])
        result = run_scenario(item.data, defaults, engine_name=engine)
        assert result.passed, f"{item.label}: {result.message}"


def test_examples_in_docs_scenarios_md_pass() -> None:
    import re

    import yaml

    text = (DATA.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    examples = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", text, re.S)
                if "{...}" not in block]
    assert len(examples) >= 3
    for example in examples:
        engine, defaults = game_option_defaults(DATA, example["game"])
        result = run_scenario(example, defaults, engine_name=engine)
        assert result.passed, f"docs example {example['name']!r}: {result.message}"
