"""Export and import files on disk: the only code that writes under ``exports/``.

Exports go to ``exports/<game>/<format>/`` (or a folder the user names). Every file is written
atomically; a Lackey plugin folder is built beside its target and swapped in whole, so a plugin is
never half old and half new. Zips are built in memory and written atomically. Uploaded import
files wait for the designer's confirmation in ``exports/<game>/.imports/`` under a random token.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import secrets
import shutil
import tempfile
import time
import zipfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from workbench.domain.errors import DataError, InvalidId, NotFound
from workbench.domain.ids import check_id
from workbench.storage.atomic import TEMP_PREFIX, atomic_write, file_lock, fsync_dir

STAGING = ".imports"
STAGED_MAX_AGE_S = 24 * 3600
_TOKEN = re.compile(r"^[0-9a-f]{32}$")
_SUFFIX = re.compile(r"^\.[a-z0-9]{1,8}$")
_BAD_PART = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]')


def check_relpath(path: str) -> str:
    """Return ``path`` if it is a safe relative path (``a/b.txt``): no absolute path, no ``..``,
    no hidden or empty parts, no separators or control characters inside a part.

    Raises InvalidId otherwise.
    """
    parts = path.split("/")
    if not path or path.startswith("/") or any(
        not p or p in {".", ".."} or p.startswith(".") or _BAD_PART.search(p) or len(p) > 200 for p in parts
    ):
        raise InvalidId(f"export file name {path[:80]!r} is not allowed")
    return path


def game_export_dir(export_root: Path, game_id: str) -> Path:
    """``<export_root>/<game>``, the id checked. Raises InvalidId."""
    return Path(export_root) / check_id(game_id, "game id")


def write_files(target: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Write each file under ``target`` atomically (other files there stay); return the paths."""
    written = []
    for rel, data in sorted(files.items()):
        path = target / check_relpath(rel)
        atomic_write(path, data)
        os.chmod(path, 0o644)  # exports are meant to be shared and uploaded; temp files start 0600
        written.append(path)
    return written


def replace_tree(target: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Make ``target`` a folder holding exactly ``files``: built beside it, then swapped in.

    Raises InvalidId for an unsafe file name, OSError from the file system.
    """
    for rel in files:
        check_relpath(rel)
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}{target.name}-", dir=target.parent))
    old: Path | None = None
    try:
        for rel, data in files.items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        if target.exists():
            if target.is_symlink() or not target.is_dir():
                raise DataError(f"{target} exists and is not a folder; nothing was written")
            old = Path(tempfile.mkdtemp(prefix=f"{TEMP_PREFIX}old-", dir=target.parent))
            os.replace(target, old / target.name)
        os.replace(staging, target)
        fsync_dir(target.parent)
    except BaseException:
        if old is not None and not target.exists():
            os.replace(old / target.name, target)  # put the previous export back
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    return [target / rel for rel in sorted(files)]


@contextlib.contextmanager
def export_lock(folder: Path, lock_dir: Path) -> Iterator[None]:
    """Hold the lock of one export folder, so two exports of the same format (two browser tabs,
    the CLI beside the web) never interleave their folder swaps and zips. Raises filelock.Timeout.

    The lock file lives in ``lock_dir`` (the data folder's ``.locks/``), named after the folder's
    full path: nothing but the export itself is written into the output folder, which may be
    Lackey's own ``plugins/`` folder. A data folder that cannot take it (read-only) falls back to
    a folder of the system's temporary directory."""
    key = f"export:{Path(folder).resolve()}"
    try:
        Path(lock_dir).mkdir(parents=True, exist_ok=True)
        probe = os.access(lock_dir, os.W_OK)
    except OSError:
        probe = False
    if not probe:
        lock_dir = Path(tempfile.gettempdir()) / f"card-workbench-locks-{os.getuid() if hasattr(os, 'getuid') else 0}"
    with file_lock(Path(lock_dir), key):
        yield


def zip_bytes(files: Mapping[str, bytes], folder: str = "") -> bytes:
    """A zip of ``files`` (deflated), each under ``folder/`` when given; stable order and dates."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for rel in sorted(files):
            check_relpath(rel)
            info = zipfile.ZipInfo(f"{folder}/{rel}" if folder else rel, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[rel])
    return out.getvalue()


def write_zip(path: Path, files: Mapping[str, bytes], folder: str = "") -> Path:
    """Write :func:`zip_bytes` atomically to ``path``."""
    atomic_write(Path(path), zip_bytes(files, folder))
    os.chmod(path, 0o644)
    return Path(path)


def download_path(export_root: Path, game_id: str, rel: str) -> Path:
    """An existing exported file of a game, for download. Raises InvalidId or NotFound; never
    follows a symbolic link or leaves ``exports/<game>/``."""
    base = game_export_dir(export_root, game_id).resolve()
    path = base / check_relpath(rel)
    probe = path
    while probe != base:
        if probe.is_symlink():
            raise InvalidId("exported files are never served through symbolic links")
        probe = probe.parent
    if base not in path.resolve().parents or not path.is_file():
        raise NotFound(f"export file {rel!r} does not exist")
    return path


# ------------------------------------------------------------------ staged uploads


def stage_upload(export_root: Path, game_id: str, data: bytes, suffix: str) -> str:
    """Keep an uploaded import file until the designer confirms; return its token.

    Old staged files (a day) are swept on the way. Raises InvalidId for an odd suffix.
    """
    if not _SUFFIX.match(suffix):
        raise InvalidId(f"file type {suffix[:12]!r} is not allowed")
    folder = game_export_dir(export_root, game_id) / STAGING
    folder.mkdir(parents=True, exist_ok=True)
    now = time.time()
    for old in folder.iterdir():
        with contextlib.suppress(OSError):
            if old.is_file() and now - old.stat().st_mtime > STAGED_MAX_AGE_S:
                old.unlink()
    token = secrets.token_hex(16)
    atomic_write(folder / f"{token}{suffix}", data)
    return token


def read_staged(export_root: Path, game_id: str, token: str) -> tuple[bytes, str]:
    """The bytes and suffix of a staged upload. Raises InvalidId or NotFound (expired or used)."""
    if not _TOKEN.match(token or ""):
        raise InvalidId("upload token is not valid")
    folder = game_export_dir(export_root, game_id) / STAGING
    for path in folder.glob(f"{token}.*") if folder.is_dir() else []:
        if path.is_file() and not path.is_symlink():
            return path.read_bytes(), path.suffix
    raise NotFound("the uploaded file has expired or was already imported; upload it again")


def discard_staged(export_root: Path, game_id: str, token: str) -> None:
    """Delete a staged upload (after it was applied); a missing one is fine."""
    if not _TOKEN.match(token or ""):
        return
    folder = game_export_dir(export_root, game_id) / STAGING
    for path in folder.glob(f"{token}.*") if folder.is_dir() else []:
        with contextlib.suppress(OSError):
            path.unlink()
