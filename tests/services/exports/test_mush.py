"""MUSHcode: the escaper is exact (an independent unescaper gives the text back), lines stay under
4000 bytes, attribute names are portable, ASCII folding works."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.services.exports import checkers
from workbench.domain.errors import DataError
from workbench.services.exports import mush
from workbench.services.exports.common import cell_text

from .conftest import HOSTILE_TEXTS


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_escape_round_trips_hostile_strings(text):
    escaped = mush.escape_field(text)
    assert "\n" not in escaped and "\t" not in escaped
    assert checkers.mush_unescape(escaped) == [mush.normalise(text)]


def test_escape_order_backslash_first_then_percent_then_specials():
    assert mush.escape_field("\\%") == "\\\\\\%"
    assert mush.escape_field("[a](b){c},;^$") == "\\[a\\]\\(b\\)\\{c\\}\\,\\;\\^\\$"
    assert mush.escape_field("a\nb\tc") == "a%rb%tc"
    assert mush.escape_field(" a  b ") == "%ba%b%bb%b"
    assert mush.escape_field("a b") == "a b"


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_escape_is_exact_for_any_text(text):
    escaped = mush.escape_field(text)
    assert checkers.mush_unescape(escaped) == [mush.normalise(text)]
    assert mush.parse_value(escaped) == [mush.normalise(text)]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(), min_size=1, max_size=4))
def test_fields_split_back_at_the_separator(fields):
    joined = "|".join(mush.escape_field(f) for f in fields)
    assert checkers.mush_unescape(joined) == [mush.normalise(f) for f in fields]


def test_parse_value_refuses_what_the_escaper_never_writes():
    for bad in ("a[b", "a%x", "tail\\", "x;y"):
        with pytest.raises(DataError):
            mush.parse_value(bad)


@pytest.mark.parametrize("server", ["pennmush", "tinymux"])
def test_deck_object_gives_every_card_back(hostile_definition, hostile_cards, server):
    bundle = mush.export_deck_object(hostile_definition, hostile_cards, server=server)
    errors, attrs = checkers.check_mush(bundle.files[bundle.main])
    assert errors == []
    names, records = checkers.mush_cards(attrs)
    assert names == mush.field_names(hostile_definition)
    assert len(records) == len(hostile_cards)
    by_name = {}
    for record in records:
        by_name.setdefault(record[0], []).append(record)
    for card in hostile_cards:
        expected = [mush.normalise(cell_text(card.get(n))) for n in names]
        assert expected in by_name[mush.normalise(card["name"])]
    assert checkers.mush_unescape(attrs["DECK_TITLE"]) == [hostile_definition.name]


def test_long_cards_are_split_across_attributes(hostile_definition, hostile_cards):
    bundle = mush.export_deck_object(hostile_definition, hostile_cards)
    lines = bundle.files[bundle.main].decode().splitlines()
    assert max(len(line.encode()) for line in lines) <= mush.MAX_LINE_BYTES
    assert any("_PARTS " in line for line in lines)
    for line in lines:
        if line.startswith("&"):
            attr, obj, _ = mush.parse_line(line)
            assert mush.ATTR_PATTERN.match(attr)


def test_deck_export_lists_one_attribute_per_copy(hostile_definition, hostile_cards, hostile_decks):
    bundle = mush.export_deck_object(hostile_definition, hostile_cards, hostile_decks[0])
    errors, attrs = checkers.check_mush(bundle.files[bundle.main])
    assert errors == []
    assert attrs["CARD_COUNT"] == "10"
    assert "=" not in bundle.files[bundle.main].decode().splitlines()[1][len("@create "):]


def test_ascii_folding(hostile_definition, hostile_cards):
    assert mush.fold_ascii("Zoë 漢字 🂡") == "Zoe ?? ?"
    bundle = mush.export_deck_object(hostile_definition, hostile_cards, ascii_only=True)
    data = bundle.files[bundle.main]
    data.decode("ascii")
    errors, attrs = checkers.check_mush(data)
    assert errors == []
    names, records = checkers.mush_cards(attrs)
    assert any(r[names.index("creator")] == "Zoe ?" for r in records)


def test_unknown_server_is_refused(hostile_definition, hostile_cards):
    with pytest.raises(DataError, match="pennmush or tinymux"):
        mush.export_deck_object(hostile_definition, hostile_cards, server="tinymush")


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_bundled_games(bundled, game):
    definition, cards, _ = bundled[game]
    errors, attrs = checkers.check_mush(mush.export_deck_object(definition, cards).files[f"{game}-pennmush.txt"])
    assert errors == []
    assert int(attrs["CARD_COUNT"]) == len(cards)


def test_checker_catches_an_unescaped_bracket():
    errors, _ = checkers.check_mush(b"@create D\n&CARD_FIELDS D=name\n&CARD_COUNT D=1\n&CARD_001 D=[pemit me=x]\n")
    assert any("unescaped" in e for e in errors)
    errors, _ = checkers.check_mush(b"@create D\n&card_001 D=x\n")
    assert any("not portable" in e for e in errors)
