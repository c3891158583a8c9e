"""The process pool playtests play their chunks in: its workers stop when asked and die with the server.

A chunk of games can run for minutes (search players with a large budget think seconds per
decision), so waiting for the running chunks to finish is no way to cancel a run, and a worker
left alone when the server process dies would play on for nobody. :class:`WorkerPool` therefore

* waits for chunks in short slices and asks ``should_stop`` between them; when it says so, or
  whenever the pool is left with chunks still running (cancel, early stop, an error), it kills
  the worker processes instead of waiting for them. Chunks that finished were handed out
  already; a chunk cut mid-way is lost, and a resumed run plays it again from its seeds.
* starts every worker with :func:`die_with_parent` (:mod:`workbench.services.processes`): on Linux the kernel kills the worker when the
  process that started it ends, however it ends (``prctl(PR_SET_PDEATHSIG)``); elsewhere a thread
  of the worker notices within ``PARENT_POLL_S`` that its parent is gone and ends it.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from workbench.services.processes import die_with_parent

STOP_POLL_S = 0.2
"""How often a waiting pool asks whether to stop: a cancel takes effect within about this long."""


def start_method() -> str:
    """``fork`` when this process runs a single thread (the CLI, benchmarks: workers start in
    milliseconds), else ``spawn`` (safe inside a threaded web server; workers import afresh)."""
    single = threading.active_count() == 1
    return "fork" if single and "fork" in multiprocessing.get_all_start_methods() else "spawn"


def _start_worker(parent: int | None, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    die_with_parent(parent)
    if initializer is not None:
        initializer(*initargs)


class WorkerPool:
    """A ``ProcessPoolExecutor`` (use it as a context manager) whose workers die with this process
    and are killed, not waited for, when the pool is left with chunks still running.

    ``initializer(*initargs)`` runs in each worker after :func:`die_with_parent`; ``method`` is
    the start method (default :func:`start_method`).
    """

    def __init__(self, workers: int, initializer: Callable[..., None] | None = None,
                 initargs: tuple[Any, ...] = (), method: str | None = None) -> None:
        self.method = method or start_method()
        # The pid the workers watch: the process that starts them with fork or spawn (a
        # forkserver's workers are its children instead, so they watch the parent they find).
        parent = os.getpid() if self.method in ("fork", "spawn") else None
        if self.method == "fork":
            # Forked workers share the parent's heap; freezing it keeps their garbage collector
            # from walking (and copying) every object the parent holds, e.g. earlier reports.
            gc.freeze()
        # Note for PR_SET_PDEATHSIG: Linux ties it to the *thread* that started the worker. This
        # pool starts its workers in the thread that submits, which is the one that iterates
        # and leaves the pool, so that thread outlives them.
        self.executor = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(self.method),
                                            initializer=_start_worker, initargs=(parent, initializer, initargs))
        self.stopped = False
        self._futures: list[Future[Any]] = []

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Queue ``fn(*args)`` for a worker (a top-level function, so it pickles)."""
        future = self.executor.submit(fn, *args)
        self._futures.append(future)
        return future

    def as_completed(self, futures: Iterable[Future[Any]],
                     should_stop: Callable[[], bool] | None = None) -> Iterator[Future[Any]]:
        """Yield each future as it finishes. When ``should_stop()`` turns true (asked every
        ``STOP_POLL_S``), kill the workers, set :attr:`stopped` and return. Raises nothing itself."""
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=STOP_POLL_S if should_stop else None,
                                 return_when=FIRST_COMPLETED)
            yield from done
            if pending and should_stop is not None and should_stop():
                self.stopped = True
                self.kill()
                return

    def kill(self) -> None:
        """Kill every worker process now (their running chunks are lost) and wait for them."""
        public = getattr(self.executor, "kill_workers", None)  # Python 3.14 and later
        if public is not None:
            public()
            return
        # Before 3.14 ProcessPoolExecutor has no public way to stop a busy worker; its
        # _processes map (pid -> Process) is the one 3.14's kill_workers() walks.
        processes = list((getattr(self.executor, "_processes", None) or {}).values())
        for process in processes:
            try:
                process.kill()
            except (OSError, ValueError):  # exited already, or closed
                pass
        for process in processes:
            process.join(timeout=5)

    def close(self) -> None:
        """Shut the pool down: cancel queued chunks, kill workers still playing one, wait for the rest."""
        try:
            if any(not future.done() for future in self._futures):
                self.kill()
                # The executor now marks every chunk it holds as failed (BrokenProcessPool). Let
                # it finish first: Python 3.11 fails in its own thread when one was cancelled.
                wait(self._futures, timeout=10)
            self.executor.shutdown(wait=True, cancel_futures=True)
        finally:
            self._futures.clear()
            if self.method == "fork":
                gc.unfreeze()
