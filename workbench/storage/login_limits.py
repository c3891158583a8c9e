"""Failed-login times, kept where every server process sees them.

``workbench serve --processes N`` runs N processes; a counter in one process's memory would let
an attacker try N times as many passwords (each connection may land on another worker). The
failures are kept in a small SQLite file in the instance folder instead (SQLite does the
locking between processes), one row per failed attempt and key; rows older than the window
are dropped as new ones arrive. :class:`MemoryFailureLog` is the same thing for one process
(unit tests, a limiter without an instance folder).
"""

from __future__ import annotations

import collections
import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

FILE_NAME = "login_failures.sqlite3"
T = TypeVar("T")
MAX_PER_KEY = 64  # more failures than any limit needs; a flood cannot grow a key without bound


class MemoryFailureLog:
    """Failure times per key in this process's memory."""

    def __init__(self, max_keys: int = 10_000) -> None:
        self.max_keys = max_keys
        self._times: dict[str, collections.deque[float]] = {}
        self._lock = threading.Lock()

    def add(self, keys: Iterable[str], now: float, keep_s: float) -> None:
        """Record one failure at ``now`` under each key; forget failures older than ``keep_s``."""
        with self._lock:
            if len(self._times) > self.max_keys:
                for key in [k for k, t in self._times.items() if not t or now - t[-1] > keep_s]:
                    del self._times[key]
                while len(self._times) > self.max_keys:  # still full: drop the oldest keys
                    self._times.pop(next(iter(self._times)))
            for key in keys:
                self._times.setdefault(key, collections.deque(maxlen=MAX_PER_KEY)).append(now)

    def window(self, key: str, since: float) -> tuple[int, float | None]:
        """(how many failures of ``key`` are at or after ``since``, the earliest of them)."""
        with self._lock:
            times = [t for t in self._times.get(key, ()) if t >= since]
        return len(times), (min(times) if times else None)

    def reserve(self, limits: Sequence[tuple[str, int]], now: float, window_s: float) -> float:
        """Count and check in one step: the seconds to wait when a key already has its limit of
        failures in the window; otherwise 0, and one failure is recorded under every key at once
        (taken back by :meth:`release` if the attempt succeeds)."""
        with self._lock:
            wait = 0.0
            for key, limit in limits:
                times = [t for t in self._times.get(key, ()) if t >= now - window_s]
                if len(times) >= limit:
                    wait = max(wait, window_s - (now - min(times)))
            if wait > 0:
                return wait
        self.add([key for key, _ in limits], now, window_s)
        return 0.0

    def release(self, key: str, at: float) -> None:
        """Take back one failure of ``key`` recorded at ``at`` (a reserved attempt that succeeded)."""
        with self._lock:
            times = self._times.get(key)
            if times and at in times:
                times.remove(at)

    def clear(self, key: str) -> None:
        """Forget every failure of ``key``."""
        with self._lock:
            self._times.pop(key, None)


class SqliteFailureLog:
    """Failure times per key in ``<folder>/login_failures.sqlite3``, shared by processes.

    The file is created (owner-only) on the first failure; reading before that finds nothing.
    A damaged file is moved aside (its counts are lost, as a restart lost the old in-memory
    ones). Raises sqlite3.OperationalError when the file stays locked longer than
    ``busy_timeout_s`` (the login then fails with 500; it never passes unchecked).
    """

    def __init__(self, folder: Path | str, busy_timeout_s: float = 5.0) -> None:
        self.path = Path(folder) / FILE_NAME
        self.busy_timeout_s = busy_timeout_s

    @contextlib.contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        # A connection per call: logins are rare, and a connection must not cross a fork.
        conn = sqlite3.connect(self.path, timeout=self.busy_timeout_s, isolation_level=None)
        try:
            # No fsync per failed login (it costs 10-15 ms): a crash of the computer may lose the
            # latest failures, as a restart lost the old in-memory counter; a file the crash
            # left unreadable is replaced (see _recovering).
            conn.execute("PRAGMA synchronous=OFF")
            conn.execute("CREATE TABLE IF NOT EXISTS failures (key TEXT NOT NULL, at REAL NOT NULL)")
            conn.execute("CREATE INDEX IF NOT EXISTS failures_key ON failures (key, at)")
            yield conn
        finally:
            conn.close()

    def _retrying(self, action: Callable[[], T]) -> T:
        """Run ``action``; when the file is damaged (not merely busy), move it aside to
        ``<name>.damaged`` and run it once more on a fresh file."""
        try:
            return action()
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError):  # busy or locked: not damage
                raise
            with contextlib.suppress(FileNotFoundError):
                self.path.replace(self.path.with_name(self.path.name + ".damaged"))
            return action()

    def add(self, keys: Iterable[str], now: float, keep_s: float) -> None:
        """Record one failure at ``now`` under each key; forget failures older than ``keep_s``."""
        keys = list(keys)
        self._retrying(lambda: self._add(keys, now, keep_s))

    def _create(self) -> None:
        if not self.path.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.close(fd)

    @staticmethod
    def _insert(conn: sqlite3.Connection, keys: list[str], now: float, keep_s: float) -> None:
        conn.execute("DELETE FROM failures WHERE at < ?", (now - keep_s,))
        for key in keys:
            conn.execute("INSERT INTO failures (key, at) VALUES (?, ?)", (key, now))
            conn.execute(
                "DELETE FROM failures WHERE key = ? AND rowid NOT IN "
                "(SELECT rowid FROM failures WHERE key = ? ORDER BY at DESC LIMIT ?)",
                (key, key, MAX_PER_KEY))

    def _add(self, keys: list[str], now: float, keep_s: float) -> None:
        self._create()
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                self._insert(conn, keys, now, keep_s)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def reserve(self, limits: Sequence[tuple[str, int]], now: float, window_s: float) -> float:
        """Count and check in one SQLite transaction (``BEGIN IMMEDIATE``: one process at a time):
        the seconds to wait when a key already has its limit of failures in the window; otherwise
        0, and one failure is recorded under every key in the same transaction (taken back by
        :meth:`release` if the attempt succeeds). So of 40 parallel attempts at most the limit
        get their password checked."""
        return self._retrying(lambda: self._reserve(list(limits), now, window_s))

    def _reserve(self, limits: list[tuple[str, int]], now: float, window_s: float) -> float:
        self._create()
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                wait = 0.0
                for key, limit in limits:
                    count, earliest = conn.execute(
                        "SELECT COUNT(*), MIN(at) FROM failures WHERE key = ? AND at >= ?",
                        (key, now - window_s)).fetchone()
                    if int(count) >= limit and earliest is not None:
                        wait = max(wait, window_s - (now - float(earliest)))
                if wait <= 0:
                    self._insert(conn, [key for key, _ in limits], now, window_s)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return wait

    def release(self, key: str, at: float) -> None:
        """Take back one failure of ``key`` recorded at ``at`` (a reserved attempt that succeeded)."""

        def delete() -> None:
            if self.path.exists():
                with self._connect() as conn:
                    conn.execute("DELETE FROM failures WHERE rowid IN "
                                 "(SELECT rowid FROM failures WHERE key = ? AND at = ? LIMIT 1)", (key, at))

        self._retrying(delete)

    def window(self, key: str, since: float) -> tuple[int, float | None]:
        """(how many failures of ``key`` are at or after ``since``, the earliest of them)."""

        def read() -> tuple[int, float | None]:
            if not self.path.exists():
                return 0, None
            with self._connect() as conn:
                count, earliest = conn.execute(
                    "SELECT COUNT(*), MIN(at) FROM failures WHERE key = ? AND at >= ?", (key, since)).fetchone()
            return int(count), earliest

        return self._retrying(read)

    def clear(self, key: str) -> None:
        """Forget every failure of ``key``."""

        def delete() -> None:
            if self.path.exists():
                with self._connect() as conn:
                    conn.execute("DELETE FROM failures WHERE key = ?", (key,))

        self._retrying(delete)
