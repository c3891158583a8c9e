"""A small, server-wide limit on replays that re-play a whole game in the request.

Replaying a playtest game re-plays it from its seed with the run's agents. With the random or
heuristic players that is milliseconds; with the search or Monte Carlo players it can take
seconds, so those replays run only on a POST (a page the designer merely visits cannot start
them) and at most ``REPLAY_SLOTS`` at once: a client that sends many cannot take every server
thread. A request past the limit is answered 429 with ``Retry-After`` at once, not queued
(:mod:`workbench.web.slots`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext

from workbench.domain.engines.base import parse_agent
from workbench.web.slots import SlotsBusy, hold

REPLAY_SLOTS = 2
RETRY_AFTER_SECONDS = 5
CHEAP_AGENTS = frozenset({"random", "heuristic"})
"""Agents whose whole game costs milliseconds: a GET may replay them."""

_slots = threading.BoundedSemaphore(REPLAY_SLOTS)


class ReplaysBusy(SlotsBusy):
    """Every replay slot is taken; try again after ``RETRY_AFTER_SECONDS``."""


def replay_is_cheap(agents: Iterable[object]) -> bool:
    """True when every agent of the run is one whose games cost milliseconds.

    An agent spec that does not parse counts as expensive (the POST path reports it).
    """
    for spec in agents:
        try:
            name, _budget = parse_agent(str(spec))
        except ValueError:
            return False
        if name not in CHEAP_AGENTS:
            return False
    return True


def replay_slot() -> AbstractContextManager[None]:
    """Hold one of the server's replay slots for the ``with`` body.

    Raises ReplaysBusy (on entering) at once when all ``REPLAY_SLOTS`` are in use.
    """
    return hold(_slots, ReplaysBusy(f"{REPLAY_SLOTS} replays are already being played on this server; "
                                    f"try again in {RETRY_AFTER_SECONDS} seconds", RETRY_AFTER_SECONDS))


def slot_if_costly(agents: Iterable[object]) -> AbstractContextManager[None]:
    """A replay slot for a run whose agents are not cheap (see ``replay_slot``), else nothing.

    Raises ReplaysBusy (on entering) when a slot is needed and none is free.
    """
    return nullcontext() if replay_is_cheap(agents) else replay_slot()
