"""Games played at the table, kept as JSON files: ``card_data/<game>/tables/<table-id>.json``.

A table file holds what the game was built from (the decks' cards as they were when it started,
rule options, seed, who sits where) and every decision taken so far, so the position is rebuilt
by replaying the decisions from the seed (:mod:`workbench.services.table`). Files are written
atomically after every decision, so a game survives a server restart and any server process can
answer for it. Table ids sort by creation time, like playtest run ids.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from workbench.domain.errors import DataError, InvalidId, NotFound, WorkbenchError
from workbench.storage.atomic import atomic_write, file_lock
from workbench.storage.playtest_runs import new_run_id
from workbench.storage.repository import Repository

FOLDER = "tables"
MAX_TABLE_BYTES = 8 * 1024 * 1024
MAX_TABLES = 500
"""Saved tables per game: each new one costs disk and a read on every Play page, so they are capped.
At the cap, the oldest *replays* (rebuilt from their playtest run at any time) make room first."""
MAX_TABLES_PER_ACCOUNT = 100
"""Saved tables of one account (team mode) per game. Another account's tables are invisible to it,
so without this one viewer could fill the game's ``MAX_TABLES`` (520 creates took 9 s) and nobody
could start a table in that game until someone deleted that account's files by hand. Tables
started without a login (local mode, one designer) count only towards ``MAX_TABLES``."""
TABLE_ID = re.compile(r"^\d{8}-\d{6}-\d{3}[0-9a-f]{4}$")


def check_table_id(table_id: str) -> str:
    """Return ``table_id`` if it has the table id shape; raise InvalidId otherwise."""
    if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
        raise InvalidId(f"{table_id!r} is not a table id")
    return table_id


class TableLimit(WorkbenchError):
    """A game already holds ``MAX_TABLES`` saved tables and none of them is a replay to drop."""


class TableStore:
    """Saves, lists and reads the table games of a repository's data folder.

    Raises NotFound (unknown game or table), InvalidId (bad id), DataError (unreadable file).
    """

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    def _folder(self, game: str) -> Path:
        return self.repo.game_dir(game) / FOLDER

    def _path(self, game: str, table_id: str) -> Path:
        return self._folder(game) / f"{check_table_id(table_id)}.json"

    def new_id(self) -> str:
        """A fresh table id (UTC time, so ids sort by start, plus random hex digits)."""
        return new_run_id()

    def save(self, game: str, table: Mapping[str, Any]) -> str:
        """Write a table (atomically) under its ``id`` and return the id.

        Raises DataError for a table over ``MAX_TABLE_BYTES``; TableLimit when it is a new table,
        the game holds ``MAX_TABLES`` already and no replay can make room.
        """
        table_id = check_table_id(str(table["id"]))
        encoded = json.dumps(dict(table, game=game), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(encoded) > MAX_TABLE_BYTES:
            raise DataError(f"table {table_id} is {len(encoded):,} bytes; the limit is {MAX_TABLE_BYTES:,}")
        path = self._path(game, table_id)
        if path.exists():
            atomic_write(path, encoded)
            return table_id
        # Counting and writing are one step: 4 clients creating at once went one over each cap
        # (501 tables of a game, 101 of an account).
        with file_lock(self.repo.lock_dir, f"{game}/{FOLDER}/new"):
            if table.get("owner") is not None:
                self._make_room_for(game, str(table["owner"]))
            self._make_room(game)
            atomic_write(path, encoded)
        return table_id

    def _table_files(self, game: str) -> list[Path]:
        """The game's table files, oldest first (ids sort by creation time)."""
        folder = self._folder(game)
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.glob("*.json") if TABLE_ID.match(p.stem) and not p.is_symlink())

    def _make_room(self, game: str) -> None:
        """Keep the game below ``MAX_TABLES`` by removing its oldest replays.

        Raises TableLimit when every saved table is a game someone played.
        """
        files = self._table_files(game)
        if len(files) < MAX_TABLES:
            return

        def kinds() -> Iterator[tuple[Path, Any]]:  # read lazily: the oldest few replays are enough
            for path in files:
                try:
                    yield path, json.loads(path.read_bytes()).get("kind")
                except (ValueError, AttributeError, OSError):
                    continue

        if _drop_oldest_replays(kinds(), len(files) - MAX_TABLES + 1) > 0:
            raise TableLimit(f"game {game!r} already has {MAX_TABLES} saved tables, the most the server keeps; "
                             "delete finished games on the Play page to start another")

    def _make_room_for(self, game: str, owner: str) -> None:
        """Keep ``owner`` below ``MAX_TABLES_PER_ACCOUNT`` tables of ``game`` by removing that
        account's oldest replays; raises TableLimit when they are all games it played."""
        mine: list[tuple[Path, Any]] = []
        for path in self._table_files(game):
            try:
                data = json.loads(path.read_bytes())
            except (ValueError, OSError):
                continue
            if isinstance(data, dict) and data.get("owner") == owner:
                mine.append((path, data.get("kind")))
        if _drop_oldest_replays(mine, len(mine) - MAX_TABLES_PER_ACCOUNT + 1) > 0:
            raise TableLimit(f"you already have {MAX_TABLES_PER_ACCOUNT} saved tables of game {game!r}, the most "
                             "one account keeps; delete finished games on the Play page to start another")

    def get(self, game: str, table_id: str) -> dict[str, Any]:
        """One table as saved."""
        path = self._path(game, table_id)
        if not path.is_file() or path.is_symlink():
            raise NotFound(f"table {table_id!r} does not exist for game {game!r}")
        try:
            data = json.loads(path.read_bytes())
        except ValueError as exc:
            raise DataError(f"table {table_id} cannot be read: {exc}") from None
        if not isinstance(data, dict):
            raise DataError(f"table {table_id} is not a JSON object")
        return data

    @contextlib.contextmanager
    def locked(self, game: str, table_id: str) -> Iterator[None]:
        """Hold the table's inter-process lock while reading, changing and saving it."""
        with file_lock(self.repo.lock_dir, f"{game}/{FOLDER}/{check_table_id(table_id)}"):
            yield

    def list(self, game: str, owner: str | None = None, every_owner: bool = False) -> list[dict[str, Any]]:
        """Summaries of a game's tables, newest first. Only ``owner``'s tables (None: the tables
        started without a login, in local mode) unless ``every_owner``."""
        folder = self._folder(game)
        if not folder.is_dir():
            return []
        summaries = []
        for path in sorted(folder.glob("*.json"), reverse=True):
            if not TABLE_ID.match(path.stem) or path.is_symlink():
                continue
            try:
                table = self.get(game, path.stem)
            except (DataError, InvalidId, NotFound):
                continue
            if not every_owner and table.get("owner") != owner:
                continue
            summaries.append({
                "id": path.stem,
                "kind": table.get("kind", "game"),
                "created": table.get("created"),
                "updated": table.get("updated"),
                "seats": table.get("seats"),
                "decisions": len(table.get("actions") or []),
                "result": table.get("result"),
                "seed": table.get("seed"),
            })
        return summaries

    def delete(self, game: str, table_id: str) -> None:
        """Remove a table file. Raises NotFound when it does not exist."""
        path = self._path(game, table_id)
        if not path.is_file():
            raise NotFound(f"table {table_id!r} does not exist for game {game!r}")
        path.unlink()


def _drop_oldest_replays(tables: Iterable[tuple[Path, Any]], excess: int) -> int:
    """Remove replays among ``tables`` ((file, kind), oldest first) until ``excess`` are gone;
    returns how many more would have to go (games someone played are never removed)."""
    for path, kind in tables:
        if excess <= 0:
            break
        if kind == "replay":
            path.unlink(missing_ok=True)
            excess -= 1
    return excess
