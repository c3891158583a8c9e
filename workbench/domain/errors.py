"""Domain errors. All subclass ValueError, as python-chess does, so callers can catch broadly."""

from __future__ import annotations


class WorkbenchError(ValueError):
    """Base class of every error the workbench raises on purpose."""


class InvalidId(WorkbenchError):
    """An id (game, card, deck, engine) is not on the allowlist."""


class NotFound(WorkbenchError):
    """A game, card or deck does not exist."""


class UsageError(WorkbenchError):
    """A command or request asks for something it cannot take: a number of decks the game does not
    seat, an agent the engine does not have (the command line exits 2, as for a bad id)."""


class AlreadyExists(WorkbenchError):
    """A card or deck with this id exists already."""


class Conflict(WorkbenchError):
    """A change was based on a stale version; nothing was changed."""

    def __init__(self, message: str, current_version: str | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class DefinitionError(WorkbenchError):
    """A game definition (game.yaml) is malformed."""


class DataError(WorkbenchError):
    """A data file or payload cannot be read: too large, not YAML, wrong shape."""


class IllegalAction(WorkbenchError):
    """An engine was asked to apply an action that is not legal in the current state."""
