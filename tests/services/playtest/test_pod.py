"""Pods (RULES.md §3.9.6): deck A with N−1 opponents, seats rotated, its share against 1/N."""

from __future__ import annotations

import json
import subprocess
import time
import sys
from pathlib import Path

import pytest

from workbench.services.playtest import service
from workbench.services.playtest.pod import Pod, pod_from_data, pod_to_data, run_pod, seating
from workbench.services.playtest.runner import CancelledRun, PlaytestError
from workbench.storage.repository import Repository

ROOT = Path(__file__).resolve().parents[3]
A, B = "lie-yan-ji-feng", "pan-shi-chao-xi"


def pod_of(decks: list[str], **kw) -> Pod:
    pod, _ = service.prepare_pod(Repository(ROOT / "card_data"), "fusion", decks[0], decks[1:], **kw)
    return pod


@pytest.mark.parametrize("players", [3, 4])
def test_a_rotation_seats_deck_a_in_every_seat_once(players: int) -> None:
    for rotation in range(3):
        games = [seating(rotation * players + r, players) for r in range(players)]
        for seat in range(players):  # every deck sits in every seat once
            assert sorted(g[seat] for g in games) == list(range(players))
        assert [g.index(0) for g in games] == list(range(players))  # deck A moves first (seat 0) once


def test_pod_report_compares_deck_a_with_the_fair_share_and_is_the_same_on_any_workers() -> None:
    pod = pod_of([A, A, A], seed=3)
    one = run_pod(pod, 60, workers=1)
    two = run_pod(pod, 60, workers=2)
    assert one["records"] == two["records"]
    assert one["kind"] == "pod" and one["players"] == 3 and one["fair_share"] == pytest.approx(1 / 3)
    assert one["rotations"] == 20 and one["games"] == 60
    assert one["headline"].startswith("3-player pod: deck A")
    assert "fair share 1/3" in one["headline"]
    score = one["score_a"]
    low, high = score["ci95"]
    assert low <= score["value"] <= high and score["n"] == 20
    # three copies of one deck: a fair pod, the interval holds 1/3
    assert low <= 1 / 3 <= high and one["verdict"] == "even"
    shares = sum(d["score"]["value"] for d in one["decks"])
    assert shares == pytest.approx(1.0)
    assert sum(one["places_a"].values()) == 60
    assert [r["seat"] for r in one["score_a_by_seat"]] == [0, 1, 2]
    assert all(r["n"] == 20 for r in one["score_a_by_seat"])


def test_games_round_up_to_whole_rotations_and_the_pod_keeps_as_data() -> None:
    pod = pod_of([A, B, B, A], agents=("random", "random"))
    report = run_pod(pod, 5, workers=1)
    assert report["games"] == 8 and report["rotations"] == 2 and report["fair_share"] == 0.25
    again = pod_from_data(json.loads(json.dumps(pod_to_data(pod))))
    assert run_pod(again, 5, workers=1)["records"] == report["records"]


def test_pods_need_an_engine_that_seats_them() -> None:
    repo = Repository(ROOT / "card_data")
    seth = [d.id for d in repo.list_decks("seth")]
    with pytest.raises(PlaytestError, match="seats 2"):
        service.prepare_pod(repo, "seth", seth[0], [seth[1], seth[0]])
    with pytest.raises(PlaytestError, match="players is 4"):
        service.prepare_pod(repo, "fusion", A, [B, B], overrides={"players": "4"})


def test_cli_pod(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "workbench", "playtest", "fusion", A, B, "--option", "players=3",
                          "--games", "12", "--workers", "1", "--json", "--quiet", "--data", str(ROOT / "card_data")],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    report = json.loads(out.stdout)
    assert report["kind"] == "pod" and report["opponents"] == [B, B] and report["games"] == 12
    text = subprocess.run([sys.executable, "-m", "workbench", "playtest", "fusion", A, B, A, "--games", "6",
                           "--workers", "1", "--quiet", "--data", str(ROOT / "card_data")],
                          capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert text.startswith("3-player pod: deck A (lie-yan-ji-feng)")


def test_deck_a_losing_every_rotation_of_a_short_run_is_not_certainly_zero() -> None:
    """The interval over rotations is Wilson's, as over the two-player pairs: four rotations with
    no win read 0 %–49 %, not the 0 %–0 % a normal interval from the (zero) sample spread gave."""
    from workbench.domain.stats import wilson_interval
    from workbench.services.playtest.pod import mean_interval

    score = mean_interval([0.0, 0.0, 0.0, 0.0])
    assert score["value"] == 0 and score["ci95"] == list(wilson_interval(0, 4)) and score["ci95"][1] > 0.48
    mixed = mean_interval([1.0, 0.0, 1 / 3, 2 / 3])
    assert mixed["ci95"][0] < 0.5 < mixed["ci95"][1]


class _Ponderer:
    """A random fusion player that thinks a tenth of a second a decision (as a search player
    thinks for seconds): a chunk of games takes minutes."""

    def __init__(self, seed: int) -> None:
        from workbench.domain.engines.base import RandomAgent

        self.agent = RandomAgent(seed)

    def choose(self, state, player):
        time.sleep(0.1)
        return self.agent.choose(state, player)


def test_a_cancel_stops_a_one_worker_pod_run_between_two_decisions(monkeypatch) -> None:
    from workbench.domain.engines.fusion import ENGINE

    monkeypatch.setitem(ENGINE.agents, "ponderer", _Ponderer)
    pod = pod_of([A, B, A], seed=3, agents=("ponderer", "ponderer"))
    started = time.monotonic()
    with pytest.raises(CancelledRun):
        run_pod(pod, 30, workers=1, should_cancel=lambda: time.monotonic() - started > 1.0)
    assert time.monotonic() - started < 2.5, "stopped within a few decisions, not after the chunk"
