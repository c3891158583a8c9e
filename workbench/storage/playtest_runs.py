"""Playtest runs kept as JSON files: ``card_data/<game>/playtests/<run-id>.json``.

A run file holds what was asked (decks with their versions, the versions of every card in them,
agents, games, seed, options) and the report. Run ids sort by creation time
(``20261130-101500-1233fa2``: UTC date, time, milliseconds, four random hex digits), so "the previous run" is the one before in id order.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.domain.errors import DataError, InvalidId, NotFound
from workbench.storage.atomic import atomic_write
from workbench.storage.repository import Repository

FOLDER = "playtests"
MAX_RUN_BYTES = 64 * 1024 * 1024
RUN_ID = re.compile(r"^\d{8}-\d{6}-\d{3}[0-9a-f]{4}$")


def new_run_id(now: float | None = None) -> str:
    """A fresh run id: UTC date, time and milliseconds (so ids sort by start) plus four random hex digits."""
    moment = now if now is not None else time.time()
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(moment))
    return f"{stamp}-{int(moment * 1000) % 1000:03d}{secrets.token_hex(2)}"


def check_run_id(run_id: str) -> str:
    """Return ``run_id`` if it has the run id shape; raise InvalidId otherwise."""
    if not isinstance(run_id, str) or not RUN_ID.match(run_id):
        raise InvalidId(f"{run_id!r} is not a playtest run id")
    return run_id


class RunStore:
    """Saves, lists and reads the playtest runs of the games in a repository's data folder.

    Raises NotFound (unknown game or run), InvalidId (bad id), DataError (unreadable file).
    """

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    def _folder(self, game: str) -> Path:
        return self.repo.game_dir(game) / FOLDER

    def _path(self, game: str, run_id: str) -> Path:
        return self._folder(game) / f"{check_run_id(run_id)}.json"

    def save(self, game: str, run: Mapping[str, Any], run_id: str | None = None) -> str:
        """Write a run (atomically) and return its id; a given id is overwritten."""
        run_id = check_run_id(run_id) if run_id else new_run_id()
        data = dict(run, id=run_id, game=game)
        encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(encoded) > MAX_RUN_BYTES:
            raise DataError(f"playtest run {run_id} is {len(encoded):,} bytes; the limit is {MAX_RUN_BYTES:,}")
        atomic_write(self._path(game, run_id), encoded)
        return run_id

    def get(self, game: str, run_id: str) -> dict[str, Any]:
        """One run as saved."""
        path = self._path(game, run_id)
        if not path.is_file() or path.is_symlink():
            raise NotFound(f"playtest run {run_id!r} does not exist for game {game!r}")
        try:
            data = json.loads(path.read_bytes())
        except ValueError as exc:
            raise DataError(f"playtest run {run_id} cannot be read: {exc}") from None
        if not isinstance(data, dict):
            raise DataError(f"playtest run {run_id} is not a JSON object")
        return data

    def list(self, game: str) -> list[dict[str, Any]]:
        """Summaries of a game's runs, newest first: id, decks, games, win rate, when."""
        folder = self._folder(game)
        if not folder.is_dir():
            return []
        summaries = []
        for path in sorted(folder.glob("*.json"), reverse=True):
            if not RUN_ID.match(path.stem) or path.is_symlink():
                continue
            try:
                run = self.get(game, path.stem)
            except DataError:
                continue
            report = run.get("report") or {}
            summaries.append({
                "id": path.stem,
                "kind": run.get("kind", "matchup"),
                "created": run.get("created"),
                "decks": run.get("decks"),
                "agents": run.get("agents"),
                "overrides": run.get("overrides"),
                "games": report.get("games"),
                "win_rate_a": (report.get("win_rate_a") or {}).get("value"),
            })
        return summaries

    def previous(self, game: str, run_id: str) -> dict[str, Any] | None:
        """The latest earlier run of the same two decks (by id or pasted-list name), or None."""
        current = self.get(game, run_id)
        key = _deck_key(current)
        for summary in self.list(game):
            if summary["id"] >= run_id or summary.get("kind", "matchup") != current.get("kind", "matchup"):
                continue
            other = self.get(game, summary["id"])
            if _deck_key(other) == key:
                return other
        return None

    def delete(self, game: str, run_id: str) -> None:
        """Remove a run file. Raises NotFound when it does not exist."""
        path = self._path(game, run_id)
        if not path.is_file():
            raise NotFound(f"playtest run {run_id!r} does not exist for game {game!r}")
        path.unlink()


def _deck_key(run: Mapping[str, Any]) -> tuple[Any, ...]:
    decks = run.get("decks") or {}
    return tuple((d or {}).get("id") or (d or {}).get("name") for d in (decks.get("a"), decks.get("b")))


def changes_between(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from one run to the next: deck versions, card versions, options, win rate.

    Returns ``{"decks": [sides whose deck version changed], "cards": {"changed", "added",
    "removed"}, "overrides": {"before", "after"}, "win_rate_a": {"before", "after", "delta"}}``.
    """
    old_cards = old.get("card_versions") or {}
    new_cards = new.get("card_versions") or {}
    decks_changed = [
        side for side in ("a", "b")
        if ((old.get("decks") or {}).get(side) or {}).get("version") != ((new.get("decks") or {}).get(side) or {}).get("version")
    ]
    before = ((old.get("report") or {}).get("win_rate_a") or {}).get("value")
    after = ((new.get("report") or {}).get("win_rate_a") or {}).get("value")
    return {
        "decks": decks_changed,
        "cards": {
            "changed": sorted(c for c in new_cards if c in old_cards and new_cards[c] != old_cards[c]),
            "added": sorted(c for c in new_cards if c not in old_cards),
            "removed": sorted(c for c in old_cards if c not in new_cards),
        },
        "overrides": {"before": old.get("overrides") or {}, "after": new.get("overrides") or {}},
        "win_rate_a": {
            "before": before,
            "after": after,
            "delta": (after - before) if before is not None and after is not None else None,
        },
    }
