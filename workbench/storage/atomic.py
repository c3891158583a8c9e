"""Atomic file writes and per-file locks.

A write goes to a temp file in the same folder, is flushed and fsynced, then ``os.replace``d
over the target and the folder is fsynced: a crash leaves either the old or the new file,
never a half-written one. Temp files are named ``.tmp-*`` so a restart can sweep them.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock

TEMP_PREFIX = ".tmp-"
LOCK_TIMEOUT_S = 10.0


def atomic_write(path: Path, data: bytes, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically; on any failure the old file stays as it was.

    ``durable=False`` skips the fsyncs, for files that are cheap to recreate (caches): the
    replace is still atomic, only a power cut may lose the newest version.
    Raises OSError from the file system (the temp file is removed first).
    """
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    if durable:
        fsync_dir(folder)


def fsync_dir(folder: Path) -> None:
    """Make a rename or unlink in ``folder`` durable (no-op where directories cannot be opened)."""
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def sweep_temp_files(root: Path) -> int:
    """Delete temp files left by an interrupted write under ``root``; return how many."""
    removed = 0
    if not root.is_dir():
        return 0
    for tmp in root.rglob(f"{TEMP_PREFIX}*"):
        if tmp.is_file() and not tmp.is_symlink():
            with contextlib.suppress(OSError):
                tmp.unlink()
                removed += 1
    return removed


@contextlib.contextmanager
def file_lock(lock_dir: Path, key: str) -> Iterator[None]:
    """Hold an inter-process lock named by ``key`` (e.g. ``warzone/cards/x``).

    Lock files live in ``lock_dir`` (outside the card folders, so they never show up as data).
    Raises filelock.Timeout after LOCK_TIMEOUT_S seconds.
    """
    lock_dir = Path(lock_dir)
    name = hashlib.sha256(key.encode("utf-8")).hexdigest()[:32] + ".lock"
    # The lock folder and its files are never links (a planted link would make the lock create
    # or truncate a file elsewhere): refused with InvalidId, like links to cards and decks.
    for path in (lock_dir, lock_dir / name):
        if os.path.islink(path):
            from workbench.domain.errors import InvalidId

            raise InvalidId(f"{path.name} is a symbolic link; links are not followed")
    lock_dir.mkdir(parents=True, exist_ok=True)
    with FileLock(str(lock_dir / name), timeout=LOCK_TIMEOUT_S):
        yield
