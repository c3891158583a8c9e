"""Rules engines, one module per game, all behind the interface of :mod:`.base`."""

from __future__ import annotations

import importlib

from workbench.domain.engines.base import Engine
from workbench.domain.errors import WorkbenchError
from workbench.domain.ids import check_id


class EngineNotFound(WorkbenchError):
    """The game names no engine, or its engine module does not exist."""


def load_engine(name: str) -> Engine:
    """Return the ``ENGINE`` of module ``workbench.domain.engines.<name>``.

    Raises EngineNotFound when the name is not a valid id or the module has no engine.
    """
    check_id(name, what="engine")
    try:
        module = importlib.import_module(f"workbench.domain.engines.{name.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        raise EngineNotFound(f"no engine module named {name!r}") from exc
    engine = getattr(module, "ENGINE", None)
    if not isinstance(engine, Engine):
        raise EngineNotFound(f"engine module {name!r} defines no ENGINE")
    return engine
