"""Renaming a card id: the file moves, decks follow, nothing changes when the rename is refused."""

from __future__ import annotations

import pytest

from workbench.domain.errors import AlreadyExists, Conflict, InvalidId
from workbench.services.card_rename import decks_using, rename_card


def test_rename_moves_the_card_and_every_deck_follows(repo):
    before = repo.get_card("warzone", "mudfoot-recruit")
    users = decks_using(repo, "warzone", "mudfoot-recruit")
    assert {d for d, _ in users} == {"iron-bastion", "vanguard-rush"}
    counts = {d: repo.get_deck("warzone", d).data["zones"]["main"]["mudfoot-recruit"] for d, _ in users}
    created, changed = rename_card(repo, "warzone", "mudfoot-recruit", "mudfoot-conscript", before.version)
    assert created.data == before.data and sorted(changed) == sorted(counts)
    for deck_id, count in counts.items():
        main = repo.get_deck("warzone", deck_id).data["zones"]["main"]
        assert "mudfoot-recruit" not in main and main["mudfoot-conscript"] == count
    assert decks_using(repo, "warzone", "mudfoot-recruit") == []


@pytest.mark.parametrize("new_id, error", [("Bad Id", InvalidId), ("brasshelm-pikeman", AlreadyExists)])
def test_refused_renames_change_nothing(repo, new_id, error):
    before = repo.get_card("warzone", "mudfoot-recruit")
    deck_before = repo.get_deck("warzone", "iron-bastion")
    with pytest.raises(error):
        rename_card(repo, "warzone", "mudfoot-recruit", new_id, before.version)
    assert repo.get_card("warzone", "mudfoot-recruit").version == before.version
    assert repo.get_deck("warzone", "iron-bastion").version == deck_before.version


def test_rename_of_a_stale_version_is_a_conflict(repo):
    before = repo.get_card("warzone", "mudfoot-recruit")
    repo.update_card("warzone", "mudfoot-recruit", dict(before.data, flavor="Changed elsewhere."), before.version)
    with pytest.raises(Conflict):
        rename_card(repo, "warzone", "mudfoot-recruit", "mudfoot-conscript", before.version)
    assert repo.get_card("warzone", "mudfoot-recruit").data["flavor"] == "Changed elsewhere."


def test_rename_to_its_own_id_says_so_not_that_the_card_exists(repo):
    before = repo.get_card("warzone", "mudfoot-recruit")
    with pytest.raises(AlreadyExists, match="'mudfoot-recruit' is already this card's id") as caught:
        rename_card(repo, "warzone", "mudfoot-recruit", "mudfoot-recruit", before.version)
    assert "exists already" not in str(caught.value)
    assert repo.get_card("warzone", "mudfoot-recruit").version == before.version
