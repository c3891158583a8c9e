"""Every saved version is kept: history lists them, restore saves one again (nothing lost),
deleted items can be brought back, and no symbolic link in the history folder is followed."""

from __future__ import annotations

import pytest

from workbench.domain.errors import Conflict, DataError, NotFound


def test_every_save_is_kept_and_a_restore_is_a_new_save(repo) -> None:  # type: ignore[no-untyped-def]
    original = repo.get_card("seth", "bog-lurker")
    first = repo.update_card("seth", "bog-lurker", dict(original.data, text="One."), original.version)
    second = repo.update_card("seth", "bog-lurker", dict(original.data, text="Two."), first.version)
    versions = repo.versions("seth", "cards", "bog-lurker")
    assert [v["version"] for v in versions] == [second.version, first.version, original.version]
    assert [v["action"] for v in versions] == ["update", "update", "original"]
    assert versions[1]["data"]["text"] == "One." and versions[2]["data"] == original.data
    with pytest.raises(Conflict):
        repo.restore_version("seth", "cards", "bog-lurker", original.version, first.version)  # stale
    restored = repo.restore_version("seth", "cards", "bog-lurker", original.version, second.version)
    assert restored.version == original.version and repo.get_card("seth", "bog-lurker").data == original.data
    after = repo.versions("seth", "cards", "bog-lurker")
    assert after[0]["action"] == "restore" and after[1]["version"] == second.version  # "Two." is kept
    with pytest.raises(NotFound):
        repo.restore_version("seth", "cards", "bog-lurker", "0123456789abcdef", restored.version)


def test_deleted_items_are_listed_and_restored(repo) -> None:  # type: ignore[no-untyped-def]
    deck = repo.get_deck("seth", "rot-and-stone")
    repo.delete_deck("seth", "rot-and-stone", deck.version)
    gone = repo.deleted_items("seth", "decks")
    assert [(d["id"], d["version"], d["name"]) for d in gone] == [("rot-and-stone", deck.version, deck.data["name"])]
    back = repo.restore_version("seth", "decks", "rot-and-stone", deck.version, None)
    assert back.data == deck.data and repo.deleted_items("seth", "decks") == []


def test_a_linked_history_folder_is_refused_and_the_save_still_happens(repo, data_dir, tmp_path) -> None:  # type: ignore[no-untyped-def]
    outside = tmp_path / "outside"
    outside.mkdir()
    (data_dir / ".history").symlink_to(outside)
    card = repo.get_card("seth", "bog-lurker")
    saved = repo.update_card("seth", "bog-lurker", dict(card.data, text="Kept."), card.version)
    assert repo.get_card("seth", "bog-lurker").version == saved.version
    assert list(outside.iterdir()) == []  # nothing written through the link
    with pytest.raises(DataError):
        repo.versions("seth", "cards", "bog-lurker")
