"""What the operating system says about processes, for tests of worker processes (Linux /proc)."""

from __future__ import annotations

import os
import time
from pathlib import Path


def gone(pid: int) -> bool:
    """True when process ``pid`` has ended (a zombie nobody reaped yet counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    except OSError:  # no /proc: ask the process table
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        return False
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def wait_gone(pids: list[int], timeout: float) -> list[int]:
    """Wait up to ``timeout`` seconds for every process of ``pids`` to end; those still running."""
    deadline = time.monotonic() + timeout
    while True:
        left = [pid for pid in pids if not gone(pid)]
        if not left or time.monotonic() >= deadline:
            return left
        time.sleep(0.05)


def spawned_workers(parent: int) -> list[int]:
    """Live worker processes that ``parent`` started with multiprocessing's spawn (a server's pools)."""
    workers = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat[1]) == parent and stat[0] not in ("Z", "X") and b"spawn_main" in cmdline:
            workers.append(int(entry.name))
    return workers
