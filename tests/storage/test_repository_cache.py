"""The repository's snapshot of a cards folder: shared while nothing changed, never stale.

Pages under load list every card on every request, so the repository keeps a snapshot and
re-checks it with one ``lstat`` per file. These tests edit files behind its back, the way a
designer does in a text editor, and check the next call sees the change.
"""

from __future__ import annotations

import os

import pytest

import workbench.storage.repository as repository_module
from workbench.domain.errors import DataError

CARD = "ironbark-warden"


def _path(data_dir, game="warzone", card=CARD):
    return data_dir / game / "cards" / f"{card}.yaml"


def _rewrite_in_place(path, old: str, new: str) -> None:
    """Change a file the way an editor saving in place does: same inode, new bytes."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    inode = path.stat().st_ino
    with open(path, "r+", encoding="utf-8") as handle:
        handle.write(text.replace(old, new))
        handle.truncate()
    assert path.stat().st_ino == inode


@pytest.fixture
def parse_count(monkeypatch):
    """How many card files the repository parses (counted from now on)."""
    calls = []
    real = repository_module.parse_yaml

    def counting(raw, *args, **kwargs):
        calls.append(args)
        return real(raw, *args, **kwargs)

    monkeypatch.setattr(repository_module, "parse_yaml", counting)
    return calls


def _by_id(snapshot):
    return {item.id: item for item in snapshot.items}


def test_unchanged_folder_gives_the_same_snapshot_without_parsing(repo, parse_count):
    first = repo.snapshot("warzone")
    parsed_first = len(parse_count)
    again = repo.snapshot("warzone")
    assert again is first and again.token == first.token
    assert len(parse_count) == parsed_first  # nothing read again
    assert parsed_first == len(first.items) > 0


def test_a_same_size_edit_in_place_shows_on_the_next_call_and_only_that_file_is_parsed(repo, data_dir, parse_count):
    before = repo.snapshot("warzone")
    assert _by_id(before)[CARD].data["strength"] == 700
    parse_count.clear()
    _rewrite_in_place(_path(data_dir), "strength: 700", "strength: 750")  # same length
    after = repo.snapshot("warzone")
    assert after.token != before.token
    assert _by_id(after)[CARD].data["strength"] == 750
    assert _by_id(after)[CARD].version != _by_id(before)[CARD].version
    assert len(parse_count) == 1
    assert repo.get_card("warzone", CARD).data["strength"] == 750
    assert {c.id: c.data for c in repo.list_cards("warzone")}[CARD]["strength"] == 750


def test_added_deleted_and_broken_files_show_on_the_next_call(repo, data_dir):
    before = repo.snapshot("warzone")
    (data_dir / "warzone" / "cards" / "hand-made.yaml").write_text("name: Hand Made\nkind: spell\n", encoding="utf-8")
    _path(data_dir).unlink()
    after = repo.snapshot("warzone")
    ids = set(_by_id(after))
    assert "hand-made" in ids and CARD not in ids
    assert len(after.items) == len(before.items)

    broken = data_dir / "warzone" / "cards" / "hand-made.yaml"
    broken.write_text("name: [unclosed\n", encoding="utf-8")
    snap = repo.snapshot("warzone")
    assert "hand-made" not in _by_id(snap) and [i for i, _ in snap.unreadable] == ["hand-made"]
    with pytest.raises(DataError):
        repo.list_cards("warzone")
    good, bad = repo.list_cards_tolerant("warzone")
    assert [i for i, _ in bad] == ["hand-made"] and CARD not in {c.id for c in good}

    broken.write_text("name: Fixed\nkind: spell\n", encoding="utf-8")
    assert _by_id(repo.snapshot("warzone"))["hand-made"].data["name"] == "Fixed"
    assert repo.snapshot("warzone").unreadable == ()


def test_an_mtime_change_alone_makes_a_new_snapshot(repo, data_dir):
    before = repo.snapshot("warzone")
    path = _path(data_dir)
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    after = repo.snapshot("warzone")
    assert after is not before and after.token != before.token
    assert _by_id(after)[CARD].data == _by_id(before)[CARD].data  # same bytes, same card


def test_the_repositorys_own_writes_show_at_once(repo):
    stored = repo.get_card("warzone", CARD)
    before = repo.snapshot("warzone")
    repo.update_card("warzone", CARD, dict(stored.data, strength=800), stored.version)
    after = repo.snapshot("warzone")
    assert after.token != before.token and _by_id(after)[CARD].data["strength"] == 800


def test_listed_cards_are_copies_callers_may_change(repo):
    first = repo.list_cards("warzone")
    first[0].data["name"] = "Changed by a caller"
    first[0].data.setdefault("effects", []).append({"action": "draw"})
    again = repo.list_cards("warzone")
    assert again[0].data["name"] != "Changed by a caller"
    assert _by_id(repo.snapshot("warzone"))[again[0].id].data == again[0].data


def test_symlinked_card_files_are_left_out_of_the_snapshot(repo, data_dir, tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_text("name: Outside\nkind: spell\n", encoding="utf-8")
    (data_dir / "warzone" / "cards" / "linked.yaml").symlink_to(outside)
    assert "linked" not in _by_id(repo.snapshot("warzone"))


def test_decks_have_their_own_snapshot(repo, data_dir):
    decks = repo.snapshot("warzone", "decks")
    assert {d.id for d in decks.items} == {p.stem for p in (data_dir / "warzone" / "decks").glob("*.yaml")}
    assert decks.token != repo.snapshot("warzone", "cards").token
