"""A short, bounded run of benchmarks/load.py against a real waitress server: no errors, every
request type answered, loopback only."""

from __future__ import annotations

import importlib.util

import pytest

from tests.security.helpers import PROJECT_ROOT, copy_data, running_server

# Answer-time bounds: run alone after the parallel part of ./scripts/test (see pyproject markers).
pytestmark = pytest.mark.solo


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


def test_server_cpu_counts_every_process_of_the_server():
    import os
    import signal
    import subprocess
    import sys
    import time

    load = _load_module()
    burn = "import os, time\nt = time.process_time()\nwhile time.process_time() - t < 0.4: pass\ntime.sleep(30)"
    # A parent whose child does the work, as serve --processes N does.
    parent = subprocess.Popen([sys.executable, "-c", f"import subprocess, sys; subprocess.run([sys.executable, '-c', {burn!r}])"],
                              start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while load.process_tree_cpu(parent.pid) < 0.4 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert 0.4 <= load.process_tree_cpu(parent.pid) < 5
    finally:
        os.killpg(parent.pid, signal.SIGKILL)  # the child too
        parent.wait()
