"""Slow and silent clients for the connection-limit tests, and the /healthz probe run beside them."""

from __future__ import annotations

import socket
import threading
import time
from urllib.parse import urlsplit

from tests.security.helpers import http

FAILED_PROBE_S = 99.0  # what a refused or timed-out probe counts as


def probe_health(url: str, hold_s: float, every_s: float) -> list[float]:
    """GET /healthz every ``every_s`` for ``hold_s``; each probe's seconds (a probe that was
    refused, timed out after 5 s or did not answer 200 counts as FAILED_PROBE_S)."""
    latencies = []
    deadline = time.monotonic() + hold_s
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            ok = http(url, path="/healthz", timeout=5)[0] == 200
        except OSError:
            ok = False
        latencies.append(time.monotonic() - started if ok else FAILED_PROBE_S)
        time.sleep(max(0.0, every_s - (time.monotonic() - started)))
    return latencies


class SocketAttack:
    """``count`` sockets held open against a server from a thread (use it as a context manager):
    socket ``i`` sends :meth:`first_bytes` when it connects and :meth:`trickle` every ``every_s``
    after, and is reopened as soon as the server closes it. ``opened`` counts the sockets that
    connected, ``reconnects`` the reopenings (tried, connected or not)."""

    def __init__(self, url: str, count: int, every_s: float) -> None:
        parts = urlsplit(url)
        self.address = (parts.hostname, parts.port)
        self.every_s = every_s
        self.sockets: list[socket.socket | None] = [None] * count
        self.opened = 0
        self.reconnects = 0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def first_bytes(self, index: int) -> bytes:
        """What socket ``index`` sends when it connects (nothing: a silent socket)."""
        return b""

    def trickle(self, index: int) -> bytes:
        """What socket ``index`` sends every ``every_s`` (nothing: a silent socket)."""
        return b""

    def _open(self, index: int) -> socket.socket | None:
        try:
            sock = socket.create_connection(self.address, timeout=2)
            first = self.first_bytes(index)
            if first:
                sock.sendall(first)
            sock.setblocking(False)
            self.opened += 1
            return sock
        except OSError:
            return None

    @staticmethod
    def _closed_by_server(sock: socket.socket) -> bool:
        try:
            return sock.recv(4096) == b""  # an answer (408, 400) followed by a close also ends it
        except BlockingIOError:
            return False
        except OSError:
            return True

    def _run(self) -> None:
        for i in range(len(self.sockets)):
            self.sockets[i] = self._open(i)
        next_send = time.monotonic() + self.every_s
        while not self.stop.is_set():
            for i, sock in enumerate(self.sockets):
                if sock is None or self._closed_by_server(sock):
                    if sock is not None:
                        sock.close()
                    self.sockets[i] = self._open(i)
                    self.reconnects += 1
            if time.monotonic() >= next_send:
                next_send += self.every_s
                for i, sock in enumerate(self.sockets):
                    data = self.trickle(i)
                    if data and sock is not None:
                        try:
                            sock.send(data)
                        except OSError:
                            pass
            self.stop.wait(0.2)

    def __enter__(self) -> SocketAttack:
        self.thread.start()
        time.sleep(2.0)  # every socket is open (or waiting in the listen queue) before the probes
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.thread.join(timeout=10)
        for sock in self.sockets:
            if sock is not None:
                sock.close()
