"""Playtest runs kept as JSON files: ``card_data/<game>/playtests/<run-id>.json``.

A run file holds what was asked (decks with their versions, the versions of every card in them,
agents, games, seed, options) and the report. Run ids sort by creation time
(``20261130-101500-1233fa2``: UTC date, time, milliseconds, four random hex digits), so "the previous run" is the one before in id order.

Runs in progress live in ``playtests/live/`` (:class:`LiveRuns`), so that every server process
can answer a progress poll and a run interrupted by a restart can be resumed:
``<run-id>.json`` (status, progress, owner process, heartbeat; small and rewritten a few times a
second at most), ``<run-id>.spec.json`` (what to play, written once), ``<run-id>.partial.json``
(the games played so far, rewritten every few seconds) and ``<run-id>.cancel`` (a cancel request
from another process).
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from workbench.domain.errors import DataError, InvalidId, NotFound
from workbench.storage.atomic import atomic_write, file_lock
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
        # playtests/ is never a link (nor anything in it): see Repository.inside.
        return self.repo.inside(self.repo.game_dir(game) / FOLDER)

    def _path(self, game: str, run_id: str) -> Path:
        return self.repo.inside(self._folder(game) / f"{check_run_id(run_id)}.json")

    def save(self, game: str, run: Mapping[str, Any], run_id: str | None = None) -> str:
        """Write a run (atomically) and return its id; a given id is overwritten."""
        run_id = check_run_id(run_id) if run_id else new_run_id()
        data = dict(run, id=run_id, game=game)
        encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(encoded) > MAX_RUN_BYTES:
            raise DataError(f"playtest run {run_id} is {len(encoded):,} bytes; the limit is {MAX_RUN_BYTES:,}")
        atomic_write(self._path(game, run_id), encoded)
        return run_id

    def exists(self, game: str, run_id: str) -> bool:
        """Whether a finished run of that id is saved (without reading it). Raises InvalidId."""
        path = self._path(game, run_id)
        return path.is_file() and not path.is_symlink()

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
        """Summaries of a game's runs, newest first: id, decks, games, win rate, when.

        A linked playtests/ folder lists no runs (its files are not followed)."""
        try:
            folder = self._folder(game)
        except InvalidId:
            return []
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
            report = run.get("report") if isinstance(run.get("report"), dict) else {}
            rate = report.get("win_rate_a") if isinstance(report.get("win_rate_a"), dict) else {}
            decks = run.get("decks") if isinstance(run.get("decks"), dict) else None
            if decks is not None and not all(isinstance(d, dict) or d is None for d in decks.values()):
                decks = None  # a damaged file: listed, its page says what is wrong
            summaries.append({
                "id": path.stem,
                "kind": run.get("kind", "matchup") if isinstance(run.get("kind", "matchup"), str) else "?",
                "created": run.get("created") if isinstance(run.get("created"), str) else None,
                "decks": decks,
                "agents": run.get("agents") if isinstance(run.get("agents"), list) else None,
                "overrides": run.get("overrides") if isinstance(run.get("overrides"), dict) else None,
                "games": report.get("games") if isinstance(report.get("games"), int) else None,
                "win_rate_a": rate.get("value") if isinstance(rate.get("value"), (int, float)) else None,
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


# ---------------------------------------------------------------- runs in progress

LIVE = "live"
MAX_LIVE_BYTES = 64 * 1024 * 1024


class LiveRuns:
    """The files of runs in progress (see the module docstring). Every write is atomic.

    Raises InvalidId for a bad run id and DataError for a file that cannot be read or is too big.
    """

    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    def _folder(self, game: str) -> Path:
        return self.repo.inside(self.repo.game_dir(game) / FOLDER / LIVE)

    def _path(self, game: str, run_id: str, suffix: str) -> Path:
        return self.repo.inside(self._folder(game) / f"{check_run_id(run_id)}{suffix}")

    def _write(self, path: Path, data: Mapping[str, Any], durable: bool) -> None:
        encoded = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(encoded) > MAX_LIVE_BYTES:
            raise DataError(f"{path.name} would be {len(encoded):,} bytes; the limit is {MAX_LIVE_BYTES:,}")
        atomic_write(path, encoded, durable=durable)

    def _read(self, path: Path) -> dict[str, Any] | None:
        if not path.is_file() or path.is_symlink():
            return None
        try:
            data = json.loads(path.read_bytes())
        except (OSError, ValueError) as exc:
            raise DataError(f"{path.name} cannot be read: {exc}") from None
        if not isinstance(data, dict):
            raise DataError(f"{path.name} is not a JSON object")
        return data

    def write_state(self, game: str, run_id: str, state: Mapping[str, Any]) -> None:
        """Replace the run's state (status, progress, owner, heartbeat). Not fsynced: it is rewritten
        often, and after a power cut an older state (an earlier heartbeat) is as good."""
        self._write(self._path(game, run_id, ".json"), dict(state, id=run_id, game=game), durable=False)

    def state(self, game: str, run_id: str) -> dict[str, Any] | None:
        """The run's state, or None when no run of that id is in progress (or was interrupted)."""
        return self._read(self._path(game, run_id, ".json"))

    def states(self, game: str) -> list[dict[str, Any]]:
        """The states of a game's live runs, newest first (unreadable or linked ones are skipped)."""
        try:
            folder = self._folder(game)
        except InvalidId:
            return []
        if not folder.is_dir():
            return []
        result = []
        for path in sorted(folder.glob("*.json"), reverse=True):
            if not RUN_ID.match(path.stem):
                continue
            with contextlib.suppress(DataError):
                state = self._read(path)
                if state is not None:
                    result.append(state)
        return result

    def write_spec(self, game: str, run_id: str, spec: Mapping[str, Any]) -> None:
        """Keep what the run plays (written once, at the start)."""
        self._write(self._path(game, run_id, ".spec.json"), spec, durable=True)

    def spec(self, game: str, run_id: str) -> dict[str, Any] | None:
        """What the run plays, or None."""
        return self._read(self._path(game, run_id, ".spec.json"))

    def write_partial(self, game: str, run_id: str, partial: Mapping[str, Any]) -> None:
        """Keep the games played so far (durably: a resume starts from here)."""
        self._write(self._path(game, run_id, ".partial.json"), partial, durable=True)

    def partial(self, game: str, run_id: str) -> dict[str, Any] | None:
        """The games played so far as last kept, or None."""
        return self._read(self._path(game, run_id, ".partial.json"))

    def request_cancel(self, game: str, run_id: str) -> None:
        """Ask the process that plays the run to stop (it looks for this file after each chunk)."""
        atomic_write(self._path(game, run_id, ".cancel"), b"cancel\n", durable=False)

    def cancel_requested(self, game: str, run_id: str) -> bool:
        """Whether a cancel was asked for."""
        return self._path(game, run_id, ".cancel").exists()

    def clear_cancel(self, game: str, run_id: str) -> None:
        """Forget a cancel request (before resuming)."""
        with contextlib.suppress(FileNotFoundError):
            self._path(game, run_id, ".cancel").unlink()

    def remove(self, game: str, run_id: str) -> None:
        """Delete every live file of the run (once its run file is saved)."""
        for suffix in (".partial.json", ".spec.json", ".cancel", ".json"):
            with contextlib.suppress(FileNotFoundError):
                self._path(game, run_id, suffix).unlink()

    @contextlib.contextmanager
    def locked(self, game: str, run_id: str) -> Iterator[None]:
        """Hold the run's inter-process lock (e.g. while one process takes over an interrupted run).
        Raises filelock.Timeout."""
        with file_lock(self.repo.lock_dir, f"{game}/playtests/{check_run_id(run_id)}"):
            yield
