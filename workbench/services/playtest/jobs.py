"""Background playtest runs whose state lives in the data folder, so any server process can report
on them and a run interrupted by a restart can be resumed.

A run plays in a daemon thread of the process that started it (a process pool inside). Its
progress is kept in memory and written through :class:`workbench.storage.playtest_runs.LiveRuns`
by one writer thread per registry: at most every ``write_interval_s`` when it changed, and every
``heartbeat_s`` regardless (the heartbeat). The games played so far are kept every
``checkpoint_s``. When the run ends its report is saved with
:class:`workbench.storage.playtest_runs.RunStore` under the id given at the start and the live
files are removed.

A run whose state says "running" but whose process is gone (same host and that process id no longer
exists or is a later server process, or no heartbeat for ``stale_s``) is reported as
"interrupted", with the games it kept; :meth:`JobRegistry.resume` continues a matchup from there.
Per-game seeds derive from (root seed, game index), so the resumed report equals an uninterrupted
run's.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.domain import stats
from workbench.domain.errors import WorkbenchError
from workbench.services.playtest.runner import (
    CancelledRun,
    Matchup,
    Partial,
    PlaytestError,
    matchup_from_data,
    matchup_to_data,
    run_matchup,
)
from workbench.storage.atomic import file_lock
from workbench.storage.playtest_runs import LiveRuns, RunStore, new_run_id

_TOKEN: tuple[int, str] = (0, "")


def process_token() -> str:
    """A random token of this process: tells it apart from an earlier (or forked sibling) server
    process that had the same process id. Made afresh in each process, also after a fork."""
    global _TOKEN
    pid = os.getpid()
    if _TOKEN[0] != pid:
        _TOKEN = (pid, secrets.token_hex(8))
    return _TOKEN[1]


HOST = socket.gethostname()
RESUMABLE = ("interrupted", "cancelled")
DEFAULT_MAX_RUNS = 2  # runs playing at once on the whole server (every process), PLAYTEST_MAX_RUNS
DEFAULT_MAX_RUNS_PER_USER = 1  # per team-mode account, PLAYTEST_MAX_RUNS_PER_USER
DEFAULT_RETRY_S = 30  # Retry-After when no running run can say when it ends


def machine_workers() -> int:
    """The most workers one run may use: the cores of this machine."""
    return max(1, os.cpu_count() or 1)


class RunsBusy(PlaytestError):
    """A start refused because the server (or this user) plays as many runs as allowed.
    ``retry_after`` is the seconds until the soonest of them should end."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after

Work = Callable[[Callable[[int, int], None], Callable[[], bool]], dict[str, Any]]


def _retry_after(runs: list[dict[str, Any]]) -> int:
    """Seconds until the soonest of ``runs`` should end (DEFAULT_RETRY_S when none can tell)."""
    etas = [float(r["eta_s"]) for r in runs if r.get("eta_s") is not None]
    return max(1, int(min(etas)) + 1) if etas else DEFAULT_RETRY_S


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


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # it exists, it is just not ours to signal
    return True


def owner_alive(state: Mapping[str, Any], stale_s: float, now: float | None = None) -> bool:
    """Whether the process that wrote a live state is still playing it (see the module docstring)."""
    owner = state.get("owner") or {}
    now = time.time() if now is None else now
    try:
        if now - float(state.get("heartbeat") or 0) > stale_s:
            return False
        pid = int(owner.get("pid") or 0)
    except (TypeError, ValueError):
        return False
    if owner.get("host") == HOST:
        if pid == os.getpid():
            return owner.get("token") == process_token()
        return _pid_alive(pid)
    return True


def status_of(state: Mapping[str, Any], stale_s: float, now: float | None = None) -> str:
    """A live state's status for readers: "running" turns into "interrupted" when its process is gone."""
    status = str(state.get("status") or "running")
    if status == "running" and not owner_alive(state, stale_s, now):
        return "interrupted"
    return status


def progress_of(state: Mapping[str, Any], stale_s: float, now: float | None = None,
                kept: int | None = None) -> dict[str, Any]:
    """The progress JSON of a live state read from the data folder (any process). ``kept`` is the
    number of games in the saved partial, when known (it may be newer than the state's count)."""
    now = time.time() if now is None else now
    status = status_of(state, stale_s, now)
    total = int(state.get("total") or 0)
    done = int(state.get("done") or 0)
    kept = int(state.get("kept") or 0) if kept is None else kept
    elapsed = float(state.get("elapsed_s") or 0.0)
    if status == "running":
        elapsed += max(0.0, now - float(state.get("heartbeat") or now))
    else:
        done = kept if status in RESUMABLE else done
    rate = float(state["rate"]) if state.get("rate") else None
    left = (total - done) / rate if rate and status == "running" else None
    return {
        "id": state.get("id"), "game": state.get("game"), "kind": state.get("kind", "matchup"),
        "status": status, "done": done, "total": total, "fraction": done / total if total else 0.0,
        "elapsed_s": round(elapsed, 2), "games_per_s": round(rate, 1) if rate else None,
        "eta_s": round(left, 1) if left is not None else None, "error": state.get("error"),
        "kept": kept, "resumable": bool(state.get("resumable")) and status in RESUMABLE,
        "by": state.get("by"),
    }


@dataclass
class Job:
    """One background run of this process and its progress."""

    id: str
    game: str
    total: int
    kind: str = "matchup"
    resumable: bool = False
    by: str | None = None  # the team-mode account that started (or resumed) it
    status: str = "running"
    done: int = 0
    started: float = field(default_factory=time.monotonic)
    elapsed_before: float = 0.0  # playing time before a resume
    done_before: int = 0  # games kept before a resume (not played by this process)
    kept: int = 0
    finished: float | None = None
    error: str | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    changed: bool = True
    written: float = 0.0
    checkpointed: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)  # orders state writes and the final removal

    def elapsed(self) -> float:
        """Playing time so far, including the time before a resume."""
        return self.elapsed_before + (self.finished or time.monotonic()) - self.started

    def rate(self) -> float | None:
        """Games per second played by this process (None before the first chunk)."""
        played = self.done - self.done_before
        seconds = (self.finished or time.monotonic()) - self.started
        return played / seconds if seconds > 0 and played > 0 else None

    def progress(self) -> dict[str, Any]:
        """Progress as JSON: status, done/total, elapsed, rate (games/s) and time left."""
        rate = self.rate()
        left = (self.total - self.done) / rate if rate and self.status == "running" else None
        done = self.kept if self.status in RESUMABLE else self.done
        return {
            "id": self.id, "game": self.game, "kind": self.kind, "status": self.status, "done": done,
            "total": self.total, "fraction": (done / self.total) if self.total else 0.0,
            "elapsed_s": round(self.elapsed(), 2), "games_per_s": round(rate, 1) if rate else None,
            "eta_s": round(left, 1) if left is not None else None, "error": self.error,
            "kept": self.kept, "resumable": self.resumable and self.status in RESUMABLE, "by": self.by,
        }

    def state(self) -> dict[str, Any]:
        """The live state written to the data folder."""
        return {
            "kind": self.kind, "status": self.status, "done": self.done, "total": self.total,
            "kept": self.kept, "elapsed_s": round(self.elapsed(), 3), "rate": self.rate(),
            "heartbeat": time.time(), "error": self.error, "resumable": self.resumable, "by": self.by,
            "owner": {"host": HOST, "pid": os.getpid(), "token": process_token()},
        }


class JobRegistry:
    """The runs this server process plays, and what the data folder says about everyone's runs."""

    def __init__(self, store: RunStore, *, write_interval_s: float = 0.25, heartbeat_s: float = 5.0,
                 checkpoint_s: float = 2.0, stale_s: float = 30.0, max_runs: int | None = None,
                 max_runs_per_user: int | None = None, max_workers: int | None = None) -> None:
        self.store = store
        self.max_runs = max(1, int(max_runs or DEFAULT_MAX_RUNS))
        self.max_runs_per_user = max(1, int(max_runs_per_user or DEFAULT_MAX_RUNS_PER_USER))
        self.max_workers = max(1, min(int(max_workers or machine_workers()), machine_workers()))
        self.live = LiveRuns(store.repo)
        self.write_interval_s = write_interval_s
        self.heartbeat_s = heartbeat_s
        self.checkpoint_s = checkpoint_s
        self.stale_s = stale_s
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._writer: threading.Thread | None = None
        self._wake = threading.Event()

    # ------------------------------------------------------------ starting

    def start(
        self,
        matchup: Matchup,
        facts: Mapping[str, Any],
        games: int,
        *,
        workers: int | None = None,
        stop: Mapping[str, Any] | None = None,
        runner: Callable[..., dict[str, Any]] = run_matchup,
        by: str | None = None,
        agent_check: list[str] | None = None,
    ) -> Job:
        """Start a matchup in a daemon thread and return its job (its id is the future run id).

        ``stop`` is ``{"rule": "interval"|"sprt", "margin": 0.03}`` or None; ``workers`` is cut
        to :attr:`max_workers`; ``by`` names the account starting it; ``agent_check`` two agent
        names that replay the first games (``run_matchup``'s ``agent_check``) or None. Raises
        StatsError for a bad stop rule, RunsBusy when the server or that account plays as many
        runs as allowed (before anything starts).
        """
        stats.make_stop_rule((stop or {}).get("rule"), float((stop or {}).get("margin", 0.03)))
        spec = {"kind": "matchup", "matchup": matchup_to_data(matchup), "facts": dict(facts), "games": games,
                "workers": self.workers(workers), "stop": dict(stop) if stop else None,
                "agent_check": list(agent_check) if agent_check else None}
        with self.admission(by):
            job = Job(id=new_run_id(), game=matchup.game, total=games + games % 2, resumable=True, by=by)
            self.live.write_spec(job.game, job.id, spec)
            return self._launch(job, self._matchup_work(job, matchup, spec, None, runner))

    def start_task(self, game: str, total: int, work: Work, kind: str = "task", by: str | None = None) -> Job:
        """Run ``work(progress, should_cancel)`` in a daemon thread; save the run it returns.

        Such a run (a gauntlet, a variant comparison) is reported like a matchup but cannot be
        resumed. The saved run's ``report.games`` becomes the job's final count. Raises RunsBusy
        as :meth:`start` does.
        """
        with self.admission(by):
            return self._launch(Job(id=new_run_id(), game=game, total=total, kind=kind, by=by), work)

    def workers(self, asked: int | None) -> int:
        """The workers a run gets: as asked, at most :attr:`max_workers` (the machine's cores)."""
        return max(1, min(int(asked or self.max_workers), self.max_workers))

    # ------------------------------------------------------------ limits

    def playing(self) -> list[dict[str, Any]]:
        """Progress of every run playing now, in any server process, of every game."""
        result = []
        root = self.store.repo.root
        try:
            games = sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
        except OSError:
            games = []
        for game in games:
            for state in self.live.states(game):
                if status_of(state, self.stale_s) != "running":
                    continue
                mine = self.get(str(state.get("id")))
                if mine is not None and mine.status != "running":
                    continue  # ended in this process a moment ago; its state file is stale
                result.append(progress_of(state, self.stale_s))
        return result

    @contextlib.contextmanager
    def admission(self, by: str | None) -> Iterator[None]:
        """Hold the server-wide start lock while a run is admitted and launched; raise RunsBusy
        when :attr:`max_runs` runs play already, or :attr:`max_runs_per_user` of ``by``'s."""
        with file_lock(self.store.repo.lock_dir, "playtests/admission"):
            playing = self.playing()
            mine = [p for p in playing if by is not None and p.get("by") == by]
            if len(playing) >= self.max_runs:
                raise RunsBusy(self._busy_message(
                    f"the server is playing {len(playing)} playtests already, its limit "
                    f"(PLAYTEST_MAX_RUNS = {self.max_runs})", playing), _retry_after(playing))
            if by is not None and len(mine) >= self.max_runs_per_user:
                raise RunsBusy(self._busy_message(
                    f"{by} is playing {len(mine)} playtest{'s' if len(mine) != 1 else ''} already, the limit "
                    f"per user (PLAYTEST_MAX_RUNS_PER_USER = {self.max_runs_per_user})", mine), _retry_after(mine))
            yield

    @staticmethod
    def _busy_message(why: str, runs: list[dict[str, Any]]) -> str:
        wait = _retry_after(runs)
        known = [r for r in runs if r.get("eta_s") is not None]
        when = (f"the soonest should end in about {wait} s" if known
                else "none of them can tell yet when it ends")
        listed = ", ".join(f"{r.get('game')}/{r.get('id')}" for r in runs[:5])
        return (f"not started: {why}. Try again when one finishes — {when} (Retry-After); "
                f"or cancel one. Playing: {listed}")

    def resume(self, game: str, run_id: str, *, runner: Callable[..., dict[str, Any]] = run_matchup,
               by: str | None = None) -> Job:
        """Continue an interrupted (or cancelled) matchup in this process from the games it kept.

        Raises PlaytestError when there is no such unfinished run, or it is still running or
        cannot be resumed; RunsBusy as :meth:`start` does; filelock.Timeout when another process
        holds the run's lock too long.
        """
        with self.admission(by), self.live.locked(game, run_id):
            state = self.live.state(game, run_id)
            if state is not None and self.store.exists(game, run_id):
                # Saved, but its process stopped before removing the live files.
                self.live.remove(game, run_id)
                state = None
            if state is None:
                raise PlaytestError(f"there is no unfinished playtest run {run_id!r}")
            status = status_of(state, self.stale_s)
            mine = self.get(run_id)
            if mine is not None and mine.status == "running":
                status = "running"
            if status not in RESUMABLE:
                raise PlaytestError(f"run {run_id} is {status}; only an interrupted or cancelled run can be resumed")
            spec = self.live.spec(game, run_id)
            if not state.get("resumable") or not spec or spec.get("kind") != "matchup":
                raise PlaytestError(f"run {run_id} cannot be resumed; start it again")
            matchup = matchup_from_data(spec["matchup"])
            saved = self.live.partial(game, run_id)
            partial = Partial.from_data(saved) if saved else Partial()
            games = int(spec["games"])
            job = Job(id=run_id, game=game, total=games + games % 2, resumable=True, done=partial.done,
                      kept=partial.done, done_before=partial.done, elapsed_before=partial.elapsed_s, by=by)
            self.live.clear_cancel(game, run_id)
            # Claim the run before the lock is released, so a second resume sees it running.
            self.live.write_state(game, run_id, job.state())
            job.written = time.monotonic()
        return self._launch(job, self._matchup_work(job, matchup, spec, partial, runner))

    def _matchup_work(self, job: Job, matchup: Matchup, spec: Mapping[str, Any], partial: Partial | None,
                      runner: Callable[..., dict[str, Any]]) -> Work:
        stop = spec.get("stop")
        rule = stats.make_stop_rule((stop or {}).get("rule"), float((stop or {}).get("margin", 0.03)))
        games = int(spec["games"])

        latest: list[Partial] = []

        def keep(progress: Partial) -> None:
            self.live.write_partial(job.game, job.id, progress.to_data())
            job.checkpointed = time.monotonic()
            job.kept = progress.done
            job.changed = True
            self._wake.set()

        def checkpoint(progress: Partial) -> None:
            latest[:] = [progress]
            if time.monotonic() - job.checkpointed >= self.checkpoint_s:
                keep(progress)

        def work(progress: Callable[[int, int], None], should_cancel: Callable[[], bool]) -> dict[str, Any]:
            kwargs: dict[str, Any] = {"stop_rule": rule, "progress": progress, "should_cancel": should_cancel,
                                      "checkpoint": checkpoint}
            if partial is not None:
                kwargs["resume"] = partial
            if spec.get("agent_check"):
                kwargs["agent_check"] = spec["agent_check"]
            try:
                report = runner(matchup, games, spec.get("workers"), **kwargs)
            except CancelledRun:
                if latest:  # keep every game played, so a resume repeats none
                    keep(latest[0])
                raise
            return build_run(matchup, spec["facts"], report, games, spec.get("workers"), stop)

        return work

    def _launch(self, job: Job, work: Work) -> Job:
        with self._lock:
            self._jobs[job.id] = job
        self._write(job)
        self._ensure_writer()

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total
            job.changed = True
            self._wake.set()

        def should_cancel() -> bool:
            return job.cancel.is_set() or self.live.cancel_requested(job.game, job.id)

        def target() -> None:
            try:
                run = work(progress, should_cancel)
                self.store.save(job.game, run, job.id)
                played = (run.get("report") or {}).get("games")
                if isinstance(played, int):
                    job.done = job.total = played
                with job.lock:
                    job.finished = time.monotonic()
                    job.status = "done"
                    self.live.remove(job.game, job.id)
            except CancelledRun:
                job.finished = time.monotonic()
                job.status = "cancelled"
                self._write(job)
            except Exception as exc:  # noqa: BLE001 - a failed run must report, not kill the thread silently
                job.finished = time.monotonic()
                job.status = "error"
                job.error = f"{type(exc).__name__}: {exc}"
                traceback.print_exc()
                self._write(job)

        threading.Thread(target=target, name=f"playtest-{job.id}", daemon=True).start()
        return job

    # ------------------------------------------------------------ the writer thread

    def _write(self, job: Job) -> None:
        with job.lock:
            if job.status == "done":  # its live files are gone for good
                return
            job.changed = False
            job.written = time.monotonic()
            try:
                self.live.write_state(job.game, job.id, job.state())
            except (OSError, WorkbenchError):  # a full disk must not kill the run; the next write retries
                job.changed = True
                traceback.print_exc()

    def _ensure_writer(self) -> None:
        with self._lock:
            if self._writer is None or not self._writer.is_alive():
                self._writer = threading.Thread(target=self._write_loop, name="playtest-writer", daemon=True)
                self._writer.start()

    def _write_loop(self) -> None:
        # Writes a job's state when it changed and the last write is write_interval_s old (so at
        # most a few writes a second however often chunks finish), and every heartbeat_s anyway.
        while True:
            timeout = self.heartbeat_s
            for job in self.running():
                since = time.monotonic() - job.written
                due = self.write_interval_s if job.changed else self.heartbeat_s
                if since >= due:
                    self._write(job)
                else:
                    timeout = min(timeout, due - since)
            self._wake.wait(max(0.001, timeout))
            self._wake.clear()

    # ------------------------------------------------------------ reading

    def get(self, job_id: str) -> Job | None:
        """The job with this id, if this process plays (or played) it."""
        with self._lock:
            return self._jobs.get(job_id)

    def running(self) -> list[Job]:
        """Jobs this process is still playing."""
        with self._lock:
            return [j for j in self._jobs.values() if j.status == "running"]

    def progress(self, game: str, run_id: str) -> dict[str, Any] | None:
        """Progress of an unfinished run from whichever process plays it, or None.

        This process's own job answers first (it is the freshest); then the data folder.
        """
        job = self.get(run_id)
        if job is not None and job.game == game and job.status != "done":
            return job.progress()
        state = self.live.state(game, run_id)
        if state is None:
            return None
        kept = None
        if status_of(state, self.stale_s) in RESUMABLE:
            # The games a resume keeps: the partial itself, which its process may have written
            # just before it stopped, after the state's last write.
            partial = self.live.partial(game, run_id)
            kept = int(partial.get("done") or 0) if partial else 0
        return progress_of(state, self.stale_s, kept=kept)

    def unfinished(self, game: str) -> list[dict[str, Any]]:
        """Progress of a game's runs that are running (in any process) or interrupted, newest first."""
        result = []
        for state in self.live.states(game):
            if self.store.exists(game, str(state.get("id"))):
                continue  # saved; its process stopped before removing the live files
            progress = self.progress(game, str(state.get("id")))
            if progress is not None and progress["status"] in ("running", "interrupted"):
                result.append(progress)
        return result

    def cancel(self, game: str, run_id: str) -> dict[str, Any] | None:
        """Ask a running run to stop, whichever process plays it; None if unknown.

        The process playing it looks every fraction of a second and kills its workers mid-chunk
        (one worker: stops between two decisions); the games of the chunks finished are kept.
        """
        job = self.get(run_id)
        if job is not None and job.game == game and job.status == "running":
            job.cancel.set()
            return job.progress()
        state = self.live.state(game, run_id)
        if state is None:
            return None
        if status_of(state, self.stale_s) == "running":
            self.live.request_cancel(game, run_id)
        return self.progress(game, run_id)
