"""The card editor page hands the structured effects editor its vocabulary and the game's stats."""

from __future__ import annotations

import re

import pytest

from tests.web.pages_helpers import json_block, make_readonly_client
from workbench.domain.effects import ACTIONS, TARGETS, TRIGGERS, vocabulary


@pytest.fixture(scope="module")
def ro(tmp_path_factory):
    return make_readonly_client(tmp_path_factory)


def test_editor_data_carries_the_effect_vocabulary(ro):
    data = json_block(ro.get("/games/warzone/cards/archmage-torvin/edit").get_data(as_text=True), "editor-data")
    vocab = data["effects"]["vocabulary"]
    assert vocab == vocabulary()  # the one table, not a copy that could drift
    order = data["effects"]["order"]  # the selects follow the table's order, not the JSON's sorted keys
    assert order["triggers"] == list(TRIGGERS) and order["targets"] == list(TARGETS)
    assert order["actions"] == list(ACTIONS) and order["triggers"][0] == "on_play"
    assert vocab["actions"]["modify_stats"]["needs_stats"] and vocab["actions"]["draw"]["needs_amount"]
    assert vocab["actions"]["negate"]["takes_target"] is False
    assert vocab["speed"] == [1, 3]
    assert data["card"]["effects"][0]["action"] == "destroy"  # the rows start from the card's own list


@pytest.mark.parametrize("game, stats", [
    ("warzone", [{"name": "resilience", "label": "Resilience"}, {"name": "strength", "label": "Strength"}]),
    ("seth", [{"name": "damage", "label": "Damage"}, {"name": "health", "label": "Health"}]),
    ("fusion", [{"name": "atk", "label": "ATK"}, {"name": "def", "label": "DEF"}]),
])
def test_stat_choices_are_the_games_stats_with_their_labels(ro, game, stats):
    data = json_block(ro.get(f"/games/{game}/new-card").get_data(as_text=True), "editor-data")
    assert data["effects"]["stats"] == stats


def test_effects_script_loads_before_the_editor_without_inline_code(ro):
    body = ro.get("/games/seth/new-card?kind=monster").get_data(as_text=True)
    scripts = re.findall(r'<script src="([^"]+)"', body)
    assert scripts.index("/static/js/effects_editor.js") < scripts.index("/static/js/editor.js")
    assert not re.search(r"<script>(?!\s*</script>)", body)  # CSP: no inline script
