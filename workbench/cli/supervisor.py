"""Several waitress worker processes sharing one listening socket (``workbench serve --processes N``).

One Python process runs the app on one core at a time (the GIL), so a busy team server is
limited to about one core however many threads waitress has. The parent here binds the
listening socket(s) first, then forks N workers that each run waitress on those sockets: the
kernel hands every new connection to whichever worker accepts it first. The parent serves
nothing; it restarts a worker that dies, and on SIGTERM or SIGINT stops all of them and exits.

Keep-alive connections stay with the worker that accepted them, and a burst of new connections
(a browser opens six at once; a load test 32) would otherwise mostly go to whichever worker
happened to be waiting in ``select``: 24 against 8 was measured. So each worker publishes how
many connections it holds in a small shared array, and listens for new ones only while it holds
at most one more than the least loaded worker (which therefore always listens). The counts a
worker sees may be stale, so a worker that stopped listening is woken (a thread checks every
10 ms) as soon as it should listen again: otherwise a burst of connections could leave every
worker not listening until its event loop's next one-second wake-up.

Everything a worker keeps in memory is either checked against the disk on every use (the card,
deck and definition caches), read from files (secret key, accounts) or kept in a shared store
(the login rate limit, :mod:`workbench.storage.login_limits`), so any worker can answer any
request. Needs ``os.fork`` (Linux, macOS).
"""

from __future__ import annotations

import errno
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

LOGGER = logging.getLogger("workbench.server")
STOP_TIMEOUT_S = 15.0  # waitress lets running requests finish for up to 5 s; then SIGKILL
RESTART_LIMIT = 10  # worker deaths within RESTART_WINDOW_S before the parent gives up
RESTART_WINDOW_S = 60.0
BACKLOG = 1024
WAKE_CHECK_S = 0.01  # how often a worker that stopped listening checks whether it should again
BATCH_SLACK = 2  # connections above the least loaded worker's that an accept batch may reach


UNUSED_SLOT = 2**30  # a dead worker's count: never the least loaded


def waitress_listeners(server: Any) -> list[Any]:
    """The listening servers of what ``waitress.create_server`` returned: the server itself for
    one socket, every server in its socket map for several (``localhost`` = 127.0.0.1 + ::1)."""
    from waitress.server import BaseWSGIServer

    if isinstance(server, BaseWSGIServer):
        return [server]
    return [obj for obj in server.map.values() if isinstance(obj, BaseWSGIServer)]


def serve_balanced(app: Any, sockets: list[socket.socket], counts: Any, slot: int,
                   screen: Any = None, **options: Any) -> None:
    """Run waitress for ``app`` on ``sockets`` until SIGTERM/SIGINT, accepting new connections
    only while this worker holds at most one more than the least loaded one. ``counts`` is the
    workers' shared array of open connections; ``slot`` is this worker's index in it; ``screen``
    and ``options`` are those of :mod:`workbench.cli.server_limits`."""
    from waitress.server import create_server

    from workbench.cli import server_limits

    server = create_server(app, sockets=sockets, **options)
    listeners = waitress_listeners(server)

    held_back = [False]  # this worker declined to listen on its last pass

    def fair_to_accept(slack: int = 1) -> bool:
        # Publishes this worker's count first, so the others decide on a fresh figure.
        mine = sum(len(listener.active_channels) for listener in listeners)
        counts[slot] = mine
        return mine <= min(counts) + slack

    # Within an accept batch one more is allowed: stopping at every step made the workers take
    # turns one connection at a time through a burst of 100 reconnecting sockets, each turn
    # waiting for the other's wake-up, and a probe queued behind them waited 1.9 s.
    server_limits.install(server, screen, may_accept=lambda: fair_to_accept(BATCH_SLACK))

    def balanced(original: Callable[[], bool]) -> Callable[[], bool]:
        def readable() -> bool:
            # Asked by the event loop on every pass (at least once a second).
            fair = fair_to_accept()
            held_back[0] = not fair
            return original() and fair
        return readable

    for listener in listeners:
        listener.readable = balanced(listener.readable)  # type: ignore[method-assign]

    def wake_when_fair() -> None:
        # A worker that stopped listening sleeps in poll until one of its sockets stirs or a
        # second passes, while the others may have stopped too, on counts that were stale: 200
        # connections at once then took over 20 s to be accepted. So a thread looks every
        # WAKE_CHECK_S and wakes the loop (waitress's trigger pipe) once it is fair to listen.
        while True:
            time.sleep(WAKE_CHECK_S)
            if held_back[0] and counts[slot] <= min(counts) + 1:
                held_back[0] = False
                listeners[0].pull_trigger()

    threading.Thread(target=wake_when_fair, name="balance-wake", daemon=True).start()
    server.print_listen("Serving on http://{}:{}")
    server.run()


class PortTaken(OSError):
    """The address is in use (or not ours to bind); the message says which."""


def bind_sockets(host: str, port: int) -> list[socket.socket]:
    """Listening TCP sockets for ``host:port`` (every address the name resolves to, as waitress
    itself does: ``localhost`` is both 127.0.0.1 and ::1). Raises PortTaken, OSError."""
    sockets: list[socket.socket] = []
    seen: set[Any] = set()
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        for family, socktype, proto, _, address in infos:
            if (family, address) in seen:
                continue
            seen.add((family, address))
            sock = socket.socket(family, socktype, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as exc:
                if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                    raise PortTaken(exc.errno, f"port {port} on {host} is already in use; "
                                               f"pick another with --port") from exc
                raise
            sock.listen(BACKLOG)
            sock.setblocking(False)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def _watch_parent(read_fd: int) -> None:
    """In a worker: stop when the parent is gone (the pipe's write end closes with it)."""
    try:
        while os.read(read_fd, 1):
            pass
    except OSError:
        pass
    os.kill(os.getpid(), signal.SIGTERM)


def _raise_exit(_signum: int, _frame: Any) -> None:
    raise SystemExit(0)  # waitress's loop catches it, lets running requests finish and returns


class Supervisor:
    """Forks ``processes`` workers running ``serve_one(sockets, counts, slot)`` and keeps that
    many alive.

    ``serve_one`` runs in the child and returns when the worker should exit (waitress returns
    after SIGTERM or SIGINT); ``counts`` is an array shared by the workers, one slot each
    (see :func:`serve_balanced`). :meth:`run` returns the exit code: 0 after a requested stop, 1
    when workers died more than RESTART_LIMIT times in RESTART_WINDOW_S.
    """

    def __init__(self, sockets: list[socket.socket], processes: int,
                 serve_one: Callable[[list[socket.socket], Any, int], None]) -> None:
        if not hasattr(os, "fork"):
            raise RuntimeError("--processes above 1 needs os.fork (Linux or macOS)")
        self.sockets = sockets
        self.processes = processes
        self.serve_one = serve_one
        self.workers: dict[int, int] = {}  # pid -> worker number (1..N)
        # Open connections per worker, in memory the forked workers share.
        self.counts = multiprocessing.RawArray("i", [0] * processes)
        self.stopping = False
        self.failed = False
        self.deaths: list[float] = []
        self._alive_r, self._alive_w = os.pipe()

    def _on_stop(self, signum: int, _frame: Any) -> None:
        self.stopping = True

    def _fork(self, number: int) -> None:
        pid = os.fork()
        if pid == 0:  # the worker
            code = 0
            try:
                os.close(self._alive_w)
                signal.signal(signal.SIGTERM, _raise_exit)
                signal.signal(signal.SIGINT, signal.default_int_handler)
                threading.Thread(target=_watch_parent, args=(self._alive_r,), daemon=True,
                                 name="parent-watch").start()
                os.environ["WORKBENCH_WORKER"] = str(number)
                self.counts[number - 1] = 0
                self.serve_one(self.sockets, self.counts, number - 1)
            except (SystemExit, KeyboardInterrupt):
                pass
            except BaseException:  # noqa: BLE001 - logged, then the parent starts a new worker
                LOGGER.exception("worker %d failed", number)
                code = 1
            finally:
                logging.shutdown()
                os._exit(code)  # never run the parent's cleanup (atexit, sockets) in a child
        self.workers[pid] = number
        LOGGER.info("worker %d started (pid %d)", number, pid,
                    extra={"server": {"event": "worker_started", "worker": number, "pid": pid}})

    def _reap(self) -> None:
        while self.workers:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                self.workers.clear()
                return
            if pid == 0:
                return
            number = self.workers.pop(pid, None)
            if number is None:
                continue
            self.counts[number - 1] = UNUSED_SLOT  # until its successor counts for itself
            code = os.waitstatus_to_exitcode(status)
            if self.stopping:
                continue
            self.deaths = [t for t in self.deaths if time.monotonic() - t < RESTART_WINDOW_S] + [time.monotonic()]
            how = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
            LOGGER.warning("worker %d (pid %d) %s; starting a new one", number, pid, how,
                           extra={"server": {"event": "worker_died", "worker": number, "pid": pid, "code": code}})
            if len(self.deaths) > RESTART_LIMIT:
                LOGGER.error("workers died %d times within %d s; stopping", len(self.deaths), int(RESTART_WINDOW_S))
                self.stopping = True
                self.failed = True
                return
            self._fork(number)

    def run(self) -> int:
        """Start the workers, keep them running until SIGTERM/SIGINT, stop them; the exit code."""
        previous = {sig: signal.signal(sig, self._on_stop) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            for number in range(1, self.processes + 1):
                self._fork(number)
            while not self.stopping:
                self._reap()
                time.sleep(0.2)  # a signal sets the flag; a dead worker waits at most this long
            self._stop_all()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            for sock in self.sockets:
                sock.close()
            os.close(self._alive_r)
            os.close(self._alive_w)
        return 1 if self.failed else 0

    def _stop_all(self) -> None:
        for pid in list(self.workers):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while self.workers and time.monotonic() < deadline:
            self._reap()
            time.sleep(0.05)
        for pid in list(self.workers):  # still running a request after the grace period
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        self.workers.clear()
        LOGGER.info("all workers stopped", extra={"server": {"event": "stopped"}})

