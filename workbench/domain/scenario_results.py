"""What a scenario run reports and how an expectation is compared with what happened: shared by
the play scenarios (``scenarios``), the deck and card scenarios (``legality_scenarios``) and the
pod scenarios of the playtest service, so none of them imports another for its result type."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.domain.errors import WorkbenchError


class ScenarioError(WorkbenchError):
    """A scenario mapping is malformed (missing keys, wrong shapes)."""


@dataclass(frozen=True)
class ScenarioResult:
    """The outcome of one scenario: ``message`` names the first difference when it failed."""

    name: str
    game: str
    rule: str
    passed: bool
    message: str = ""
    steps: int = 0

    def line(self) -> str:
        """One readable report line: PASS/FAIL, name, rule and the first difference."""
        head = f"{'PASS' if self.passed else 'FAIL'} {self.name}"
        if self.rule:
            head += f" ({self.rule})"
        return head if self.passed else f"{head}: {self.message}"


def scenario_header(scenario: Any) -> tuple[str, str, str]:
    """The scenario's name, game and rule as its result reports them, whatever its shape."""
    if not isinstance(scenario, Mapping):
        return "(unnamed)", "", ""
    return str(scenario.get("name", "(unnamed)")), str(scenario.get("game", "")), str(scenario.get("rule", "") or "")


def check_keys(scenario: Mapping[str, Any], allowed: frozenset[str], required: Sequence[str], *,
               unknown: str, needs: str) -> None:
    """Raise ScenarioError naming the keys of ``scenario`` outside ``allowed`` (``"<unknown>: a, b"``)
    or the first of ``required`` it lacks (``"<needs> needs 'key'"``)."""
    extra = sorted(str(k) for k in scenario if k not in allowed)
    if extra:
        raise ScenarioError(f"{unknown}: {', '.join(extra)}")
    for key in required:
        if key not in scenario:
            raise ScenarioError(f"{needs} needs '{key}'")


def check_options(scenario: Mapping[str, Any]) -> None:
    """Raise ScenarioError unless the scenario's ``options`` (if any) is a mapping."""
    options = scenario.get("options", {})
    if options is not None and not isinstance(options, Mapping):
        raise ScenarioError("options must be a mapping of rule option overrides")


# --------------------------------------------------------------------------- comparison


def plain_value(value: Any) -> Any:
    """Tuples become lists, recursively, so YAML lists and engine tuples compare equal."""
    if isinstance(value, (list, tuple)):
        return [plain_value(v) for v in value]
    if isinstance(value, Mapping):
        return {k: plain_value(v) for k, v in value.items()}
    return value


def _same_scalar(expected: Any, actual: Any) -> bool:
    # bool is an int subclass; True must not equal 1 in an expectation.
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return float(expected) == float(actual)
    return bool(expected == actual)


def first_difference(expected: Any, actual: Any, path: str = "") -> str | None:
    """Compare ``expected`` as a subset of ``actual``; return the first difference or None.

    Mappings match when every expected key matches (extra actual keys are ignored); a mapping
    with integer keys may address a list by index; lists match element by element and must have
    the same length; ``{contains: TEXT}`` matches a string holding TEXT. Never raises.
    """
    where = path or "(state)"
    if isinstance(expected, Mapping):
        if set(expected) == {"contains"} and isinstance(actual, str):
            needle = str(expected["contains"])
            return None if needle in actual else f"{where}: expected text containing {needle!r}, got {actual!r}"
        if isinstance(actual, (list, tuple)):
            for key, sub in expected.items():
                try:
                    index = int(key)
                except (TypeError, ValueError):
                    return f"{where}: expected a mapping with key {key!r}, got a list"
                if not -len(actual) <= index < len(actual):
                    return f"{where}.{key}: missing (the list has {len(actual)} items)"
                diff = first_difference(sub, actual[index], f"{path}.{key}" if path else str(key))
                if diff:
                    return diff
            return None
        if not isinstance(actual, Mapping):
            return f"{where}: expected a mapping, got {shown_value(actual)}"
        for key, sub in expected.items():
            sub_path = f"{path}.{key}" if path else str(key)
            if key in actual:
                found = actual[key]
            elif str(key) in actual:
                found = actual[str(key)]
            else:
                known = ", ".join(str(k) for k in list(actual)[:12])
                return f"{sub_path}: missing (have: {known})"
            diff = first_difference(sub, found, sub_path)
            if diff:
                return diff
        return None
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)):
            return f"{where}: expected {shown_value(expected)}, got {shown_value(actual)}"
        if len(expected) != len(actual):
            return f"{where}: expected {shown_value(expected)}, got {shown_value(actual)}"
        for index, (exp, act) in enumerate(zip(expected, actual)):
            diff = first_difference(exp, act, f"{path}.{index}" if path else str(index))
            if diff:
                return diff
        return None
    if _same_scalar(expected, actual):
        return None
    return f"{where}: expected {shown_value(expected)}, got {shown_value(actual)}"


def shown_value(value: Any) -> str:
    """``value`` as a failure message shows it: its plain repr, cut at 200 characters."""
    text = repr(plain_value(value))
    return text if len(text) <= 200 else text[:197] + "..."
