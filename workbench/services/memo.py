"""A small bounded, thread-safe memo for data derived from a game definition and a card.

The web pages ask for the same derived data (problems, rendered fragments, previews) again and
again while nothing changed; a memo keyed by what the result depends on answers those repeats
without redoing the work. Keys name a game definition by identity: the repository hands out
the same definition object until game.yaml changes, so a changed definition is a new key. The
owner object is kept in the entry and checked, so a recycled ``id()`` can never hit.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

MISSING = object()


class Memo:
    """A least-recently-used map of at most ``limit`` entries, safe to share between threads."""

    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit
        self._entries: OrderedDict[Hashable, tuple[Any, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, owner: Any = None) -> Any:
        """The value stored under ``key`` for ``owner`` (the same object), else ``MISSING``."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] is not owner:
                return MISSING
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: Hashable, value: Any, owner: Any = None) -> Any:
        """Store ``value`` under ``key`` (for ``owner``), dropping the least recently used entry
        beyond the limit; return ``value``."""
        with self._lock:
            self._entries[key] = (owner, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.limit:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
