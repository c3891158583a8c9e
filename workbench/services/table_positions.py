"""The last replayed position of each recently used table, kept in this server process.

A table is stored as its seed and its decisions (:mod:`workbench.services.table`), and every
request rebuilt its position by replaying them all from the start: a request late in a long game
cost what the whole game had cost so far (64 ms at decision 305 of a random fusion game, against
23 ms at its start). With the last position of the table kept here, a request replays only the
decisions taken since (usually one), from a copy of it.

What makes a kept position usable is checked, never assumed: it belongs to a table with the same
id, engine, seed, options, decks and card data (a fingerprint of those), and the table's
decisions begin with the ones it was replayed through. Anything else (an undo, a restored file,
another tab's move) replays from the start as before, and the new position is kept instead.
A kept position is never played on: a caller gets ``state.clone()`` of it.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.domain.engines.base import Engine, State

KEPT_TABLES = 32
"""How many tables' positions one process keeps (the least recently used goes first)."""


@dataclass(frozen=True)
class KeptPosition:
    """A table's position after ``len(decisions)`` decisions, with the log length and turn before
    each of them and after the last (as a tracked replay records them)."""

    fingerprint: str
    decisions: tuple[Any, ...]
    engine: Engine
    state: State
    log_marks: tuple[int, ...]
    turns: tuple[Any, ...]


def fingerprint(table: Mapping[str, Any]) -> str:
    """A digest of everything a table's opening position is built from (not its decisions).
    Values JSON cannot write (a date a YAML card file gave, before the table is saved) count by
    their text."""
    fixed = [table.get(key) for key in ("id", "engine", "seed", "options", "deck_lists", "card_data")]
    text = json.dumps(fixed, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class PositionCache:
    """At most ``size`` kept positions, one per table id; safe to use from several threads."""

    def __init__(self, size: int = KEPT_TABLES) -> None:
        self._size = size
        self._kept: OrderedDict[str, KeptPosition] = OrderedDict()
        self._lock = threading.Lock()

    def usable(self, table: Mapping[str, Any], key: str, upto: int) -> KeptPosition | None:
        """The kept position of ``table`` (whose :func:`fingerprint` is ``key``) if it was replayed
        through a beginning of the table's first ``upto`` decisions, else None."""
        with self._lock:
            kept = self._kept.get(str(table.get("id")))
            if kept is not None:
                self._kept.move_to_end(str(table.get("id")))
        if kept is None or kept.fingerprint != key or len(kept.decisions) > upto:
            return None
        actions = table["actions"]
        n = len(kept.decisions)
        # Compared from the newest decision back: an undo or another history differs there first.
        for i in range(n - 1, -1, -1):
            if actions[i] != kept.decisions[i]:
                return None
        return kept

    def keep(self, table: Mapping[str, Any], kept: KeptPosition) -> None:
        """Keep ``kept`` as ``table``'s position, dropping the least recently used table past the size."""
        table_id = str(table.get("id"))
        with self._lock:
            self._kept[table_id] = kept
            self._kept.move_to_end(table_id)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)

    def forget(self, table_id: str) -> None:
        """Drop the kept position of ``table_id`` (a deleted table)."""
        with self._lock:
            self._kept.pop(table_id, None)

    def clear(self) -> None:
        """Drop every kept position."""
        with self._lock:
            self._kept.clear()


POSITIONS = PositionCache()
"""This process's kept positions (the table service's replays read and fill it)."""
