"""The team-mode account file: ``<instance>/users.json``, written atomically, owner-only.

Passwords are stored only as werkzeug scrypt hashes (``scrypt:32768:8:1$salt$hash``). The file is
re-read when it changes on disk, so ``workbench user …`` takes effect on a running server: a
removed account or a changed password ends that user's sessions at their next request, and so
does a logout (:meth:`UserStore.end_sessions` raises the account's ``sessions`` generation).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from werkzeug.security import check_password_hash, generate_password_hash

from workbench.domain.accounts import AccountError, check_name, check_password, check_role
from workbench.storage.atomic import atomic_write, file_lock

USERS_FILE = "users.json"
MAX_USERS_BYTES = 1024 * 1024
HASH_METHOD = "scrypt"  # werkzeug's default parameters: scrypt:32768:8:1


@dataclass(frozen=True)
class User:
    """An account: its name, role, when it was made, and a stamp that changes with the password."""

    name: str
    role: str
    created: str
    stamp: str


class UserStore:
    """Reads and writes the accounts of one instance folder.

    Raises AccountError for bad names, roles, passwords or unknown users, and DataError-like
    AccountError when the file is unreadable.
    """

    def __init__(self, instance_dir: Path | str, hash_method: str = HASH_METHOD) -> None:
        self.folder = Path(instance_dir)
        self.path = self.folder / USERS_FILE
        self.hash_method = hash_method
        self._lock = threading.Lock()
        self._dummy: str | None = None
        self._cache: tuple[tuple[int, int, int], dict[str, dict[str, Any]]] | None = None

    # ------------------------------------------------------------ reading

    def _load(self) -> dict[str, dict[str, Any]]:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return {}
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        with self._lock:
            if self._cache and self._cache[0] == stamp:
                return self._cache[1]
        if st.st_size > MAX_USERS_BYTES:
            raise AccountError(f"{self.path} is larger than {MAX_USERS_BYTES:,} bytes")
        try:
            raw = json.loads(self.path.read_bytes().decode("utf-8"))
            users = raw["users"]
            if not isinstance(users, dict):
                raise TypeError("users is not an object")
        except (ValueError, KeyError, TypeError) as exc:
            raise AccountError(f"{self.path} cannot be read ({exc}); restore it from a backup") from None
        with self._lock:
            self._cache = (stamp, users)
        return users

    def _user(self, name: str, record: dict[str, Any]) -> User:
        # The stamp a session carries: it changes with the password and with the account's
        # session generation (raised by end_sessions, i.e. logout), so either ends old sessions.
        seed = f"{record.get('password', '')}\n{record.get('sessions', 0)}"
        digest = hashlib.sha256(seed.encode("utf-8")).hexdigest()[:16]
        return User(name, str(record.get("role", "viewer")), str(record.get("created", "")), digest)

    def list(self) -> list[User]:
        """Every account, sorted by name."""
        return [self._user(n, r) for n, r in sorted(self._load().items())]

    def get(self, name: str) -> User | None:
        """The account called ``name``, or None."""
        record = self._load().get(name) if isinstance(name, str) else None
        return self._user(name, record) if isinstance(record, dict) else None

    def has_users(self) -> bool:
        """True when at least one account exists."""
        return bool(self._load())

    def _dummy_hash(self) -> str:
        # Checked when a name is unknown, so a wrong name costs as long as a wrong password and
        # the answer time does not tell which names exist.
        if self._dummy is None:
            self._dummy = generate_password_hash("not a real password", method=self.hash_method)
        return self._dummy

    def verify(self, name: str, password: str) -> User | None:
        """The account when ``password`` is right for ``name``; None otherwise (same cost either way)."""
        record = self._load().get(name) if isinstance(name, str) else None
        if not isinstance(password, str) or len(password) > 1024:
            check_password_hash(self._dummy_hash(), "x")
            return None
        if not isinstance(record, dict):
            check_password_hash(self._dummy_hash(), password)
            return None
        if not check_password_hash(str(record.get("password", "")), password):
            return None
        return self._user(name, record)

    # ------------------------------------------------------------ writing

    def _change(self, change: Any) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with file_lock(self.folder / ".locks", "users"):
            with self._lock:
                self._cache = None
            users = dict(self._load())
            change(users)
            body = json.dumps({"version": 1, "users": users}, indent=2, sort_keys=True, ensure_ascii=False)
            atomic_write(self.path, (body + "\n").encode("utf-8"))  # mkstemp: mode 0600
            with self._lock:
                self._cache = None

    def add(self, name: str, role: str, password: str) -> User:
        """Create an account. Raises AccountError when the name exists or a value is not allowed."""
        check_name(name)
        check_role(role)
        check_password(password)
        hashed = generate_password_hash(password, method=self.hash_method)
        created = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")

        def change(users: dict[str, dict[str, Any]]) -> None:
            if name in users:
                raise AccountError(f"user {name!r} exists already")
            users[name] = {"role": role, "password": hashed, "created": created}

        self._change(change)
        user = self.get(name)
        assert user is not None
        return user

    def set_password(self, name: str, password: str) -> None:
        """Replace a password (ending the user's sessions). Raises AccountError for an unknown user."""
        check_password(password)
        hashed = generate_password_hash(password, method=self.hash_method)

        def change(users: dict[str, dict[str, Any]]) -> None:
            if name not in users:
                raise AccountError(f"user {name!r} does not exist")
            users[name] = {**users[name], "password": hashed}

        self._change(change)

    def set_role(self, name: str, role: str) -> None:
        """Change an account's role. Raises AccountError for an unknown user or role."""
        check_role(role)

        def change(users: dict[str, dict[str, Any]]) -> None:
            if name not in users:
                raise AccountError(f"user {name!r} does not exist")
            users[name] = {**users[name], "role": role}

        self._change(change)

    def end_sessions(self, name: str) -> None:
        """End every session of ``name`` on every browser (log out): raises the account's session
        generation, which changes its stamp. Raises AccountError for an unknown user."""

        def change(users: dict[str, dict[str, Any]]) -> None:
            if name not in users:
                raise AccountError(f"user {name!r} does not exist")
            record = users[name]
            generation = record.get("sessions", 0)
            users[name] = {**record, "sessions": (generation if isinstance(generation, int) else 0) + 1}

        self._change(change)

    def remove(self, name: str) -> None:
        """Delete an account (its sessions end at their next request). Raises AccountError when unknown."""

        def change(users: dict[str, dict[str, Any]]) -> None:
            if name not in users:
                raise AccountError(f"user {name!r} does not exist")
            del users[name]

        self._change(change)
