"""Writing YAML that the safe (YAML 1.1) reader reads back as the same values."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from workbench.storage.yamlio import dump_yaml, parse_yaml


@pytest.mark.parametrize("text", ["yes", "No", "on", "OFF", "y", "null", "~", "1_000", "0x1F", "12",
                                  "2001-01-01", "1e3", ".inf", "true"])
def test_strings_a_yaml_11_reader_would_retype_are_quoted(text):
    written = dump_yaml({"name": text, "effects": [{"once_per_turn": text}]})
    assert parse_yaml(written.encode()) == {"name": text, "effects": [{"once_per_turn": text}]}


def test_a_changed_value_is_quoted_when_merged_into_an_existing_file_too():
    first = dump_yaml({"name": "Wasp", "flavor": "buzz"})
    second = dump_yaml({"name": "Wasp", "flavor": "off"}, previous_text="# a comment\n" + first)
    assert "# a comment" in second and parse_yaml(second.encode())["flavor"] == "off"


def test_ordinary_and_cjk_text_stays_plain():
    written = dump_yaml({"name": "赤炎狼", "text": "Deal 300 damage."})
    assert "'" not in written and "赤炎狼" in written


@given(st.dictionaries(st.sampled_from(["name", "text", "flavor"]),
                       st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=20),
                       min_size=1))
def test_any_string_values_read_back_unchanged(data):
    assert parse_yaml(dump_yaml(data).encode()) == data


def test_dates_and_times_are_read_as_the_text_written():
    """Card data goes on into JSON (tables, playtest runs, the API), which has no dates."""
    data = parse_yaml(b"printed: 2026-01-01\nat: 2026-01-01 10:30:00\ntagged: !!timestamp 2001-12-14\nyear: 2026\n")
    assert data == {"printed": "2026-01-01", "at": "2026-01-01 10:30:00", "tagged": "2001-12-14", "year": 2026}
    assert parse_yaml(dump_yaml(data).encode()) == data


@pytest.mark.parametrize("text, tag", [("art: !!binary aGVsbG8=", "!!binary"), ("keywords: !!set {a, b}", "!!set"),
                                       ("x: !!omap [a: 1]", "!!omap"), ("x: !mine 3", "!mine")])
def test_tags_building_what_json_cannot_hold_are_refused_naming_the_tag_and_line(text, tag):
    from workbench.domain.errors import DataError

    with pytest.raises(DataError, match=f"the YAML tag {tag} is not allowed \\(line 2\\)"):
        parse_yaml(("name: Wasp\n" + text).encode())
    assert parse_yaml(b"name: !!str 12\nn: !!int '3'") == {"name": "12", "n": 3}
