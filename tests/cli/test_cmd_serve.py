"""``workbench serve``'s own parts: the process count setting, the port check of ``--processes``,
and the throttle on waitress's per-request queue warning."""

from __future__ import annotations

import logging
import socket

import pytest

from workbench.cli import main
from workbench.cli.cmd_serve import QueueWarningThrottle
from workbench.cli.supervisor import PortTaken, bind_sockets


def test_a_bad_process_count_is_refused_before_anything_starts(capsys, data_dir):
    assert main(["serve", "--processes", "0", "--data", str(data_dir)]) == 2
    assert "between 1 and 64, not 0" in capsys.readouterr().err


def test_binding_a_taken_port_names_it(data_dir):
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(PortTaken, match=f"port {port} on 127.0.0.1 is already in use"):
            bind_sockets("127.0.0.1", port)


def test_bound_sockets_listen_for_connections():
    sockets = bind_sockets("127.0.0.1", 0)
    try:
        assert len(sockets) == 1
        with socket.create_connection(sockets[0].getsockname(), timeout=5):
            pass  # the kernel accepts into the backlog: the socket listens before any worker runs
    finally:
        for sock in sockets:
            sock.close()


def _record(depth: int) -> logging.LogRecord:
    return logging.LogRecord("waitress.queue", logging.WARNING, __file__, 1, "Task queue depth is %d", (depth,), None)


def test_the_queue_warning_passes_once_per_interval_with_the_deepest_queue(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr("workbench.cli.cmd_serve.time.monotonic", lambda: clock[0])
    throttle = QueueWarningThrottle(interval_s=10)
    first = _record(1)
    assert throttle.filter(first) and first.getMessage().startswith("Task queue depth is 1 ")
    passed = []
    for depth in (3, 30, 7):
        clock[0] += 1
        record = _record(depth)
        if throttle.filter(record):
            passed.append(record)
    assert passed == []  # within ten seconds of the last line
    clock[0] += 10
    later = _record(2)
    assert throttle.filter(later)
    assert later.getMessage().startswith("Task queue depth is 30 ")  # the deepest since the last line


@pytest.mark.parametrize("count", [1, 2])
def test_every_listening_socket_is_balanced(count):
    from waitress.server import create_server

    from workbench.cli.supervisor import waitress_listeners

    sockets = [sock for _ in range(count) for sock in bind_sockets("127.0.0.1", 0)]
    try:
        server = create_server(lambda environ, start: [], sockets=sockets, threads=1)
        listeners = waitress_listeners(server)
        assert sorted(listener.socket.getsockname() for listener in listeners) == sorted(
            sock.getsockname() for sock in sockets)
        server.task_dispatcher.shutdown()
    finally:
        for sock in sockets:
            sock.close()
