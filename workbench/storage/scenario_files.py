"""Read rule scenario files (docs/scenarios.md) and the option defaults they run with.

Scenario files are YAML (one scenario per YAML document), read as every workbench file is
(:mod:`workbench.storage.yamlio`: a size cap, no anchors or aliases, no deep nesting), so a stray
large file or an alias bomb cannot exhaust memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.domain.errors import DataError, NotFound
from workbench.storage.yamlio import parse_yaml, parse_yaml_documents

MAX_SCENARIO_BYTES = 256 * 1024
SCENARIO_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class ScenarioFile:
    """One scenario read from disk: where it came from and the parsed mapping."""

    path: Path
    index: int
    """Position of the YAML document in the file (0 for single-scenario files)."""
    data: Any

    @property
    def label(self) -> str:
        return str(self.path) if self.index == 0 else f"{self.path}#{self.index + 1}"


def scenario_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Expand files and folders (recursively, ``*.yaml``/``*.yml``, sorted) into scenario files.

    Raises NotFound when a named path does not exist.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(
                sorted(p for p in path.rglob("*") if p.is_file() and p.suffix in SCENARIO_SUFFIXES)
            )
        elif path.is_file():
            found.append(path)
        else:
            raise NotFound(f"no scenario file or folder {str(path)!r}")
    return found


def read_scenarios(path: Path) -> list[ScenarioFile]:
    """Parse one scenario file; each YAML document is one scenario.

    Raises DataError when the file is larger than 256 KiB or is not valid YAML.
    """
    size = path.stat().st_size
    if size > MAX_SCENARIO_BYTES:
        raise DataError(f"{path}: {size} bytes; scenario files are limited to {MAX_SCENARIO_BYTES}")
    documents = [d for d in parse_yaml_documents(path.read_bytes(), MAX_SCENARIO_BYTES, str(path)) if d is not None]
    return [ScenarioFile(path, i, d) for i, d in enumerate(documents)]


def iter_scenarios(paths: Iterable[str | Path]) -> Iterator[ScenarioFile]:
    """Yield every scenario in the given files and folders (see scenario_paths, read_scenarios)."""
    for path in scenario_paths(paths):
        yield from read_scenarios(path)


def game_option_defaults(data_dir: str | Path, game: str) -> tuple[str, dict[str, Any]]:
    """Return (engine name, rule option defaults) from ``<data_dir>/<game>/game.yaml``.

    A missing game.yaml gives (game, {}): engines fall back to their own defaults. Raises
    DataError when the file exists but cannot be read.
    """
    from workbench.domain.ids import check_id

    check_id(game, what="game")
    path = Path(data_dir) / game / "game.yaml"
    if not path.is_file():
        return game, {}
    if path.stat().st_size > 4 * MAX_SCENARIO_BYTES:
        raise DataError(f"{path}: too large")
    data = parse_yaml(path.read_bytes(), 4 * MAX_SCENARIO_BYTES, str(path)) or {}
    options = data.get("options") or {}
    defaults = {
        name: spec.get("default") for name, spec in options.items() if isinstance(spec, dict)
    }
    engine = data.get("engine") or game
    return str(engine), defaults
