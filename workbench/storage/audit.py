"""Who changed what: one JSON line per saved change, and the same event on the log.

The repository calls :meth:`AuditLog.record` after every create, update and delete. The acting
user comes from the ``actor`` argument or, when none is given, from :func:`acting_as` — the web
layer sets it for the duration of a request, so every route that saves through the repository
is recorded under the logged-in user without passing it along by hand.

Lines go to ``<data>/.audit/changes.jsonl`` with one ``write`` on a file opened for appending,
so concurrent writers never interleave inside a line and a crash can at worst cut the last line
(readers skip it).
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime as _dt
import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

AUDIT_DIR = ".audit"
AUDIT_FILE = "changes.jsonl"
LOCAL_ACTOR = "local"
CHANGE_LOGGER = logging.getLogger("workbench.changes")

_actor: contextvars.ContextVar[str | None] = contextvars.ContextVar("workbench_actor", default=None)


def current_actor() -> str | None:
    """The user set by :func:`acting_as` (or :func:`set_actor`) for the current request or command."""
    return _actor.get()


def set_actor(name: str | None) -> contextvars.Token[str | None]:
    """Set the acting user; return the token for :func:`reset_actor`."""
    return _actor.set(name)


def reset_actor(token: contextvars.Token[str | None]) -> None:
    """Undo :func:`set_actor`."""
    with contextlib.suppress(ValueError):  # a token from another context: nothing to undo here
        _actor.reset(token)


@contextlib.contextmanager
def acting_as(name: str | None) -> Iterator[None]:
    """Record changes made inside the block under ``name``."""
    token = set_actor(name)
    try:
        yield
    finally:
        reset_actor(token)


class AuditLog:
    """The change log of one data folder."""

    def __init__(self, data_dir: Path | str) -> None:
        self.root = Path(data_dir)
        self.path = self.root / AUDIT_DIR / AUDIT_FILE

    def _linked(self) -> bool:
        """True when ``.audit`` or the log file is a symbolic link (never followed)."""
        return os.path.islink(self.path.parent) or os.path.islink(self.path)

    def record(self, action: str, game: str, collection: str, item_id: str,
               old_version: str | None, new_version: str | None, actor: str | None = None) -> dict[str, Any]:
        """Append one change (``create``/``update``/``delete`` of a card or deck) and log it.

        Never raises: the change itself is already saved, so a full disk is logged as an error
        rather than reported as a failed save.
        """
        entry = {
            "time": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds"),
            "actor": actor or current_actor() or LOCAL_ACTOR,
            "action": action,
            "game": game,
            "type": collection[:-1],
            "id": item_id,
            "old_version": old_version,
            "new_version": new_version,
        }
        line = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
        try:
            if self._linked():
                raise OSError(f"{AUDIT_DIR}/{AUDIT_FILE} or its folder is a symbolic link; links are not followed")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o640)
            try:
                os.write(fd, line)
            finally:
                os.close(fd)
        except OSError:
            CHANGE_LOGGER.exception("could not append to the audit log %s", self.path)
        CHANGE_LOGGER.info("%s %s %s/%s by %s", action, entry["type"], game, item_id, entry["actor"],
                           extra={"change": entry})
        return entry

    def entries(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The recorded changes, oldest first (the last ``limit`` when given); broken lines are skipped."""
        if self._linked() or not self.path.is_file():
            return []
        out = []
        with open(self.path, "rb") as handle:
            for raw in handle:
                try:
                    entry = json.loads(raw)
                except ValueError:
                    continue  # a line cut by a crash
                if isinstance(entry, dict):
                    out.append(entry)
        return out[-limit:] if limit else out
