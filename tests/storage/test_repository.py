"""The repository: round trips, versions and conflicts, atomic writes, ids and symlinks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.domain.errors import AlreadyExists, Conflict, DataError, InvalidId, NotFound
from workbench.storage import atomic
from workbench.storage.repository import Repository


def all_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*.yaml")}


def test_every_bundled_card_and_deck_saves_back_byte_identical(repo, data_dir):
    before = all_files(data_dir)
    for game in repo.list_games():
        for card in repo.list_cards(game):
            saved = repo.update_card(game, card.id, card.data, card.version)
            assert saved.version == card.version, f"{game}/{card.id} changed on a no-op save"
        for deck in repo.list_decks(game):
            assert repo.update_deck(game, deck.id, deck.data, deck.version).version == deck.version
    assert all_files(data_dir) == before


def test_cjk_is_written_as_is_and_reads_back_identical(repo, data_dir):
    card = {"name": "雷霆巨龙", "kind": "creature", "cost": 5, "attribute": "light", "subtype": "龙",
            "stars": 6, "atk": 6, "def": 5, "text": "召唤时：对一只生物造成3点伤害。\n第二行。"}
    saved = repo.create_card("fusion", card, "lei-ting-ju-long")
    text = (data_dir / "fusion" / "cards" / "lei-ting-ju-long.yaml").read_text(encoding="utf-8")
    assert "雷霆巨龙" in text and "\\u" not in text
    again = repo.get_card("fusion", "lei-ting-ju-long")
    assert again.data == card and again.version == saved.version


def test_a_save_keeps_comments_and_unknown_fields(repo, data_dir):
    path = data_dir / "seth" / "cards" / "glass-wasp.yaml"
    original = repo.get_card("seth", "glass-wasp")
    text = path.read_text(encoding="utf-8")
    path.write_text("# designer's note: keep this\n" + text + "playtest_note: too strong?  # from Tuesday\n",
                    encoding="utf-8")
    current = repo.get_card("seth", "glass-wasp")
    assert current.data["playtest_note"] == "too strong?"
    changed = dict(current.data, health=current.data["health"] + 1)
    repo.update_card("seth", "glass-wasp", changed, current.version)
    saved = path.read_text(encoding="utf-8")
    assert "# designer's note: keep this" in saved
    assert "playtest_note: too strong?  # from Tuesday" in saved
    assert f"health: {original.data['health'] + 1}" in saved
    assert repo.get_card("seth", "glass-wasp").data == changed


def test_key_order_follows_the_definition_for_new_cards(repo, data_dir):
    repo.create_card("warzone", {"text": "t", "strength": 100, "kind": "creature", "name": "Z",
                                 "resilience": 100, "degree": 0, "class": 1}, "z")
    keys = [line.split(":")[0] for line in (data_dir / "warzone/cards/z.yaml").read_text().splitlines()]
    assert keys == ["name", "kind", "class", "degree", "strength", "resilience", "text"]


def test_stale_update_and_delete_are_refused_and_change_nothing(repo, data_dir):
    first = repo.get_card("seth", "glass-wasp")
    second = repo.update_card("seth", "glass-wasp", dict(first.data, health=1), first.version)
    before = (data_dir / "seth/cards/glass-wasp.yaml").read_bytes()
    with pytest.raises(Conflict) as caught:
        repo.update_card("seth", "glass-wasp", dict(first.data, health=99), first.version)
    assert caught.value.current_version == second.version
    with pytest.raises(Conflict):
        repo.delete_card("seth", "glass-wasp", first.version)
    assert (data_dir / "seth/cards/glass-wasp.yaml").read_bytes() == before
    repo.delete_card("seth", "glass-wasp", second.version)
    with pytest.raises(NotFound):
        repo.get_card("seth", "glass-wasp")


def test_create_refuses_an_existing_id_and_makes_free_ids_from_names(repo):
    with pytest.raises(AlreadyExists):
        repo.create_card("seth", {"name": "X", "kind": "monster"}, "glass-wasp")
    a = repo.create_card("seth", {"name": "Glass Wasp", "kind": "monster"})
    assert a.id == "glass-wasp-2"
    cjk = repo.create_card("fusion", {"name": "赤炎狼", "kind": "creature"})
    assert cjk.id == "chi-yan-lang-2"  # the bundled 赤炎狼 already holds chi-yan-lang
    only_marks = repo.create_card("fusion", {"name": "？！", "kind": "creature"})
    assert only_marks.id == "card"


def test_writes_are_atomic_and_leave_no_temp_files(repo, data_dir, monkeypatch):
    card = repo.get_card("seth", "glass-wasp")
    before = (data_dir / "seth/cards/glass-wasp.yaml").read_bytes()

    def broken_replace(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(atomic.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        repo.update_card("seth", "glass-wasp", dict(card.data, health=77), card.version)
    monkeypatch.undo()
    assert (data_dir / "seth/cards/glass-wasp.yaml").read_bytes() == before
    assert not list(data_dir.rglob(".tmp-*"))
    repo.update_card("seth", "glass-wasp", dict(card.data, health=77), card.version)
    assert not list(data_dir.rglob(".tmp-*"))


def test_sweep_removes_temp_files_left_by_a_crash(repo, data_dir):
    (data_dir / "seth/cards/.tmp-abc.part").write_text("half a card")
    assert repo.sweep() == 1
    assert not list(data_dir.rglob(".tmp-*"))


@pytest.mark.parametrize("bad", ["../warzone", "..", "a/b", "/etc/passwd", "x\x00y", "UPPER", "", "a" * 65,
                                 "%2e%2e", "c:\\win", ".hidden"])
def test_ids_off_the_allowlist_are_refused(repo, bad):
    with pytest.raises(InvalidId):
        repo.get_card("seth", bad)
    with pytest.raises(InvalidId):
        repo.create_card("seth", {"name": "x", "kind": "monster"}, bad)
    with pytest.raises(InvalidId):
        repo.game(bad)


def test_symlinks_are_not_followed(repo, data_dir, tmp_path):
    outside = tmp_path / "secret.yaml"
    outside.write_text("name: secret\nkind: monster\n")
    os.symlink(outside, data_dir / "seth/cards/linked.yaml")
    with pytest.raises(InvalidId, match="symbolic link"):
        repo.get_card("seth", "linked")
    with pytest.raises(InvalidId):
        repo.update_card("seth", "linked", {"name": "x"}, "v")
    assert "linked" not in [c.id for c in repo.list_cards("seth")]
    assert outside.read_text() == "name: secret\nkind: monster\n"
    os.symlink(tmp_path, data_dir / "evil")
    assert "evil" not in repo.list_games()


@pytest.mark.parametrize("content,message", [
    ("a: &x [1]\nb: *x\n", "anchors and aliases"),
    ("!!python/object/apply:os.system ['true']\n", "the YAML tag !!python/object/apply:os.system is not allowed"),
    ("name: [unclosed\n", "not valid YAML at line"),
    ("- just\n- a list\n", "must hold a mapping"),
    ("x: " + "[" * 40 + "]" * 40 + "\n", "deeper than"),
    (b"name: \xff\xfe", "not UTF-8"),
])
def test_hostile_or_broken_files_are_refused_with_a_reason(repo, data_dir, content, message):
    path = data_dir / "seth/cards/bad.yaml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(DataError, match=message):
        repo.get_card("seth", "bad")
    cards, bad = repo.list_cards_tolerant("seth")
    assert [i for i, _ in bad] == ["bad"] and len(cards) > 10


def test_files_over_the_size_cap_are_refused_before_parsing(repo, data_dir):
    (data_dir / "seth/cards/huge.yaml").write_text("name: x\ntext: '" + "a" * 300_000 + "'\n")
    with pytest.raises(DataError, match="the limit is 262,144 bytes"):
        repo.get_card("seth", "huge")


def test_resolve_deck_gives_one_card_per_copy(repo):
    zones = repo.deck_cards("seth", "skyburn-blitz")
    assert len(zones["team"]) == 5 and all("id" in c and "power" in c for c in zones["team"])


def test_a_deck_naming_a_missing_card_is_refused_naming_the_deck(repo):
    """A form that plays several decks (gauntlet, play) shows which deck is broken; a deck with no
    name keeps the shorter sentence."""
    with pytest.raises(NotFound, match=r"^deck 'Iron Bastion' names card 'no-such-card', which does not exist$"):
        repo.resolve_deck("warzone", {"name": "Iron Bastion", "zones": {"main": {"no-such-card": 1}}})
    with pytest.raises(NotFound, match=r"^deck names card 'no-such-card', which does not exist$"):
        repo.resolve_deck("warzone", {"zones": {"main": {"no-such-card": 1}}})


def test_missing_data_folder_is_a_clear_error(tmp_path):
    with pytest.raises(NotFound, match="does not exist"):
        Repository(tmp_path / "nowhere").list_games()
