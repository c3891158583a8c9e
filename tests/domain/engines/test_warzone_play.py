"""Whole warzone games: the start of a game, random-playout invariants, replay determinism,
clones, playtest statistics, effects from the sample cards, and the AI players' strength."""

from __future__ import annotations

import pytest

from tests.domain.engines.warzone_fixtures import BASTION, RUSH, options, sample_deck
from workbench.domain.engines.base import Action, RandomAgent, play_game
from workbench.domain.engines.warzone import ENGINE, WarzoneState
from workbench.domain.engines.warzone.agents import HeuristicAgent, MonteCarloAgent
from workbench.domain.engines.warzone.cards import Card, parse_card_effects


def new(seed: int = 1, **opts: object) -> WarzoneState:
    state = ENGINE.new_game(sample_deck(RUSH), sample_deck(BASTION), options(**opts), seed)
    assert isinstance(state, WarzoneState)
    return state


def main_size(deck_id: str) -> int:
    return len(sample_deck(deck_id)["main"])


# ------------------------------------------------------------------ §1.3 start of game

def test_start_areas_hands_life_and_the_first_wake_draw() -> None:
    state = new()
    snap = ENGINE.snapshot(state)
    p0, p1 = snap["players"]
    assert p0["life"] == p1["life"] == 2500
    assert p0["hand_count"] == p1["hand_count"] == 8
    # §1.12.4: the first player places its Areas first, in the open, then the second player
    assert snap["phase"] == "start" and snap["turn"] == 0
    assert snap["pending"] == {"kind": "areas", "player": 0} and snap["to_act"] == [0]
    assert p0["areas"] == p1["areas"] == [None, None, None]
    choices = state.legal_actions(0)
    assert len(choices) == len({tuple(state.p[0].areas) for _ in choices}) * len(choices)
    assert len({a.args for a in choices}) == len(choices) >= 2
    first = choices[-1]
    state.apply(first)
    snap = ENGINE.snapshot(state)
    assert snap["players"][0]["areas"] == list(first.args)
    assert snap["to_act"] == [1] and snap["pending"]["kind"] == "areas"
    state.apply(state.legal_actions(1)[0])
    snap = ENGINE.snapshot(state)
    p0, p1 = snap["players"]
    assert all(a is not None for a in p0["areas"] + p1["areas"])
    assert p0["hand_count"] == 9 and p0["field"] == {}  # 8 + the Wake draw; nothing chosen yet
    assert p1["hand_count"] == 8 and p1["deck_count"] == main_size(BASTION) - 8
    assert p0["deck_count"] == main_size(RUSH) - 9
    assert snap["turn"] == 1 and snap["active"] == 0 and snap["to_act"] == [0]


def test_start_options_change_life_and_hand() -> None:
    snap = ENGINE.snapshot(new(start_life=1500, start_hand=5))
    assert snap["players"][1]["life"] == 1500 and snap["players"][1]["hand_count"] == 5


def test_first_turn_offers_no_attack_even_with_creatures() -> None:
    state = new(seed=3)
    agent = RandomAgent(0)
    while state.turn == 1 and not state.is_terminal():
        assert all(a.kind != "attack" for a in state.legal_actions(state.to_act()[0]))
        state.apply(agent.choose(state, state.to_act()[0]))


# ------------------------------------------------------------------ invariants

def _check_invariants(state: WarzoneState, totals: tuple[int, int]) -> None:
    assert (state.card_total(0), state.card_total(1)) == totals
    for pl in state.p:
        for u in pl.field:
            assert u.pos in ("battling", "guarding")
            assert state.left(u) > 0 or (state.left(u) == 0 and u.zero_ok), u.iid
            assert 1 <= u.cls <= 3
    if not state.is_terminal():
        acting = state.to_act()
        assert len(acting) == 1
        assert state.legal_actions(acting[0])
        assert state.legal_actions(1 - acting[0]) == []


@pytest.mark.slow
def test_random_playouts_never_crash_conserve_cards_and_terminate() -> None:
    totals = (main_size(RUSH) + 3, main_size(BASTION) + 3)
    reasons = set()
    for seed in range(300):
        state = new(seed, _log=False)
        agents = [RandomAgent(seed), RandomAgent(seed + 7)]
        steps = 0
        while not state.is_terminal():
            _check_invariants(state, totals)
            p = state.to_act()[0]
            state.apply(agents[p].choose(state, p))
            steps += 1
            assert steps < 5000
        _check_invariants(state, totals)
        result = state.result()
        assert result.winner in (0, 1, None)
        reasons.add(result.reason.split(" ", 1)[1][:20])
    assert len(reasons) >= 2  # games end in more than one way


def test_random_playouts_under_every_decision_variant() -> None:
    variants = [
        {"recruit_limit_by_highest_degree": False}, {"guarding_can_attack": True},
        {"position_change_once_per_turn": False}, {"interceptors_per_attack": 0},
        {"interceptors_per_attack": 2}, {"damage_pile_loss_immediate": False},
        {"attacker_excess_battle_damage": False}, {"damage_step_single": False},
        {"first_turn_no_attack": False}, {"traps_set_first": False},
        {"heal_before_pile_loss": False},
    ]
    for i, variant in enumerate(variants):
        for seed in range(15):
            state = new(seed + 100 * i, _log=False, **variant)
            result = play_game(state, [RandomAgent(seed), HeuristicAgent(seed)], max_steps=20_000)
            assert result.winner in (0, 1, None)


# ------------------------------------------------------------------ determinism and clones

def test_same_seed_and_actions_replay_the_same_log() -> None:
    first = new(42)
    result = play_game(first, [RandomAgent(5), HeuristicAgent(6)])
    second = new(42)
    again = play_game(second, [RandomAgent(5), HeuristicAgent(6)])
    assert first.log == second.log and result == again
    assert len(first.log) > 20
    other = new(43)
    play_game(other, [RandomAgent(5), HeuristicAgent(6)])
    assert other.log != first.log  # the seed, not chance, decides


def test_replaying_recorded_actions_reproduces_the_game() -> None:
    state = new(9)
    agents = [HeuristicAgent(1), RandomAgent(2)]
    actions: list[Action] = []
    while not state.is_terminal():
        p = state.to_act()[0]
        act = agents[p].choose(state, p)
        actions.append(Action(act.kind, act.args))
        state.apply(act)
    replay = new(9)
    for act in actions:
        replay.apply(act)
    assert replay.log == state.log and replay.result() == state.result()


def test_a_clone_is_independent_and_plays_on_identically() -> None:
    state = new(11)
    agent = RandomAgent(3)
    for _ in range(40):
        state.apply(agent.choose(state, state.to_act()[0]))
    copy = state.clone()
    snap = ENGINE.snapshot(state)
    assert ENGINE.snapshot(copy) == snap
    rest = [RandomAgent(8), RandomAgent(9)]
    play_game(copy, rest)
    assert ENGINE.snapshot(state) == snap  # the original did not move
    play_game(state, [RandomAgent(8), RandomAgent(9)])
    assert state.log == copy.log and state.result() == copy.result()


# ------------------------------------------------------------------ playtest statistics

def test_stats_record_drawn_played_and_unsimulated_cards() -> None:
    state = new(5)
    play_game(state, [HeuristicAgent(1), HeuristicAgent(2)])
    stats = state.stats
    assert stats.played[0] and stats.played[1]
    areas = [{c["id"] for c in sample_deck(d)["area"]} for d in (RUSH, BASTION)]
    assert areas[0] <= stats.played[0] and areas[1] <= stats.played[1]  # placed at the start
    assert stats.played[0] <= stats.drawn[0] | areas[0]
    assert stats.played[1] <= stats.drawn[1] | areas[1]
    # Text-only cards of the two decks: the engine cannot run them and says so.
    assert {"colossus-of-the-tidewall", "eclipse-oracle", "fog-of-the-marches",
            "mirror-ward"} <= stats.unsimulated
    assert "firepot-volley" not in stats.unsimulated and "ember-foundry" not in stats.unsimulated


def test_effect_parsing_keeps_what_the_engine_runs_and_flags_the_rest() -> None:
    parsed = parse_card_effects("spell", [
        {"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 300},
        {"trigger": "on_play", "action": "add_mana", "amount": 1},
    ])
    assert [e.action for e in parsed.runnable] == ["damage"]
    assert [(s.index, s.code) for s in parsed.skipped] == [(1, "effect.unsimulated")]
    assert "does not run add_mana" in parsed.skipped[0].reason
    card = Card("a-x-1", {"id": "x", "name": "X", "kind": "spell", "text": "Something odd."}, 0)
    assert card.unsimulated
    card = Card("a-y-1", {"id": "y", "kind": "creature", "class": 2, "strength": 500,
                          "resilience": 400}, 0)
    assert not card.unsimulated and card.cls == 2


def test_logging_can_be_switched_off() -> None:
    state = new(4, _log=False)
    play_game(state, [RandomAgent(1), RandomAgent(2)])
    assert state.log == []


def test_log_tells_who_did_what_and_why_it_ended() -> None:
    state = new(8)
    result = play_game(state, [HeuristicAgent(1), HeuristicAgent(2)])
    text = "\n".join(state.log)
    assert "Turn 1 — P1 wakes" in text and "recruits" in text
    assert "game over" in state.log[-1] and result.reason in state.log[-1]


# ------------------------------------------------------------------ AI players

def _win_rate(deck_h: str, deck_r: str, games: int) -> float:
    wins = 0
    for i in range(games):
        h = i % 2  # alternate seats
        decks = [sample_deck(deck_r), sample_deck(deck_r)]
        decks[h] = sample_deck(deck_h)
        state = ENGINE.new_game(decks[0], decks[1], options(_log=False), 1000 + i)
        agents = [RandomAgent(i), RandomAgent(i)]
        agents[h] = HeuristicAgent(i)
        wins += play_game(state, agents).winner == h
    return wins / games


@pytest.mark.slow
def test_heuristic_beats_random_clearly() -> None:
    assert _win_rate(RUSH, RUSH, 100) >= 0.85
    assert _win_rate(BASTION, BASTION, 100) >= 0.85
    assert _win_rate(RUSH, BASTION, 100) + _win_rate(BASTION, RUSH, 100) >= 2 * 0.7


def test_montecarlo_player_makes_legal_moves() -> None:
    state = new(2)
    mc = MonteCarloAgent(0, playouts=2, max_candidates=2)
    rnd = RandomAgent(1)
    war_choices = 0
    while not state.is_terminal() and war_choices < 3:
        p = state.to_act()[0]
        if p == 0 and state.phase == "war" and state.pending is None:
            war_choices += 1
        act = (mc if p == 0 else rnd).choose(state, p)
        assert act in state.legal_actions(p)
        state.apply(act)
    assert war_choices == 3 or state.is_terminal()


def test_random_agent_choices_depend_only_on_its_seed() -> None:
    a, b = new(6), new(6)
    ra, rb = RandomAgent(4), RandomAgent(4)
    for _ in range(30):
        if a.is_terminal():
            break
        x = ra.choose(a, a.to_act()[0])
        y = rb.choose(b, b.to_act()[0])
        assert x == y
        a.apply(x)
        b.apply(y)


def test_position_value_favours_the_side_ahead() -> None:
    from workbench.domain.engines.warzone.agents import position_value

    def board(life_b: int, extra: bool) -> WarzoneState:
        field = [{"name": "a-x", "class": 1, "strength": 500, "resilience": 500}]
        if extra:
            field.append({"name": "a-y", "class": 2, "strength": 800, "resilience": 800})
        setup = {"turn": 3, "players": [
            {"field": field, "deck": [{"name": "a-f", "class": 1}]},
            {"life": life_b,
             "field": [{"name": "b-x", "class": 1, "strength": 500, "resilience": 500}],
             "deck": [{"name": "b-f", "class": 1}]}]}
        state = ENGINE.from_setup(setup, options(), 0)
        assert isinstance(state, WarzoneState)
        return state

    even = board(2500, False)
    assert position_value(even, 0) == pytest.approx(0.5)
    assert position_value(board(1500, False), 0) > 0.5 > position_value(board(1500, False), 1)
    assert position_value(board(2500, True), 0) > position_value(even, 0)
