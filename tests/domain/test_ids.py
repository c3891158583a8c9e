"""Ids made from display names, and the id allowlist."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from workbench.domain.errors import InvalidId
from workbench.domain.ids import check_id, is_valid_id, slugify


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Iron Guard", "iron-guard"),
        ("赤炎狼", "chi-yan-lang"),
        ("冰晶巫女 Ice Maiden", "bing-jing-wu-nu-ice-maiden"),
        ("Ærøskøbing Ñandú", "aeroskobing-nandu"),
        ("ドラゴン", "doragon"),
        ("「炎」之书", "yan-zhi-shu"),
    ],
)
def test_names_become_readable_ids(name: str, expected: str) -> None:
    assert slugify(name) == expected


def test_name_without_letters_falls_back() -> None:
    assert slugify("！？…", fallback="deck") == "deck"


def test_long_cjk_name_is_cut_to_the_id_limit() -> None:
    slug = slugify("龙" * 80)
    assert is_valid_id(slug) and len(slug) <= 64 and not slug.endswith("-")


@given(st.text(max_size=120))
def test_any_name_gives_a_valid_id(name: str) -> None:
    assert check_id(slugify(name)) == slugify(name)


@pytest.mark.parametrize("bad", ["../x", "a/b", "A", "", "x" * 65, "a\x00", ".hidden", "-x"])
def test_check_id_refuses_names_outside_the_allowlist(bad: str) -> None:
    with pytest.raises(InvalidId, match="not allowed"):
        check_id(bad)
