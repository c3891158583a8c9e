"""Team-mode accounts: user names, roles and the password rule (pure, no files, no Flask).

Two roles exist. A *designer* may change cards and decks; a *viewer* may browse, render and
playtest but change nothing. Names are short and ASCII so they are safe in logs and file names.
"""

from __future__ import annotations

import re

from workbench.domain.errors import WorkbenchError

ROLES: tuple[str, ...] = ("designer", "viewer")
WRITER_ROLES: frozenset[str] = frozenset({"designer"})
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,31}$")
MIN_PASSWORD_CHARS = 10
MAX_PASSWORD_CHARS = 1024  # a cap so a huge "password" cannot make hashing a denial of service


class AccountError(WorkbenchError):
    """An account name, role or password is not acceptable, or the account does not exist."""


def check_name(name: object) -> str:
    """Return ``name`` when it is an allowed user name; raise AccountError saying the rule."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise AccountError(
            f"user name {str(name)[:40]!r} is not allowed: use 1-32 lower-case letters, digits, "
            "'.', '-' or '_', starting with a letter or digit"
        )
    return name


def check_role(role: object) -> str:
    """Return ``role`` when it is one of :data:`ROLES`; raise AccountError otherwise."""
    if role not in ROLES:
        raise AccountError(f"role {str(role)[:40]!r} is unknown: use one of {', '.join(ROLES)}")
    return str(role)


def check_password(password: object) -> str:
    """Return ``password`` when it is long enough (and not absurdly long); raise AccountError otherwise."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD_CHARS:
        raise AccountError(f"the password must have at least {MIN_PASSWORD_CHARS} characters")
    if len(password) > MAX_PASSWORD_CHARS:
        raise AccountError(f"the password must have at most {MAX_PASSWORD_CHARS} characters")
    return password


def can_write(role: str) -> bool:
    """True when an account of ``role`` may change cards and decks."""
    return role in WRITER_ROLES
