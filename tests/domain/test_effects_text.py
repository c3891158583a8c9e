"""Rules text generated from effect entries, in English and Chinese (docs/effects.md)."""

from __future__ import annotations

import glob
from pathlib import Path

import pytest
import yaml

from workbench.domain.effects.text import missing_numbers, rules_text

ROOT = Path(__file__).resolve().parents[2]


def test_the_issue_example_reads_in_both_languages():
    entries = [{"trigger": "on_destroyed", "action": "damage", "target": "enemy_creatures", "amount": 200}]
    assert rules_text(entries) == "When this is destroyed, deal 200 damage to each enemy creature."
    assert rules_text(entries, "zh") == "此卡被破坏时，给予所有敌方生物200伤害。"


@pytest.mark.parametrize(("entries", "kind", "en", "zh"), [
    ([{"trigger": "on_play", "action": "draw", "target": "self", "amount": 2}], "spell", "Draw 2 cards.", "抽2张卡。"),
    ([{"trigger": "activated", "cost": {"mana": 2, "tap": True}, "action": "draw", "target": "self", "amount": 1}],
     "creature", "Pay 2 mana, tap this card: draw 1 card.", "支付2点法力，横置此卡：抽1张卡。"),
    ([{"trigger": "on_play", "action": "move", "target": "enemy_creature", "to": "exile"}], "magic",
     "Exile an enemy creature.", "将一只敌方生物除外。"),
    ([{"trigger": "on_play", "action": "move", "from": "deck", "to": "hand", "filter": {"kind": "creature"}}],
     "spell", "Search your deck for 1 card with kind creature and put it into the hand, then shuffle.",
     "从己方卡组将1张卡（kind为creature）加入手牌，之后洗切卡组。"),
    ([{"trigger": "on_play", "action": "draw", "target": "self", "amount": 1,
       "if": {"count": {"zone": "field", "side": "own", "min": 3}}}], "spell",
     "If 3 or more cards you control, draw 1 card.", "若己方场上的卡有3以上张，抽1张卡。"),
    ([{"trigger": "on_play", "action": "move", "from": "hand", "to": "graveyard"},
      {"trigger": "on_play", "action": "draw", "target": "self", "amount": 2, "if": {"previous": True}}], "spell",
     "Discard 1 card, then if you do, draw 2 cards.", "从己方手牌将1张卡送入墓地，然后若如此做，抽2张卡。"),
    ([{"trigger": "continuous", "action": "modify_stats", "target": "own_creatures", "stats": {"damage": 1},
       "filter": {"race": "undead"}}], "monster", "Each of your creatures with race undead gets +1 Damage.",
     "所有己方生物（race为undead）伤害值+1。"),
])
def test_each_construct_reads_as_a_sentence(entries, kind, en, zh):
    assert rules_text(entries, "en", kind) == en
    assert rules_text(entries, "zh", kind) == zh


def test_every_bundled_card_with_effects_has_rules_text_that_agrees_with_its_numbers():
    for game in ("warzone", "seth", "fusion"):
        for path in glob.glob(str(ROOT / "card_data" / game / "cards" / "*.yaml")):
            card = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
            if not card.get("effects"):
                continue
            lang = "zh" if game == "fusion" else "en"
            missing, generated = missing_numbers(str(card.get("text") or ""), card["effects"], lang, card.get("kind"))
            assert generated, path
            assert not missing, (path, generated)


def test_a_condition_without_bounds_reads_as_no_words_not_none() -> None:
    """While a designer is still building it in the editor, ``if: {count: {}}`` (an error the checks
    report) leaves the condition out of the rules text instead of writing "None"."""
    from workbench.domain.effects.text import rules_text

    entry = {"trigger": "on_play", "action": "draw", "target": "self", "amount": 1, "if": {"count": {"zone": "field"}}}
    assert rules_text([entry], "en", "spell") == "Draw 1 card."
    assert "None" not in rules_text([entry], "zh", "magic")


@pytest.mark.parametrize("step", [{"action": None}, {}, {"action": "no_such_action"}])
def test_a_half_built_choose_option_gives_words_for_the_rest_and_no_error(step):
    """The editor's live check sends effects while a designer builds them: a new option row whose
    action is not picked yet once raised KeyError('None') here, a 500 on the check."""
    entries = [{"trigger": "on_play", "action": "choose",
                "options": [{"action": "draw", "target": "self", "amount": 1}, step]}]
    assert "draw 1 card" in rules_text(entries).lower()
    assert missing_numbers("Choose one — draw 1 card.", entries, "en", "spell")[1]


def test_chinese_filter_words_use_the_games_own_labels() -> None:
    """Given the game, a filter reads as the designer's labels (fusion's 属性 / 炎, the magic card's
    类型 / 速攻, not the creature's 种族), its states in the seed's words; without it, as written."""
    from workbench.storage.repository import Repository

    fusion = Repository(ROOT / "card_data").game("fusion")

    def zh(flt: dict, game: object = fusion) -> str:
        return rules_text([{"trigger": "on_play", "action": "move", "from": "graveyard", "to": "hand",
                            "filter": flt}], "zh", "magic", game)

    assert zh({"kind": "creature", "attribute": ["fire", "wind"]}) == "从己方墓地将1张卡（种类为生物，属性为炎或风）加入手牌。"
    assert zh({"subtype": "quick"}) == "从己方墓地将1张卡（类型为速攻）加入手牌。"
    assert zh({"subtype": "龙"}) == "从己方墓地将1张卡（种族为龙）加入手牌。"
    assert zh({"face_down": True, "tapped": False}) == "从己方墓地将1张卡（里侧，非横置）加入手牌。"
    assert zh({"attribute": "fire"}, None) == "从己方墓地将1张卡（attribute为fire）加入手牌。"
    english = rules_text([{"trigger": "on_play", "action": "move", "from": "graveyard", "to": "hand",
                           "filter": {"attribute": "fire"}}], "en", "magic", fusion)
    assert english == "Put 1 card with attribute fire from your graveyard into the hand."
