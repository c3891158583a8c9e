"""The limits ``workbench serve`` gives waitress, and the checks it adds before a request is read.

Waitress's defaults let one client stop the server: 100 connections in all, and a connection
that sent half a request header stays open for as long as it sends a byte every two minutes.
About 100 such sockets (no login needed) kept everyone else out. So ``workbench serve``:

* accepts up to :data:`CONNECTION_LIMIT` connections per process (the file-descriptor limit is
  raised to fit) and waits for them with ``poll`` (``select`` stops at descriptor 1024);
* closes a connection whose request header is not complete :data:`HEADER_TIMEOUT_S` after its
  first byte (whatever it keeps sending), checked every :data:`CLEANUP_INTERVAL_S`; a connection
  with no request under way is closed after :data:`CHANNEL_TIMEOUT_S` without a byte;
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

import logging
import resource
import time
from collections.abc import Callable
from typing import Any

from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.utilities import Error

LOGGER = logging.getLogger("workbench.server")

CONNECTION_LIMIT = 1000  # per server process; waitress's default is 100
HEADER_TIMEOUT_S = 10.0  # from a request's first byte to the end of its header
CHANNEL_TIMEOUT_S = 30.0  # a connection with no request under way and no byte for this long closes
CLEANUP_INTERVAL_S = 2.0  # how often both timeouts are checked (waitress's default is 30 s)
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


def waitress_options(app: Any, threads: int) -> dict[str, Any]:
    """The keyword arguments for ``waitress.create_server``: the limits of the module docstring."""
    soft = raise_descriptor_limit(CONNECTION_LIMIT + SPARE_DESCRIPTORS)
    max_body = int(app.config.get("MAX_CONTENT_LENGTH") or 16 * 1024 * 1024)
    return {
        "threads": threads,
        "ident": "card-workbench",
        "connection_limit": max(50, min(CONNECTION_LIMIT, soft - SPARE_DESCRIPTORS)),
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
    """A request parser that notes when its first byte came and runs ``screen`` once the header
    is complete, before any of the body is read."""

    screen: Screen | None = None

    def __init__(self, adj: Any) -> None:
        super().__init__(adj)
        self.started = time.time()  # made when the request's first bytes arrive

    def received(self, data: bytes) -> int:
        finished_before = self.headers_finished
        consumed = super().received(data)
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


def install(server: Any, screen: Screen | None, may_accept: Callable[[], bool] | None = None) -> None:
    """Give the listening server(s) of ``waitress.create_server`` the screened parser and the
    header deadline (see :func:`workbench.cli.supervisor.waitress_listeners`). ``may_accept``,
    if given, is asked before each connection of an accept batch (the balanced workers of
    ``serve --processes N`` stop a batch as soon as they hold more than their share)."""
    from workbench.cli.supervisor import waitress_listeners

    parser = type("ScreenedParser", (_ScreenedParser,), {"screen": staticmethod(screen) if screen else None})
    channel = type("ScreenedChannel", (HTTPChannel,), {"parser_class": parser})
    for listener in waitress_listeners(server):
        listener.channel_class = channel
        listener.maintenance = _with_header_deadline(listener, listener.maintenance)
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
            before = len(listener._map)
            original()
            if len(listener._map) == before or len(listener._map) >= listener.adj.connection_limit:
                return  # nothing was waiting (or it failed), or the limit is reached
    return handle_accept


def _with_header_deadline(listener: Any, original: Callable[[float], None]) -> Callable[[float], None]:
    def maintenance(now: float) -> None:
        original(now)
        cutoff = now - HEADER_TIMEOUT_S
        for channel in list(listener.active_channels.values()):
            request = channel.request
            if (request is not None and not channel.requests and not request.headers_finished
                    and getattr(request, "started", now) < cutoff and not channel.will_close):
                channel.will_close = True  # the event loop closes it on its next pass
    return maintenance
