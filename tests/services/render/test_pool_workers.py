"""The render pool's worker processes end with the process that started them, however it ends:
a CLI print killed mid-sheet leaves no worker waiting on the pool's queue for good."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.processes import gone, wait_gone
from tests.security.helpers import PROJECT_ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

# Renders 400 faces nobody cached with two forked workers (the CLI's way): seconds of work.
PRINTING_PARENT = """
import sys
from workbench.services.render.cache import FaceRenderer
from workbench.services.render.service import default_size
from workbench.storage.repository import Repository
repo = Repository(sys.argv[1])
definition = repo.game("warzone")
card = dict(repo.list_cards("warzone")[0].data)
cards = [dict(card, name=f"Copy {i}") for i in range(400)]
FaceRenderer(definition, default_size(definition), workers=2).faces(cards)
"""


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def test_render_workers_end_when_their_parent_is_killed(data_dir):
    parent = subprocess.Popen([sys.executable, "-c", PRINTING_PARENT, str(data_dir)], cwd=PROJECT_ROOT,
                              env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)})
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.05)
            workers = _children(parent.pid)
        assert len(workers) == 2, "the pool's two workers started"
        time.sleep(0.3)  # both are drawing faces now
        parent.send_signal(signal.SIGKILL)  # no cleanup runs, as when the process is killed
        parent.wait(10)
        assert wait_gone(workers, 5) == [], "a render worker outlived its parent"
    finally:
        parent.kill()
        parent.wait(10)
        for pid in _children(parent.pid) if not gone(parent.pid) else []:
            os.kill(pid, signal.SIGKILL)
