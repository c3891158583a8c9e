"""A small, server-wide limit on replays that re-play a whole game in the request.

Replaying a playtest game re-plays it from its seed with the run's agents. With the random or
heuristic players and the sample decks that is milliseconds; with the search or Monte Carlo
players, or decks at the size caps, it can take seconds. So the search and Monte Carlo players'
replays run only on a POST (a page the designer merely visits cannot start them), and every
replay (a GET's included), every new replay table and every view or move of a table longer than
``HEAVY_TABLE_DECISIONS`` holds one of ``REPLAY_SLOTS``: a client that sends many cannot take
every server thread. A request past the limit is answered 429 with ``Retry-After`` at once, not
queued (:mod:`workbench.web.slots`)."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from workbench.domain.engines.base import parse_agent
from workbench.web.slots import SlotsBusy, hold

REPLAY_SLOTS = 2
RETRY_AFTER_SECONDS = 5
CHEAP_AGENTS = frozenset({"random", "heuristic"})
"""Agents whose whole game costs milliseconds: a GET may replay them."""

HEAVY_TABLE_DECISIONS = 1_000
"""A table keeps its decisions, and a view re-plays them from the seed (unless the server kept its
position, services/table_positions.py) and writes out the log of every one (~45 us a decision): up
to this many cost a fraction of a second with the sample decks (a long random fusion game is ~300);
a table past it (a random game of decks at the size caps: 20,000 decisions, 9 s a page from the
seed, ~1 s from a kept position) takes a replay slot for each view and change."""

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


def table_slot(table: Mapping[str, Any]) -> AbstractContextManager[None]:
    """A replay slot for a table with more than ``HEAVY_TABLE_DECISIONS`` recorded decisions
    (re-playing it to show or change it costs seconds), else nothing.

    Raises ReplaysBusy (on entering) when a slot is needed and none is free.
    """
    return replay_slot() if len(table.get("actions") or ()) > HEAVY_TABLE_DECISIONS else nullcontext()
