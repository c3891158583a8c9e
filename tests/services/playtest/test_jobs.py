"""Background runs keep their state in the data folder: any registry (server process) sees their
progress, a run whose process is gone is interrupted, and resuming it gives the uninterrupted report."""

from __future__ import annotations

import subprocess
import threading
import time

import pytest

from tests.services.playtest.test_runner import matchup, without_timing
from workbench.services.playtest import jobs as jobs_module
from workbench.services.playtest.jobs import HOST, JobRegistry, status_of
from workbench.services.playtest.runner import Partial, PlaytestError, matchup_from_data, matchup_to_data, run_matchup
from workbench.storage.playtest_runs import LiveRuns, RunStore, new_run_id

FACTS = {"decks": {"a": {"id": None, "name": "A", "version": None}, "b": {"id": None, "name": "B", "version": None}}}


def registry(repo, checkpoint_s: float = 0.0) -> JobRegistry:
    return JobRegistry(RunStore(repo), write_interval_s=0.01, checkpoint_s=checkpoint_s, stale_s=30.0)


def wait_for(condition, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("timed out")


def dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def crashed_run(repo, m, games: int, kept: int, game: str = "seth", facts: dict | None = None,
                by: str | None = None) -> str:
    """The files a server process killed mid-run leaves: what to play, the games kept at its last
    checkpoint, and a "running" state whose process no longer exists."""
    live = LiveRuns(repo)
    run_id = new_run_id()
    saved: list[dict] = []
    run_matchup(m, kept, 1, checkpoint=lambda p: saved.append(p.to_data()))
    live.write_spec(game, run_id, {"kind": "matchup", "matchup": matchup_to_data(m), "facts": facts or FACTS,
                                   "games": games, "workers": 1, "stop": None})
    live.write_partial(game, run_id, saved[-1])
    live.write_state(game, run_id, {"kind": "matchup", "status": "running", "done": kept + 30, "total": games,
                                    "kept": kept, "elapsed_s": 1.5, "rate": 100.0, "heartbeat": time.time(),
                                    "resumable": True, "error": None, "by": by,
                                    "owner": {"host": HOST, "pid": dead_pid(), "token": "an-earlier-process"}})
    return run_id


def test_a_matchup_survives_json_with_its_copies_in_order():
    m = matchup(boost_a=2, seed=3)
    again = matchup_from_data(matchup_to_data(m))
    assert again == m
    assert without_timing(run_matchup(again, 40, 1)) == without_timing(run_matchup(m, 40, 1))


def test_an_interrupted_run_shows_what_it_kept_and_resuming_gives_the_uninterrupted_report(repo):
    m = matchup(boost_a=1)
    m = type(m)(**{**m.__dict__, "game": "seth"})
    run_id = crashed_run(repo, m, 400, kept=160)
    jobs = registry(repo)
    progress = jobs.progress("seth", run_id)
    assert progress["status"] == "interrupted" and progress["resumable"]
    assert (progress["done"], progress["total"]) == (160, 400)  # the games a resume keeps
    assert [p["id"] for p in jobs.unfinished("seth")] == [run_id]

    job = jobs.resume("seth", run_id)
    assert job.id == run_id and job.done == 160
    wait_for(lambda: job.status != "running")
    assert job.status == "done", job.error
    resumed = RunStore(repo).get("seth", run_id)
    assert without_timing(resumed["report"]) == without_timing(run_matchup(m, 400, 1))
    # The live files go a moment after the job's own status changes.
    wait_for(lambda: LiveRuns(repo).state("seth", run_id) is None and jobs.unfinished("seth") == [])
    with pytest.raises(PlaytestError, match="no unfinished"):
        jobs.resume("seth", run_id)


def test_another_process_sees_the_progress_cancels_and_resumes_the_run(repo):
    gate = threading.Event()

    def gated(matchup_, games, workers, **kwargs):
        inner = kwargs["progress"]

        def progress(done, total):
            inner(done, total)
            if done >= 200:
                gate.wait(10)

        kwargs["progress"] = progress
        return run_matchup(matchup_, games, workers, chunk_size=100, **kwargs)

    m = matchup(boost_a=1)
    m = type(m)(**{**m.__dict__, "game": "seth"})
    mine, other = registry(repo, checkpoint_s=60.0), registry(repo)  # mine keeps games only when cancelled
    job = mine.start(m, FACTS, 600, workers=1, runner=gated)
    seen = wait_for(lambda: (p := other.progress("seth", job.id)) and p["done"] >= 200 and p)
    assert seen["status"] == "running" and seen["total"] == 600
    with pytest.raises(PlaytestError, match="running"):
        other.resume("seth", job.id)
    other.cancel("seth", job.id)  # not its job: it leaves a request in the data folder
    gate.set()
    wait_for(lambda: job.status != "running")
    assert job.status == "cancelled"
    # The writer thread writes the final state a moment after the job's own status changes.
    stopped = wait_for(lambda: (p := other.progress("seth", job.id)) and p["status"] != "running" and p)
    assert stopped["status"] == "cancelled" and stopped["resumable"] and 200 <= stopped["done"] < 600
    assert stopped["done"] == LiveRuns(repo).partial("seth", job.id)["done"] == job.done  # every game played is kept

    resumed = other.resume("seth", job.id)
    wait_for(lambda: resumed.status != "running")
    assert resumed.status == "done", resumed.error
    report = RunStore(repo).get("seth", job.id)["report"]
    assert without_timing(report) == without_timing(run_matchup(m, 600, 1))


def test_a_state_is_interrupted_when_its_heartbeat_stops_or_its_process_is_a_later_one():
    now = time.time()
    elsewhere = {"status": "running", "heartbeat": now - 5, "owner": {"host": "another-host", "pid": 1, "token": "t"}}
    assert status_of(elsewhere, stale_s=30, now=now) == "running"
    assert status_of(elsewhere, stale_s=30, now=now + 60) == "interrupted"
    import os

    me_before_restart = {"status": "running", "heartbeat": now,
                         "owner": {"host": HOST, "pid": os.getpid(), "token": "not-" + jobs_module.process_token()}}
    assert status_of(me_before_restart, stale_s=30, now=now) == "interrupted"
    assert status_of({**me_before_restart, "status": "cancelled"}, stale_s=30, now=now) == "cancelled"


def test_a_gauntlet_like_task_reports_through_the_data_folder_but_cannot_be_resumed(repo):
    jobs = registry(repo)
    release = threading.Event()

    def work(progress, should_cancel):
        progress(3, 10)
        release.wait(10)
        raise RuntimeError("boom")

    job = jobs.start_task("seth", 10, work, kind="gauntlet")
    seen = wait_for(lambda: (p := registry(repo).progress("seth", job.id)) and p["done"] == 3 and p)
    assert seen["kind"] == "gauntlet" and not seen["resumable"]
    release.set()
    wait_for(lambda: job.status != "running")
    failed = registry(repo).progress("seth", job.id)
    assert failed["status"] == "error" and "boom" in failed["error"]
    with pytest.raises(PlaytestError):
        jobs.resume("seth", job.id)


def test_a_saved_partial_must_be_consistent():
    with pytest.raises(PlaytestError):
        Partial.from_data({"games": [["a", 3, "x"]], "tally": {}})


def test_a_run_saved_just_before_its_process_died_is_finished_not_interrupted(repo):
    m = matchup()
    m = type(m)(**{**m.__dict__, "game": "seth"})
    run_id = crashed_run(repo, m, 40, kept=20)
    RunStore(repo).save("seth", {"kind": "matchup", "report": {"games": 40}}, run_id)
    jobs = registry(repo)
    assert jobs.unfinished("seth") == []
    with pytest.raises(PlaytestError, match="no unfinished"):
        jobs.resume("seth", run_id)
    assert LiveRuns(repo).state("seth", run_id) is None
