"""The card editor page hands the structured effects editor its vocabulary and the game's stats."""

from __future__ import annotations

import re

import pytest

from tests.web.pages_helpers import json_block, make_readonly_client
from workbench.domain.effects import ACTIONS, TARGETS, TRIGGERS
from workbench.domain.effects.schema import effects_schema


@pytest.fixture(scope="module")
def ro(tmp_path_factory):
    return make_readonly_client(tmp_path_factory)


def test_editor_data_carries_the_effect_vocabulary(ro):
    data = json_block(ro.get("/games/warzone/cards/archmage-torvin/edit").get_data(as_text=True), "editor-data")
    schema = data["effects"]["schema"]
    parts = schema["parts"]
    # the one table, in its order (on_play first), not a copy that could drift
    assert [i["name"] for i in parts["triggers"]] == list(TRIGGERS) and parts["triggers"][0]["name"] == "on_play"
    assert [i["name"] for i in parts["targets"]] == list(TARGETS)
    assert [i["name"] for i in parts["actions"]] == list(ACTIONS)
    actions = {i["name"]: i for i in parts["actions"]}
    assert "stats" in actions["modify_stats"]["keys"] and "amount" in actions["draw"]["keys"]
    assert "target" not in actions["negate"]["keys"]
    assert [v for v in schema["keys"]["speed"]["shape"]["values"]] == [1, 2, 3]
    assert schema == effects_schema([(s["name"], s["label"]) for s in data["effects"]["stats"]],
                                    [(i["name"], i["label"]) for i in parts["filter_keys"]], "en", x_costs=False)
    assert data["card"]["effects"][0]["action"] == "destroy"  # the rows start from the card's own list


@pytest.mark.parametrize("game, lang, hint", [
    ("warzone", "en", "a whole number"), ("seth", "en", "a whole number"),
    ("fusion", "en", "a whole number, or X with an X mana cost"),
    ("warzone", "zh", "整数"), ("fusion", "zh", "整数；或 X（需要 X 魔力代价）"),
])
def test_the_amount_hint_mentions_x_only_in_games_with_x_costs(ro, game, lang, hint):
    """Warzone and seth have no mana (their engines take no mana cost, no card field allows X)."""
    ro.set_cookie("workbench_lang", lang)
    try:
        data = json_block(ro.get(f"/games/{game}/new-card").get_data(as_text=True), "editor-data")
    finally:
        ro.delete_cookie("workbench_lang")
    schema = data["effects"]["schema"]
    assert schema["hints"]["amount"] == hint
    assert schema["x_costs"] is (game == "fusion")
    assert ("X" in schema["keys"]["amount"]["doc"]) is (game == "fusion")


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


def test_editor_data_carries_the_effect_schema_in_the_pages_language(ro):
    data = json_block(ro.get("/games/warzone/cards/archmage-torvin/edit").get_data(as_text=True), "editor-data")
    effects = data["effects"]
    schema = effects["schema"]
    assert effects["docs"] == "/docs/effects" and effects["text_languages"] == ["en"]
    triggers = {i["name"]: i["label"] for i in schema["parts"]["triggers"]}
    assert triggers["on_destroyed"] == "When this is destroyed"
    assert [i["name"] for i in schema["parts"]["stats"]] == ["resilience", "strength"]
    keys = {i["name"] for i in schema["parts"]["filter_keys"]}
    assert {"class", "strength", "other", "position"} <= keys and "text" not in keys
    assert ro.get(effects["docs"]).status_code == 200  # the link target is served in the app
    fusion = json_block(ro.get("/games/fusion/new-card?kind=magic", headers={"Accept-Language": "zh"})
                        .get_data(as_text=True), "editor-data")["effects"]
    assert fusion["text_languages"] == ["zh", "en"]  # fusion's rules text is Chinese first
    assert fusion["schema"]["lang"] == "zh"  # fusion opens in Chinese (its game.yaml language)
    targets = {i["name"]: i["label"] for i in fusion["schema"]["parts"]["targets"]}
    assert targets["enemy_creatures"] == "所有敌方生物"
    docs = {(part, i["name"]): i["doc"] for part in ("zones", "sides", "picks", "costs")
            for i in fusion["schema"]["parts"][part]}
    assert docs["zones", "graveyard"] == "墓地 / 弃牌堆" and docs["costs", "tap"].startswith("true：横置此卡")


def test_validate_answers_the_rules_text_of_each_entry(ro):
    card = {"name": "Ash", "kind": "creature", "cost": 2, "atk": 1, "def": 1, "stars": 1, "attribute": "fire",
            "text": "此卡被破坏时，给予所有敌方生物3伤害。",
            "effects": [{"trigger": "on_destroyed", "action": "damage", "target": "enemy_creatures", "amount": 2}]}
    answer = ro.post("/api/games/fusion/validate", json={"card": card}, headers={"X-CSRF-Token": _token(ro)})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    reads = answer.json["rules_text"]["effects"]
    assert reads["zh"] == "此卡被破坏时，给予所有敌方生物2伤害。"
    assert reads["entries"] == [{"en": "When this is destroyed, deal 2 damage to each enemy creature.",
                                 "zh": "此卡被破坏时，给予所有敌方生物2伤害。"}]
    # the card's text says 3, its effect 2: the editor shows the two disagree
    assert "effect.text_differs" in {p["code"] for p in answer.json["problems"]}


def _token(client) -> str:  # type: ignore[no-untyped-def]
    return str(client.get("/api/csrf").json["csrf_token"])
