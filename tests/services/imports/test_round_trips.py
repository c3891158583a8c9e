"""Export -> import gives back the same cards (and decks), through every importable format."""

from __future__ import annotations

import pytest

from workbench.services.exports import dvorak, lackey, table
from workbench.services.exports.common import assign_sets
from workbench.services.imports import plan as import_plan

from .conftest import stored_cards


def _apply(repo, game, name, data, write=True):
    """Dry-run a file into ``repo`` and (with ``write``) apply it; return the plan."""
    plan = import_plan.dry_run(repo, game, name, data)
    assert plan.counts()["skip"] == 0, [r.problems for r in plan.rows if r.action == "skip"]
    if write:
        result = import_plan.apply(repo, game, plan)
        assert result.failed == []
    return plan


def _planned(plan):
    """card id -> the data a confirmed plan would write."""
    return {r.card_id: r.data for r in plan.rows if r.action in ("create", "change")}


def _without_newlines(card):
    return {k: (v.replace("\n", " ") if isinstance(v, str) else v) for k, v in card.items()}


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_spreadsheet_round_trip(repo, empty_repo, game, fmt):
    definition = repo.game(game)
    original = {c.id: c.data for c in repo.list_cards(game)}
    cards = [dict(data, id=cid) for cid, data in original.items()]
    bundle = table.export_csv(definition, cards) if fmt == "csv" else table.export_xlsx(definition, cards)
    write = game == "seth"  # writing through the repository once is enough; it is the slow part
    plan = _apply(empty_repo, game, bundle.main, bundle.files[bundle.main], write)
    assert plan.counts()["create"] == len(original)
    assert _planned(plan) == original
    if write:
        assert stored_cards(empty_repo, game) == original
        # importing the same file again changes nothing
        again = import_plan.dry_run(empty_repo, game, bundle.main, bundle.files[bundle.main])
        assert again.counts() == {"create": 0, "change": 0, "unchanged": len(original), "skip": 0}


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_lackey_carddata_round_trip(repo, empty_repo, game):
    definition = repo.game(game)
    original = {c.id: c.data for c in repo.list_cards(game)}
    cards = [dict(data, id=cid) for cid, data in original.items()]
    sets, _ = assign_sets(definition, cards)
    plan = _apply(empty_repo, game, "carddata.txt", lackey.carddata(definition, cards, sets).encode(), write=False)
    # Lackey fields are one line: newlines come back as spaces, everything else exactly
    assert _planned(plan) == {cid: _without_newlines(c) for cid, c in original.items()}


def test_dvorak_dump_round_trip_for_seth(repo, empty_repo):
    definition = repo.game("seth")
    original = {c.id: c.data for c in repo.list_cards("seth")}
    bundle = dvorak.lackey_dump(definition, [dict(d, id=cid) for cid, d in original.items()])
    plan = _apply(empty_repo, "seth", "dump.txt", bundle.files[bundle.main])
    assert plan.kind == "dvorak"
    back = {c["name"]: c for c in stored_cards(empty_repo, "seth").values()}
    for card in original.values():
        expected = {k: v for k, v in _without_newlines(card).items() if k not in dvorak.LEFT_OUT}
        assert back[card["name"]] == expected


def test_dek_round_trip(repo, empty_repo):
    definition = repo.game("seth")
    cards = [dict(c.data, id=c.id) for c in repo.list_cards("seth")]
    deck = repo.list_decks("seth")[0]
    sets, _ = assign_sets(definition, cards)
    index = {c["id"]: c for c in cards}
    _apply(empty_repo, "seth", "carddata.txt", lackey.carddata(definition, cards, sets).encode())
    dek = lackey.dek(definition, dict(deck.data, id=deck.id), index, sets).encode()
    plan = _apply(empty_repo, "seth", f"{deck.id}.dek", dek)
    assert plan.deck is not None and plan.deck.action == "create" and plan.deck.problems == []
    assert empty_repo.get_deck("seth", deck.id).data["zones"] == deck.data["zones"]


def test_hostile_cards_round_trip_through_csv_and_xlsx(empty_repo):
    definition = empty_repo.game("fusion")
    hostile = "\t=HYPERLINK(\"x\") 100% [a]{b}\\;\n漢字 🂡 'quote' \"dq\"  "
    cards = [{"id": "h1", "name": "=cmd|' /C calc'!A0", "kind": "magic", "subtype": "quick", "cost": 2,
              "text": hostile, "flavor": "-2 @all +3", "keywords": ["taunt"]}]
    for exporter in (table.export_csv, table.export_xlsx):
        bundle = exporter(definition, cards)
        plan = import_plan.dry_run(empty_repo, "fusion", bundle.main, bundle.files[bundle.main])
        row = plan.rows[0]
        expected = {k: v for k, v in cards[0].items() if k != "id"}
        assert row.data == expected, exporter.__name__
