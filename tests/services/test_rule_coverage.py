"""Every numbered rule of RULES.md is listed in docs/engines/<game>.md with the scenario files that
cover it; a rule with no scenario fails (issue 17 item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.services import rule_coverage as rc

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = rc.find_rules_md(ROOT)


def _doc(game: str) -> str:
    return (ROOT / "docs" / "engines" / f"{game}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(rc.GAME_NUMBERS))
def test_every_rule_has_a_scenario(game: str) -> None:
    doc = _doc(game)
    if RULES_MD is not None:
        rules = rc.parse_rules(RULES_MD.read_text(encoding="utf-8"))[game]
    else:  # a checkout without ../shared: the rule list the doc was generated from
        rules = rc.rules_from_table(doc)
    assert rules, f"no rules found for {game}"
    cov = rc.coverage(game, rules, rc.scenario_rule_texts(ROOT / "card_data", game))
    assert not cov.problems, "\n".join(cov.problems)
    assert rc.current_table(doc) == cov.table(), (
        f"docs/engines/{game}.md: the rule table is stale; run "
        "`python -m workbench.services.rule_coverage --write`")


def test_the_docs_table_lists_the_rules_of_rules_md() -> None:
    if RULES_MD is None:
        pytest.skip("RULES.md is not beside this checkout (../shared/docs/RULES.md); "
                    "set WORKBENCH_RULES_MD to check the tables against it")
    rules = rc.parse_rules(RULES_MD.read_text(encoding="utf-8"))
    for game in rc.GAME_NUMBERS:
        assert [r.number for r in rc.rules_from_table(_doc(game))] == \
            [r.number for r in rules[game]]


SAMPLE = """\
## 1. `warzone` — test

### 1.1 Fields
- bullets only

### 1.2 Deck
1. first
2. second,
   continued
3. third

### 1.3 Turn
1. Wake
2. Night
**Decision**: a trailing rule of the section

---

## 2. `seth` — test

### 2.1 Only
Text.
"""


def test_leaves_are_items_and_sections_without_items_or_with_trailing_text() -> None:
    rules = rc.parse_rules(SAMPLE)
    assert [r.number for r in rules["warzone"]] == \
        ["1.1", "1.2.1", "1.2.2", "1.2.3", "1.3", "1.3.1", "1.3.2"]
    assert [r.number for r in rules["seth"]] == ["2.1"]
    assert rules["fusion"] == []


def test_citations_name_exactly_the_rules_listed() -> None:
    assert rc.cited_rules("§1.9.3 Decision") == ["1.9.3"]
    assert rc.cited_rules("§2.3.3-4") == ["2.3.3", "2.3.4"]
    assert rc.cited_rules("§1.11, §1.11.1-3, docs/effects.md") == \
        ["1.11", "1.11.1", "1.11.2", "1.11.3"]
    assert rc.cited_rules("docs/effects.md (warzone)") == []


def _cov(scenarios):
    return rc.coverage("warzone", rc.parse_rules(SAMPLE)["warzone"], scenarios)


def test_a_rule_without_scenario_fails_and_the_table_says_so() -> None:
    full = [("a.yaml", "§1.1, §1.2.1-3, §1.3, §1.3.1"), ("b.yaml", "§1.3.2")]
    assert _cov(full).problems == []
    assert "each with a scenario." in _cov(full).table()
    missing = _cov(full[:1])
    assert missing.problems == ["§1.3.2 (Night) has no scenario"]
    assert "| §1.3.2 | Night | **no scenario** |" in missing.table()
    assert "1 without a scenario (the test fails)." in missing.table()


def test_unknown_rules_and_whole_sections_are_refused() -> None:
    cov = _cov([("a.yaml", "§1.1, §1.2.1-3, §1.3, §1.3.1-2, §1.2, §1.9.9")])
    assert cov.problems == [
        "a.yaml: cites §1.2, a section whose rules are its numbered items (cite §1.2.N)",
        "a.yaml: cites §1.9.9, which is not a warzone rule of RULES.md",
    ]


def test_deck_card_and_pod_scenarios_count_for_the_rules_they_cite(tmp_path: Path) -> None:
    """The validator's rules (deck construction, card fields) and §3.9.6 are covered by scenarios
    of the kinds deck, card and pod, read like any other scenario file."""
    folder = tmp_path / "warzone" / "scenarios"
    folder.mkdir(parents=True)
    (folder / "d.yaml").write_text("game: warzone\nkind: deck\nname: n\nrule: '§1.2.1-2'\ncases: []\n", "utf-8")
    (folder / "c.yaml").write_text("game: warzone\nkind: card\nname: n\nrule: '§1.1'\ncases: []\n", "utf-8")
    texts = rc.scenario_rule_texts(tmp_path, "warzone")
    cov = _cov(texts)
    assert cov.files == {"1.2.1": ["d.yaml"], "1.2.2": ["d.yaml"], "1.1": ["c.yaml"]}
    assert "§1.3.1 (Wake) has no scenario" in cov.problems


@pytest.mark.parametrize("game", sorted(rc.GAME_NUMBERS))
def test_every_decision_option_is_played_the_other_way_by_a_scenario(game: str) -> None:
    """Each Decision of RULES.md is a rule option (game.yaml ``decision: true``) whose default is
    played by the scenarios that leave it alone; at least one scenario must play another value
    (an option whose range holds only its default has no other value to play)."""
    import yaml

    from workbench.storage.scenario_files import read_scenarios

    definition = yaml.safe_load((ROOT / "card_data" / game / "game.yaml").read_text("utf-8"))
    decisions = {name: spec for name, spec in (definition.get("options") or {}).items()
                 if spec.get("decision")}
    played: dict[str, set[str]] = {}
    for path in sorted((ROOT / "card_data" / game / "scenarios").glob("*.y*ml")):
        for item in read_scenarios(path):
            if (item.data.get("kind") or "play") != "play":
                continue  # a Decision is played by the engine; deck and card cases only check decks
            for name, value in (item.data.get("options") or {}).items():
                played.setdefault(name, set()).add(repr(value))
    missing = []
    for name, spec in decisions.items():
        if spec.get("minimum") is not None and spec.get("minimum") == spec.get("maximum"):
            continue
        if not played.get(name, set()) - {repr(spec["default"])}:
            missing.append(f"{name} ({spec.get('rule', '')})")
    assert not missing, f"{game}: no scenario plays these Decisions the other way: {missing}"
