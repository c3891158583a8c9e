"""Server-wide limits on costly work a request does itself (replays, goldfish runs).

Such work runs in the request's thread, so without a limit a client that sends many requests takes
every server thread and the server's one interpreter lock: a ``/healthz`` behind eight goldfish
runs waited 150 s. Each kind of work has a few slots per server process (a
``threading.BoundedSemaphore``); a request that finds them all taken is refused at once (the views
answer 429 with ``Retry-After``), never queued, so a refused client is told right away.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class SlotsBusy(Exception):
    """Every slot of a kind of work is taken; ``retry_after`` is the seconds to wait."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@contextmanager
def hold(slots: threading.BoundedSemaphore, busy: SlotsBusy) -> Iterator[None]:
    """Hold one of ``slots`` for the ``with`` body.

    Raises ``busy`` at once when every slot is taken.
    """
    if not slots.acquire(blocking=False):
        raise busy
    try:
        yield
    finally:
        slots.release()
