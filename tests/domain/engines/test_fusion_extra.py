"""Fusion's extra deck, tokens and fusion summons (RULES.md §3.10, issue 17 item 2, issue 16 item 3):
the checks of the new card field and effect keys, the deck warning, the rules text, what warzone
and seth say about them, and that the bundled decks bring their extra-deck creatures out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from workbench.domain.effects import parse_effects
from workbench.domain.effects.text import rules_text
from workbench.domain.engines import load_engine
from workbench.domain.validation import validate_card, validate_deck

ROOT = Path(__file__).resolve().parents[3]
FUSION = ROOT / "card_data" / "fusion"
TOKENS = {"trigger": "on_play", "action": "create_token", "target": "self", "count": 2,
          "token": {"name": "衍生物", "atk": 1, "def": 1}}
FUSE = {"trigger": "on_play", "action": "fusion_summon"}


def _cards() -> dict[str, dict[str, Any]]:
    return {p.stem: dict(yaml.safe_load(p.read_text(encoding="utf-8")), id=p.stem)
            for p in (FUSION / "cards").glob("*.yaml")}


def _creature(name: str, attribute: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "kind": "creature", "cost": 2, "attribute": attribute, "subtype": "兽", "stars": 3,
            "atk": 2, "def": 2, **extra}


def _codes(problems: list[Any]) -> dict[str, Any]:
    return {p.code: p for p in problems}


def test_token_entries_are_checked_naming_what_is_allowed(definitions: Any) -> None:
    card = {"name": "双生衍生", "kind": "magic", "subtype": "normal", "cost": 2, "text": "特殊召唤2只1/1的衍生物。",
            "effects": [TOKENS]}
    assert not [p for p in validate_card(definitions["fusion"], card) if p.code.startswith("effect.")]
    for token, named in (({"atk": 1, "def": 1}, "name"), ({"name": "羊", "atk": 1}, "def"),
                         ({"name": "羊", "atk": 1, "def": 1, "wings": 2}, "wings")):
        card["effects"] = [dict(TOKENS, token=token)]
        problem = _codes(validate_card(definitions["fusion"], card))["effect.bad_token"]
        assert named in problem.message and problem.severity == "error"


def test_materials_are_a_validated_field_of_fusion_creatures(definitions: Any) -> None:
    fusion = definitions["fusion"]
    ok = _creature("合体兽", "fire", extra=True, materials=["火花小鬼", {"filter": {"attribute": "wind"}, "count": 2}])
    assert not [p for p in validate_card(fusion, ok) if p.severity == "error"]
    bad = dict(ok, materials=[{"filter": {"colour": "red"}}, {"name": "x", "count": 0}, 3])
    messages = [p.message for p in validate_card(fusion, bad) if p.field == "materials"]
    assert len(messages) == 3 and "colour" in messages[0] and "count" in messages[1]
    assert "card.no_materials" in _codes(validate_card(fusion, dict(ok, materials=None)))
    assert "card.materials_unused" in _codes(validate_card(fusion, dict(ok, extra=False)))
    for cid, card in _cards().items():
        if card.get("extra"):
            assert not [p for p in validate_card(fusion, card, cid) if p.field in ("extra", "materials")], cid


def test_the_deck_warns_about_extra_deck_creatures_it_cannot_bring_out(definitions: Any) -> None:
    fusion = definitions["fusion"]
    cards = {f"f{i}": _creature(f"火{i}", "fire") for i in range(14)}
    cards.update({f"w{i}": _creature(f"风{i}", "wind") for i in range(14)})
    cards["dragon"] = _creature("合体龙", "fire", extra=True,
                                materials=[{"filter": {"attribute": "fire"}}, {"filter": {"attribute": "wind"}}])
    cards["titan"] = _creature("巨神", "earth", extra=True,
                               materials=[{"filter": {"attribute": "water"}}, {"filter": {"attribute": "earth"}}])
    cards["bare"] = _creature("无素材", "dark", extra=True)
    cards["fuse"] = {"name": "融合", "kind": "magic", "subtype": "normal", "cost": 2, "effects": [FUSE]}
    cards["dragons"] = {"name": "龙之融合", "kind": "magic", "subtype": "normal", "cost": 2,
                        "effects": [dict(FUSE, filter={"subtype": "龙"})]}
    main = {**{f"f{i}": 2 for i in range(14)}, **{f"w{i}": 1 for i in range(14)}}

    def warning(extra: dict[str, int], more: dict[str, int], **options: Any) -> str:
        deck = {"name": "Test", "zones": {"main": {**main, **more}, "extra": extra}}
        found = [p for p in validate_deck(fusion, deck, cards, "t", options) if p.code == "deck.extra_unsummonable"]
        assert all(p.severity == "warning" and "§3.10.2" in p.message for p in found)
        return found[0].message if found else ""

    assert warning({"dragon": 1}, {"fuse": 2}) == ""
    assert "合体龙 (dragon): no card of the deck fusion summons it" in warning({"dragon": 1}, {})
    # 龙之融合 reaches subtype 龙 only, and 合体龙 is a 兽
    assert "no card of the deck fusion summons it" in warning({"dragon": 1}, {"dragons": 1})
    message = warning({"dragon": 1, "titan": 1, "bare": 1}, {"fuse": 1})
    assert "巨神 (titan): the deck holds too few of its materials (attribute water" in message
    assert "无素材 (bare): it has no materials" in message and "合体龙" not in message
    assert warning({"dragon": 1}, {}, extra_deck_summon="materials_in_main") == ""
    for path in (FUSION / "decks").glob("*.yaml"):  # the bundled decks bring theirs out
        deck = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert not [p for p in validate_deck(fusion, deck, _cards(), path.stem)
                    if p.code == "deck.extra_unsummonable"], path.stem


def test_rules_text_of_tokens_and_fusion_summons_in_both_languages() -> None:
    assert rules_text([TOKENS], "zh", "magic") == "特殊召唤2只1/1的衍生物。"
    assert rules_text([TOKENS], "en", "magic") == "Create 2 1/1 衍生物 tokens."
    sheep = dict(TOKENS, target="opponent", count=1, token={"name": "羊", "atk": 0, "def": 1})
    assert rules_text([sheep], "zh", "magic") == "对手特殊召唤1只0/1的「羊」衍生物。"
    assert rules_text([FUSE], "zh", "magic") == "将融合素材从手牌或场上送入墓地，从额外卡组融合召唤1只生物。"
    assert rules_text([FUSE], "en", "magic").startswith("Send the materials of a creature in your extra deck")
    card = _cards()["rong-he"]  # the bundled 融合 card's text is the generated one
    assert card["text"] == rules_text(card["effects"], "zh", "magic")
    assert card["text_en"] == rules_text(card["effects"], "en", "magic")


@pytest.mark.parametrize("game", ["warzone", "seth"])
def test_games_without_tokens_or_an_extra_deck_say_why(game: str) -> None:
    kind = {"warzone": "spell", "seth": "monster"}[game]
    token = dict(TOKENS, token={"name": "t", **{s: 1 for s in load_engine(game).capabilities.stats}})
    for entry, words in ((token, "no tokens"), (FUSE, "no extra deck")):
        parsed = parse_effects(kind, [entry], load_engine(game).capabilities)
        assert not parsed.runnable and parsed.skipped[0].code == "effect.unsimulated"
        assert words in parsed.skipped[0].reason and "§" in parsed.skipped[0].reason


def test_new_games_deal_the_extra_decks_and_hide_only_what_is_hidden() -> None:
    from workbench.storage.repository import Repository

    engine = load_engine("fusion")
    repo = Repository(ROOT / "card_data")
    a, b = repo.deck_cards("fusion", "lie-yan-ji-feng"), repo.deck_cards("fusion", "pan-shi-chao-xi")
    state = engine.new_game(a, b, {"_log": False}, 3)
    assert sorted(state.cards[i].id for i in state.extra[0]) == sorted(str(c["id"]) for c in a["extra"])
    assert all(state.names[i].startswith("ax") for i in state.extra[0])
    assert not set(state.extra[0]) & set(state.deck[0] + state.hand[0])
    seen = state.observe(1).public["players"][0]["extra_deck"]
    assert seen == sorted(str(c["id"]) for c in a["extra"])  # the extra deck list is public
    world = state.determinize(1, __import__("random").Random(1))
    assert world.extra == state.extra


def test_the_bundled_decks_bring_their_extra_deck_creatures_out_in_playtests() -> None:
    from workbench.storage.repository import Repository

    engine = load_engine("fusion")
    repo = Repository(ROOT / "card_data")
    decks = [repo.deck_cards("fusion", d) for d in ("lie-yan-ji-feng", "pan-shi-chao-xi")]
    extra = [{str(c["id"]) for c in d["extra"]} for d in decks]
    summoned = [0, 0]
    for g in range(40):
        seat = g % 2
        state = engine.new_game(decks[seat], decks[1 - seat], {"_log": False}, g)
        agents = [engine.agents["heuristic"](2 * g), engine.agents["heuristic"](2 * g + 1)]
        while not state.is_terminal():
            (p,) = state.to_act()
            state.apply(agents[p].choose(state, p))
        for p in (0, 1):
            deck = seat if p == 0 else 1 - seat
            summoned[deck] += bool(state.stats.played[p] & extra[deck])
    assert all(n >= 4 for n in summoned), summoned  # about a quarter of the games (docs/engines/fusion.md)
