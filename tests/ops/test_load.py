"""A short, bounded run of benchmarks/load.py against a real waitress server: no errors, every
request type answered, loopback only."""

from __future__ import annotations

import importlib.util

import pytest

from tests.security.helpers import PROJECT_ROOT, copy_data, running_server


def _load_module():
    spec = importlib.util.spec_from_file_location("load_benchmark", PROJECT_ROOT / "benchmarks" / "load.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_short_load_run_has_no_errors(tmp_path):
    load = _load_module()
    data = copy_data(tmp_path / "card_data")
    with running_server(data, tmp_path / "instance") as server:
        report = load.run_load(server.url, duration=4, connections=8, processes=1)
    assert report["overall"]["errors"] == 0
    assert report["overall"]["requests"] > 10
    assert set(report["types"]) == {"gallery", "card page", "validate API", "preview render"}
    assert all(fig["requests"] > 0 for fig in report["types"].values())


def test_load_script_refuses_other_hosts():
    load = _load_module()
    with pytest.raises(SystemExit, match="loopback"):
        load.run_load("http://example.com:80", duration=1, connections=1, processes=1)
