"""Structured validation problems: what broke, which rule, the actual value and the limit."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Problem:
    """One broken rule.

    ``code`` is stable (tests and clients rely on it); ``rule`` points into RULES.md or the game
    definition; ``message`` is a sentence naming the actual value and the limit.
    """

    severity: Severity
    code: str
    message: str
    rule: str = ""
    subject: Literal["card", "deck"] = "card"
    card: str | None = None
    deck: str | None = None
    zone: str | None = None
    field: str | None = None
    actual: Any = None
    limit: Any = None
    path: tuple[int | str, ...] | None = None
    """Where in the field's value, for placing the problem without reading ``message``: an
    effects entry is ``(index,)`` (0-based), a step of a ``choose`` option
    ``(index, "options", option, step)``; ``None`` when the problem is about the whole field."""

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON answers and the CLI's ``--json``."""
        return asdict(self)


def has_errors(problems: list[Problem]) -> bool:
    """True when any problem is an error (a deck with errors is not legal)."""
    return any(p.is_error for p in problems)
