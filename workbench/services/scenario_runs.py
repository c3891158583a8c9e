"""Run rule scenarios of every kind against a data folder (docs/scenarios.md).

``play`` scenarios run in the engine with the game's rule option defaults, ``deck`` and ``card``
scenarios through the game's validator (``workbench.domain.legality_scenarios``), and ``pod``
scenarios with the playtest pod runner (``workbench.services.playtest.pod_scenarios``). The
command ``workbench scenario`` and the test of the shipped scenario files both run through here,
so every kind is checked the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.domain.errors import WorkbenchError
from workbench.domain.gamedef import GameDefinition
from workbench.domain.scenarios import ScenarioResult, run_scenario, scenario_kind
from workbench.storage.scenario_files import game_option_defaults


class ScenarioRunner:
    """Runs scenarios with one data folder's games; game definitions are read once per game."""

    def __init__(self, data_dir: str | Path) -> None:
        self.data_dir = Path(data_dir)
        self._defaults: dict[str, tuple[str, dict[str, Any]]] = {}
        self._definitions: dict[str, GameDefinition] = {}

    def definition(self, game: str) -> GameDefinition:
        """The parsed game.yaml of ``game``. Raises NotFound, InvalidId, DataError, DefinitionError."""
        if game not in self._definitions:
            from workbench.storage.repository import Repository

            self._definitions[game] = Repository(self.data_dir).game(game)
        return self._definitions[game]

    def run(self, scenario: Any, label: str = "") -> ScenarioResult:
        """Run one scenario of any kind; never raises (a missing game or bad file is a FAIL)."""
        game = scenario.get("game") if isinstance(scenario, Mapping) else None
        name = str(scenario.get("name", label or "(unnamed)")) if isinstance(scenario, Mapping) else label
        try:
            if not isinstance(game, str):
                raise WorkbenchError("a scenario needs 'game'")
            kind = scenario_kind(scenario)
            if kind == "play":
                if game not in self._defaults:
                    self._defaults[game] = game_option_defaults(self.data_dir, game)
                engine_name, defaults = self._defaults[game]
                return run_scenario(scenario, defaults, engine_name=engine_name)
            if kind == "pod":
                from workbench.services.playtest.pod_scenarios import run_pod_scenario

                return run_pod_scenario(scenario, self.definition(game))
            return run_scenario(scenario, definition=self.definition(game))
        except WorkbenchError as exc:
            rule = str(scenario.get("rule", "") or "") if isinstance(scenario, Mapping) else ""
            return ScenarioResult(name, str(game), rule, False, f"error: {exc}")
