"""The card and deck repository: YAML files under the data folder, one card or deck per file.

Every read returns the data with its *version*, a hash of the file's bytes. Every change or
delete names the version it was based on; a stale version is refused with Conflict and nothing
changes. Writes are atomic and serialised by a lock per file. Ids come from the allowlist of
:mod:`workbench.domain.ids`, and no path built from them can leave the data folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import os
import re
import stat
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.domain.errors import AlreadyExists, Conflict, DataError, DefinitionError, InvalidId, NotFound
from workbench.domain.gamedef import GameDefinition, parse_definition
from workbench.domain.ids import check_id, is_valid_id, slugify
from workbench.domain.limits import (
    check_card_size,
    check_copies,
    check_deck_counts,
    check_finite,
    check_total,
    count_value,
)
from workbench.storage.atomic import atomic_write, file_lock, fsync_dir, sweep_temp_files
from workbench.storage.audit import LOCAL_ACTOR, AuditLog, current_actor
from workbench.storage.history import History
from workbench.storage.yamlio import dump_yaml, parse_yaml

MAX_ID_PICKS = 1000  # a create without an id picks again this often when others take its id first

DEFINITION_FILE = "game.yaml"
MAX_CARD_BYTES = 256 * 1024
MAX_DECK_BYTES = 512 * 1024
MAX_DEFINITION_BYTES = 512 * 1024
COLLECTIONS = {"cards": MAX_CARD_BYTES, "decks": MAX_DECK_BYTES}
DECK_KEY_ORDER = ("name", "format", "description", "zones", "notes")


def content_version(data: bytes) -> str:
    """The version of a stored file: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(data).hexdigest()[:16]


@dataclass(frozen=True)
class Stored:
    """A card or deck as stored: its id, its data and the version of its file."""

    id: str
    data: dict[str, Any]
    version: str


StoredCard = Stored
StoredDeck = Stored


@dataclass(frozen=True)
class Snapshot:
    """Every file of one collection (cards or decks) of a game, as it was at one moment.

    ``items`` (sorted by id) and their ``data`` are shared between callers: read them, never
    change them (take a copy first). ``unreadable`` lists (id, reason) for files that cannot be
    read. ``token`` is unique to this content: a new snapshot (any file added, removed or
    changed) gets a new token, so it can key caches of anything derived from the files.
    """

    items: tuple[Stored, ...]
    unreadable: tuple[tuple[str, str], ...]
    token: str


_SNAPSHOT_TOKENS = itertools.count(1)
_LINE = re.compile(r"\bline (\d+)")


@dataclass(frozen=True)
class BrokenGame:
    """A game folder whose game.yaml cannot be used: the file (relative to the data folder), the
    line when the parser knows it, and the message."""

    id: str
    file: str
    line: int | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.id, "file": self.file, "line": self.line, "message": self.message}


class Repository:
    """Reads and writes the games, cards and decks of one data folder.

    Raises (from every method): InvalidId for an id off the allowlist, NotFound for a missing
    game/card/deck, DataError for an unreadable file, Conflict for a stale version,
    AlreadyExists when creating over an existing id.
    """

    def __init__(self, data_dir: Path | str, lock_dir: Path | str | None = None) -> None:
        self.root = Path(data_dir).resolve()
        self._root_text = str(self.root)
        self._root_prefix = os.path.join(self._root_text, "")
        # game id -> (its folder, its game.yaml): the same Path objects on every request
        self._game_paths: dict[str, tuple[Path, Path]] = {}
        self.lock_dir = Path(lock_dir) if lock_dir else self.root / ".locks"
        self._cache: dict[Path, tuple[tuple[int, int, int], Stored | DataError]] = {}
        self._defs: dict[str, tuple[tuple[int, int, int], GameDefinition | DataError | DefinitionError]] = {}
        # (game, collection) -> (the stat of every file, the snapshot built from them, the same
        # stats by file name for the quick check)
        self._snapshots: dict[tuple[str, str], tuple[tuple[Any, ...], Snapshot, dict[str, tuple[int, int, int]]]] = {}
        self._cache_lock = threading.Lock()
        self.audit = AuditLog(self.root)
        self.history = History(self.root)

    # ------------------------------------------------------------ paths

    def _inside(self, path: Path) -> Path:
        """Refuse symlinks and anything that resolves outside the data folder."""
        text = os.fspath(path)
        if text == self._root_text:
            return path
        if text.startswith(self._root_prefix):
            parts = text[len(self._root_prefix):].split(os.sep)
            if ".." not in parts:
                # The usual case (a path built from checked ids): the root is already resolved,
                # so when no component below it is a link the path cannot leave it, and
                # resolve() (an lstat per component from /) adds nothing. One lstat per
                # component, on every call; plain strings, as this runs several times a request.
                current = self._root_text
                for part in parts:
                    current = current + os.sep + part
                    if os.path.islink(current):
                        raise InvalidId(f"{part} is a symbolic link; links are not followed")
                return path
        probe = path
        while probe != self.root and self.root in probe.parents:
            if probe.is_symlink():
                raise InvalidId(f"{probe.name} is a symbolic link; links are not followed")
            probe = probe.parent
        resolved = path.resolve()
        if resolved != self.root and self.root not in resolved.parents:
            raise InvalidId("path leaves the data folder")
        return path

    def inside(self, path: Path) -> Path:
        """``path`` when it stays in the data folder and no component below the data folder is a
        symbolic link; raises InvalidId otherwise. For every file the storage layer opens
        (playtests/, art/ …), not only cards and decks."""
        return self._inside(path)

    def game_dir(self, game_id: str) -> Path:
        """The folder of an existing game. Raises InvalidId or NotFound."""
        check_id(game_id, "game id")
        paths = self._game_paths.get(game_id)
        if paths is None:
            folder = self.root / game_id
            paths = (folder, folder / DEFINITION_FILE)
        folder = self._inside(paths[0])
        if not paths[1].is_file():
            raise NotFound(f"game {game_id!r} does not exist (the data folder has no {game_id}/{DEFINITION_FILE})")
        if len(self._game_paths) < 1000:  # remembered for games that exist only
            self._game_paths[game_id] = paths
        return folder

    def _file(self, game_id: str, collection: str, item_id: str) -> Path:
        check_id(item_id, f"{collection[:-1]} id")
        return self._inside(self.game_dir(game_id) / collection / f"{item_id}.yaml")

    def sweep(self) -> int:
        """Remove temp files left by interrupted writes (run at start-up); return how many."""
        return sweep_temp_files(self.root)

    # ------------------------------------------------------------ games

    def list_games(self) -> list[str]:
        """Ids of the games in the data folder (folders holding a game.yaml), sorted."""
        if not self.root.is_dir():
            raise NotFound(f"data folder {self.root} does not exist")
        return sorted(
            p.name for p in self.root.iterdir()
            if is_valid_id(p.name) and p.is_dir() and not p.is_symlink() and (p / DEFINITION_FILE).is_file()
        )

    def game(self, game_id: str) -> GameDefinition:
        """The parsed definition of a game (cached until its file changes; so is a failure, so
        a broken game.yaml is not parsed again on every page that lists the games).

        Raises NotFound, InvalidId, DataError, DefinitionError.
        """
        folder = self.game_dir(game_id)
        path = self._inside(self._game_paths.get(game_id, (folder, folder / DEFINITION_FILE))[1])
        stamp = _stamp(path)
        cached = self._defs.get(game_id)
        if cached and cached[0] == stamp:
            if isinstance(cached[1], (DataError, DefinitionError)):
                raise type(cached[1])(str(cached[1]))
            return cached[1]
        try:
            raw = parse_yaml(path.read_bytes(), MAX_DEFINITION_BYTES, f"{game_id}/{DEFINITION_FILE}")
            definition = parse_definition(raw, expected_id=game_id)
        except (DataError, DefinitionError) as exc:
            self._defs[game_id] = (stamp, exc)
            raise
        self._defs[game_id] = (stamp, definition)
        return definition

    def games_checked(self) -> tuple[list[str], list[BrokenGame]]:
        """The games whose game.yaml reads, and the others with their problem (file, line,
        message), so one broken game never hides the rest. Raises NotFound (no data folder)."""
        good: list[str] = []
        broken: list[BrokenGame] = []
        for game_id in self.list_games():
            try:
                self.game(game_id)
            except NotFound:  # removed since it was listed
                continue
            except (DataError, DefinitionError, InvalidId, OSError) as exc:
                message = str(exc) if not isinstance(exc, OSError) else f"cannot be read ({exc.strerror})"
                found = _LINE.search(message)
                broken.append(BrokenGame(game_id, f"{game_id}/{DEFINITION_FILE}",
                                         int(found.group(1)) if found else None, message))
            else:
                good.append(game_id)
        return good, broken

    # ------------------------------------------------------------ generic items

    def _read(self, path: Path, collection: str, item_id: str) -> Stored:
        try:
            stamp = _stamp(path)
        except FileNotFoundError:
            raise NotFound(f"{collection[:-1]} {item_id!r} does not exist") from None
        item = self._read_stamped(path, collection, item_id, stamp)
        return Stored(item.id, _copy(item.data), item.version)

    def _read_stamped(self, path: Path, collection: str, item_id: str, stamp: tuple[int, int, int]) -> Stored:
        """The cached item of ``path`` when its stat is still ``stamp``, else the file parsed
        again. The result is shared with the cache: callers copy before handing it out.
        Raises NotFound, DataError."""
        with self._cache_lock:
            cached = self._cache.get(path)
        if cached and cached[0] == stamp:
            item = cached[1]
            if isinstance(item, DataError):
                raise DataError(str(item))
            return item
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise NotFound(f"{collection[:-1]} {item_id!r} does not exist") from None
        try:
            data = parse_yaml(raw, COLLECTIONS[collection], f"{collection}/{item_id}.yaml")
            if not isinstance(data, dict):
                raise DataError(f"{collection}/{item_id}.yaml must hold a mapping, not {type(data).__name__}")
            # A hand-typed .inf or .nan: JSON cannot carry it (the editor would get Infinity).
            check_finite(data, f"{collection}/{item_id}.yaml")
        except DataError as exc:
            # Remembered until the file changes: a hostile file (deep nesting costs about a
            # second to refuse) must not be parsed again on every page that lists the cards.
            with self._cache_lock:
                self._cache[path] = (stamp, exc)
            raise
        item = Stored(item_id, data, content_version(raw))
        # Kept under the stat taken *before* reading: if the file changed meanwhile, the next
        # stat differs and the file is read again (never old bytes under a new stat).
        with self._cache_lock:
            self._cache[path] = (stamp, item)
        return item

    def snapshot(self, game_id: str, collection: str = "cards") -> Snapshot:
        """The current content of a game's cards (or decks) folder, shared and read-only.

        Costs one directory listing and one ``lstat`` per file when nothing changed, so a hand
        edit of any YAML file shows up on the very next call; only changed files are parsed
        again. Raises InvalidId, NotFound (game), KeyError (unknown collection).
        """
        if collection not in COLLECTIONS:
            raise KeyError(collection)
        folder = self._inside(self.game_dir(game_id) / collection)
        cache_key = (game_id, collection)
        with self._cache_lock:
            cached = self._snapshots.get(cache_key)
        if cached and self._unchanged(folder, cached[2]):
            return cached[1]
        stamps: list[tuple[str, int, int, int]] = []
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    name = entry.name
                    if not name.endswith(".yaml") or not is_valid_id(name[:-5]):
                        continue
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except FileNotFoundError:  # deleted while we looked
                        continue
                    if not stat.S_ISREG(st.st_mode):  # symbolic links are never followed
                        continue
                    stamps.append((name[:-5], st.st_ino, st.st_mtime_ns, st.st_size))
        except (FileNotFoundError, NotADirectoryError):
            stamps = []
        stamps.sort()
        key = tuple(stamps)
        by_name = {f"{item_id}.yaml": (ino, mtime, size) for item_id, ino, mtime, size in stamps}
        if cached and cached[0] == key:
            with self._cache_lock:
                self._snapshots[cache_key] = (key, cached[1], by_name)
            return cached[1]
        good: list[Stored] = []
        bad: list[tuple[str, str]] = []
        for item_id, ino, mtime, size in stamps:
            try:
                good.append(self._read_stamped(folder / f"{item_id}.yaml", collection, item_id, (ino, mtime, size)))
            except NotFound:
                continue
            except DataError as exc:
                bad.append((item_id, str(exc)))
        snap = Snapshot(tuple(good), tuple(bad), f"{id(self):x}.{next(_SNAPSHOT_TOKENS)}")
        with self._cache_lock:
            self._snapshots[cache_key] = (key, snap, by_name)
        return snap

    @staticmethod
    def _unchanged(folder: Path, known: dict[str, tuple[int, int, int]]) -> bool:
        """True when ``folder`` holds exactly the card (or deck) files of ``known`` (file name ->
        inode, mtime, size), none of them changed. The hot path of :meth:`snapshot`: one
        ``lstat`` per file as before, but no list to build and sort; any doubt answers False.

        Every kind of save is seen: an editor's in-place save changes the file's mtime (and
        usually its size); a save by rename (ours, many editors') changes its inode; a file
        added or removed changes the set of names.
        """
        seen = 0
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    name = entry.name
                    old = known.get(name)
                    if old is None:
                        if name.endswith(".yaml") and is_valid_id(name[:-5]):
                            return False  # a new card file
                        continue
                    st = entry.stat(follow_symlinks=False)
                    if (st.st_ino, st.st_mtime_ns, st.st_size) != old or not stat.S_ISREG(st.st_mode):
                        return False
                    seen += 1
        except OSError:
            return False
        return seen == len(known)

    def _list(self, game_id: str, collection: str) -> list[Stored]:
        snap = self.snapshot(game_id, collection)
        if snap.unreadable:
            raise DataError(snap.unreadable[0][1])
        return [Stored(i.id, _copy(i.data), i.version) for i in snap.items]

    def _list_tolerant(self, game_id: str, collection: str) -> tuple[list[Stored], list[tuple[str, str]]]:
        snap = self.snapshot(game_id, collection)
        return [Stored(i.id, _copy(i.data), i.version) for i in snap.items], list(snap.unreadable)

    def _write(
        self,
        game_id: str,
        collection: str,
        item_id: str,
        data: Mapping[str, Any],
        expected_version: str | None,
        create: bool,
        actor: str | None = None,
        action: str | None = None,
    ) -> Stored:
        path = self._file(game_id, collection, item_id)
        ordered = self._ordered(game_id, collection, data)
        check_finite(ordered, f"{collection[:-1]} {item_id!r}")  # 1e400 would be saved as .inf
        if collection == "decks":  # refused before anything expands the counts (domain/limits.py)
            check_deck_counts(ordered.get("zones"), f"deck {item_id!r}")
        elif collection == "cards":  # a card of a million effect entries is refused, not stored
            check_card_size(ordered, f"card {item_id!r}")
        least = _text_bytes(ordered, COLLECTIONS[collection])
        if least > COLLECTIONS[collection]:  # refused before the YAML is written (3 s for 15 MB of text)
            raise DataError(
                f"{collection[:-1]} {item_id!r} would be at least {least:,} bytes; "
                f"the limit is {COLLECTIONS[collection]:,}"
            )
        with file_lock(self.lock_dir, f"{game_id}/{collection}/{item_id}"):
            exists = path.exists()
            previous = path.read_bytes() if exists else None
            if create and exists:
                raise AlreadyExists(f"{collection[:-1]} {item_id!r} exists already")
            if not create:
                if not exists:
                    raise NotFound(f"{collection[:-1]} {item_id!r} does not exist")
                current = content_version(previous or b"")
                if expected_version != current:
                    raise Conflict(
                        f"{collection[:-1]} {item_id!r} was changed since version {expected_version}; "
                        f"it is now at version {current}. Reload it and apply your change again.",
                        current,
                    )
            text = dump_yaml(ordered, previous.decode("utf-8", "replace") if previous else None)
            encoded = text.encode("utf-8")
            if len(encoded) > COLLECTIONS[collection]:
                raise DataError(
                    f"{collection[:-1]} {item_id!r} would be {len(encoded):,} bytes; "
                    f"the limit is {COLLECTIONS[collection]:,}"
                )
            # A check that the result reads back exactly, so a save never writes what we cannot load.
            if parse_yaml(encoded, COLLECTIONS[collection]) != _plain(ordered):
                raise DataError(f"{collection[:-1]} {item_id!r} does not survive a YAML round trip")
            atomic_write(path, encoded)
            new_version = content_version(encoded)
            # Recorded under the lock, so the log's order is the order the file changed in.
            self.audit.record("create" if create else "update", game_id, collection, item_id,
                              None if create else current, new_version, actor)
            if create or new_version != current:  # a save that changed nothing adds no version
                self._keep_history(game_id, collection, item_id, action or ("create" if create else "update"),
                                   previous, None if create else current, encoded, new_version, actor)
            return Stored(item_id, _plain(ordered), new_version)

    def _delete(self, game_id: str, collection: str, item_id: str, expected_version: str | None,
                actor: str | None = None) -> None:
        path = self._file(game_id, collection, item_id)
        with file_lock(self.lock_dir, f"{game_id}/{collection}/{item_id}"):
            if not path.exists():
                raise NotFound(f"{collection[:-1]} {item_id!r} does not exist")
            old_bytes = path.read_bytes()
            current = content_version(old_bytes)
            if expected_version != current:
                raise Conflict(
                    f"{collection[:-1]} {item_id!r} was changed since version {expected_version}; "
                    f"it is now at version {current}. Nothing was deleted.",
                    current,
                )
            path.unlink()
            fsync_dir(path.parent)
            self.audit.record("delete", game_id, collection, item_id, current, None, actor)
            self._keep_history(game_id, collection, item_id, "delete", old_bytes, current, None, None, actor)
        with self._cache_lock:
            self._cache.pop(path, None)

    def _keep_history(self, game_id: str, collection: str, item_id: str, action: str, old_bytes: bytes | None,
                      old_version: str | None, new_bytes: bytes | None, new_version: str | None,
                      actor: str | None) -> None:
        """Keep both versions of a change (storage/history.py). The change itself is saved
        already, so a history that cannot be written (a full disk) is logged, not raised."""
        try:
            self.history.record(game_id, collection, item_id, action, old_bytes, old_version, new_bytes,
                                new_version, actor or current_actor() or LOCAL_ACTOR)
        except (OSError, DataError):
            import logging

            logging.getLogger("workbench.changes").exception("could not keep the history of %s/%s/%s",
                                                             game_id, collection, item_id)

    # ------------------------------------------------------------ history

    def versions(self, game_id: str, collection: str, item_id: str) -> list[dict[str, Any]]:
        """The item's saved versions, newest first: ``{"version", "time", "actor", "action", "data"}``
        (``data`` None when the version's bytes were not kept). Raises InvalidId for a bad id."""
        return self.versions_window(game_id, collection, item_id)[0]

    def versions_window(self, game_id: str, collection: str, item_id: str, start: int = 0,
                        count: int | None = None) -> tuple[list[dict[str, Any]], int]:
        """``count`` of the item's versions (all when None) from the ``start``-th newest, and how
        many it has. Only the versions returned are read and parsed: a card saved 2,000 times
        made its history page parse 2,000 files (1.05 s a view)."""
        changes = self.history.changes(game_id, collection, item_id)
        entries = [(c.new_version or c.old_version, c.time, c.actor, c.action, c.old_version) for c in changes]
        if changes and changes[0].old_version and changes[0].action != "create":
            # The file existed before history was kept: its first recorded change kept those bytes too.
            entries.insert(0, (changes[0].old_version, "", "", "original", None))
        listed = [entry for entry in reversed(entries) if entry[0]]
        total = len(listed)
        out = []
        for version, time, actor, action, previous in listed[start:None if count is None else start + count]:
            try:
                data: Any = parse_yaml(self.history.version_bytes(game_id, collection, item_id, version),
                                       COLLECTIONS[collection])
            except (NotFound, DataError):
                data = None
            out.append({"version": version, "time": time, "actor": actor, "action": action,
                        "data": data, "previous": previous})
        return out, total

    def restore_version(self, game_id: str, collection: str, item_id: str, version: str,
                        expected_version: str | None, actor: str | None = None) -> Stored:
        """Save ``version`` of an item again as a new save (so nothing is lost): over the current
        file when it exists (``expected_version`` must be current), or as the item again after a
        delete. Raises NotFound (unknown version), Conflict (stale), DataError (unreadable)."""
        data = parse_yaml(self.history.version_bytes(game_id, collection, item_id, version), COLLECTIONS[collection])
        if not isinstance(data, Mapping):
            raise DataError(f"version {version} of {item_id!r} is not a mapping of fields")
        exists = self._file(game_id, collection, item_id).exists()
        return self._write(game_id, collection, item_id, data, expected_version, create=not exists,
                           actor=actor, action="restore")

    def deleted_items(self, game_id: str, collection: str, limit: int | None = None) -> list[dict[str, Any]]:
        """Items deleted and not created again, the most recent first, with their last data; only
        the ``limit`` most recent are read (1,500 deleted cards made the page parse 1,500 files)."""
        out: list[dict[str, Any]] = []
        for item in self.history.deleted(game_id, collection):
            if limit is not None and len(out) >= limit:
                break
            if self._file(game_id, collection, item.item_id).exists():
                continue
            try:
                data = parse_yaml(self.history.version_bytes(game_id, collection, item.item_id, item.version),
                                  COLLECTIONS[collection])
            except (NotFound, DataError):
                data = None
            out.append({"id": item.item_id, "time": item.time, "actor": item.actor, "version": item.version,
                        "name": str(data.get("name", item.item_id)) if isinstance(data, Mapping) else item.item_id})
        return out

    def _ordered(self, game_id: str, collection: str, data: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(data, Mapping):
            raise DataError(f"a {collection[:-1]} must be a mapping of fields")
        if collection == "cards":
            definition = self.game(game_id)
            order = ["name", "kind"]
            kind = data.get("kind")
            if kind in definition.kinds:
                order += [f.name for f in definition.kinds[str(kind)].fields]
            order += [f.name for f in definition.common_fields]
        else:
            order = list(DECK_KEY_ORDER)
        result = {k: data[k] for k in order if k in data}
        result.update({k: v for k, v in data.items() if k not in result and k != "id"})
        return result

    def new_id(self, game_id: str, collection: str, name: str) -> str:
        """A free id made from a display name (``iron-guard``, ``iron-guard-2`` …)."""
        base = slugify(name, fallback=collection[:-1])[:58].strip("-") or collection[:-1]
        folder = self.game_dir(game_id) / collection
        candidate, n = base, 1
        while (folder / f"{candidate}.yaml").exists():
            n += 1
            candidate = f"{base}-{n}"
        return candidate

    def _create_named(self, game_id: str, collection: str, data: Mapping[str, Any], fallback: str,
                      actor: str | None) -> Stored:
        """Create under a free id made from the name. The free-id look-up and the create are not
        one step, so two requests may pick the same id; the create itself is atomic (checked
        under the id's lock), so the loser picks again instead of failing: 50 parallel creates
        of one name get 50 ids (``name``, ``name-2`` …, in no fixed order)."""
        for _ in range(MAX_ID_PICKS):
            item_id = self.new_id(game_id, collection, str(data.get("name", fallback)))
            try:
                return self._write(game_id, collection, item_id, data, None, create=True, actor=actor)
            except AlreadyExists:
                continue  # taken between the look-up and the write: pick again
        raise AlreadyExists(f"no free {collection[:-1]} id for {str(data.get('name', fallback))[:60]!r} "
                            f"after {MAX_ID_PICKS} tries; give the {collection[:-1]} an id")

    # ------------------------------------------------------------ cards

    def list_cards(self, game_id: str) -> list[Stored]:
        """Every card of a game, sorted by id. Raises DataError on the first unreadable file."""
        return self._list(game_id, "cards")

    def list_cards_tolerant(self, game_id: str) -> tuple[list[Stored], list[tuple[str, str]]]:
        """Readable cards, plus (id, reason) for files that cannot be read."""
        return self._list_tolerant(game_id, "cards")

    def get_card(self, game_id: str, card_id: str) -> Stored:
        """One card with its version."""
        return self._read(self._file(game_id, "cards", card_id), "cards", card_id)

    def create_card(self, game_id: str, data: Mapping[str, Any], card_id: str | None = None,
                    actor: str | None = None) -> Stored:
        """Save a new card; without an id, one is made from its name. ``actor`` names who (for the audit log)."""
        if card_id is None:
            return self._create_named(game_id, "cards", data, "card", actor)
        return self._write(game_id, "cards", card_id, data, None, create=True, actor=actor)

    def update_card(self, game_id: str, card_id: str, data: Mapping[str, Any], expected_version: str | None,
                    actor: str | None = None) -> Stored:
        """Replace a card's data, if ``expected_version`` is still current."""
        return self._write(game_id, "cards", card_id, data, expected_version, create=False, actor=actor)

    def delete_card(self, game_id: str, card_id: str, expected_version: str | None,
                    actor: str | None = None) -> None:
        """Delete a card, if ``expected_version`` is still current."""
        self._delete(game_id, "cards", card_id, expected_version, actor)

    def card_index(self, game_id: str) -> dict[str, dict[str, Any]]:
        """Card id -> card data, for deck validation (unreadable files are left out)."""
        cards, _ = self.list_cards_tolerant(game_id)
        return {c.id: c.data for c in cards}

    # ------------------------------------------------------------ decks

    def list_decks(self, game_id: str) -> list[Stored]:
        """Every deck of a game, sorted by id."""
        return self._list(game_id, "decks")

    def list_decks_tolerant(self, game_id: str) -> tuple[list[Stored], list[tuple[str, str]]]:
        """Readable decks, plus (id, reason) for files that cannot be read."""
        return self._list_tolerant(game_id, "decks")

    def get_deck(self, game_id: str, deck_id: str) -> Stored:
        """One deck with its version."""
        return self._read(self._file(game_id, "decks", deck_id), "decks", deck_id)

    def create_deck(self, game_id: str, data: Mapping[str, Any], deck_id: str | None = None,
                    actor: str | None = None) -> Stored:
        """Save a new deck; without an id, one is made from its name. ``actor`` names who (for the audit log)."""
        if deck_id is None:
            return self._create_named(game_id, "decks", data, "deck", actor)
        return self._write(game_id, "decks", deck_id, data, None, create=True, actor=actor)

    def update_deck(self, game_id: str, deck_id: str, data: Mapping[str, Any], expected_version: str | None,
                    actor: str | None = None) -> Stored:
        """Replace a deck's data, if ``expected_version`` is still current."""
        return self._write(game_id, "decks", deck_id, data, expected_version, create=False, actor=actor)

    def delete_deck(self, game_id: str, deck_id: str, expected_version: str | None,
                    actor: str | None = None) -> None:
        """Delete a deck, if ``expected_version`` is still current."""
        self._delete(game_id, "decks", deck_id, expected_version, actor)

    def deck_cards(self, game_id: str, deck_id: str) -> dict[str, list[dict[str, Any]]]:
        """A deck resolved for play: zone -> card data (with ``id``), one entry per copy.

        Raises NotFound when the deck names a card that does not exist (naming the deck by its
        name when it has one).
        """
        return self.resolve_deck(game_id, self.get_deck(game_id, deck_id).data)

    def resolve_deck(self, game_id: str, deck: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
        """Resolve deck data (saved or not) to card data per copy; see :meth:`deck_cards`."""
        index = self.card_index(game_id)
        resolved: dict[str, list[dict[str, Any]]] = {}
        what = f"deck {deck.get('name')!r}"[:80] if deck.get("name") else "the deck"
        total = 0
        for zone, content in (deck.get("zones") or {}).items():
            copies: list[dict[str, Any]] = []
            for card_id, count in (content or {}).items():
                if str(card_id) not in index:  # the deck named when it has a name (a form may list several)
                    raise NotFound(f"deck {str(deck['name'])[:80]!r} names card {str(card_id)[:80]!r}, which does "
                                   "not exist" if deck.get("name") else
                                   f"deck names card {str(card_id)[:80]!r}, which does not exist")
                number = count_value(count)
                if number is None:
                    raise DataError(f"the count of {str(card_id)[:80]} in zone {str(zone)[:80]} of {what} "
                                    f"is not a whole number")
                # Checked before expanding: a hand-edited file may hold any number.
                check_copies(number, f"{card_id} in zone {str(zone)[:80]} of {what}")
                total += max(0, number)
                check_total(total, what)
                card = dict(index[str(card_id)], id=str(card_id))
                copies.extend(dict(card) for _ in range(number))
            resolved[str(zone)] = copies
        return resolved

    # ------------------------------------------------------------ art

    def art_file(self, game_id: str, name: str) -> Path | None:
        """An existing art file of a game, or None. ``name`` must be ``<id>.<png|jpg|jpeg|webp>``."""
        stem, dot, ext = name.rpartition(".")
        if not dot or ext.lower() not in {"png", "jpg", "jpeg", "webp"} or not is_valid_id(stem):
            return None
        path = self._inside(self.game_dir(game_id) / "art" / name)
        return path if path.is_file() else None

    @contextlib.contextmanager
    def locked(self, game_id: str, collection: str, item_id: str) -> Iterator[None]:
        """Hold the lock of one file (for multi-step changes done by services)."""
        with file_lock(self.lock_dir, f"{game_id}/{collection}/{item_id}"):
            yield


def _stamp(path: Path) -> tuple[int, int, int]:
    # The inode changes on every atomic replace, so equal mtimes cannot hide a new file.
    st = os.stat(path, follow_symlinks=False)
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k) if not isinstance(k, (int, bool)) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _text_bytes(data: Any, stop: int) -> int:
    """The UTF-8 bytes of every key and string in ``data``: a lower bound of its YAML's size
    (each is written at least once, whole), counted without writing the YAML, and only until
    it passes ``stop``. Dumping a card of 15 MB of text took 3 s (under the file's lock) only to
    be refused for its size afterwards."""
    total = 0
    todo = [data]
    seen: set[int] = set()
    while todo and total <= stop:
        item = todo.pop()
        if isinstance(item, str):
            total += len(item.encode("utf-8", "surrogatepass"))
        elif isinstance(item, Mapping):
            if id(item) not in seen:  # a mapping written twice may be an alias: counted once
                seen.add(id(item))
                todo.extend(item.keys())
                todo.extend(item.values())
        elif isinstance(item, (list, tuple)):
            if id(item) not in seen:
                seen.add(id(item))
                todo.extend(item)
    return total
