"""Background playtest runs: a thread per run, progress kept in memory, the result saved as a run.

The web page starts a job and polls its progress; the job keeps running when the page is closed,
because it belongs to the server process, not to the request. When it ends, the run is written
with :class:`workbench.storage.playtest_runs.RunStore` under the id given at the start.
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.domain import stats
from workbench.services.playtest.runner import CancelledRun, Matchup, run_matchup
from workbench.storage.playtest_runs import RunStore, new_run_id


def build_run(matchup: Matchup, facts: Mapping[str, Any], report: Mapping[str, Any], games: int,
              workers: int | None, stop: Mapping[str, Any] | None) -> dict[str, Any]:
    """The stored form of a finished matchup: what was asked, the decks' versions, the report."""
    return {
        "kind": "matchup",
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "engine": matchup.engine,
        "agents": list(matchup.agents),
        "games_requested": games,
        "seed": matchup.seed,
        "workers": workers,
        "early_stop": dict(stop) if stop else None,
        **facts,
        "options": {k: v for k, v in matchup.options.items() if not k.startswith("_")},
        "report": dict(report),
    }


@dataclass
class Job:
    """One background run and its progress."""

    id: str
    game: str
    total: int
    status: str = "running"
    done: int = 0
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    error: str | None = None
    cancel: threading.Event = field(default_factory=threading.Event)

    def progress(self) -> dict[str, Any]:
        """Progress as JSON: status, done/total, elapsed, rate (games/s) and time left."""
        elapsed = (self.finished or time.monotonic()) - self.started
        rate = self.done / elapsed if elapsed > 0 and self.done else None
        left = (self.total - self.done) / rate if rate and self.status == "running" else None
        return {
            "id": self.id, "game": self.game, "status": self.status, "done": self.done,
            "total": self.total, "fraction": (self.done / self.total) if self.total else 0.0,
            "elapsed_s": round(elapsed, 2), "games_per_s": round(rate, 1) if rate else None,
            "eta_s": round(left, 1) if left is not None else None, "error": self.error,
        }


class JobRegistry:
    """The runs in progress (and recently ended) of one server process."""

    def __init__(self, store: RunStore) -> None:
        self.store = store
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def start(
        self,
        matchup: Matchup,
        facts: Mapping[str, Any],
        games: int,
        *,
        workers: int | None = None,
        stop: Mapping[str, Any] | None = None,
        runner: Callable[..., dict[str, Any]] = run_matchup,
    ) -> Job:
        """Start a matchup in a daemon thread and return its job (its id is the future run id).

        ``stop`` is ``{"rule": "interval"|"sprt", "margin": 0.03}`` or None.
        Raises StatsError for a bad stop rule (before anything starts).
        """
        rule = stats.make_stop_rule((stop or {}).get("rule"), float((stop or {}).get("margin", 0.03)))

        def work(progress: Callable[[int, int], None], should_cancel: Callable[[], bool]) -> dict[str, Any]:
            report = runner(matchup, games, workers, stop_rule=rule, progress=progress, should_cancel=should_cancel)
            return build_run(matchup, facts, report, games, workers, stop)

        return self.start_task(matchup.game, games + games % 2, work)

    def start_task(
        self,
        game: str,
        total: int,
        work: Callable[[Callable[[int, int], None], Callable[[], bool]], dict[str, Any]],
    ) -> Job:
        """Run ``work(progress, should_cancel)`` in a daemon thread; save the run it returns.

        The saved run's ``report.games`` becomes the job's final count.
        """
        job = Job(id=new_run_id(), game=game, total=total)
        with self._lock:
            self._jobs[job.id] = job

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        def target() -> None:
            try:
                run = work(progress, job.cancel.is_set)
                self.store.save(game, run, job.id)
                played = (run.get("report") or {}).get("games")
                if isinstance(played, int):
                    job.done = job.total = played
                job.status = "done"
            except CancelledRun:
                job.status = "cancelled"
            except Exception as exc:  # noqa: BLE001 - a failed run must report, not kill the thread silently
                job.status = "error"
                job.error = f"{type(exc).__name__}: {exc}"
                traceback.print_exc()
            finally:
                job.finished = time.monotonic()

        threading.Thread(target=target, name=f"playtest-{job.id}", daemon=True).start()
        return job

    def get(self, job_id: str) -> Job | None:
        """The job with this id, if this process started it."""
        with self._lock:
            return self._jobs.get(job_id)

    def running(self) -> list[Job]:
        """Jobs still running."""
        with self._lock:
            return [j for j in self._jobs.values() if j.status == "running"]
