"""Every saved version of every card and deck, so a save can be undone and a delete restored.

Versions live beside the data, in ``<data>/.history/<game>/<cards|decks>/<id>/``:

* ``<version>.yaml`` — the file's exact bytes at that version (the version is the content hash
  the repository already uses, so a version is written once however often it comes back);
* ``log.jsonl`` — one line per change: time, who, ``create``/``update``/``delete``/``restore``,
  the version before and after.

The repository records a change after its file is written (under the same per-file lock). The
first change of a file that existed before history was kept stores the old bytes too, so even
that first save can be undone. Nothing is ever deleted from history by the app. Paths are built
from checked ids only and no symbolic link on the way is followed.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from workbench.domain.errors import DataError, NotFound
from workbench.domain.ids import check_id
from workbench.storage.atomic import atomic_write

HISTORY_DIR = ".history"
LOG_FILE = "log.jsonl"
COLLECTIONS = ("cards", "decks")


@dataclass(frozen=True)
class Change:
    """One line of an item's history log."""

    time: str
    actor: str
    action: str
    old_version: str | None
    new_version: str | None


@dataclass(frozen=True)
class Deleted:
    """An item whose last change was a delete, with the version it had then."""

    item_id: str
    time: str
    actor: str
    version: str


class History:
    """The version store of one data folder."""

    def __init__(self, data_dir: Path | str) -> None:
        self.root = Path(data_dir) / HISTORY_DIR

    # ------------------------------------------------------------ writing

    def record(self, game: str, collection: str, item_id: str, action: str, old_bytes: bytes | None,
               old_version: str | None, new_bytes: bytes | None, new_version: str | None, actor: str) -> None:
        """Keep the versions of one change and append it to the item's log.

        Raises DataError when the history folder (or a folder on its way) is a symbolic link.
        """
        folder = self._folder(game, collection, item_id, create=True)
        for version, data in ((old_version, old_bytes), (new_version, new_bytes)):
            if version and data is not None:
                path = folder / f"{check_id(version, 'version')}.yaml"
                if not path.exists():
                    atomic_write(path, data, durable=False)
        entry = {"time": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds"), "actor": actor,
                 "action": action, "old_version": old_version, "new_version": new_version}
        log = folder / LOG_FILE
        if log.is_symlink():
            raise DataError("the history log is a symbolic link; refused")
        fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o640)
        try:
            os.write(fd, (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8"))
        finally:
            os.close(fd)

    # ------------------------------------------------------------ reading

    def changes(self, game: str, collection: str, item_id: str) -> list[Change]:
        """The item's changes, oldest first (empty when it has none)."""
        folder = self._folder(game, collection, item_id)
        log = folder / LOG_FILE if folder else None
        if log is None or not log.is_file() or log.is_symlink():
            return []
        out = []
        for raw in log.read_bytes().splitlines():
            try:
                entry = json.loads(raw)
                out.append(Change(str(entry["time"]), str(entry["actor"]), str(entry["action"]),
                                  entry.get("old_version"), entry.get("new_version")))
            except (ValueError, KeyError, TypeError):
                continue  # a line cut by a crash
        return out

    def version_bytes(self, game: str, collection: str, item_id: str, version: str) -> bytes:
        """The file's bytes at ``version``. Raises NotFound when that version was never kept."""
        folder = self._folder(game, collection, item_id)
        path = folder / f"{check_id(version, 'version')}.yaml" if folder else None
        if path is None or not path.is_file() or path.is_symlink():
            raise NotFound(f"version {version} of {collection[:-1]} {item_id!r} is not in the history")
        return path.read_bytes()

    def deleted(self, game: str, collection: str) -> list[Deleted]:
        """Items whose last change is a delete, the most recent first."""
        base = self._collection(game, collection)
        if base is None:
            return []
        out = []
        for folder in sorted(base.iterdir()):
            if folder.is_symlink() or not folder.is_dir():
                continue
            changes = self.changes(game, collection, folder.name)
            if changes and changes[-1].action == "delete" and changes[-1].old_version:
                last = changes[-1]
                out.append(Deleted(folder.name, last.time, last.actor, str(last.old_version)))
        return sorted(out, key=lambda d: d.time, reverse=True)

    # ------------------------------------------------------------ paths

    def _collection(self, game: str, collection: str, create: bool = False) -> Path | None:
        if collection not in COLLECTIONS:
            raise ValueError(f"unknown collection {collection!r}")
        path = self.root / check_id(game, "game id") / collection
        for part in _parents(self.root.parent, path):
            if part.is_symlink():
                raise DataError(f"{part.name} in the history folder is a symbolic link; refused")
        if create:
            path.mkdir(parents=True, exist_ok=True)
        return path if path.is_dir() else None

    def _folder(self, game: str, collection: str, item_id: str, create: bool = False) -> Path | None:
        base = self._collection(game, collection, create)
        if base is None:
            return None
        folder = base / check_id(item_id, f"{collection[:-1]} id")
        if folder.is_symlink():
            raise DataError(f"the history of {item_id!r} is a symbolic link; refused")
        if create:
            folder.mkdir(exist_ok=True)
        return folder if folder.is_dir() else None


def _parents(top: Path, path: Path) -> Iterator[Path]:
    """``path`` and each folder between it and ``top`` (not ``top`` itself)."""
    here = path
    while here != top and here != here.parent:
        yield here
        here = here.parent
