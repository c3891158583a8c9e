"""The optional Dask distributed back-end, for playtests spread over several machines.

Install with ``pip install card-workbench[cluster]``. The same chunks of the same games run on the
cluster's workers, so a seed gives the same report as the local process pool. Start a scheduler
and workers with ``dask scheduler`` / ``dask worker tcp://HOST:8786`` on machines that have the
workbench installed, then pass ``--cluster tcp://HOST:8786``; ``--cluster local`` starts a
cluster on this machine (useful to check the set-up).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from workbench.services.playtest.runner import CancelledRun, ChunkResult, Matchup, PlaytestError, play_chunk


def _distributed() -> Any:
    try:
        import distributed
    except ImportError as exc:  # pragma: no cover - depends on the optional extra
        raise PlaytestError("the cluster back-end needs Dask: pip install 'card-workbench[cluster]'") from exc
    return distributed


class DaskBackend:
    """Runs chunks as Dask tasks on a ``distributed.Client``; chunks come back as they finish."""

    def __init__(self, client: Any) -> None:
        self.client = client
        workers = client.scheduler_info().get("workers", {})
        self.workers = max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))

    def run(self, matchup: Matchup, chunks: Sequence[tuple[int, int]], keep_records: bool = False,
            should_cancel: Callable[[], bool] | None = None) -> Iterator[ChunkResult]:
        """Yield each chunk's result as it finishes; a cancel is seen between two chunks (the
        tasks left are cancelled on the cluster) and raises CancelledRun."""
        distributed = _distributed()
        # Scatter the matchup once instead of shipping the decks with every task.
        # hash=False and a fresh key per run: two runs of the same matchup must not share (and
        # then release or cancel) each other's data and tasks.
        run = uuid.uuid4().hex[:12]
        [shared] = self.client.scatter([matchup], broadcast=True, hash=False)
        futures = [
            self.client.submit(play_chunk, shared, start, stop, keep_records, pure=False, key=f"playtest-{run}-{start}")
            for start, stop in chunks
        ]
        try:
            for future in distributed.as_completed(futures):
                yield future.result()
                if should_cancel is not None and should_cancel():
                    raise CancelledRun("the playtest was cancelled")
        finally:
            self.client.cancel(list(futures) + [shared])


@contextlib.contextmanager
def dask_backend(address: str, workers: int | None = None) -> Iterator[DaskBackend]:
    """A back-end on the scheduler at ``address``, or on a new local cluster for ``"local"``.

    Raises PlaytestError when Dask is not installed or the scheduler cannot be reached.
    """
    distributed = _distributed()
    if address == "local":
        cluster = distributed.LocalCluster(n_workers=workers or 2, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
        client = distributed.Client(cluster)
    else:
        cluster = None
        try:
            client = distributed.Client(address, timeout=10)
        except OSError as exc:
            raise PlaytestError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    try:
        yield DaskBackend(client)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
