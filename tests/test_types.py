"""``workbench/domain`` type-checks (issue 16 item 12): mypy at its default strictness reports no
error. mypy and the stub packages it needs are pinned in pyproject.toml's test extra, so every
machine that runs ./scripts/test (and so CI) checks with the same mypy and sees the same errors;
the settings are pyproject.toml's ``[tool.mypy]``."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy(*args: str, cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(cache), *args],
                          cwd=cwd, capture_output=True, text=True, timeout=600)


def _pin(name: str) -> str:
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    return next(req.split("==", 1)[1] for req in extra if req.split("==", 1)[0] == name)


def test_the_pinned_mypy_runs() -> None:
    import mypy.version

    assert mypy.version.__version__ == _pin("mypy"), (
        f"mypy {mypy.version.__version__} is installed, pyproject.toml pins {_pin('mypy')}: "
        "another mypy reports other errors (scripts/install.sh test installs the pin)")


def test_domain_has_no_type_errors(tmp_path: Path) -> None:
    done = _mypy("workbench/domain", cwd=ROOT, cache=tmp_path / "cache")
    assert done.returncode == 0, f"mypy workbench/domain:\n{done.stdout}{done.stderr}"
    assert "Success: no issues found" in done.stdout


def test_the_check_fails_on_a_type_error(tmp_path: Path) -> None:
    # The same command fails on a file with an error: a broken mypy run cannot pass for a clean one.
    (tmp_path / "bad.py").write_text('count: int = "three"\n')
    done = _mypy("bad.py", cwd=tmp_path, cache=tmp_path / "cache")
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'bad.py:1: error: Incompatible types in assignment' in done.stdout
