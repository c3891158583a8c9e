"""The batch runner: seeds, seat swapping, worker-count independence, early stop, variants."""

from __future__ import annotations

import multiprocessing
import time
from dataclasses import replace

import pytest

from tests.services.playtest import race_engine
from workbench.domain import stats
from workbench.services.playtest import runner
from workbench.services.playtest.runner import Matchup, PlaytestError, run_matchup


def matchup(boost_a: int = 0, boost_b: int = 0, seed: int = 7, **options) -> Matchup:
    a = race_engine.deck(boost_a, duds=1, prefix="a-")
    b = race_engine.deck(boost_b, prefix="b-")
    return Matchup(game="race", engine=race_engine.ENGINE_NAME, deck_a=a, deck_b=b,
                   options={"target": 12, **options}, seed=seed, label_a="A", label_b="B",
                   card_ids={"a": runner.deck_ids(a), "b": runner.deck_ids(b)})


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in {"elapsed_s", "games_per_s", "workers"}}


def test_game_seeds_are_stable_shared_by_each_pair_and_differ_between_pairs():
    assert runner.game_seed(7, 0) == runner.game_seed(7, 1)
    assert runner.game_seed(7, 2) != runner.game_seed(7, 0)
    assert runner.game_seed(8, 0) != runner.game_seed(7, 0)
    # SHA-256 based, so the same in every process and Python run (hash() would not be).
    assert runner.derive_seed("playtest", 7, 0) == runner.game_seed(7, 0)
    assert 0 <= runner.game_seed(7, 0) < 2**63


def test_every_seed_is_played_twice_with_the_seats_swapped():
    report = run_matchup(matchup(), 40, workers=1)
    records = report["records"]
    assert len(records) == 40
    for even, odd in zip(records[::2], records[1::2], strict=True):
        assert even["seed"] == odd["seed"]
        assert (even["a_seat"], odd["a_seat"]) == (0, 1)
    assert report["win_rate_a_by_seat"]["a_seat_0"]["n"] == 20


def test_seat_swapping_separates_the_first_player_edge_from_deck_strength():
    # Mirror decks: the race gives the first mover a real edge, which must show up as the
    # first player's win rate while deck A (same list as B) stays near 50 %.
    report = run_matchup(matchup(), 2000, workers=1)
    first = report["first_player_win_rate"]
    assert first["ci95"][0] > 0.5
    assert report["win_rate_a"]["ci95"][0] < 0.5 < report["win_rate_a"]["ci95"][1]
    by_seat = report["win_rate_a_by_seat"]
    assert by_seat["a_seat_0"]["value"] > by_seat["a_seat_1"]["value"]


def test_a_stronger_deck_wins_more_and_its_interval_says_so():
    report = run_matchup(matchup(boost_a=3), 400, workers=1)
    assert report["win_rate_a"]["ci95"][0] > 0.6
    assert report["wins_a"] + report["wins_b"] + report["draws"] == report["games"] == 400


def test_the_same_seed_gives_the_same_report_with_any_number_of_workers():
    m = matchup(boost_a=1)
    one = run_matchup(m, 300, workers=1)
    two = run_matchup(m, 300, workers=2, chunk_size=14)
    assert two["workers"] == 2
    assert without_timing(one) == without_timing(two)
    spawned = run_matchup(m, 300, backend=runner.ProcessBackend(2, start_method="spawn"))
    assert without_timing(one) == without_timing(spawned)
    other_seed = run_matchup(matchup(boost_a=1, seed=8), 300, workers=1)
    assert other_seed["records"] != one["records"]


def test_odd_game_counts_round_up_to_whole_pairs():
    assert run_matchup(matchup(), 5, workers=1)["games"] == 6


def test_per_card_stats_and_unsimulated_cards_come_from_the_engine():
    report = run_matchup(matchup(), 50, workers=1)
    assert report["unsimulated_cards"] == ["a-dud-0"]
    rows = {(c["deck"], c["card"]): c for c in report["cards"]}
    assert len(rows) == len(report["cards"]) == 11 + 10  # every card of both decks has a row
    drawn = sum(c["drawn"] for c in report["cards"] if c["deck"] == "a")
    assert drawn >= 2 * report["games"]  # two cards drawn at the start of every game
    assert any(c["played"] for c in report["cards"])


def test_early_stop_reports_how_many_games_it_took_and_does_not_depend_on_workers():
    m = matchup(boost_a=2)
    rule = stats.SPRT(margin=0.05)
    inline = run_matchup(m, 4000, workers=1, stop_rule=rule, chunk_size=10)
    pooled = run_matchup(m, 4000, workers=2, stop_rule=rule, chunk_size=40)
    stop = inline["early_stop"]
    assert stop["stopped"] and stop["verdict"] == "better"
    assert stop["games"] == inline["games"] < 4000
    assert stop["games"] % 2 == 0
    assert without_timing(inline) == without_timing(pooled)


def test_early_stop_that_never_decides_plays_every_game():
    report = run_matchup(matchup(), 60, workers=1, stop_rule=stats.IntervalRule(margin=0.03, min_games=10))
    assert report["games"] == 60
    assert report["early_stop"]["stopped"] is False


def test_rule_options_change_the_games_and_variants_share_seeds():
    short = run_matchup(matchup(target=6), 200, workers=1)
    long = run_matchup(matchup(target=30), 200, workers=1)
    assert long["turns"]["mean"] > short["turns"]["mean"] + 2
    assert [r["seed"] for r in short["records"]] == [r["seed"] for r in long["records"]]


def test_unknown_agents_and_empty_runs_are_refused_with_clear_errors():
    with pytest.raises(PlaytestError, match="no agent 'genius'"):
        run_matchup(Matchup(**{**matchup().__dict__, "agents": ("genius", "heuristic")}), 2, workers=1)
    with pytest.raises(PlaytestError, match="at least 1 game"):
        run_matchup(matchup(), 0, workers=1)
    with pytest.raises(PlaytestError):
        runner.make_backend(0)


def test_replaying_one_game_with_logging_gives_the_recorded_result():
    report = run_matchup(matchup(boost_a=1), 20, workers=1)
    record = report["records"][13]
    replay, state = runner.play_one(matchup(boost_a=1), 13, log=True)
    assert (replay["winner"], replay["turns"], replay["seed"]) == (record["winner"], record["turns"], record["seed"])
    assert state.log and "rolls" in state.log[0]


def test_chunks_cover_every_game_once_in_whole_pairs():
    chunks = runner.plan_chunks(1001, 2)
    covered = [i for start, stop in chunks for i in range(start, stop)]
    assert covered == list(range(1001))
    assert all(start % 2 == 0 for start, _ in chunks)


def test_a_second_kind_of_player_is_checked_on_the_same_seeds_and_flagged_when_it_disagrees():
    same = run_matchup(matchup(), 400, workers=1, agent_check=("heuristic", "heuristic"), agent_check_games=200)
    check = same["agent_check"]
    assert check["games"] == 200 and check["agents"] == ["heuristic", "heuristic"]
    assert check["difference"]["value"] == 0 and not check["disagree"]  # the very same games
    # Deck B's player dawdles half its turns: deck A now wins far more, beyond both intervals.
    other = run_matchup(matchup(), 400, workers=1, agent_check=("heuristic", "random"), agent_check_games=200)
    check = other["agent_check"]
    assert check["disagree"] and check["message"] == runner.AGENT_CHECK_MESSAGE
    assert check["difference"]["ci95"][0] > 0 and check["win_rate_a"]["value"] > 0.7
    with pytest.raises(PlaytestError, match="no agent"):
        run_matchup(matchup(), 10, workers=1, agent_check=("nobody", "nobody"))


def test_a_cancel_stops_a_one_worker_run_between_two_decisions():
    # The slow player thinks a quarter second a decision: a chunk of 100 games takes minutes.
    m = replace(matchup(), agents=("slow", "slow"))
    started = time.monotonic()
    with pytest.raises(runner.CancelledRun):
        run_matchup(m, 400, workers=1, should_cancel=lambda: time.monotonic() - started > 1.0)
    assert time.monotonic() - started < 2.0


def test_a_cancel_kills_the_workers_mid_chunk_and_keeps_the_games_finished_before_it():
    m = replace(matchup(), agents=("slow", "slow"))
    kept: list[int] = []
    asked: list[float] = []

    def should_cancel() -> bool:
        if kept and not asked:  # the first chunks are in; the workers are playing the next ones
            asked.append(time.monotonic())
        return bool(asked)

    with pytest.raises(runner.CancelledRun):
        run_matchup(m, 400, backend=runner.ProcessBackend(2, start_method="spawn"), chunk_size=2,
                    should_cancel=should_cancel, checkpoint=lambda partial: kept.append(partial.done))
    assert time.monotonic() - asked[0] < 2.0
    assert kept[-1] >= 2
    assert multiprocessing.active_children() == []  # every worker process has ended
