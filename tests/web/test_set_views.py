"""The set overview page: charts of the whole set, filters like the gallery's, over-budget cards named and linked."""

from __future__ import annotations

import re

import pytest


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_overview_draws_the_set_and_names_cards_over_budget(client, repo, game) -> None:  # type: ignore[no-untyped-def]
    from workbench.domain.setstats import set_overview

    body = client.get(f"/games/{game}/overview").get_data(as_text=True)
    expected = set_overview(repo.game(game), [(c.id, c.data) for c in repo.list_cards(game)])
    if game == "fusion":  # fusion's pages are in Chinese (its game.yaml)
        assert f"{expected.cards} 张卡牌中的 {expected.cards} 张" in body
    else:
        assert f"{expected.cards} of {expected.cards} card" in body
    assert 'class="chart scatter"' in body and body.count("<svg") >= 3
    table = body[body.index('id="over-budget"'):]
    for point in expected.over_budget:
        assert f'/games/{game}/cards/{point.card_id}/edit">' in table
    assert len(re.findall(r'class="dot-over"', body)) == len(expected.over_budget)
    assert len(re.findall(r"<circle class=\"dot-", body)) == len(expected.budget)
    assert "style=" not in body


def test_overview_filters_like_the_gallery(client, repo) -> None:  # type: ignore[no-untyped-def]
    spells = [c for c in repo.list_cards("warzone") if c.data.get("kind") == "spell"]
    body = client.get("/games/warzone/overview?kind=spell").get_data(as_text=True)
    assert f"{len(spells)} of " in body
    assert 'class="chart scatter"' not in body  # spells have no budget
    assert 'href="/games/warzone/overview"' in body  # the nav links here


def test_the_over_budget_table_heads_its_columns_with_the_games_fields(client) -> None:  # type: ignore[no-untyped-def]
    """The over-budget table's columns read "Step" and "Stats" (档位, 属性合计) whatever the game
    budgets by, while the scatter above names its fields (found on a fourth game's overview)."""
    body = client.get("/games/seth/overview").get_data(as_text=True)
    table = body[body.index('id="over-budget"'):]
    assert '<th scope="col">Power</th><th scope="col">Damage + Health</th>' in table
