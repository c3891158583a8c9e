"""Files of the render cache: one file per rendered card face, named by its content key.

A key is a hex digest computed by ``workbench.services.render.cache`` from the card's content,
the template version, the size and the bleed, so a changed card simply gets a new key and stale
entries are never read. Writes are atomic (temporary file + ``os.replace``) so a crash or two
renders racing never leave a half-written face. They are not fsynced: a lost cache entry only
costs a re-render, and 540 fsyncs would dominate a warm deck render.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from workbench.domain.errors import DataError

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
        try:
            return self._path(key, suffix).read_bytes()
        except FileNotFoundError:
            return None

    def has(self, key: str, suffix: str = "face") -> bool:
        """True when a key is stored."""
        return self._path(key, suffix).is_file()

    def put(self, key: str, data: bytes, suffix: str = "face") -> None:
        """Store bytes under a key, atomically. Raises DataError for a bad key, OSError on disk errors."""
        target = self._path(key, suffix)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            os.replace(tmp, target)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise

    def clear(self) -> int:
        """Delete every cached file; return how many were removed."""
        removed = 0
        if not self.root.is_dir():
            return 0
        for path in self.root.glob("*/*"):
            if path.is_file():
                path.unlink()
                removed += 1
        return removed
