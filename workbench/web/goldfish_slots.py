"""A small, server-wide limit on goldfish runs, which play their games inside the request.

``POST /games/<game>/playtest/goldfish`` samples opening hands and plays up to 300 development
games in the request's thread: seconds of pure Python for the largest deck the input caps allow
(2.4-4.2 s for fusion with ten cards x 999 copies). Eight at once made each take 150-178 s and
left ``/healthz`` unanswered for 150 s, since they share one interpreter lock with every other
request of the process. So at most ``GOLDFISH_SLOTS`` run at once per server process; one past
that is answered 429 with ``Retry-After`` at once, not queued (:mod:`workbench.web.slots`).

One slot, because a second run in the same process gains nothing: both hold the same lock, so
two at once took 12 s each where one takes 3 s, and ``/healthz`` waited up to 0.7 s instead of
0.25 s. ``workbench serve --processes N`` plays N at once.
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager

from workbench.web.slots import SlotsBusy, hold

GOLDFISH_SLOTS = 1
RETRY_AFTER_SECONDS = 5

_slots = threading.BoundedSemaphore(GOLDFISH_SLOTS)


class GoldfishBusy(SlotsBusy):
    """Every goldfish slot is taken; try again after ``RETRY_AFTER_SECONDS``."""


def goldfish_slot() -> AbstractContextManager[None]:
    """Hold one of the server's goldfish slots for the ``with`` body.

    Raises GoldfishBusy (on entering) at once when all ``GOLDFISH_SLOTS`` are in use.
    """
    return hold(_slots, GoldfishBusy(
        f"the server is playing as many goldfish runs as it plays at once ({GOLDFISH_SLOTS} per server "
        f"process); try again in {RETRY_AFTER_SECONDS} seconds", RETRY_AFTER_SECONDS))
