"""Inline symbols declared in game.yaml: parsing with clear errors, finding tokens, spoken labels."""

from __future__ import annotations

import pytest

from workbench.domain.errors import DefinitionError
from workbench.domain.symbols import SymbolSet

SPEC = {"tap": {"tokens": ["T"], "label": "横置 Tap", "glyph": "横"},
        "mana": {"match": "[0-9]{1,2}|X", "label": "Mana", "shape": "circle", "fill": "#1f2f5a"}}


def test_tokens_and_patterns_are_found_and_other_braces_left_alone() -> None:
    symbols = SymbolSet.from_raw(SPEC)
    uses = list(symbols.find("{2}，{T}：抽1张卡。 {X} {100} {Q} {T T}"))
    assert [(u.symbol.name, u.token) for u in uses] == [("mana", "2"), ("tap", "T"), ("mana", "X")]
    assert uses[1].symbol.drawn_text("T") == "横" and uses[0].symbol.drawn_text("2") == "2"
    assert symbols.spoken("{2}，{T}：draw") == "[Mana 2]，[横置 Tap]：draw"


@pytest.mark.parametrize("raw,needle", [
    ({"tap": {"label": "x"}}, "give tokens"),
    ({"tap": {"tokens": ["T"], "shape": "star"}}, "not one of circle, square, diamond"),
    ({"tap": {"tokens": ["T"], "fill": "red"}}, "is not a colour"),
    ({"tap": {"tokens": ["T T"]}}, "short tokens"),
    ({"tap": {"match": "("}}, "not a regular expression"),
    ({"tap": {"tokens": ["T"], "picture": "x.png"}}, "unknown key"),
    (["T"], "must be a mapping"),
])
def test_bad_declarations_are_refused_naming_the_entry(raw, needle) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DefinitionError, match=needle):
        SymbolSet.from_raw(raw)


def test_a_game_definition_with_bad_symbols_is_refused(definitions) -> None:  # type: ignore[no-untyped-def]
    from workbench.domain.gamedef import parse_definition

    raw = dict(definitions["fusion"].raw, symbols={"tap": {"tokens": ["T"], "shape": "star"}})
    with pytest.raises(DefinitionError, match="symbols.tap.shape"):
        parse_definition(raw)
    assert [s.name for s in definitions["fusion"].symbols.symbols] == ["tap", "mana"]
