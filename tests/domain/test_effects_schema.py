"""The card editor's effect schema covers the whole vocabulary: every trigger, action, target, zone,
condition, cost, … has a label a designer reads (in English and Chinese) and a doc line, every key a
shape the editor builds controls from, and every effect docs/effects.md documents fits those
controls (no YAML text needed for any of them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from workbench.domain.effects import vocabulary as vocabulary_data
from workbench.domain.effects.vocabulary import FILTER_STATES
from workbench.domain.effects.schema import (
    KEY_SHAPES, PARTS, effects_schema, entry_fits, fits, unshaped_keys)
from workbench.domain.effects.vocabulary import ACTIONS, CONDITIONS, COSTS, KEYS
from workbench.services.help import github_slug

DOCS = Path(__file__).resolve().parents[2] / "docs" / "effects.md"
CJK = re.compile(r"[\u3400-\u9fff]")
STATS = [("strength", "Strength"), ("resilience", "Resilience"), ("atk", "ATK"), ("def", "DEF"),
         ("damage", "Damage"), ("health", "Health")]


def _schema(lang: str = "en") -> dict:
    keys = [(k, k) for k in ("kind", "class", "race", "element", "attribute", "subtype", "stars", "cost",
                             "keywords", "name", "strength", "atk", "health", "degree", "speed")]
    keys += [(k, k) for k in FILTER_STATES]
    return effects_schema(STATS, keys, lang)


def test_every_vocabulary_table_is_in_the_schema_with_labels_and_doc_lines() -> None:
    schema = _schema()
    tables = vocabulary_data()
    for part, table in PARTS.items():
        names = [item["name"] for item in schema["parts"][part]]
        assert names == list(table), part  # the table's order, every name
        assert names == list(tables.get(part, {})), part  # the API's tables too
        for item in schema["parts"][part]:
            assert item["doc"], (part, item["name"])
            assert item["label"] and item["label"] != item["name"], (part, item["name"])  # a designer's words
    assert list(schema["keys"]) == list(KEYS)


def test_every_key_condition_and_cost_has_a_shape_not_yaml_text() -> None:
    assert unshaped_keys() == [], ("add a shape for these keys to KEY_SHAPES in "
                                   "workbench/domain/effects/schema.py")
    schema = _schema()
    for name, info in schema["keys"].items():
        assert info["shape"]["type"] != "yaml", name
        assert info["label"] and info["doc"], name
    condition = schema["keys"]["if"]["shape"]
    assert [f["name"] for f in condition["fields"]] == list(CONDITIONS)
    assert all(f["shape"]["type"] != "yaml" and f["label"] for f in condition["fields"])
    cost = schema["keys"]["cost"]["shape"]
    assert [f["name"] for f in cost["fields"]] == list(COSTS)
    assert all(f["shape"]["type"] != "yaml" and f["label"] for f in cost["fields"])
    assert set(KEYS) <= set(KEY_SHAPES)


def _anchors() -> set[str]:
    return {github_slug(re.sub(r"`", "", line.lstrip("#").strip()))
            for line in DOCS.read_text(encoding="utf-8").splitlines() if line.startswith("## ")}


def test_each_action_names_its_doc_line_and_a_docs_section_that_exists() -> None:
    schema = _schema()
    anchors = _anchors()
    for item in schema["parts"]["actions"]:
        assert item["doc"] == ACTIONS[item["name"]].description
        assert item["section"] in anchors, item
        assert set(item["keys"]).isdisjoint(item["optional"])
        assert all(k in KEYS for k in item["keys"] + item["optional"]), item
    assert set(schema["sections"].values()) <= anchors
    move = next(i for i in schema["parts"]["actions"] if i["name"] == "move")
    assert move["section"] == "zones-move" and {"from", "to", "side", "pick", "look"} <= set(move["keys"])


def test_every_label_reads_in_chinese() -> None:
    schema = _schema("zh")
    for part in PARTS:
        for item in schema["parts"][part]:
            assert CJK.search(item["label"]), (part, item["name"], item["label"])
    for name, info in schema["keys"].items():
        assert CJK.search(info["label"]), (name, info["label"])
    labels = {i["name"]: i["label"] for i in schema["parts"]["triggers"]}
    assert labels["on_destroyed"] == "此卡被破坏时"
    for part in PARTS:  # the doc lines a row shows, of every table, in Chinese too
        for item in schema["parts"][part]:
            assert CJK.search(item["doc"]), (part, item["name"], item["doc"])
    for name, info in schema["keys"].items():
        assert CJK.search(info["doc"]), (name, info["doc"])
    targets = {i["name"]: i["label"] for i in schema["parts"]["targets"]}
    assert targets["enemy_creatures"] == "所有敌方生物"
    zones = {i["name"]: i["doc"] for i in schema["parts"]["zones"]}
    assert zones["graveyard"] == "墓地 / 弃牌堆"
    assert CJK.search(schema["hints"]["amount"])


def _texts(node: object, where: str = "") -> list[tuple[str, str]]:
    """Every (where, text) a designer reads in a schema: each label and doc line, however deep
    (the fields of a condition, a cost, a filter's union options, …)."""
    found: list[tuple[str, str]] = []
    if isinstance(node, dict):
        for key in ("label", "doc"):
            if isinstance(node.get(key), str) and node[key]:
                found.append((f"{where}.{key}", node[key]))
        for key, value in node.items():
            found += _texts(value, f"{where}/{node.get('name', key)}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _texts(value, f"{where}[{i}]")
    return found


def test_no_label_or_doc_line_of_the_chinese_schema_is_english_only() -> None:
    """Walks the whole schema, so a new table, key or nested field fails here until it is translated.
    The game's own words (its stats and card fields, from game.yaml) are card data, not translated."""
    schema = _schema("zh")
    game_words = {label for _, label in STATS} | {k for k in ("kind", "class", "race", "element", "attribute",
                                                               "subtype", "stars", "cost", "keywords", "name",
                                                               "strength", "atk", "health", "degree", "speed")}
    english = [(where, text) for where, text in _texts({"parts": schema["parts"], "keys": schema["keys"]})
               if not CJK.search(text) and text not in game_words]
    assert english == []
    # The walk reaches nested doc lines: a cost's fields and a condition's fields have them.
    texts = dict(_texts(schema["keys"]))
    assert any("/cost/" in where and where.endswith(".doc") for where in texts), texts


def test_the_amount_hint_mentions_x_only_in_a_game_with_x_costs() -> None:
    for lang in ("en", "zh"):
        with_x = effects_schema(STATS, [], lang, x_costs=True)
        without = effects_schema(STATS, [], lang, x_costs=False)
        assert "X" in with_x["hints"]["amount"] and "X" in with_x["keys"]["amount"]["doc"]
        assert "X" not in without["hints"]["amount"] and "X" not in without["keys"]["amount"]["doc"]


def _documented_entries() -> list[dict]:
    """Every effect entry docs/effects.md shows: the YAML examples and the coverage table's column."""
    text = DOCS.read_text(encoding="utf-8")
    entries: list[dict] = []
    for block in re.findall(r"```yaml\n(.*?)```", text, re.S):
        for line in block.splitlines():
            match = re.match(r"\s*-\s*(\{.*\})\s*(#.*)?$", line)
            if match:
                entries.append(yaml.safe_load(match.group(1)))
        if "effects:" in block and not re.search(r"^\s*-\s*\{", block, re.M):
            for doc in yaml.safe_load_all(block.replace("\neffects:", "\n---\neffects:")):
                if isinstance(doc, dict) and isinstance(doc.get("effects"), list):
                    entries += [e for e in doc["effects"] if isinstance(e, dict)]
    for cell in re.findall(r"\| `(\[?\{trigger.*?\}\]?)` \|", text):
        value = yaml.safe_load(cell)
        entries += value if isinstance(value, list) else [value]
    return entries


def test_every_documented_effect_is_built_with_controls_not_yaml_text() -> None:
    entries = _documented_entries()
    assert len(entries) >= 40  # the examples and the coverage list
    schema = _schema()
    unfit = [e for e in entries if not entry_fits(schema, e)]
    assert unfit == []
    used = {key for e in entries for key in e}
    assert {"filter", "if", "per", "cost", "from", "to", "look", "random"} <= used


@pytest.mark.parametrize("shape_key, value, ok", [
    ("filter", {"strength": {"min": 500}}, True),
    ("filter", {"element": ["fire", "poison"]}, True),
    ("filter", {"tapped": True}, True),
    ("filter", {"strength": {"min": 500, "other": 1}}, False),  # not a range: shown as YAML text
    ("if", {"count": {"zone": "field", "side": "own", "min": 3}}, True),
    ("if", {"previous": True}, True),
    ("if", {"phase": ["war", "return"]}, True),
    ("if", {"life": {"max": 10}, "turn": {"min": 3}}, False),  # two conditions: YAML text
    ("cost", {"sacrifice": {"count": 1, "filter": {"kind": "creature"}}, "pay_life": 2}, True),
    ("cost", {"remove_counters": {"charge": 3}}, True),
    ("cost", "2 mana", False),
    ("stats", {"strength": 200, "resilience": -100}, True),
])
def test_values_fit_their_shapes_or_fall_back_to_yaml_text(shape_key: str, value: object, ok: bool) -> None:
    assert fits(_schema()["keys"][shape_key]["shape"], value) is ok
