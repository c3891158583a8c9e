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


# ------------------------------------------------------------------ issue 12: quotes, ASCII, locks


def test_double_quotes_stay_inside_a_name_and_a_leading_one_becomes_single(hostile_definition):
    """Inside a field " stays raw, as the VTES plugin writes it (Anna "Dictatrix11" Suljic); a
    field that starts with " gets ' throughout, as Sutekh's Lackey writer does, and the .dek names
    the card exactly as carddata.txt does."""
    cards = [{"id": "anna", "name": 'Anna "Dictatrix11" Suljic', "kind": "action", "text": '"Quoted" text'},
             {"id": "big", "name": '"Big" Bob', "kind": "action", "text": 'say "hi"'}]
    deck = {"id": "d", "name": "D", "zones": {"main": {"anna": 1, "big": 2}}}
    bundle = lackey.export_plugin(hostile_definition, cards, [deck], today=TODAY)
    assert checkers.check_lackey(bundle.files, "hostile") == []
    header, rows = checkers.read_carddata(bundle.files["sets/carddata.txt"])
    by_id = {row[2]: dict(zip(header, row)) for row in rows}
    assert by_id["anna"]["Name"] == 'Anna "Dictatrix11" Suljic' and by_id["anna"]["text"] == "'Quoted' text"
    assert by_id["big"]["Name"] == "'Big' Bob" and by_id["big"]["text"] == 'say "hi"'
    dek = bundle.files["decks/d.dek"].decode()
    assert '<name id="big">&apos;Big&apos; Bob</name>' in dek
    assert '<name id="anna">Anna &quot;Dictatrix11&quot; Suljic</name>' in dek
    assert any("big" in n and "double quote" in n for n in bundle.notes)


def test_ascii_names_fold_names_and_zone_labels_and_keep_the_names_in_a_column(bundled):
    definition, cards, decks = bundled["fusion"]
    bundle = lackey.export_plugin(definition, cards, decks, today=TODAY, ascii_names=True)
    assert checkers.check_lackey(bundle.files, "fusion") == []
    for path in ("plugininfo.txt", "formats.txt", "sets/carddata.txt", *(f"decks/{d['id']}.dek" for d in decks)):
        text = bundle.files[path].decode("utf-8")
        if path == "sets/carddata.txt":  # effect text stays as written; the name columns are checked below
            continue
        assert text.isascii(), (path, [c for c in text if not c.isascii()][:5])
    info = bundle.files["plugininfo.txt"].decode()
    assert "<deckzone><label>Zhu Ka Zu Main deck</label>" in info
    header, rows = checkers.read_carddata(bundle.files["sets/carddata.txt"])
    assert header[-1] == "OriginalName"
    by_id = {row[2]: dict(zip(header, row)) for row in rows}
    for card in cards:
        assert by_id[card["id"]]["Name"].isascii()
        assert by_id[card["id"]]["OriginalName"] == card["name"]
    assert by_id["an-ye-mo-jun"]["Name"] == "An Ye Mo Jun"
    # without the option the names stay as written, with no extra column
    plain = lackey.export_plugin(definition, cards, decks, today=TODAY)
    assert checkers.read_carddata(plain.files["sets/carddata.txt"])[0][-1] != "OriginalName"
    assert "<label>主卡组 Main deck</label>" in plain.files["plugininfo.txt"].decode()


def test_an_ascii_plugin_imports_back_with_the_names_as_written(repo, bundled):
    from workbench.services.imports import plan as import_plan

    definition, cards, decks = bundled["fusion"]
    bundle = lackey.export_plugin(definition, cards, decks, today=TODAY, ascii_names=True)
    plan = import_plan.dry_run(repo, "fusion", "carddata.txt", bundle.files["sets/carddata.txt"])
    assert plan.counts()["skip"] == 0 and plan.counts()["change"] == 0, [
        (r.card_id, r.problems) for r in plan.rows if r.action in ("skip", "change")][:3]
    deck = decks[0]
    deck_plan = import_plan.dry_run(repo, "fusion", f"{deck['id']}.dek", bundle.files[f"decks/{deck['id']}.dek"])
    assert deck_plan.deck is not None and deck_plan.deck.problems == []


def test_an_export_leaves_no_lock_folder_in_the_output_folder(repo, tmp_path):
    """The lock lived in <output>/.locks/: a stray folder in Lackey's plugins/ folder."""
    from workbench.services.exports import run as export_run

    plugins = tmp_path / "LackeyCCG" / "plugins"
    result = export_run.run(repo, "seth", "lackey", export_root=tmp_path / "exports", out=plugins, renderer=False)
    assert sorted(p.name for p in plugins.iterdir()) == ["seth", "seth.zip"]
    assert result.main == plugins / "seth" / "plugininfo.txt"
    default = export_run.run(repo, "seth", "csv", export_root=tmp_path / "exports", renderer=False)
    assert [p.name for p in default.folder.iterdir()] == ["seth-cards.csv"]
    assert not list((tmp_path / "exports").rglob(".locks"))


def test_an_export_from_a_data_folder_without_room_for_locks_still_locks(tmp_path):
    """Exports only read the data folder; when its .locks/ cannot be made the lock goes to the
    system's temporary folder, never into the output folder."""
    from workbench.storage import export_files

    (tmp_path / "data").write_text("not a folder")  # so data/.locks can never be created
    out = tmp_path / "out"
    out.mkdir()
    with export_files.export_lock(out, tmp_path / "data" / ".locks"):
        pass
    assert list(out.iterdir()) == []
