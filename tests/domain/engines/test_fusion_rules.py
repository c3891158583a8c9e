"""Fusion rules that scenario files cannot show well: options, coverage of §3, chain and clone details."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from workbench.domain.engines.base import Action, RandomAgent, play_game
from workbench.domain.engines.fusion import ENGINE
from workbench.domain.engines.fusion.cards import card_def
from workbench.domain.engines.fusion.samples import CARDS, sample_deck

DATA = Path(__file__).resolve().parents[3] / "card_data" / "fusion"


@pytest.fixture(scope="module")
def options() -> dict:
    data = yaml.safe_load((DATA / "game.yaml").read_text(encoding="utf-8"))
    return {name: spec["default"] for name, spec in data["options"].items()}


def _scenarios() -> list[dict]:
    out = []
    for path in sorted((DATA / "scenarios").glob("*.yaml")):
        out.extend(d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d)
    return out


def test_scenarios_cover_every_numbered_section_and_decision() -> None:
    scenarios = _scenarios()
    assert len(scenarios) >= 12
    rules = " ".join(str(s.get("rule", "")) for s in scenarios)
    for section in ("§3.1.4", "§3.1.5", "§3.1.6", "§3.1.7", "§3.1.8", "§3.2", "§3.3.2", "§3.4.1",
                    "§3.4.2", "§3.4.4", "§3.5.1", "§3.5.2", "§3.5.3", "§3.5.4", "§3.5.5", "§3.5.6",
                    "§3.6.1", "§3.6.2", "§3.6.3", "§3.8.1", "§3.8.6"):
        assert section in rules, f"no scenario for {section}"
    decisions = [s for s in scenarios if "Decision" in str(s.get("rule", ""))]
    assert any("3.5.4" in s["rule"] for s in decisions) and any("3.1.1" in s["rule"] for s in decisions)
    seed_example = [s for s in scenarios if "加倍" in s["name"] and "取消" in s["name"]]
    assert seed_example, "the seed's own chain example (加倍 / 取消) must be a scenario"


def test_options_shape_the_deal(options) -> None:
    deck = sample_deck("aggro")
    s = ENGINE.new_game(deck, deck, {**options, "start_hand": 7, "start_life": 30, "max_mulligans": 0}, 1)
    assert s.step == "main" and s.turn == 1  # no mulligan step at all
    assert s.life == [30, 30]
    assert len(s.hand[s.first]) == 7 and len(s.hand[1 - s.first]) == 7


def test_mana_cap_option_caps_growth(options) -> None:
    setup = {"turn": 9, "active": 0, "phase": "ready",
             "cards": {"imp": CARDS["spark-imp"]},
             "players": [{"mana_max": 3, "deck": [{"a-d": "imp"}]}, {"deck": [{"b-d": "imp"}]}]}
    capped = ENGINE.snapshot(ENGINE.from_setup(setup, {**options, "mana_cap": 3}, 0))
    grown = ENGINE.snapshot(ENGINE.from_setup(setup, options, 0))
    assert capped["players"][0]["mana_max"] == 3 and grown["players"][0]["mana_max"] == 4


def test_set_max_stars_option(options) -> None:
    setup = {"turn": 3, "active": 0, "phase": "main1", "cards": {"knight": CARDS["flame-knight"]},
             "players": [{"hand": [{"a-k": "knight"}]}, {}]}
    kinds = {a.kind for a in ENGINE.from_setup(setup, {**options, "set_max_stars": 3}, 0).legal_actions(0)}
    assert "set" not in kinds
    kinds = {a.kind for a in ENGINE.from_setup(setup, options, 0).legal_actions(0)}
    assert "set" in kinds


def test_card_effects_are_parsed_and_unsupported_ones_flagged() -> None:
    fireball = card_def(CARDS["fireball"])
    assert fireball.aimed and fireball.on_play[0].amount == 3 and fireball.simulated
    assert card_def(CARDS["cancel"]).play_speed == 2
    assert not card_def(CARDS["riddle"]).simulated
    odd = card_def({"id": "odd", "name": "怪", "kind": "magic", "subtype": "normal", "cost": 1,
                    "text": "毒", "effects": [{"trigger": "on_play", "action": "add_poison", "amount": 1}]})
    assert not odd.simulated and not odd.effects
    assert [(k.index, k.code) for k in odd.skipped] == [(0, "effect.unsimulated")]
    assert "fusion engine does not run add_poison" in odd.skipped[0].reason
    vanilla = card_def({"id": "v", "name": "兵", "kind": "creature", "cost": 1, "atk": 1, "def": 1,
                        "stars": 1, "text": "【通常生物】"})
    assert vanilla.simulated


def test_chain_answer_must_be_at_least_as_fast(options) -> None:
    setup = {
        "turn": 4, "active": 0, "phase": "main1",
        "cards": {"bolt": CARDS["lightning"], "wolf": CARDS["wind-wolf"], "cancel": CARDS["cancel"],
                  "fire": CARDS["fireball"]},
        "players": [
            {"mana": 3, "hand": [{"a-fire": "fire"}], "creatures": [{"a-wolf": "wolf"}]},
            {"mana": 3, "creatures": [{"b-wolf": "wolf"}],
             "magic": [{"name": "b-bolt", "card": "bolt", "face_down": True},
                       {"name": "b-cancel", "card": "cancel", "face_down": True}]},
        ],
    }
    s = ENGINE.from_setup(setup, options, 0)
    s.apply(Action("play", ("a-fire", "b-wolf")))
    kinds = sorted(f"{a.kind}:{a.args[0] if a.args else ''}" for a in s.legal_actions(1))
    assert "pass:" in kinds and "play:b-cancel" in kinds and any(k.startswith("play:b-bolt") for k in kinds)
    s.apply(Action("play", ("b-cancel",)))
    snap = ENGINE.snapshot(s)
    assert snap["players"][1]["creatures"]["b-wolf"]["damage"] == 0
    assert snap["players"][0]["graveyard"] == ["a-fire"]


def test_clone_is_cheap_and_has_no_deepcopy(options) -> None:
    import copy
    import time

    s = ENGINE.new_game(sample_deck("aggro"), sample_deck("control"), options, 2)
    play_steps = 0
    agents = [RandomAgent(1), RandomAgent(2)]
    while play_steps < 60 and not s.is_terminal():
        (p,) = s.to_act()
        s.apply(agents[p].choose(s, p))
        play_steps += 1
    start = time.perf_counter()
    for _ in range(200):
        s.clone()
    per_clone = (time.perf_counter() - start) / 200
    start = time.perf_counter()
    for _ in range(3):
        copy.deepcopy(s)
    per_deepcopy = (time.perf_counter() - start) / 3
    assert per_clone < per_deepcopy / 3, (per_clone, per_deepcopy)


def test_turn_limit_safety_ends_in_a_draw(options) -> None:
    deck = sample_deck("control")
    s = ENGINE.new_game(deck, deck, {**options, "_max_turns": 3, "_log": True}, 5)
    result = play_game(s, [RandomAgent(0), RandomAgent(1)])
    assert result.winner is None and re.search("turn limit", result.reason)
    assert result.turns == 4  # the fourth turn never starts
