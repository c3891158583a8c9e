"""The gallery's and overview's query strings are capped: a GET any web page can send must not
make the server remember megabytes per request or fold a huge search once per card."""

from __future__ import annotations

import pytest

from workbench.web import gallery_views


@pytest.mark.parametrize("path", ["/games/warzone/cards", "/games/warzone/overview"])
def test_a_huge_query_string_is_refused_naming_the_limit(anon, guard, path: str) -> None:
    before = len(gallery_views._pages)
    answer = anon.get(f"{path}?zz={'x' * 250_000}")
    assert answer.status_code == 414
    assert b"4,096" in answer.data
    assert len(gallery_views._pages) == before  # nothing remembered for it


@pytest.mark.parametrize("path", ["/games/warzone/cards", "/games/warzone/overview"])
def test_a_search_of_many_words_is_refused_naming_the_limit(anon, guard, path: str) -> None:
    answer = anon.get(f"{path}?q={'+'.join(['e'] * 1000)}")
    assert answer.status_code == 400
    assert b"at most 500 characters" in answer.data


def test_an_ordinary_search_still_works(anon, guard) -> None:
    assert anon.get("/games/warzone/cards?q=iron+wall&sort=name&per=24&page=1").status_code == 200
    assert anon.get("/games/warzone/overview?q=iron").status_code == 200
