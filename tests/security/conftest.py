"""Fixtures of the hostile-input suite: one app per module on a private data copy (the tests
only send hostile input, which must change nothing), and a guard proving nothing changed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.security.helpers import copy_data, snapshot


@dataclass
class Env:
    app: object
    root: Path
    data: Path
    exports: Path


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Env:
    from workbench.web import create_app

    root = tmp_path_factory.mktemp("hostile")
    data = copy_data(root / "card_data")
    exports = root / "exports"
    app = create_app({"TESTING": True, "DATA_DIR": str(data), "EXPORT_DIR": str(exports),
                      "SECRET_KEY": "test-secret"})
    return Env(app, root, data, exports)


@pytest.fixture
def guard(env: Env) -> Iterator[None]:
    """Fails the test when any file under the module's folder (data, exports, elsewhere) changed."""
    before = snapshot(env.root)
    yield
    after = snapshot(env.root)
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    assert not changed, f"files changed: {changed[:5]}"


@pytest.fixture
def anon(env: Env):
    """A client without cookies (a script: no CSRF token needed, none sent)."""
    return env.app.test_client(use_cookies=False)
