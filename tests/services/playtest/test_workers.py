"""The playtest worker pool: a stop kills busy workers at once, and a worker dies with its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tests.processes import gone, wait_gone
from tests.security.helpers import PROJECT_ROOT
from workbench.services.playtest.workers import WorkerPool

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def test_a_stop_kills_the_busy_workers_instead_of_waiting_for_their_task():
    with WorkerPool(2, method="spawn") as pool:
        pids = {pool.submit(os.getpid).result() for _ in range(6)}
        futures = [pool.submit(time.sleep, 60) for _ in range(4)]
        time.sleep(0.5)  # both workers are asleep in a task now
        asked = time.monotonic()
        finished = list(pool.as_completed(futures, should_stop=lambda: time.monotonic() - asked > 0.3))
        assert pool.stopped and finished == []
    assert time.monotonic() - asked < 5
    assert wait_gone(list(pids), 1) == []


def test_leaving_the_pool_with_tasks_running_kills_its_workers():
    started = time.monotonic()
    with WorkerPool(1, method="spawn") as pool:
        pid = pool.submit(os.getpid).result()
        pool.submit(time.sleep, 60)
    assert time.monotonic() - started < 10 and gone(pid)


POOL_PARENT = """
import os, sys, time
from workbench.services.playtest.workers import WorkerPool
pool = WorkerPool(1, method=sys.argv[1])
print(pool.submit(os.getpid).result(), flush=True)
pool.submit(time.sleep, 120)
time.sleep(120)
"""

PLAIN_PARENT = """
import subprocess, sys, time
code = ("import time; from workbench.services.playtest.workers import die_with_parent; "
        "die_with_parent(use_prctl=False); print('armed', flush=True); time.sleep(120)")
child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
child.stdout.readline()
print(child.pid, flush=True)
time.sleep(120)
"""


@pytest.mark.parametrize("script, args", [(POOL_PARENT, ["spawn"]), (POOL_PARENT, ["fork"]), (PLAIN_PARENT, [])],
                         ids=["spawned-worker", "forked-worker", "without-prctl"])
def test_a_worker_ends_when_its_parent_is_killed(script, args):
    # The parent is killed with SIGKILL: it runs no cleanup, as when the server is killed.
    parent = subprocess.Popen([sys.executable, "-c", script, *args], cwd=PROJECT_ROOT, stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)})
    try:
        worker = int(parent.stdout.readline())
        assert not gone(worker)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        assert wait_gone([worker], 5) == [], "the worker outlived its parent"
    finally:
        parent.kill()
        parent.wait(10)
