"""Sample content of effects v2 (issue 16 item 11): at least 10 sample cards per game use the new
constructs, each is played by a scenario (an inline copy with the same effects), and the bundled
decks include some of them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
_V2_ACTIONS = {"move", "add_counters", "remove_counters", "cannot_be_targeted", "cannot_be_attacked",
               "cannot_be_blocked", "cannot_attack", "double_damage", "reduce_damage", "modify_cost",
               "choose", "arrange"}
_V2_KEYS = {"filter", "if", "per", "random", "count", "unless"}
_V2_TRIGGERS = {"on_attack", "on_attacked", "on_leave", "on_block", "on_blocked", "on_damaged", "on_deal_damage",
                "on_enter", "on_draw", "on_opponent_play", "on_phase"}


def _uses_v2(effects: list[dict]) -> bool:
    for e in effects or []:
        cost = e.get("cost") or {}
        if (e.get("action") in _V2_ACTIONS or set(e) & _V2_KEYS or e.get("trigger") in _V2_TRIGGERS
                or set(cost) - {"mana", "tap"} or e.get("duration") in ("until_your_next_turn", "while_on_field")):
            return True
    return False


def _cards(game: str) -> dict[str, dict]:
    return {p.stem: yaml.safe_load(p.read_text(encoding="utf-8"))
            for p in (ROOT / "card_data" / game / "cards").glob("*.yaml")}


def _scenario_cards(game: str) -> list[dict]:
    found = []
    for path in (ROOT / "card_data" / game / "scenarios").glob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            found.extend(((doc or {}).get("setup") or {}).get("cards", {}).values())
    return found


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_ten_sample_cards_use_the_new_constructs_and_each_is_played_by_a_scenario(game):
    samples = {cid: c for cid, c in _cards(game).items() if _uses_v2(c.get("effects"))}
    assert len(samples) >= 10, sorted(samples)
    inline = _scenario_cards(game)
    for cid, card in samples.items():
        assert any(s.get("name") == card["name"] and s.get("effects") == card["effects"] for s in inline), cid


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_the_bundled_decks_include_some_of_them(game):
    samples = {cid for cid, c in _cards(game).items() if _uses_v2(c.get("effects"))}
    in_decks = set()
    for path in (ROOT / "card_data" / game / "decks").glob("*.yaml"):
        deck = yaml.safe_load(path.read_text(encoding="utf-8"))
        for zone in (deck.get("zones") or {}).values():
            in_decks |= set(zone or {}) & samples
    assert in_decks, f"no {game} deck plays a card of the new vocabulary"
