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
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from workbench.domain.errors import DataError, InvalidId, NotFound
from workbench.storage.atomic import atomic_write, file_lock
from workbench.storage.playtest_runs import new_run_id
from workbench.storage.repository import Repository

FOLDER = "tables"
MAX_TABLE_BYTES = 8 * 1024 * 1024
TABLE_ID = re.compile(r"^\d{8}-\d{6}-\d{3}[0-9a-f]{4}$")


def check_table_id(table_id: str) -> str:
    """Return ``table_id`` if it has the table id shape; raise InvalidId otherwise."""
    if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
        raise InvalidId(f"{table_id!r} is not a table id")
    return table_id


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
        """Write a table (atomically) under its ``id`` and return the id."""
        table_id = check_table_id(str(table["id"]))
        encoded = json.dumps(dict(table, game=game), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(encoded) > MAX_TABLE_BYTES:
            raise DataError(f"table {table_id} is {len(encoded):,} bytes; the limit is {MAX_TABLE_BYTES:,}")
        atomic_write(self._path(game, table_id), encoded)
        return table_id

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
