"""Dvorak wiki exports: the 8-column dump and the loadcard MUSH output."""

from __future__ import annotations

import pytest

from tests.services.exports import checkers
from workbench.domain.errors import DataError
from workbench.services.exports import dvorak, mush


def test_seth_dump_follows_the_wiki_format(bundled):
    definition, cards, _ = bundled["seth"]
    bundle = dvorak.lackey_dump(definition, cards)
    data = bundle.files[bundle.main]
    assert checkers.check_dvorak_lackey(data) == []
    header, rows = checkers.read_carddata(data)
    drake = next(dict(zip(header, r)) for r in rows if r[0] == "Ashen Drake")
    assert drake["Set"] == "seth_monster_game"
    assert drake["ImageFile"] == "monster" and drake["Type"] == "Monster"
    assert drake["CornerValue"] == "9"  # Power
    assert drake["Text"].startswith("[Damage: 9; Health: 18; Speed: medium, slow; Race: Dragon;")
    assert "Keywords: flight" in drake["Text"]
    assert drake["Creator"] == "Card Workbench sample set"


def test_slug_follows_the_wiki():
    assert dvorak.slug("Síndrome de Diógenes") == "s_ndrome_de_di_genes"
    assert dvorak.slug("Programming Deck") == "programming"
    assert dvorak.slug("Basic Rules Deck") == "basic_rules"


def test_mush_output(bundled):
    definition, cards, decks = bundled["seth"]
    card = dict(cards[0], name="Fire/Ice", text="Line one\nline two", flavor='Said "hi"')
    line = dvorak.loadcard(definition, card)
    assert line.startswith("loadcard Fire-Ice/T/\\[Damage: ")
    assert "Line one%rline two" in line
    assert line.endswith(' \\("Said "hi""\\)')
    bundle = dvorak.mush(definition, cards, decks[0]["name"])
    data = bundle.files[bundle.main]
    assert checkers.check_dvorak_mush(data) == []
    assert data.decode().count("\nloadcard ") == len(cards)


@pytest.mark.parametrize("game", ["warzone", "fusion"])
def test_other_games_and_hostile_text(bundled, hostile_definition, hostile_cards, game):
    definition, cards, _ = bundled[game]
    for d, c in ((definition, cards), (hostile_definition, hostile_cards)):
        dump = dvorak.lackey_dump(d, c)
        assert checkers.check_dvorak_lackey(dump.files[dump.main]) == []
        out = dvorak.mush(d, c)
        assert checkers.check_dvorak_mush(out.files[out.main]) == []


def test_action_kinds_are_marked_a(hostile_definition, hostile_cards):
    letters = {c["kind"]: dvorak.type_letter(c) for c in hostile_cards}
    assert letters == {"action": "A", "thing": "T"}


def test_stats_block_reads_back(bundled):
    definition, cards, _ = bundled["seth"]
    card = next(c for c in cards if c["id"] == "ashen-drake")
    found, rest = dvorak.parse_stats_block(definition, "monster", dvorak.card_text(definition, card))
    assert found["damage"] == "9" and found["speed"] == "medium, slow" and found["keywords"] == "flight"
    assert rest == (card.get("text") or "")
    assert dvorak.parse_stats_block(definition, "monster", "[not a block] text") == ({}, "[not a block] text")


def test_mush_text_cannot_run_code():
    assert dvorak.mush_text("[pemit me=x] 50% \\o/\nnext") == "\\[pemit me=x\\] 50\\% \\\\o/%rnext"
    # braces are stripped by the Engine's evaluation, ( ) at the start call a function, TinyMUX
    # replaces ## #@ #$, and runs of spaces are squeezed: all escaped (issue 12)
    assert dvorak.mush_text("{x} add(1,2) ## #@ #$") == "\\{x\\} add\\(1\\,2\\) \\#\\# \\#@ \\#\\$"
    assert dvorak.mush_text(" a  b\tc ") == "%ba%b%bb%tc%b"
    assert dvorak.mush_text("one\r\ntwo\rthree") == "one%rtwo%rthree"


def test_deck_name_is_emitted_never_run(hostile_definition, hostile_cards):
    out = dvorak.mush(hostile_definition, hostile_cards[:2], "pemit(me,X) [set(me,P:1)] %#")
    last = out.files[out.main].decode().splitlines()[-1]
    assert last == "@emit pemit\\(me\\,X\\) \\[set\\(me\\,P:1\\)\\] \\%\\# loaded: 2 cards."


def test_long_text_is_cut_to_one_line_and_named(hostile_definition, hostile_cards):
    out = dvorak.mush(hostile_definition, hostile_cards, server="tinymux")
    lines = out.files[out.main].decode().splitlines()
    assert max(len(line.encode()) for line in lines) <= dvorak.MUSH_MAX_LINE_BYTES
    long_line = next(line for line in lines if line.startswith("loadcard Long/"))
    assert long_line.endswith(dvorak.mush_text(dvorak.CUT_MARK.strip()))
    assert any("long-one" in note and "cut" in note for note in out.notes)
    assert any(line.startswith("@@ ") and "long-one" in line for line in lines)


def test_pennmush_text_is_folded_and_named(hostile_definition, hostile_cards):
    out = dvorak.mush(hostile_definition, hostile_cards, server="pennmush")
    out.files[out.main].decode("ascii")
    assert any("Latin-1" in note and "card-04" in note for note in out.notes)
    tiny = dvorak.mush(hostile_definition, hostile_cards, server="tinymux")
    assert "漢字" in tiny.files[tiny.main].decode()
    assert mush.UTF8_CHECK in tiny.files[tiny.main].decode().splitlines()[:5]
    with pytest.raises(DataError):
        dvorak.mush(hostile_definition, hostile_cards, server="tinymush")
