"""Dvorak wiki exports: the 8-column dump and the loadcard MUSH output."""

from __future__ import annotations

import pytest

from tests.services.exports import checkers
from workbench.services.exports import dvorak


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
    assert line.endswith(' ("Said "hi"")')
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
