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
    assert mush.escape_field("a ## b #@ c #$") == "a \\#\\# b \\#@ c \\#\\$"
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
    names, records = checkers.mush_cards(attrs, exact=True)
    assert names == mush.field_names(hostile_definition)
    assert len(records) == len(hostile_cards)
    by_name = {}
    for record in records:
        by_name.setdefault(record[0], []).append(record)
    for card in hostile_cards:
        expected = [mush.normalise(cell_text(card.get(n))) for n in names]
        assert expected in by_name[mush.normalise(card["name"])]
    assert checkers.mush_unescape(attrs["DECK_TITLE"]) == [hostile_definition.name]


def test_pennmush_output_is_ascii_with_the_exact_text_in_base64(hostile_definition, hostile_cards):
    """PennMUSH stores Latin-1 (CJK and emoji become ?), so its file is pure ASCII: folded text,
    and the original of every folded card in CARD_nnn_UTF8, named in the notes."""
    bundle = mush.export_deck_object(hostile_definition, hostile_cards, server="pennmush")
    data = bundle.files[bundle.main]
    data.decode("ascii")
    errors, attrs = checkers.check_mush(data)
    assert errors == []
    names, folded = checkers.mush_cards(attrs)
    _, exact = checkers.mush_cards(attrs, exact=True)
    creator = names.index("creator")
    assert {r[creator] for r in folded} == {"Zoe ?", ""} and {r[creator] for r in exact} == {"Zoë 🂡", ""}
    assert "CARD_001_UTF8" in attrs and "card-00" in bundle.notes[0]
    plain = [c for c in hostile_cards if all("\u200d" not in str(v) for v in c.values())]
    tiny = mush.export_deck_object(hostile_definition, plain, server="tinymux")
    assert b"_UTF8" not in tiny.files[tiny.main] and not tiny.notes


def test_tinymux_keeps_what_it_would_drop_in_base64(hostile_definition, hostile_cards):
    """TinyMUX silently drops zero-width joiners (and other characters it counts as unprintable):
    the value leaves them out and CARD_nnn_UTF8 keeps the exact text."""
    assert mush.server_text("👩\u200d👩 a\u00adb", "tinymux", False) == "👩👩 ab"
    assert mush.server_text("漢字 é", "tinymux", False) == "漢字 é"
    bundle = mush.export_deck_object(hostile_definition, hostile_cards, server="tinymux")
    errors, attrs = checkers.check_mush(bundle.files[bundle.main])
    assert errors == [] and "\u200d" not in bundle.files[bundle.main].decode().split("_UTF8")[0]
    _, exact = checkers.mush_cards(attrs, exact=True)
    assert any("👩\u200d👩\u200d👧" in field for record in exact for field in record)
    assert "TinyMUX drops" in bundle.notes[0] and "card-05" in bundle.notes[0]


def test_titles_without_ascii_get_distinct_object_names():
    """A second paste updates the object of the same name, so two decks named only in CJK must
    not both become "Deck"."""
    assert mush.deck_object_name("烈焰疾风", "fusion/lie-yan") == "fusion lie-yan Deck"
    assert mush.deck_object_name("磐石潮汐", "fusion/pan-shi") == "fusion pan-shi Deck"
    assert mush.deck_object_name("烈焰疾风 Blaze and Gale", "fusion/x") == "Blaze and Gale Deck"
    assert mush.deck_object_name("Warzone: Kings of Valor", "warzone") == "Warzone: Kings of Valor Deck"


def test_fold_spells_common_punctuation_in_ascii():
    assert mush.fold_ascii("a — b × c ≤ 3 ① “q” 漢") == 'a - b x c <= 3 1 "q" ?'


def test_every_line_but_one_fixed_lookup_is_data(hostile_definition, hostile_cards, hostile_decks):
    """A second paste must update the object: the file finds or creates it, then wipes the old
    cards; only the object name (letters, digits, spaces) is ever part of evaluated code."""
    deck = dict(hostile_decks[0], name="[pemit(me,X)] % #$ pwn(1,2)")
    bundle = mush.export_deck_object(hostile_definition, hostile_cards, deck, server="tinymux")
    lines = bundle.files[bundle.main].decode().splitlines()
    assert lines[1] == mush.UTF8_CHECK
    obj = "pemit me X pwn 1 2 Deck"
    assert lines[2] == (f"think [switch(locate(me,{obj},Tin),#-1,create({obj},10),#-2,Several objects here are"
                        f" called {obj}: destroy all but one and paste again.,[switch(name(locate(me,{obj},Tin)),"
                        f"{obj},Updating {obj}.,create({obj},10))])]")
    assert "@wipe pemit me X pwn 1 2 Deck/CARD_*" in lines and "@create" not in "".join(lines)
    errors, attrs = checkers.check_mush("\n".join(lines).encode())
    assert errors == []
    assert checkers.mush_unescape(attrs["DECK_TITLE"]) == [deck["name"]]
    with pytest.raises(DataError):
        mush.find_or_create("x[y]")


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
    find = mush.find_or_create("D").encode()
    errors, _ = checkers.check_mush(find + b"\n&CARD_FIELDS D=name\n&CARD_COUNT D=1\n&CARD_001 D=[pemit me=x]\n")
    assert any("unescaped" in e for e in errors)
    errors, _ = checkers.check_mush(find + b"\n&card_001 D=x\n")
    assert any("not portable" in e for e in errors)
    errors, _ = checkers.check_mush(b"@create D\n&CARD_001 D=x\n")
    assert errors
    errors, _ = checkers.check_mush(find + b"\nthink [pemit(me,x)]\n")
    assert any("only code" in e for e in errors)
