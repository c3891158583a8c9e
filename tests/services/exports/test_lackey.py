"""LackeyCCG plugin export: every file through the checker, hostile text, the checksum."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.services.exports import checkers
from workbench.services.exports import lackey
from workbench.services.exports.common import cell_text, one_line

TODAY = dt.date(2026, 11, 30)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_bundled_plugin_passes_the_checker_with_auto_update(bundled, game):
    definition, cards, decks = bundled[game]
    bundle = lackey.export_plugin(definition, cards, decks, base_url="https://cards.example.org/lackey/",
                                  today=TODAY)
    assert checkers.check_lackey(bundle.files, game) == []
    header, rows = checkers.read_carddata(bundle.files["sets/carddata.txt"])
    assert len(rows) == len(cards)
    assert {f"decks/{d['id']}.dek" for d in decks} <= set(bundle.files)
    assert bundle.files["updatelist.txt"].decode().startswith(f"{game}\t11-30-26\n")


def test_plugininfo_has_the_games_zones_stats_and_phases(bundled):
    warzone = lackey.plugininfo(bundled["warzone"][0])
    labels = re.findall(r"<deckzone><label>(.*?)</label>", warzone)
    assert labels == ["Main deck", "Areas", "Side deck", "Side areas"]
    assert "<playerstat><label>Life</label><initialvalue>2500</initialvalue></playerstat>" in warzone
    assert "<label>Damage Cards</label>" in warzone and "<label>Damage Pile</label>" in warzone
    assert re.findall(r"<phase><label>(.*?)</label>", warzone) == ["Wake", "Recruitment", "War", "Return", "Night"]
    fusion = lackey.plugininfo(bundled["fusion"][0])
    assert "<playerstat><label>Life</label><initialvalue>20</initialvalue></playerstat>" in fusion
    assert "<label>Mana</label>" in fusion and "<label>Graveyard</label>" in fusion
    assert "<label>主卡组 Main deck</label>" in fusion


def test_a_format_option_changes_the_start_value(bundled):
    text = lackey.plugininfo(bundled["warzone"][0], {"start_life": 1500})
    assert "<initialvalue>1500</initialvalue>" in text


def test_hostile_text_is_written_raw_on_one_line(hostile_definition, hostile_cards, hostile_decks):
    bundle = lackey.export_plugin(hostile_definition, hostile_cards, hostile_decks,
                                  base_url="https://x.example/p", today=TODAY)
    assert checkers.check_lackey(bundle.files, "hostile") == []
    data = bundle.files["sets/carddata.txt"]
    assert not data.startswith(b"\xef\xbb\xbf") and b"\r" not in data
    header, rows = checkers.read_carddata(data)
    by_id = {row[2]: dict(zip(header, row)) for row in rows}
    for card in hostile_cards:
        row = by_id[card["id"]]
        assert row["Name"] == one_line(card["name"])
        assert row["text"] == one_line(cell_text(card.get("text")))  # raw: no CSV quotes added
        assert row["creator"] == one_line(card.get("creator", ""))
    # the second "Twin" moved to a set of its own, and the designer is told
    assert by_id["twin-a"]["Set"] != by_id["twin-b"]["Set"]
    assert any("same name" in note for note in bundle.notes)


def test_dek_has_one_card_per_copy_and_escapes(hostile_definition, hostile_cards, hostile_decks):
    bundle = lackey.export_plugin(hostile_definition, hostile_cards, hostile_decks, today=TODAY)
    dek = bundle.files["decks/mixed.dek"].decode()
    assert dek.startswith('<deck version="0.8">')
    assert dek.count("<card>") == 3 + 1 + 2 + 1 + 2 + 1
    assert '<superzone name="Side &amp; Spare">' in dek
    assert "&quot;q&quot;" in dek and '"q"' not in dek
    assert "updatelist.txt" not in bundle.files  # only with a base URL


def test_deck_naming_a_missing_card_is_reported(hostile_definition, hostile_cards):
    deck = {"id": "broken", "name": "Broken", "zones": {"main": {"card-01": 1, "ghost": 2}}}
    bundle = lackey.export_plugin(hostile_definition, hostile_cards, [deck], today=TODAY)
    assert "ghost" not in bundle.files["decks/broken.dek"].decode()
    assert any("ghost" in note for note in bundle.notes)
    assert checkers.check_lackey(bundle.files, "hostile") == []


def test_checksum_matches_lackeys_rules():
    assert lackey.checksum(b"") == -1
    assert lackey.checksum(b"ab") == 97 + 98 - 1
    assert lackey.checksum(b"a\r\nb\n") == 97 + 98 - 1  # line ends do not count
    assert lackey.checksum(bytes([200, 255])) == (200 - 256) + (255 - 256) - 1  # signed chars
    big = b"\x7f" * 1_000_000  # 127,000,000 wraps at 10^8
    assert lackey.checksum(big) == 27_000_000 - 1
    for sample in (b"", b"ab", bytes(range(256)) * 50, big):
        assert lackey.checksum(sample) == checkers.lackey_checksum(sample)


def test_checker_catches_broken_plugins(hostile_definition, hostile_cards):
    """The checker must fail on the mistakes the issue names, or it proves nothing."""
    good = lackey.export_plugin(hostile_definition, hostile_cards[:3], today=TODAY,
                                base_url="https://x.example/")
    quoted = dict(good.files)
    quoted["sets/carddata.txt"] = good.files["sets/carddata.txt"].replace(b"\tthing\t", b'\t"th""ing"\t', 1)
    assert any("CSV-quoted" in e for e in checkers.check_lackey(quoted, "hostile"))
    short = dict(good.files)
    short["sets/carddata.txt"] = good.files["sets/carddata.txt"].rstrip(b"\n") + b"\tx\n"
    assert any("fields" in e for e in checkers.check_lackey(short, "hostile"))
    no_image = {k: v for k, v in good.files.items() if not k.startswith("sets/setimages/HX/")}
    assert any("missing" in e for e in checkers.check_lackey(no_image, "hostile"))
    stale = dict(good.files, **{"plugininfo.txt": good.files["plugininfo.txt"] + b" "})
    assert any("checksum" in e for e in checkers.check_lackey(stale, "hostile"))
