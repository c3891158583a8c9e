"""Fusion engine: whole games (random playouts, determinism, AI strength) and the interface."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from workbench.domain.engines import load_engine
from workbench.domain.engines.base import Action, RandomAgent, play_game
from workbench.domain.engines.fusion import ENGINE, FusionState
from workbench.domain.engines.fusion.agents import HeuristicAgent, MonteCarloAgent
from workbench.domain.engines.fusion.samples import sample_deck
from workbench.domain.engines.fusion.setup import SetupError
from workbench.domain.errors import IllegalAction

GAME_YAML = Path(__file__).resolve().parents[3] / "card_data" / "fusion" / "game.yaml"


@pytest.fixture(scope="module")
def options() -> dict:
    """The rule option defaults exactly as card_data/fusion/game.yaml states them."""
    data = yaml.safe_load(GAME_YAML.read_text(encoding="utf-8"))
    return {name: spec["default"] for name, spec in data["options"].items()}


@pytest.fixture(scope="module")
def decks() -> tuple[dict, dict]:
    return sample_deck("aggro"), sample_deck("control")


def _invariants(s: FusionState) -> None:
    total = sum(
        len(zone[p]) for zone in (s.deck, s.hand, s.crea, s.magic, s.field, s.grave, s.exile) for p in (0, 1)
    )
    assert total == len(s.cards), "a card appeared or vanished"
    for p in (0, 1):
        assert len(s.crea[p]) <= s.opts.max_creatures
        assert sum(1 for i in s.magic[p] if i in s.down) <= s.opts.max_set_magic
        assert s.mana[p] >= 0
        assert s.mana_max[p] <= s.opts.mana_cap
        for i in s.crea[p]:
            assert s.owner[i] == p and s.cards[i].is_creature
            if i in s.down:
                assert i in s.tapped, "a set creature must lie tapped"
        for i in s.hand[p] + s.deck[p]:
            assert i not in s.tapped and i not in s.down and i not in s.damage
    seen: set[int] = set()
    for zone in (s.deck, s.hand, s.crea, s.magic, s.field, s.grave, s.exile):
        for p in (0, 1):
            assert not seen & set(zone[p]), "a card is in two zones"
            seen |= set(zone[p])


def _play_checked(s: FusionState, agents: list, limit: int = 5000, every: int = 1) -> int:
    steps = 0
    while not s.is_terminal():
        (p,) = s.to_act()
        legal = s.legal_actions(p)
        assert legal, f"no legal action at {s._step_name()}"
        assert not s.legal_actions(1 - p)
        s.apply(agents[p].choose(s, p))
        steps += 1
        if steps % every == 0:
            _invariants(s)
        assert steps < limit, "the game did not end"
    _invariants(s)
    return steps


def test_engine_is_registered_with_scenario_hooks() -> None:
    engine = load_engine("fusion")
    assert engine is ENGINE
    assert engine.from_setup is not None and engine.snapshot is not None
    assert {"random", "heuristic", "montecarlo"} <= set(engine.agents)
    assert {"draw", "damage", "negate", "modify_stats", "add_mana"} <= engine.supported_actions
    assert "add_poison" not in engine.supported_actions


def test_new_game_deals_opening_hands_and_tosses_for_first_player(options, decks) -> None:
    firsts = set()
    for seed in range(12):
        s = ENGINE.new_game(*decks, options, seed)
        assert isinstance(s, FusionState)
        assert [len(s.hand[0]), len(s.hand[1])] == [5, 5]
        assert len(s.deck[0]) == len(decks[0]["main"]) - 5
        assert s.step == "mulligan" and s.to_act() == (s.first,)
        firsts.add(s.first)
    assert firsts == {0, 1}
    forced = ENGINE.new_game(*decks, {**options, "_first_player": 1}, 0)
    assert forced.first == 1


def test_first_turn_after_keeping(options, decks) -> None:
    s = ENGINE.new_game(*decks, {**options, "_first_player": 0}, 5)
    s.apply(Action("keep"))
    s.apply(Action("keep"))
    assert (s.turn, s.active, s.phase) == (1, 0, "main1")
    assert s.mana == [1, 0] and len(s.hand[0]) == 5  # no draw on the first player's first turn
    s.apply(Action("end"))
    assert (s.turn, s.active) == (2, 1)
    assert s.mana[1] == 1 and len(s.hand[1]) == 6


def test_illegal_actions_are_refused(options, decks) -> None:
    s = ENGINE.new_game(*decks, {**options, "_first_player": 0}, 5)
    with pytest.raises(IllegalAction):
        s.apply(Action("end"))  # still in the mulligan step
    s.apply(Action("keep"))
    s.apply(Action("keep"))
    with pytest.raises(IllegalAction):
        s.apply(Action("attack", ("a1", "player")))
    assert s.legal_actions(1) == []


@pytest.mark.slow
def test_random_playouts_keep_the_rules(options, decks) -> None:
    """Hundreds of random games: no crash, always an end, cards conserved, no illegal state."""
    reasons = set()
    for seed in range(300):
        a, b = decks if seed % 2 == 0 else decks[::-1]
        s = ENGINE.new_game(a, b, {**options, "_log": seed % 10 == 0}, seed)
        _invariants(s)
        # every state of the first games is checked, then a sample of states (speed)
        _play_checked(s, [RandomAgent(seed), RandomAgent(seed + 7)], every=1 if seed < 40 else 17)
        result = s.result()
        assert result.winner in (0, 1, None)
        reasons.add(result.reason.split(" ", 2)[-1][:12])
    assert len(reasons) >= 2  # both life and deck-out endings happen


def test_same_seed_and_actions_replay_the_same_log(options, decks) -> None:
    s = ENGINE.new_game(*decks, options, 42)
    play_game(s, [HeuristicAgent(1), RandomAgent(2)])
    again = ENGINE.new_game(*decks, options, 42)
    play_game(again, [HeuristicAgent(1), RandomAgent(2)])
    assert s.log == again.log and s.result() == again.result()
    other = ENGINE.new_game(*decks, options, 43)
    play_game(other, [HeuristicAgent(1), RandomAgent(2)])
    assert other.log != s.log


def test_replaying_recorded_actions_reproduces_the_game(options, decks) -> None:
    s = ENGINE.new_game(*decks, options, 9)
    agents = [RandomAgent(3), HeuristicAgent(4)]
    record = []
    while not s.is_terminal():
        (p,) = s.to_act()
        action = agents[p].choose(s, p)
        record.append((action.kind, action.args))
        s.apply(action)
    replay = ENGINE.new_game(*decks, options, 9)
    for kind, args in record:
        replay.apply(Action(kind, args))
    assert replay.log == s.log
    assert ENGINE.snapshot(replay) == ENGINE.snapshot(s)


def test_clone_is_independent(options, decks) -> None:
    s = ENGINE.new_game(*decks, options, 11)
    agents = [HeuristicAgent(1), HeuristicAgent(2)]
    for _ in range(40):
        (p,) = s.to_act()
        s.apply(agents[p].choose(s, p))
    before = ENGINE.snapshot(s)
    log_len = len(s.log)
    copy = s.clone()
    assert ENGINE.snapshot(copy) == before
    play_game(copy, [RandomAgent(5), RandomAgent(6)])
    assert copy.is_terminal() and not s.is_terminal()
    assert ENGINE.snapshot(s) == before and len(s.log) == log_len
    # the clone's generator continues the same stream as the original's
    assert s.clone().rng.random() == s.clone().rng.random()


@pytest.mark.slow
def test_heuristic_beats_random(options, decks) -> None:
    """The heuristic player must win clearly (≥ 70 % over 200 games, seats alternating)."""
    wins = 0
    games = 200
    for g in range(games):
        a, b = decks if g % 2 == 0 else decks[::-1]
        seat = g % 4 < 2  # alternate the heuristic's seat and its deck independently
        agents = [HeuristicAgent(g), RandomAgent(g)] if seat else [RandomAgent(g), HeuristicAgent(g)]
        s = ENGINE.new_game(a, b, {**options, "_log": False}, g)
        result = play_game(s, agents)
        wins += result.winner == (0 if seat else 1)
    assert wins / games >= 0.70, f"heuristic won {wins}/{games}"


def test_montecarlo_agent_picks_a_legal_action(options, decks) -> None:
    s = ENGINE.new_game(*decks, options, 3)
    agents = [HeuristicAgent(1), HeuristicAgent(2)]
    while s.step != "main" or s.turn < 4:
        (p,) = s.to_act()
        s.apply(agents[p].choose(s, p))
    (p,) = s.to_act()
    log_before = list(s.log)
    action = MonteCarloAgent(7, rollouts=1, horizon=30).choose(s, p)
    assert action in s.legal_actions(p)
    assert s.log == log_before  # look-ahead leaves the real game alone


def test_stats_and_unsimulated_cards(options, decks) -> None:
    s = ENGINE.new_game(*decks, options, 4)
    play_game(s, [HeuristicAgent(1), HeuristicAgent(2)])
    assert s.stats.unsimulated == {"riddle"}  # text but no effect the engine runs
    for p in (0, 1):
        assert s.stats.drawn[p] and s.stats.played[p] <= {c["id"] for d in decks for c in d["main"]}


def test_log_is_readable_and_keeps_chinese(options, decks) -> None:
    s = ENGINE.new_game(*decks, options, 8)
    play_game(s, [HeuristicAgent(1), HeuristicAgent(2)])
    text = "\n".join(s.log)
    assert "Turn 1 — " in text and "goes first" in text
    assert any(ch in text for ch in ("火花小鬼", "石甲卫士", "潮汐法师", "炎之骑士"))
    assert s.result().reason in s.log[-1]


def test_logging_off_changes_nothing_but_the_log(options, decks) -> None:
    on = ENGINE.new_game(*decks, options, 21)
    off = ENGINE.new_game(*decks, {**options, "_log": False}, 21)
    r_on = play_game(on, [HeuristicAgent(1), HeuristicAgent(2)])
    r_off = play_game(off, [HeuristicAgent(1), HeuristicAgent(2)])
    assert r_on == r_off and off.log == [] and on.log


def test_from_setup_rejects_bad_positions(options) -> None:
    with pytest.raises(SetupError):
        ENGINE.from_setup({"turn": 1, "bogus": 1}, options, 0)
    with pytest.raises(SetupError):
        ENGINE.from_setup({"players": [{"hand": [{"x": "missing-card"}]}, {}]}, options, 0)
    with pytest.raises(SetupError):
        ENGINE.from_setup({"phase": "lunch"}, options, 0)
    potion = {"name": "药水", "kind": "item", "subtype": "normal", "cost": 1}
    with pytest.raises(SetupError):
        ENGINE.from_setup({"cards": {"potion": potion}, "players": [{"creatures": [{"x": "potion"}]}, {}]}, options, 0)


_TRIGGERS = ["on_play", "on_destroyed", "activated", "continuous", "start_of_turn", "end_of_turn", "weird"]
_ACTIONS = ["draw", "damage", "heal", "gain_life", "modify_stats", "destroy", "return_to_hand", "negate",
            "add_mana", "add_poison"]
_TARGETS = ["self", "this", "opponent", "any_player", "own_creature", "enemy_creature", "any_creature",
            "own_creatures", "enemy_creatures", "attacker", None]


def _random_card(r, n: int) -> dict:
    """A card with arbitrary (often odd) values, as a designer's half-finished card may have."""
    kind = r.choice(["creature", "creature", "magic", "item"])
    card = {"id": f"c{n}", "name": f"卡{n}", "kind": kind, "cost": r.choice([0, 1, 2, 3, 5, "X", None, "7"]),
            "text": r.choice(["", "效果"]),
            "subtype": r.choice(["normal", "quick", "continuous", "aura", "equip", "field", "artifact",
                                 "artifact_creature"])}
    if kind == "creature" or r.random() < 0.2:
        card.update(stars=r.randint(0, 12), atk=r.choice([0, 1, 2, 5, 9, -1, "a"]), **{"def": r.choice([0, 1, 3, 7])})
    effects = []
    for _ in range(r.randint(0, 3)):
        e = {"trigger": r.choice(_TRIGGERS), "action": r.choice(_ACTIONS)}
        target = r.choice(_TARGETS)
        if target:
            e["target"] = target
        if r.random() < 0.7:
            e["amount"] = r.choice([0, 1, 2, 3, "X"])
        if r.random() < 0.3:
            e["stats"] = {"atk": r.randint(-3, 3), "def": r.randint(-3, 3)}
        if r.random() < 0.3:
            e["cost"] = {"mana": r.choice([0, 1, "X"]), "tap": r.random() < 0.5}
        if r.random() < 0.3:
            e["speed"] = r.randint(0, 4)
        if r.random() < 0.3:
            e["once_per_turn"] = r.random() < 0.5
        effects.append(e)
    if effects:
        card["effects"] = effects
    if r.random() < 0.2:
        card["keywords"] = ["taunt"]
    return card


def test_random_card_data_never_breaks_the_engine(options) -> None:
    """Odd card data (bad costs, unknown effects, tiny decks) plays out without a crash."""
    import random

    r = random.Random(2026)
    for g in range(150):
        pool = [_random_card(r, n) for n in range(12)]
        decks = [{"main": [r.choice(pool) for _ in range(r.choice([3, 20, 40]))]} for _ in range(2)]
        s = ENGINE.new_game(decks[0], decks[1], {**options, "_log": g % 3 == 0}, g)
        agents = [HeuristicAgent(g) if g % 2 else RandomAgent(g), RandomAgent(g + 1)]
        _play_checked(s, agents, limit=20_000, every=25)
        assert s.result().reason
