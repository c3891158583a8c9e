"""Reading scenario files: folders, multi-document files, the size cap, option defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.domain.errors import DataError, NotFound
from workbench.storage.scenario_files import (
    MAX_SCENARIO_BYTES,
    game_option_defaults,
    iter_scenarios,
    read_scenarios,
)


def test_folders_are_searched_and_documents_split(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "b.yaml").write_text("name: one\n---\nname: two\n", encoding="utf-8")
    (tmp_path / "sub" / "a.yml").write_text("name: three\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("name: ignored\n", encoding="utf-8")
    found = list(iter_scenarios([tmp_path]))
    assert [s.data["name"] for s in found] == ["one", "two", "three"]
    assert found[1].label.endswith("b.yaml#2")


def test_missing_path_and_oversized_and_bad_yaml(tmp_path: Path) -> None:
    with pytest.raises(NotFound):
        list(iter_scenarios([tmp_path / "nope.yaml"]))
    big = tmp_path / "big.yaml"
    big.write_text("x: " + "a" * MAX_SCENARIO_BYTES, encoding="utf-8")
    with pytest.raises(DataError, match="limited"):
        read_scenarios(big)
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1,\n", encoding="utf-8")
    with pytest.raises(DataError, match="not valid YAML"):
        read_scenarios(bad)


def test_python_tags_are_not_executed(tmp_path: Path) -> None:
    evil = tmp_path / "evil.yaml"
    evil.write_text("x: !!python/object/apply:os.system ['true']\n", encoding="utf-8")
    with pytest.raises(DataError):
        read_scenarios(evil)


def test_option_defaults_come_from_game_yaml(tmp_path: Path) -> None:
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "game.yaml").write_text(
        "engine: other\noptions:\n  max_rounds: {default: 50, type: integer}\n", encoding="utf-8"
    )
    assert game_option_defaults(tmp_path, "g") == ("other", {"max_rounds": 50})
    assert game_option_defaults(tmp_path, "missing") == ("missing", {})


def test_a_scenario_file_is_read_as_every_workbench_file_is(tmp_path):
    """No alias bombs, dates as the text written (the run's results are JSON)."""
    from workbench.domain.errors import DataError
    from workbench.storage.scenario_files import read_scenarios

    bomb = tmp_path / "bomb.yaml"
    bomb.write_text("a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b]\n")
    with pytest.raises(DataError, match="anchors and aliases"):
        read_scenarios(bomb)
    two = tmp_path / "two.yaml"
    two.write_text("name: first\nwritten: 2026-01-01\n---\nname: second\n")
    assert [s.data for s in read_scenarios(two)] == [{"name": "first", "written": "2026-01-01"}, {"name": "second"}]
