"""The deck builder's list import: text lists (names, ids, "4x", CJK), Lackey .dek and
Cockatrice .cod told apart, and the text export read back to the same deck."""

from __future__ import annotations

import pytest

from workbench.services.exports.cockatrice import cod
from workbench.services.exports.decklist import deck_list_text
from workbench.services.imports.builder import read_any_deck
from workbench.services.imports.tabular import ImportFileError


def _index(repo, game):  # type: ignore[no-untyped-def]
    return repo.card_index(game)


@pytest.mark.parametrize("game,deck_id", [("warzone", "iron-bastion"), ("fusion", "lie-yan-ji-feng"),
                                          ("seth", "rot-and-stone")])
def test_text_list_round_trips_every_bundled_deck(repo, game, deck_id) -> None:  # type: ignore[no-untyped-def]
    definition, cards = repo.game(game), _index(repo, game)
    deck = repo.get_deck(game, deck_id).data
    names = {cid: str(data.get("name", cid)) for cid, data in cards.items()}
    text = deck_list_text(definition, deck, names)
    back = read_any_deck(text.encode(), "", definition, cards)
    assert back.problems == []
    wanted = {z: {c: n for c, n in content.items() if n} for z, content in deck["zones"].items() if content}
    assert back.zones == wanted


def test_names_ids_counts_and_cjk(repo) -> None:  # type: ignore[no-untyped-def]
    fusion = repo.game("fusion")
    cards = _index(repo, "fusion")
    some = sorted(cards)[:2]
    cjk_name = str(cards[some[0]]["name"])
    text = f"3x {cjk_name}\n2 {some[1]}\n1 没有这张卡\n"
    deck = read_any_deck(text.encode(), "", fusion, cards)
    main = next(iter(fusion.zones))
    assert deck.zones[main] == {some[0]: 3, some[1]: 2}
    assert any("没有这张卡" in p for p in deck.problems)


def test_cockatrice_deck_goes_back_to_the_zones_it_came_from(repo) -> None:  # type: ignore[no-untyped-def]
    warzone = repo.game("warzone")
    cards = _index(repo, "warzone")
    deck = dict(repo.get_deck("warzone", "iron-bastion").data, id="iron-bastion")
    names = {cid: str(data.get("name", cid)) for cid, data in cards.items()}
    data = cod(warzone, deck, names)
    back = read_any_deck(data, "iron-bastion.cod", warzone, cards)
    assert back.name == deck["name"]
    wanted = {z: {c: n for c, n in content.items() if n} for z, content in deck["zones"].items() if content}
    assert back.zones == wanted and back.problems == []


def test_oversized_and_malformed_files_are_refused(repo) -> None:  # type: ignore[no-untyped-def]
    warzone, cards = repo.game("warzone"), _index(repo, "warzone")
    with pytest.raises(ImportFileError, match="999"):
        read_any_deck(b'<cockatrice_deck version="1"><zone name="main"><card number="5000" name="x"/></zone>'
                      b"</cockatrice_deck>", "a.cod", warzone, cards)
    with pytest.raises(ImportFileError, match="well-formed"):
        read_any_deck(b"<cockatrice_deck><zone", "a.cod", warzone, cards)
    with pytest.raises(ImportFileError):
        read_any_deck(b"nothing that looks like a list", "", warzone, cards)
