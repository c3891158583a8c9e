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


def test_the_connection_limit_setting_is_checked():
    from workbench.cli.server_limits import CONNECTION_LIMIT, connection_limit

    assert connection_limit({}) == CONNECTION_LIMIT
    assert connection_limit({"SERVER_CONNECTION_LIMIT": "100"}) == 100
    for bad in (5, 10**6, "many"):
        with pytest.raises(ValueError, match="SERVER_CONNECTION_LIMIT"):
            connection_limit({"SERVER_CONNECTION_LIMIT": bad})


class _Request:
    def __init__(self, started: float, header_done: float | None = None, body: int = 0) -> None:
        self.started = started
        self.headers_finished = header_done is not None
        self.header_done = header_done if header_done is not None else started
        self.body_bytes_received = body
        self.completed = False


class _Channel:
    def __init__(self, accepted: float, request: _Request | None = None, served: int = 0,
                 waiting_since: float | None = None, last_activity: float | None = None) -> None:
        self.creation_time = accepted
        self.request = request
        self.served = served
        self.waiting_since = accepted if waiting_since is None else waiting_since
        self.last_activity = accepted if last_activity is None else last_activity
        self.requests: list[object] = []
        self.will_close = self.close_when_flushed = False
        self.total_outbufs_len = 0


def test_request_deadlines_start_at_accept_and_follow_the_body_rate():
    from workbench.cli.server_limits import BODY_GRACE_S, HEADER_TIMEOUT_S, MIN_BODY_RATE, overdue

    # Silent since accept: the header deadline runs from the accept, not from a first byte.
    assert overdue(_Channel(0.0), HEADER_TIMEOUT_S - 0.1) is None
    assert overdue(_Channel(0.0), HEADER_TIMEOUT_S + 0.1) == "header"
    assert overdue(_Channel(0.0, _Request(HEADER_TIMEOUT_S - 1)), HEADER_TIMEOUT_S + 0.1) == "header"
    # A keep-alive connection between requests is the idle timeout's; its next request's
    # header clock runs from that request's first byte (or the end of the last answer).
    assert overdue(_Channel(0.0, None, served=1, waiting_since=50.0), 500.0) is None
    assert overdue(_Channel(0.0, _Request(100.0), served=1, waiting_since=50.0), 105.0) is None
    assert overdue(_Channel(0.0, _Request(100.0), served=1, waiting_since=50.0), 111.0) == "header"
    # The body: BODY_GRACE_S after the header, then one more second per MIN_BODY_RATE bytes.
    trickle = _Channel(0.0, _Request(0.0, header_done=1.0, body=20))
    assert overdue(trickle, 1 + BODY_GRACE_S - 0.1) is None
    assert overdue(trickle, 1 + BODY_GRACE_S + 0.1) == "body"
    steady = _Channel(0.0, _Request(0.0, header_done=1.0, body=MIN_BODY_RATE * 100))
    assert overdue(steady, 1 + BODY_GRACE_S + 99) is None
    assert overdue(steady, 1 + BODY_GRACE_S + 101) == "body"


def test_idle_keep_alive_connections_go_first_then_requests_nearest_their_deadline():
    from workbench.cli.server_limits import MIN_BODY_RATE, eviction_order

    idle = _Channel(0.0, None, served=3, waiting_since=9.0, last_activity=9.0)
    old_silent = _Channel(1.0)
    new_silent = _Channel(5.0)
    trickle = _Channel(0.5, _Request(0.5, header_done=0.6, body=10))
    upload = _Channel(0.0, _Request(0.0, header_done=0.1, body=MIN_BODY_RATE * 60))
    ranked = sorted([upload, new_silent, trickle, old_silent, idle], key=eviction_order)
    assert ranked == [idle, trickle, old_silent, new_silent, upload]
