"""A fourth game is a new folder: no core code changes. A made-up game in a temp folder is
listed, its cards and decks are validated by the CLI and the API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.storage.repository import Repository
from workbench.web import create_app

GAME_YAML = """\
id: pebbles
name: Pebble Toss
kinds:
  pebble:
    label: Pebble
    fields:
      weight: {type: integer, required: true, minimum: 1, maximum: {option: max_weight}}
      colour: {type: string, enum: [grey, red]}
fields:
  name: {type: string, required: true}
zones:
  bag: {label: Bag, kinds: [pebble], min: 3, max: 4, rule: "P1"}
deck_rules:
  - {check: total_below, field: weight, zones: [bag], limit: {option: weight_limit}, strict: false, label: Total weight, rule: "P2"}
options:
  max_weight: {default: 5, type: integer}
  weight_limit: {default: 10, type: integer}
"""


@pytest.fixture
def pebble_data(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    (root / "pebbles" / "cards").mkdir(parents=True)
    (root / "pebbles" / "decks").mkdir()
    (root / "pebbles" / "game.yaml").write_text(GAME_YAML)
    for i, (weight, colour) in enumerate([(2, "grey"), (3, "red"), (4, "grey"), (9, "blue")]):
        (root / "pebbles" / "cards" / f"p{i}.yaml").write_text(f"name: P{i}\nkind: pebble\nweight: {weight}\ncolour: {colour}\n")
    (root / "pebbles" / "decks" / "light.yaml").write_text("name: Light\nzones:\n  bag: {p0: 1, p1: 1, p2: 1}\n")
    (root / "pebbles" / "decks" / "heavy.yaml").write_text("name: Heavy\nzones:\n  bag: {p0: 2, p1: 1, p2: 1}\n")
    return root


def test_fourth_game_is_listed_and_validated_by_the_cli(pebble_data, capsys):
    assert Repository(pebble_data).list_games() == ["pebbles"]
    assert main(["validate", "pebbles", "--data", str(pebble_data), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)["games"]["pebbles"]
    p3 = {(p["code"], p["field"]) for p in report["cards"]["p3"]}
    assert p3 == {("card.maximum", "weight"), ("card.enum", "colour")}
    assert report["cards"]["p0"] == []
    assert report["decks"]["light"]["legal"] is True
    heavy = report["decks"]["heavy"]["problems"]
    assert [p["message"] for p in heavy] == ["Total weight is 11; the maximum is 10 (P2)"]


def test_fourth_game_through_the_api(pebble_data, tmp_path):
    app = create_app({"TESTING": True, "DATA_DIR": str(pebble_data), "SECRET_KEY": "t"})
    client = app.test_client()
    assert [g["id"] for g in client.get("/api/games").json] == ["pebbles"]
    answer = client.post("/api/games/pebbles/validate", json={"deck": {"zones": {"bag": {"p0": 2}}}}).json
    assert answer["legal"] is False
    assert answer["problems"][0]["message"] == "Bag has 2 cards; the minimum is 3 (P1)"
    created = client.post("/api/games/pebbles/cards", json={"name": "Tiny", "kind": "pebble", "weight": 1})
    assert created.status_code == 201 and created.json["problems"] == []
    assert (pebble_data / "pebbles" / "cards" / "tiny.yaml").is_file()


def test_an_engine_package_outside_the_workbench_validates_cards_with_effects(pebble_data, capsys, tmp_path):
    """game.yaml's ``engine: package.module:ATTR`` (an engine package of the game's own, not under
    workbench/) played and playtested, but checking a card with effects stopped the CLI ("engine
    '…' is not allowed: use 1-64 lower-case letters") and the editor: found by a fourth game."""
    game = pebble_data / "pebbles" / "game.yaml"
    game.write_text(GAME_YAML.replace("name: Pebble Toss\n", "name: Pebble Toss\nengine: tests.web.test_play_fourth_game:PEBBLE_ENGINE\n")
                    .replace("  name: {type: string, required: true}\n",
                             "  name: {type: string, required: true}\n  effects: {type: effects, label: Effects}\n"))
    (pebble_data / "pebbles" / "cards" / "p0.yaml").write_text(
        "name: P0\nkind: pebble\nweight: 2\ncolour: grey\neffects:\n  - {trigger: on_play, action: draw, target: self, amount: 1}\n")
    assert main(["validate", "pebbles", "--data", str(pebble_data), "--card", "p0"]) == 0
    assert "OK" in capsys.readouterr().out
    app = create_app({"TESTING": True, "DATA_DIR": str(pebble_data), "EXPORT_DIR": str(tmp_path / "x"), "SECRET_KEY": "k"})
    with app.test_client() as client:
        assert client.get("/games/pebbles/cards/p0/edit").status_code == 200
        assert client.get("/api/games/pebbles/cards/p0").status_code == 200


LANTERN_FIELDS = """\
id: lantern
name: Lantern Tide
kinds:
  spirit:
    label: Spirit
    fields:
      oil: {type: integer, required: true, minimum: 0, label: Oil cost, badge: true, short: OIL}
      glow: {type: integer, required: true, label: Glow, stat: true}
      ward: {type: integer, required: true, label: Ward, stat: true, short: WRD}
fields:
  name: {type: string, required: true}
zones:
  river: {label: River, kinds: [spirit]}
"""


def test_a_fourth_game_names_its_face_badge_and_stat_abbreviations():
    """The face's stat plates and top-right badge took their abbreviations from a table of the
    bundled games' field names ("WAR" for a Ward field, no badge at all for a cost named ``oil``):
    a fourth game needed a core edit to show them right. ``short:`` and ``badge: true`` in
    game.yaml now say it (found on a fourth game's gallery)."""
    import yaml

    from workbench.domain.gamedef import parse_definition
    from workbench.services.render.faces import template_for
    from workbench.services.render.sizes import parse_card_size

    definition = parse_definition(yaml.safe_load(LANTERN_FIELDS))
    plan = template_for(definition, parse_card_size("mini")).plan(
        {"name": "灯笼狐", "kind": "spirit", "oil": 1, "glow": 2, "ward": 1})
    assert plan.values["badge"] == ("1", "OIL")
    assert plan.values["stats"] == [("GLO", "2"), ("WRD", "1")]
    with pytest.raises(Exception, match="short"):
        parse_definition(yaml.safe_load(LANTERN_FIELDS.replace("short: OIL", "short: ''")))


def test_a_fourth_game_without_a_main_zone_gets_draw_odds_from_its_played_zone():
    """Draw odds were computed only for a zone named ``main``: a fourth game drawing from its
    ``river`` zone read "Add cards to the deck to see draw odds." beside a 16-card deck (found in
    the deck builder). The played zone (``play: true``, not ``reserve``) is now the default, and
    ``play.draw_zone`` (documented now) names another."""
    import yaml

    from workbench.domain.deckstats import deck_statistics
    from workbench.domain.gamedef import parse_definition

    raw = yaml.safe_load(LANTERN_FIELDS.replace(
        "  river: {label: River, kinds: [spirit]}\n",
        "  shrine: {label: Shrine, kinds: [spirit], play: true, reserve: true}\n"
        "  river: {label: River, kinds: [spirit], play: true}\n  side: {label: Side, kinds: [spirit]}\n"))
    raw["play"] = {"opening_hand": 4, "draws_per_turn": 1}
    cards = {"fox": {"name": "灯笼狐", "kind": "spirit", "oil": 1, "glow": 2, "ward": 1}}
    deck = {"zones": {"river": {"fox": 12}, "side": {"fox": 3}}}
    stats = deck_statistics(parse_definition(raw), deck, cards)
    assert (stats.draw_zone, stats.draw_zone_size) == ("river", 12)
    raw["play"]["draw_zone"] = "side"
    assert deck_statistics(parse_definition(raw), deck, cards).draw_zone == "side"


def test_every_game_yaml_key_a_designer_may_write_is_in_the_docs():
    """docs/game-definitions.md is all a fourth game's designer has: ``rules_ref``, ``language``
    and ``symbols`` (top level) and an option's ``nullable`` were accepted by the schema but not in
    its tables (found writing a fourth game from the docs alone)."""
    from workbench.domain.gamedef import DEFINITION_SCHEMA

    doc = (Path(__file__).parents[1] / "docs" / "game-definitions.md").read_text(encoding="utf-8")
    top = set(DEFINITION_SCHEMA["properties"])
    option = set(DEFINITION_SCHEMA["properties"]["options"]["additionalProperties"]["properties"])
    assert sorted(k for k in top | option if f"`{k}`" not in doc and f" {k}: " not in doc) == []


LANTERN = Path(__file__).parent / "fourth_game"
"""Lantern Tide: a fourth game (two kinds, two zones, a format that moves an option, a card in
Chinese) written from the docs alone, without an engine."""


def test_lantern_tide_is_validated_drawn_and_counted_from_its_folder_alone(capsys, tmp_path):
    import shutil

    from workbench.domain.deckstats import deck_statistics
    from workbench.services.render.faces import template_for
    from workbench.services.render.sizes import parse_card_size

    root = tmp_path / "data"
    shutil.copytree(LANTERN, root)
    assert main(["validate", "lantern", "--data", str(root), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)["games"]["lantern"]
    problems = {card: [(p["code"], p["field"]) for p in found] for card, found in report["cards"].items() if found}
    assert problems == {"greedy-koi": [("card.budget", "glow")]}
    assert report["decks"]["dusk-run"]["legal"] is True
    assert [p["message"] for p in report["decks"]["moon-wall"]["problems"]] == [
        "7 Moon spirit cards across River deck; the maximum is 4 (LT2.4)"]
    repo = Repository(root)
    definition = repo.game("lantern")
    cards = {c.id: c.data for c in repo.list_cards("lantern")}
    fox = template_for(definition, parse_card_size(definition.raw["card_size"])).plan(cards["lantern-fox"])
    assert fox.values["badge"] == ("1", "COS") and fox.values["stats"] == [("GLO", "2"), ("WRD", "1")]
    deck = next(d.data for d in repo.list_decks("lantern") if d.id == "dusk-run")
    stats = deck_statistics(definition, deck, cards)
    assert (stats.draw_zone, stats.draw_zone_size, stats.plan.opening_hand) == ("river", 16, 4)
