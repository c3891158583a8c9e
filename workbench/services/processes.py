"""Worker processes that end when the process that started them ends, however it ends.

A worker left alone when the server (or a CLI run) is killed would go on working for nobody, or
wait forever on its pool's queue: the playtest pool (:mod:`workbench.services.playtest.workers`)
and the render pool (:mod:`workbench.services.render.cache`) start each worker with
:func:`die_with_parent`.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

PARENT_POLL_S = 0.5
"""How often a worker without ``prctl`` looks whether its parent is still there."""

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent: int | None = None, *, use_prctl: bool = True) -> None:
    """Make this process end when its parent process ends (``parent``: its pid; default: the
    parent it has now). Ends this process at once when that parent is already gone.

    On Linux (``use_prctl``) the kernel sends SIGKILL; elsewhere a daemon thread polls the parent
    pid every ``PARENT_POLL_S`` and calls ``os._exit``. Raises nothing.
    """
    parent = os.getppid() if parent is None else parent
    if not (use_prctl and _kernel_kills_on_parent_death()):
        threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()
    # The parent may have died before the signal was armed; the kernel would not notice then.
    if os.getppid() != parent:
        os._exit(1)


def _kernel_kills_on_parent_death() -> bool:
    # SIGKILL rather than SIGTERM: a forked worker inherits the server's SIGTERM handler, which
    # would only ask waitress to stop. The worker holds nothing that needs cleaning up.
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    # Once the parent is gone the worker is re-parented (to init or a subreaper): its ppid changes.
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)
