"""Files of the render cache: one file per rendered card face, named by its content key.

A key is a hex digest computed by ``workbench.services.render.cache`` from the card's content,
the template version, the size and the bleed, so a changed card simply gets a new key and stale
entries are never read. Writes are atomic (temporary file + ``os.replace``) so a crash or two
renders racing never leave a half-written face. They are not fsynced: a lost cache entry only
costs a re-render, and 540 fsyncs would dominate a warm deck render.

Recently used faces are also kept in memory (bounded by bytes, shared by every cache object of
the process), so a long-running server re-rendering a deck reads nothing from disk.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from pathlib import Path

from workbench.domain.errors import DataError
from workbench.storage.atomic import atomic_write

MEMORY_BUDGET_BYTES = 256 * 1024 * 1024


class _MemoryFaces:
    """A process-wide LRU of cached file contents, bounded by their total size."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self.items: OrderedDict[Path, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, path: Path) -> bytes | None:
        with self.lock:
            data = self.items.get(path)
            if data is not None:
                self.items.move_to_end(path)
            return data

    def put(self, path: Path, data: bytes) -> None:
        if len(data) > self.budget // 8:
            return
        with self.lock:
            old = self.items.pop(path, None)
            if old is not None:
                self.used -= len(old)
            self.items[path] = data
            self.used += len(data)
            while self.used > self.budget:
                _, dropped = self.items.popitem(last=False)
                self.used -= len(dropped)

    def forget_under(self, root: Path) -> None:
        with self.lock:
            for path in [p for p in self.items if root in p.parents]:
                self.used -= len(self.items.pop(path))


_MEMORY = _MemoryFaces(MEMORY_BUDGET_BYTES)

_KEY = re.compile(r"^[0-9a-f]{16,128}$")


class RenderCache:
    """A folder of cached faces keyed by hex digests (created on first write)."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def _path(self, key: str, suffix: str) -> Path:
        if not _KEY.fullmatch(key) or not re.fullmatch(r"[a-z0-9]{1,8}", suffix):
            raise DataError(f"render cache key {key[:20]!r} is not a hex digest")
        return self.root / key[:2] / f"{key}.{suffix}"

    def get(self, key: str, suffix: str = "face") -> bytes | None:
        """The bytes stored under a key, or None when there are none. Raises DataError for a bad key."""
        path = self._path(key, suffix)
        data = _MEMORY.get(path)
        if data is not None:
            return data
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        _MEMORY.put(path, data)
        return data

    def has(self, key: str, suffix: str = "face") -> bool:
        """True when a key is stored."""
        return self._path(key, suffix).is_file()

    def put(self, key: str, data: bytes, suffix: str = "face") -> None:
        """Store bytes under a key, atomically. Raises DataError for a bad key, OSError on disk errors."""
        target = self._path(key, suffix)
        atomic_write(target, data, durable=False)
        _MEMORY.put(target, data)

    def clear(self) -> int:
        """Delete every cached file; return how many were removed."""
        removed = 0
        _MEMORY.forget_under(self.root)
        if not self.root.is_dir():
            return 0
        for path in self.root.glob("*/*"):
            if path.is_file():
                path.unlink()
                removed += 1
        return removed
