"""The limits ``workbench serve`` gives waitress, and the checks it adds before a request is read.

Waitress's defaults let one client stop the server: 100 connections in all, and a connection
that sent half a request header stays open for as long as it sends a byte every two minutes.
About 100 such sockets (no login needed) kept everyone else out. So ``workbench serve``:

* accepts up to :data:`CONNECTION_LIMIT` connections per process (the file-descriptor limit is
  raised to fit) and waits for them with ``poll`` (``select`` stops at descriptor 1024);
* closes a connection whose request header is not complete :data:`HEADER_TIMEOUT_S` after the
  connection was accepted (for a keep-alive connection's later requests: after the request's
  first byte), whatever it keeps sending, so a socket that never sends a byte lasts 10 s, not 30;
* closes a connection whose request body falls behind :data:`MIN_BODY_RATE` bytes/s on average
  once :data:`BODY_GRACE_S` have passed since its header (Apache's ``body=10,MinRate=...``): a
  body trickled one byte at a time is cut after about 10 s, and no body can take longer than
  ``BODY_GRACE_S + Content-Length / MIN_BODY_RATE`` (about 17 min for the 16 MiB cap; 1 s for
  16 MiB over loopback). Both deadlines are checked every :data:`CLEANUP_INTERVAL_S`, and neither
  runs while the server itself is busy with the connection (a request being served, an answer
  being sent); a connection with no request under way is closed after :data:`CHANNEL_TIMEOUT_S`
  without a byte;
* when the connections are within :data:`ACCEPT_BATCH` of the limit and another one is waiting
  to be accepted, closes :data:`ACCEPT_BATCH` of the connections the server is waiting on —
  idle keep-alive ones first, then those whose request is nearest its deadline (the oldest
  silent or slow-header sockets; a slow body before an upload that is arriving quickly) — so a
  real client still gets in while slow or silent sockets fill the limit (as nginx reuses idle
  connections and Apache's event MPM closes keep-alive ones); a connection being served, or
  whose answer is being sent, is never dropped;
* refuses a request header larger than :data:`MAX_HEADER_BYTES` (431) and a body larger than
  the app's ``MAX_CONTENT_LENGTH`` (413) as soon as the header says so, before reading the body
  (waitress's own cap is 1 GiB, spooled to disk before the app could refuse it);
* in team mode, answers a request that carries a body 401 as soon as its header is read when it
  has no valid session (only ``POST /login`` may, with a body of at most
  :data:`LOGIN_BODY_BYTES`), so a stranger cannot make the server store anything.

None of this replaces a reverse proxy for a server that faces a network (docs/team-server.md):
a proxy holds slow clients far more cheaply than Python threads and an event loop can.
"""

from __future__ import annotations

import heapq
import logging
import resource
import select
import time
from collections.abc import Callable
from typing import Any

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.utilities import Error

LOGGER = logging.getLogger("workbench.server")

CONNECTION_LIMIT = 1000  # per server process; waitress's default is 100
CONNECTION_LIMIT_RANGE = (10, 100_000)  # SERVER_CONNECTION_LIMIT in instance/config.py
HEADER_TIMEOUT_S = 10.0  # from accept (later requests: their first byte) to the end of the header
BODY_GRACE_S = 10.0  # after the header, before the body's average rate is held to MIN_BODY_RATE
MIN_BODY_RATE = 16 * 1024  # bytes/s a request body must average (128 kbit/s); 16 MiB: ≤ 17 min
CHANNEL_TIMEOUT_S = 30.0  # a connection with no request under way and no byte for this long closes
CLEANUP_INTERVAL_S = 2.0  # how often the timeouts are checked (waitress's default is 30 s)
LOG_INTERVAL_S = 10.0  # connections closed by the deadlines or to make room: one line per interval
# A link may prefill a pasted deck list in a query string (the goldfish page's ?text=): 20,000
# characters, up to 9 bytes each once percent-encoded, so the header cap stays at 256 KiB.
MAX_HEADER_BYTES = 256 * 1024
LOGIN_BODY_BYTES = 16 * 1024  # the login form: a name, a password (≤ 1,024), a token, next
ACCEPT_BATCH = 8  # new connections accepted per event-loop pass
SPARE_DESCRIPTORS = 256  # files, pipes and sockets the app itself opens


class Unauthorized(Error):
    code = 401
    reason = "Unauthorized"


class PayloadTooLarge(Error):
    code = 413
    reason = "Payload Too Large"


Screen = Callable[[HTTPRequestParser], "Error | None"]


def raise_descriptor_limit(wanted: int) -> int:
    """Raise this process's open-file limit towards ``wanted`` (never above the hard limit);
    the soft limit in force afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else wanted


def connection_limit(config: Any) -> int:
    """Connections per server process: ``SERVER_CONNECTION_LIMIT`` from the app config, else
    :data:`CONNECTION_LIMIT`. Raises ValueError outside :data:`CONNECTION_LIMIT_RANGE`."""
    value = config.get("SERVER_CONNECTION_LIMIT") or CONNECTION_LIMIT
    low, high = CONNECTION_LIMIT_RANGE
    try:
        limit = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"SERVER_CONNECTION_LIMIT must be a whole number, not {value!r}") from None
    if not low <= limit <= high:
        raise ValueError(f"SERVER_CONNECTION_LIMIT must be between {low} and {high:,}, not {limit}")
    return limit


def waitress_options(app: Any, threads: int) -> dict[str, Any]:
    """The keyword arguments for ``waitress.create_server``: the limits of the module docstring.
    Raises ValueError for a bad ``SERVER_CONNECTION_LIMIT``."""
    wanted = connection_limit(app.config)
    soft = raise_descriptor_limit(wanted + SPARE_DESCRIPTORS)
    max_body = int(app.config.get("MAX_CONTENT_LENGTH") or 16 * 1024 * 1024)
    return {
        "threads": threads,
        "ident": "card-workbench",
        "connection_limit": max(min(wanted, 50), min(wanted, soft - SPARE_DESCRIPTORS)),
        "channel_timeout": CHANNEL_TIMEOUT_S,
        "cleanup_interval": CLEANUP_INTERVAL_S,
        "max_request_header_size": MAX_HEADER_BYTES,
        "max_request_body_size": max_body + 1,  # waitress refuses a length >= this
        "asyncore_use_poll": True,
    }


def team_screen(app: Any) -> Screen:
    """The team-mode check run when a request's header is complete: a body needs a session."""
    from workbench.web.auth import user_of_cookie

    def screen(parser: HTTPRequestParser) -> Error | None:
        if not parser.chunked and parser.content_length <= 0:
            return None
        if parser.path == "/login":
            if parser.chunked or parser.content_length > LOGIN_BODY_BYTES:
                return PayloadTooLarge(f"a login form is at most {LOGIN_BODY_BYTES:,} bytes")
            return None
        if user_of_cookie(app, parser.headers.get("COOKIE", "")) is None:
            return Unauthorized("log in first (team mode); the request body was not read")
        return None

    return screen


class _ScreenedParser(HTTPRequestParser):
    """A request parser that notes when its first byte came and when its header ended, and runs
    ``screen`` once the header is complete, before any of the body is read."""

    screen: Screen | None = None

    def __init__(self, adj: Any) -> None:
        super().__init__(adj)
        self.started = time.time()  # made when the request's first bytes arrive
        self.header_done = self.started  # set when the header is complete

    def received(self, data: bytes) -> int:
        finished_before = self.headers_finished
        consumed = super().received(data)
        if self.headers_finished and not finished_before:
            self.header_done = time.time()
        if (self.headers_finished and not finished_before and not self.error
                and self.body_rcv is not None and self.screen is not None):
            refusal = self.screen(self)
            if refusal is not None:
                self.error = refusal
                self.completed = True  # answered now; the body is never read
        if self.error is not None:
            # No "100 Continue" for a refused request: waitress would send it and then read the
            # whole body after all (curl asks with Expect: 100-continue for bodies over 1 MiB).
            self.expect_continue = False
        return consumed


class _DeadlineChannel(HTTPChannel):
    """A connection that counts the requests it answered and notes when it was last free to
    read a request (its accept, then the end of each answer), for the request deadlines."""

    served = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.waiting_since = self.creation_time

    def service(self) -> None:  # runs in a worker thread
        super().service()
        self.served += 1
        self.waiting_since = time.time()


def _waiting_on_client(channel: Any) -> bool:
    """True when the server is waiting for the client to send (the next part of) a request:
    nothing being served or queued, no answer left to send, not already closing."""
    return not (channel.requests or channel.will_close or channel.close_when_flushed
                or channel.total_outbufs_len)


def request_clock(channel: Any) -> float | None:
    """When the request deadlines of a connection waiting on its client started: its accept for
    the first request, the request's first byte (or the end of the previous answer, if later)
    for a later one. None for a keep-alive connection between requests (CHANNEL_TIMEOUT_S's)."""
    request = channel.request
    if channel.served == 0:
        return channel.creation_time
    if request is None:
        return None
    return max(request.started, channel.waiting_since)


def request_deadline(channel: Any) -> tuple[str, float] | None:
    """The deadline a connection waiting on its client must meet next and when it falls: the
    header's (its clock + HEADER_TIMEOUT_S) or the body's (BODY_GRACE_S after the header, plus
    one second per MIN_BODY_RATE bytes received so far). None between keep-alive requests."""
    start = request_clock(channel)
    if start is None:
        return None
    request = channel.request
    if request is None or not request.headers_finished:
        return "header", start + HEADER_TIMEOUT_S
    if request.completed:
        return None  # queued for an answer on this very pass
    body_start = max(getattr(request, "header_done", start), channel.waiting_since)
    return "body", body_start + BODY_GRACE_S + request.body_bytes_received / MIN_BODY_RATE


def overdue(channel: Any, now: float) -> str | None:
    """Which deadline a connection waiting on its client has missed ("header", "body"), or None."""
    deadline = request_deadline(channel)
    return deadline[0] if deadline is not None and now > deadline[1] else None


class _Tally:
    """Counts of connections closed and why, logged at most once per LOG_INTERVAL_S."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.next_at = 0.0

    def add(self, reason: str, count: int, now: float) -> None:
        if count:
            self.counts[reason] = self.counts.get(reason, 0) + count
        if self.counts and now >= self.next_at:
            self.next_at = now + LOG_INTERVAL_S
            LOGGER.warning("closed connections: %s", ", ".join(
                f"{n} {reason}" for reason, n in sorted(self.counts.items())))
            self.counts = {}


def install(server: Any, screen: Screen | None, may_accept: Callable[[], bool] | None = None) -> None:
    """Give the listening server(s) of ``waitress.create_server`` the screened parser, the
    request deadlines and the eviction of the oldest waiting connections near the limit (see
    :func:`workbench.cli.supervisor.waitress_listeners`). ``may_accept``, if given, is asked
    before each connection of an accept batch (the balanced workers of ``serve --processes N``
    stop a batch as soon as they hold more than their share) and before evicting to make room."""
    from workbench.cli.supervisor import waitress_listeners

    parser = type("ScreenedParser", (_ScreenedParser,), {"screen": staticmethod(screen) if screen else None})
    channel = type("ScreenedChannel", (_DeadlineChannel,), {"parser_class": parser})
    tally = _Tally()
    for listener in waitress_listeners(server):
        listener.channel_class = channel
        listener.maintenance = _with_request_deadlines(listener, listener.maintenance, tally)
        listener.readable = _making_room(listener, listener.readable, tally, may_accept)
        listener.handle_accept = _batched_accept(listener, listener.handle_accept, may_accept)


def _batched_accept(listener: Any, original: Callable[[], None],
                    may_accept: Callable[[], bool] | None = None) -> Callable[[], None]:
    """Accept up to ACCEPT_BATCH waiting connections per event-loop pass (waitress takes one).

    Each pass walks every open connection, so a burst of 200 new ones (an attacker reconnecting
    all at once) cost 200 passes over 200-400 sockets, long enough to delay a probe past 1 s on
    a loaded machine. Small batches, each accept asking ``may_accept`` first, keep the
    processes of ``serve --processes N`` balanced (a whole batch taken on one stale look at the
    other workers' counts once gave 10 connections against 6)."""
    def handle_accept() -> None:
        for taken in range(ACCEPT_BATCH):
            if taken and may_accept is not None and not may_accept():
                return  # the first was offered by readable(), which asked the same question
            if _full(listener):
                return  # the ones closed to make room leave later in this pass
            before = len(listener._map)
            original()
            if len(listener._map) == before:
                return  # nothing was waiting (or it failed)
    return handle_accept


def _full(listener: Any) -> bool:
    """No connection may be accepted now. One short of waitress's own limit: reaching that
    makes waitress log a warning and an info line, which under an attack was twice a pass."""
    return len(listener._map) >= listener.adj.connection_limit - 1


def _with_request_deadlines(listener: Any, original: Callable[[float], None],
                            tally: _Tally) -> Callable[[float], None]:
    """Waitress's idle timeout, then the header and body deadlines (run every CLEANUP_INTERVAL_S)."""
    def maintenance(now: float) -> None:
        original(now)
        closed = {"header": 0, "body": 0}
        for channel in list(listener.active_channels.values()):
            if _waiting_on_client(channel):
                missed = overdue(channel, now)
                if missed is not None:
                    channel.will_close = True  # the event loop closes it on its next pass
                    closed[missed] += 1
        tally.add("past the header deadline", closed["header"], now)
        tally.add("past the body deadline", closed["body"], now)
    return maintenance


def eviction_order(channel: Any) -> tuple[int, float]:
    """Sort key of a connection waiting on its client, first to be closed first: idle keep-alive
    connections (longest idle first), then requests by their deadline, soonest first. For a
    header that is its accept (or first byte) + 10 s, so the oldest silent or slow-header sockets
    go first; a body's deadline moves on with every byte, so an upload that is arriving quickly
    is kept while slow bodies (about to be cut anyway) and newer silent sockets go before it."""
    deadline = request_deadline(channel)
    if deadline is None:
        return (0, channel.last_activity)
    return (1, deadline[1])


def _making_room(listener: Any, original: Callable[[], bool], tally: _Tally,
                 may_accept: Callable[[], bool] | None = None) -> Callable[[], bool]:
    """The listener's ``readable`` (asked on every event-loop pass), which first closes the first
    ACCEPT_BATCH connections waiting on their clients (in :func:`eviction_order`) when the open
    connections are within ACCEPT_BATCH of the limit and someone is waiting to be accepted.

    The closed ones go in this same pass (the listener is asked before its connections, which
    are then writable), so the limit itself is not reached — waitress would log twice on every
    pass it was — and a real client waits only for the connections ahead of it in the listen
    queue, ACCEPT_BATCH a pass. Nobody waiting, nothing is closed: slow sockets that are only
    filling the limit go by their deadlines."""
    pending = select.poll()
    pending.register(listener.socket.fileno(), select.POLLIN)

    def readable() -> bool:
        room = True
        if (listener.accepting and len(listener._map) >= listener.adj.connection_limit - 1 - ACCEPT_BATCH
                and pending.poll(0) and (may_accept is None or may_accept())):
            waiting = [c for c in listener.active_channels.values() if _waiting_on_client(c)]
            first = heapq.nsmallest(ACCEPT_BATCH, waiting, key=eviction_order)
            for channel in first:
                channel.will_close = True
            tally.add("to make room for new ones", len(first), time.time())
            # Full of connections being served: stop listening until one ends (the waiting
            # socket would otherwise wake every pass at once, with nothing to accept). Full with
            # nobody waiting, keep listening, so a newcomer is seen (and room made) at once.
            room = bool(first) or not _full(listener)
        return original() and room
    return readable
