"""Deck files in: Lackey .dek and plain-text lists, with problems naming the line."""

from __future__ import annotations

import pytest

from workbench.services.imports import decklist, lackey
from workbench.services.imports import plan as import_plan
from workbench.services.imports.tabular import ImportFileError


@pytest.fixture
def warzone(repo):
    return repo.game("warzone"), {c.id: c.data for c in repo.list_cards("warzone")}


def test_text_list_with_zones(warzone):
    definition, cards = warzone
    text = ("# my deck\n4\tHearthguard Shieldbearer\n3x Mudfoot Recruit\n\nAreas:\n1 Beacon Watchtower\n"
            "Side deck:\n2 nobody at all\nGraveyard:\n1 Hearthguard Shieldbearer\nthis is noise\n")
    deck = decklist.read_decklist(text.encode(), definition, cards)
    sentry = next(cid for cid, c in cards.items() if c["name"] == "Hearthguard Shieldbearer")
    assert deck.zones["main"][sentry] == 4
    assert sum(deck.zones["main"].values()) == 7
    assert list(deck.zones["area"].values()) == [1]
    assert "line 8: no card named 'nobody at all' in Warzone: Kings of Valor; skipped" in deck.problems
    assert any(p.startswith("line 9: zone 'Graveyard'") for p in deck.problems)
    assert any(p.startswith("line 11:") for p in deck.problems)


def test_text_list_without_cards_is_an_error(warzone):
    definition, cards = warzone
    with pytest.raises(ImportFileError, match="no 'count name' line"):
        decklist.read_decklist(b"just words\n", definition, cards)


def test_dek_matches_by_name_and_zone_label(warzone):
    definition, cards = warzone
    dek = ('<deck version="0.8"><meta><game>warzone</game><title>Mine</title></meta>'
           '<superzone name="Main deck"><card><name id="whatever">Hearthguard Shieldbearer</name><set>WZ</set></card>'
           '<card><name id="x">Hearthguard Shieldbearer</name><set>WZ</set></card></superzone>'
           '<superzone name="Nowhere"><card><name id="y">A</name><set>S</set></card></superzone></deck>')
    deck = lackey.read_dek(dek.encode(), definition, cards)
    assert deck.name == "Mine" and sum(deck.zones["main"].values()) == 2
    assert any("zone 'Nowhere'" in p for p in deck.problems)


@pytest.mark.parametrize("data,message", [
    (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><deck/>', "DOCTYPE"),
    (b"<deck><superzone name='Main deck'>", "line 1"),
    (b"<notadeck/>", "not <deck>"),
])
def test_bad_dek_files(warzone, data, message):
    definition, cards = warzone
    with pytest.raises(ImportFileError, match=message):
        lackey.read_dek(data, definition, cards)


def test_deck_plan_then_apply(repo):
    text = "Team:\n1 Ashen Drake\n1 Bog Lurker\n"
    plan = import_plan.dry_run(repo, "seth", "My Team.txt", text.encode())
    assert plan.kind == "decklist" and plan.deck.deck_id == "my-team" and plan.deck.action == "create"
    assert any("exactly 5" in p for p in plan.deck.problems)
    import_plan.apply(repo, "seth", plan)
    assert repo.get_deck("seth", "my-team").data["zones"] == {"team": {"ashen-drake": 1, "bog-lurker": 1}}
    again = import_plan.dry_run(repo, "seth", "My Team.txt", text.encode())
    assert again.deck.action == "unchanged"
