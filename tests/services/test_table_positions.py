"""The kept table positions: a replay that starts from one is the replay from the seed."""

from __future__ import annotations

import random

import pytest

from workbench.services import table as tables
from workbench.services import table_positions
from workbench.services.table_positions import POSITIONS, PositionCache, fingerprint

DECKS = {"warzone": ("iron-bastion", "vanguard-rush"), "seth": ("rot-and-stone", "skyburn-blitz"),
         "fusion": ("lie-yan-ji-feng", "pan-shi-chao-xi")}


@pytest.fixture(autouse=True)
def empty_cache():
    POSITIONS.clear()
    yield
    POSITIONS.clear()


def a_table(repo, game: str, opponent: str = "heuristic", seed: int = 3, table_id: str = "t1") -> dict:
    you, them = DECKS[game]
    return tables.new_table(repo, game, you, them, opponent=opponent, seed=seed, table_id=table_id)


def from_the_seed(table: dict, upto: int | None = None) -> tables.Position:
    """The replay as it was before positions were kept: from the seed, every decision."""
    POSITIONS.clear()
    return tables.replay(table, upto, track=True)


def same_position(a: tables.Position, b: tables.Position, table: dict) -> None:
    assert a.step == b.step
    assert a.log_marks == b.log_marks and a.turns == b.turns
    assert a.state.log == b.state.log
    engine = a.engine
    assert engine.snapshot(a.state) == engine.snapshot(b.state)
    assert a.state.to_act() == b.state.to_act()
    for p in a.state.to_act():
        assert [str(x) for x in a.state.legal_actions(p)] == [str(x) for x in b.state.legal_actions(p)]
        # the AI's choice in the seat, seeded by the step, is the same in both
        if table["seats"][p]["player"] != tables.HUMAN:
            assert str(tables.agent_choice(table, a, p)) == str(tables.agent_choice(table, b, p))


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion"])
def test_each_move_from_a_kept_position_is_the_game_replayed_from_its_seed(repo, game):
    """A whole game played move by move through the kept positions: at every decision (every
    seventh after the sixtieth) the position (log, board, moves, the AI's choice) is the one a
    replay from the seed reaches, and so is the result."""
    table = a_table(repo, game)
    rng = random.Random(11)
    for step in range(600):
        cached = tables.replay(table, track=True)
        assert cached.step == len(table["actions"])
        if step < 60 or step % 7 == 0:  # each comparison replays the game so far from the seed
            same_position(cached, from_the_seed(table), table)
            tables.replay(table, track=True)  # keep the position again (from_the_seed forgot it)
        state = cached.state
        if state.is_terminal():
            break
        acting = state.to_act()
        if 0 in acting:
            legal = state.legal_actions(0)
            tables.human_move(table, 0, rng.randrange(len(legal)))
        else:
            tables.ai_move(table)
    assert table["result"] is not None, "the game ends within 600 decisions"
    assert table["result"] == tables._result_data(table, from_the_seed(table).state)


def test_a_request_replays_only_the_decisions_since_the_kept_position(repo, monkeypatch):
    table = a_table(repo, "fusion", opponent="random")
    for _ in range(40):
        tables.ai_move(table) if 0 not in tables.replay(table).state.to_act() else tables.human_move(table, 0, 0)
    applied: list[int] = []
    position = tables.replay(table, track=True)
    real = type(position.state).apply
    monkeypatch.setattr(type(position.state), "apply", lambda self, a: applied.append(1) or real(self, a))
    tables.human_move(table, 0, 0) if 0 in position.state.to_act() else tables.ai_move(table)
    assert applied == [1], "the move itself, and no decision replayed"
    applied.clear()
    tables.replay(table, track=True)
    assert applied == [], "nothing to replay: the kept position is the table's"


def test_an_undo_or_a_changed_table_replays_from_the_seed(repo):
    table = a_table(repo, "warzone", opponent="random")
    for _ in range(30):
        position = tables.replay(table, track=True)
        if 0 in position.state.to_act():
            tables.human_move(table, 0, len(position.state.legal_actions(0)) - 1)
        else:
            tables.ai_move(table)
    tables.replay(table, track=True)
    tables.undo_to(table, 12)  # another history from decision 12 on
    after_undo = tables.replay(table, track=True)
    same_position(after_undo, from_the_seed(table), table)
    # a kept position of another table with the same id (a file restored, another seed) is not used
    tables.replay(table, track=True)
    other = dict(table, seed=table["seed"] + 1, actions=[])
    assert POSITIONS.usable(other, fingerprint(other), 0) is None
    assert tables.replay(other, track=True).step == 0
    # a kept position past the decisions asked for (a replay stepped back) is not used either
    tables.replay(table, track=True)
    assert POSITIONS.usable(table, fingerprint(table), 5) is None
    same_position(tables.replay(table, 5, track=True), from_the_seed(table, 5), table)


def test_a_position_played_on_by_its_caller_leaves_the_kept_one_alone(repo):
    """The caller of replay plays on the position it gets (a move, an AI step): the kept copy of
    the same position does not move with it."""
    table = a_table(repo, "seth", opponent="random")
    position = tables.replay(table, track=True)
    log_before = list(position.state.log)
    for _ in range(5):  # play on the returned position directly, without recording the moves
        state = position.state
        chosen = {p: state.legal_actions(p)[0] for p in state.to_act()}
        if len(chosen) == 1:
            state.apply(next(iter(chosen.values())))
        else:
            state.apply_joint(chosen)
    assert position.state.log != log_before
    again = tables.replay(table, track=True)
    assert again.state.log == log_before
    same_position(again, from_the_seed(table), table)


def test_the_cache_keeps_the_most_recently_used_tables_only():
    cache = PositionCache(size=2)
    kept = {}
    for name in ("a", "b", "c"):
        table = {"id": name, "engine": "x", "seed": 1, "options": {}, "deck_lists": [], "card_data": {}, "actions": []}
        kept[name] = table
        cache.keep(table, table_positions.KeptPosition(fingerprint(table), (), None, None, (0,), (None,)))
    assert cache.usable(kept["a"], fingerprint(kept["a"]), 0) is None
    assert cache.usable(kept["b"], fingerprint(kept["b"]), 0) is not None
    assert cache.usable(kept["c"], fingerprint(kept["c"]), 0) is not None


def test_a_deleted_table_forgets_its_kept_position(repo):
    table = a_table(repo, "warzone", opponent="random")
    tables.replay(table, track=True)
    assert POSITIONS.usable(table, fingerprint(table), 0) is not None
    tables.forget_position(table["id"])
    assert POSITIONS.usable(table, fingerprint(table), 0) is None


def test_a_table_whose_card_data_holds_a_date_is_kept_too():
    """A YAML card file may give a date (``printed: 2026-01-01``) before the table is saved as JSON."""
    import datetime

    table = {"id": "d", "engine": "warzone", "seed": 1, "options": {}, "deck_lists": [],
             "card_data": {"c": {"printed": datetime.date(2026, 1, 1)}}, "actions": []}
    assert fingerprint(table) == fingerprint(dict(table)) != fingerprint(dict(table, seed=2))
