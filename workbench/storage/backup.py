"""Backup and restore of a whole data folder as one zip archive.

A backup holds every file of the data folder under ``data/`` plus a manifest
(``workbench-backup.json``: format, time, and size and SHA-256 of each file). Lock folders,
temp files of interrupted writes and symbolic links are left out. Each file is read whole, and
the repository replaces files atomically, so every card and deck in the archive is a version
that was really saved, even while a server is running.

Restore treats the archive as hostile until proven otherwise: before anything is written every
member is checked (no absolute names, ``..``, backslashes, drive letters, control characters,
links or devices; a cap on entries, on each file's and the total unpacked size and on the
compression ratio), then the files are unpacked into a staging folder beside the target with
their bytes counted and hashed against the manifest, and only then swapped in. An existing data
folder is never overwritten without ``force``; with it, the old folder is kept beside the new one.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import secrets
import shutil
import stat
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from workbench.domain.errors import DataError
from workbench.storage.atomic import TEMP_PREFIX, fsync_dir

MANIFEST = "workbench-backup.json"
PREFIX = "data"
FORMAT = 1
SKIP_DIRS = {".locks"}
MAX_ENTRIES = 5_000  # three sample games hold ~200 files; raise it with restore --max-files
MAX_MEMBER_BYTES = 256 * 1024 * 1024
MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024
MAX_RATIO = 200  # deflate of real card data stays far below this; zip bombs are far above
RATIO_FLOOR = 1024 * 1024  # tiny files may compress very well; only judge the ratio above 1 MiB
CHUNK = 1024 * 1024


class BackupError(DataError):
    """An archive is unsafe, damaged or not a workbench backup, or a restore would overwrite data."""


@dataclass(frozen=True)
class Limits:
    """Caps a restore enforces before and while unpacking."""

    entries: int = MAX_ENTRIES
    member_bytes: int = MAX_MEMBER_BYTES
    total_bytes: int = MAX_TOTAL_BYTES
    ratio: int = MAX_RATIO


@dataclass
class BackupResult:
    """What a backup wrote."""

    path: Path
    files: int
    bytes: int
    skipped: list[str] = field(default_factory=list)


@dataclass
class RestoreResult:
    """What a restore did (or, on a dry run, would do)."""

    target: Path
    files: int
    bytes: int
    previous: Path | None
    games: list[str]
    dry_run: bool = False
    needs_force: bool = False


def _now() -> _dt.datetime:
    return _dt.datetime.now(_dt.timezone.utc)


def default_backup_name() -> str:
    """``workbench-backup-YYYYmmdd-HHMMSS.zip`` in UTC."""
    return f"workbench-backup-{_now():%Y%m%d-%H%M%S}.zip"


def _files(root: Path, skipped: list[str]) -> list[Path]:
    out: list[Path] = []
    for folder, dirs, names in os.walk(root, followlinks=False):
        base = Path(folder)
        kept = []
        for name in sorted(dirs):
            if name in SKIP_DIRS:
                continue
            if (base / name).is_symlink():
                skipped.append((base / name).relative_to(root).as_posix())
                continue
            kept.append(name)
        dirs[:] = kept
        for name in sorted(names):
            path = base / name
            if name.startswith(TEMP_PREFIX):
                continue
            if path.is_symlink() or not path.is_file():
                skipped.append(path.relative_to(root).as_posix())
                continue
            out.append(path)
    return out


def create_backup(data_dir: Path | str, out_path: Path | str) -> BackupResult:
    """Write a zip of ``data_dir`` to ``out_path`` atomically (temp file, fsync, rename).

    Raises BackupError when the data folder is missing or the archive would land inside it,
    OSError from the file system.
    """
    root = Path(data_dir).resolve()
    target = Path(out_path).resolve()
    if not root.is_dir():
        raise BackupError(f"data folder {root} does not exist")
    if root == target or root in target.parents:
        raise BackupError(f"the backup {target} would be inside the data folder it backs up; write it elsewhere")
    skipped: list[str] = []
    files = _files(root, skipped)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=".zip", dir=target.parent)
    manifest: dict[str, object] = {"format": FORMAT, "created": _now().isoformat(timespec="seconds"), "files": {}}
    total = 0
    try:
        with os.fdopen(fd, "wb") as handle:
            with zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as archive:
                entries: dict[str, dict[str, object]] = {}
                for path in files:
                    data = path.read_bytes()
                    rel = path.relative_to(root).as_posix()
                    info = zipfile.ZipInfo(f"{PREFIX}/{rel}", date_time=_zip_time(path))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    info.external_attr = (stat.S_IFREG | 0o644) << 16
                    archive.writestr(info, data)
                    entries[rel] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                    total += len(data)
                manifest["files"] = entries
                archive.writestr(MANIFEST, json.dumps(manifest, indent=1, sort_keys=True))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        with _suppress():
            os.unlink(tmp_name)
        raise
    fsync_dir(target.parent)
    return BackupResult(target, len(files), total, skipped)


def _zip_time(path: Path) -> tuple[int, int, int, int, int, int]:
    moment = _dt.datetime.fromtimestamp(max(path.stat().st_mtime, 315532800))  # zip dates start in 1980
    return (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second)


class _suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> bool:
        return exc[0] is not None and issubclass(exc[0], OSError)  # type: ignore[arg-type]


def check_member_name(name: str) -> PurePosixPath:
    """The relative path a member may be unpacked to. Raises BackupError for any unsafe name."""
    shown = repr(name)[:120]
    if not name or len(name.encode("utf-8", "surrogatepass")) > 1024:
        raise BackupError(f"archive member {shown} has an empty or overlong name")
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        raise BackupError(f"archive member {shown} has control characters in its name")
    if "\\" in name:
        raise BackupError(f"archive member {shown} uses a backslash; refused (it could leave the folder on Windows)")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise BackupError(f"archive member {shown} has an absolute name; refused")
    parts = name.rstrip("/").split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise BackupError(f"archive member {shown} contains '..', '.' or an empty part; refused")
    if any(":" in p or len(p.encode("utf-8")) > 255 for p in parts):
        raise BackupError(f"archive member {shown} has a part with ':' or longer than 255 bytes; refused")
    return PurePosixPath(*parts)


def _member_kind(info: zipfile.ZipInfo) -> str:
    mode = (info.external_attr >> 16) & 0o170000
    if info.is_dir() and mode in (0, stat.S_IFDIR):
        return "dir"
    if mode in (0, stat.S_IFREG):
        return "file"
    if mode == stat.S_IFLNK:
        return "symlink"
    return "special"


def _checked_members(archive: zipfile.ZipFile, limits: Limits) -> tuple[dict[str, zipfile.ZipInfo], dict[str, dict[str, object]]]:
    infos = archive.infolist()
    if len(infos) > limits.entries:
        raise BackupError(f"the archive has {len(infos):,} entries; the limit is {limits.entries:,}")
    members: dict[str, zipfile.ZipInfo] = {}
    total = 0
    manifest_info = None
    for info in infos:
        path = check_member_name(info.filename)
        kind = _member_kind(info)
        if kind in ("symlink", "special"):
            raise BackupError(f"archive member {info.filename!r} is a {'symbolic link' if kind == 'symlink' else 'device or pipe'}; refused")
        if info.flag_bits & 0x1:
            raise BackupError(f"archive member {info.filename!r} is encrypted; refused")
        if kind == "dir":
            continue
        if info.file_size > limits.member_bytes:
            raise BackupError(f"archive member {info.filename!r} unpacks to {info.file_size:,} bytes; "
                              f"the limit is {limits.member_bytes:,}")
        if info.file_size > RATIO_FLOOR and info.file_size > limits.ratio * max(info.compress_size, 1):
            raise BackupError(f"archive member {info.filename!r} is compressed {info.file_size // max(info.compress_size, 1):,} "
                              f"to 1; refused as a likely zip bomb")
        total += info.file_size
        if total > limits.total_bytes:
            raise BackupError(f"the archive unpacks to more than {limits.total_bytes:,} bytes; refused")
        if info.filename == MANIFEST:
            manifest_info = info
            continue
        if path.parts[0] != PREFIX or len(path.parts) < 2:
            raise BackupError(f"archive member {info.filename!r} is not under {PREFIX}/: not a workbench backup")
        rel = PurePosixPath(*path.parts[1:]).as_posix()
        if rel in members:
            raise BackupError(f"archive member {info.filename!r} appears twice; refused")
        members[rel] = info
    if manifest_info is None:
        raise BackupError(f"the archive has no {MANIFEST}: it is not a workbench backup")
    try:
        manifest = json.loads(archive.read(manifest_info).decode("utf-8"))
        listed = manifest["files"]
        if manifest.get("format") != FORMAT or not isinstance(listed, dict):
            raise ValueError("unknown format")
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BackupError(f"the archive's {MANIFEST} cannot be read ({exc})") from None
    if set(listed) != set(members):
        missing = sorted(set(listed) - set(members))[:3]
        extra = sorted(set(members) - set(listed))[:3]
        raise BackupError(f"the archive does not match its manifest (missing {missing}, unlisted {extra})")
    return members, listed


def restore_backup(archive_path: Path | str, data_dir: Path | str, force: bool = False,
                   dry_run: bool = False, limits: Limits | None = None) -> RestoreResult:
    """Replace ``data_dir`` with the contents of a backup archive.

    Raises BackupError for an unsafe or damaged archive (nothing is written then), or when
    ``data_dir`` exists with files in it and ``force`` is not set.
    """
    limits = limits or Limits()
    source = Path(archive_path)
    target = Path(data_dir).absolute()
    if not source.is_file():
        raise BackupError(f"backup {source} does not exist")
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as exc:
        raise BackupError(f"{source} is not a zip archive ({exc})") from None
    with archive:
        try:
            members, listed = _checked_members(archive, limits)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as exc:
            raise BackupError(f"the archive is damaged: {exc}") from None
        occupied = target.exists() and (not target.is_dir() or any(target.iterdir()))
        total = sum(i.file_size for i in members.values())
        games = sorted({rel.split("/")[0] for rel in members if rel.endswith("/game.yaml") and rel.count("/") == 1})
        if dry_run:
            return RestoreResult(target, len(members), total, None, games, dry_run=True,
                                 needs_force=occupied and not force)
        if occupied and not force:
            raise BackupError(f"{target} exists and is not empty; restore with --force to replace it "
                              "(the current folder is kept beside it)")
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = target.parent / f".{target.name}.restore-{secrets.token_hex(4)}"
        staging.mkdir()
        try:
            for rel, info in members.items():
                _unpack(archive, info, staging / rel, listed[rel], limits)
        except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as exc:
            shutil.rmtree(staging, ignore_errors=True)
            raise BackupError(f"the archive is damaged: {exc}") from None
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    previous = None
    if target.exists():
        previous = target.parent / f"{target.name}.before-restore-{_now():%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"
        os.replace(target, previous)
    os.replace(staging, target)
    fsync_dir(target.parent)
    return RestoreResult(target, len(members), total, previous, games)


def _unpack(archive: zipfile.ZipFile, info: zipfile.ZipInfo, dest: Path, expected: object, limits: Limits) -> None:
    if not isinstance(expected, dict):
        raise BackupError(f"the manifest entry of {info.filename!r} is malformed")
    dest.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    written = 0
    with archive.open(info) as src, open(dest, "xb") as out:
        while True:
            chunk = src.read(CHUNK)
            if not chunk:
                break
            written += len(chunk)
            # Declared sizes can lie; the bytes really unpacked are what counts.
            if written > limits.member_bytes or written > info.file_size:
                raise BackupError(f"archive member {info.filename!r} unpacks to more bytes than it declares; refused")
            digest.update(chunk)
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
    if written != expected.get("size") or digest.hexdigest() != expected.get("sha256"):
        raise BackupError(f"archive member {info.filename!r} does not match its checksum: the backup is damaged")
