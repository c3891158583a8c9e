"""A small, server-wide limit on the costly work a designer's form does inside its request.

A PDF sent by the print form's fallback (``POST …/print.pdf``: 1.5 s for 10,000 cards), an export
(``POST …/export``: 2-3.5 s for the sample games) and an art upload (``POST …/cards/<id>/art``: a
24-megapixel picture decoded, flattened and resized, 0.8 s and ~190 MB) each run in the request's
thread. With no limit one client sending many took every server thread: 16 PDFs kept ``/healthz``
waiting 40 s, 12 exports 17 s, and 8 uploads 8 s and 1.5 GB more memory (session 20's audit). So
at most ``WORK_SLOTS`` of them run at once per server process; one past that is answered 429 with
``Retry-After`` at once, not queued (:mod:`workbench.web.slots`). The print form's background
jobs have their own limit (``render_views.MAX_RUNNING_JOBS``).
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager

from workbench.web.slots import SlotsBusy, hold

WORK_SLOTS = 2
RETRY_AFTER_SECONDS = 5

_slots = threading.BoundedSemaphore(WORK_SLOTS)


class WorkBusy(SlotsBusy):
    """Every work slot is taken; try again after ``RETRY_AFTER_SECONDS``."""


def work_slot() -> AbstractContextManager[None]:
    """Hold one of the server's slots for a PDF, an export or an art upload for the ``with`` body.

    Raises WorkBusy (on entering) at once when all ``WORK_SLOTS`` are in use.
    """
    return hold(_slots, WorkBusy(
        f"the server is already making {WORK_SLOTS} PDFs, exports or pictures at once (per server "
        f"process); try again in {RETRY_AFTER_SECONDS} seconds", RETRY_AFTER_SECONDS))
