"""``workbench serve``: run the web app under waitress (a production WSGI server).

Binds to 127.0.0.1 by default; the Flask debugger is never used. Local mode needs no login and
stays on the loopback address; ``--team`` (login required, see docs/team-server.md) is needed to
bind any other address. Logs are JSON lines on stderr (and ``--log-file``).

``--processes N`` (or ``SERVER_PROCESSES`` in ``instance/config.py``, or ``$WORKBENCH_PROCESSES``)
runs N waitress workers on one shared listening socket (:mod:`workbench.cli.supervisor`), so a
busy team server uses more than one core. The default is one process per core (at most 8) with
``--team``, and one process in local mode: a designer's own browser never keeps more than a few
requests busy at once, and one process starts faster and holds its caches once.

Waitress gets deliberate limits (connections, ``SERVER_CONNECTION_LIMIT`` in
``instance/config.py`` per process; header and body deadlines; idle timeout; the oldest waiting
connections closed to make room near the limit; header and body caps) and, in team mode,
refuses a stranger's request body from its header: :mod:`workbench.cli.server_limits`.
"""

from __future__ import annotations

import argparse
import errno
import gc
import logging
import os
import socket
import sys
import time
from typing import Any

from workbench.cli import add_data_option


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("serve", help="start the web app (http://127.0.0.1:5000)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: only this computer can connect)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--threads", type=int, default=8, help="worker threads per process (default 8)")
    parser.add_argument("--processes", type=int, default=None, metavar="N",
                        help="server processes sharing the port (default: SERVER_PROCESSES in "
                             "instance/config.py, or $WORKBENCH_PROCESSES, else one per core with "
                             "--team and 1 without); more use more cores")
    parser.add_argument("--team", action="store_true",
                        help="team mode: every page needs a login (accounts: workbench user add)")
    parser.add_argument("--trusted-host", action="append", default=[], metavar="NAME",
                        help="a host name clients use to reach a team server (repeatable)")
    parser.add_argument("--instance", metavar="DIR",
                        help="instance folder with users.json and the secret key (default: $WORKBENCH_INSTANCE)")
    parser.add_argument("--log-file", metavar="FILE", help="also write the JSON log lines to FILE")
    parser.add_argument("--log-format", choices=("json", "text"), default="json", help="log line format (default json)")
    add_data_option(parser)
    parser.set_defaults(func=run)


def port_is_free(host: str, port: int) -> bool:
    """True when ``host:port`` can be bound now."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


LOOPBACK = ("127.0.0.1", "localhost", "::1")
MAX_PROCESSES = 64
QUEUE_WARNING_INTERVAL_S = 10.0


class QueueWarningThrottle(logging.Filter):
    """Let waitress's "Task queue depth is N" warning through at most once per interval.

    Waitress logs it for every request that finds all threads busy, which under load is nearly
    every request: a JSON line costs ~0.1 ms to format and write (measured), about 6 % of a
    cached page's whole cost, and floods the log. One line per interval, with the deepest queue
    seen, still tells an operator the server is saturated.
    """

    def __init__(self, interval_s: float = QUEUE_WARNING_INTERVAL_S) -> None:
        super().__init__()
        self.interval_s = interval_s
        self.next_at = 0.0
        self.deepest = 0

    def filter(self, record: logging.LogRecord) -> bool:
        depth = record.args[0] if isinstance(record.args, tuple) and record.args else 0
        self.deepest = max(self.deepest, depth if isinstance(depth, int) else 0)
        now = time.monotonic()
        if now < self.next_at:
            return False
        self.next_at = now + self.interval_s
        record.msg = "Task queue depth is %d (deepest in the last %d s; all threads were busy)"
        record.args = (self.deepest, int(self.interval_s))
        self.deepest = 0
        return True


def server_processes(arg: int | None, config: Any) -> int:
    """How many server processes to run: ``--processes``, else ``SERVER_PROCESSES`` from the
    app config, else ``$WORKBENCH_PROCESSES``, else one per core (at most 8) in team mode — a team
    keeps many requests busy at once — and 1 for a single designer. Raises ValueError outside 1..64."""
    default = min(8, os.cpu_count() or 1) if config.get("TEAM_MODE") else 1
    value = (arg if arg is not None else config.get("SERVER_PROCESSES")
             or os.environ.get("WORKBENCH_PROCESSES") or default)
    try:
        count = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"the number of server processes must be a whole number, not {value!r}") from None
    if not 1 <= count <= MAX_PROCESSES:
        raise ValueError(f"the number of server processes must be between 1 and {MAX_PROCESSES}, not {count}")
    return count


def data_folder_problem(path: str) -> str | None:
    """Why ``path`` cannot serve as the data folder, or None when it can be listed and read."""
    if not os.path.exists(path):
        return f"data folder {path} does not exist"
    if not os.path.isdir(path):
        return f"data folder {path} is not a folder"
    if not os.access(path, os.R_OK | os.X_OK):
        return f"data folder {path} is not readable by this user"
    try:
        os.listdir(path)
    except OSError as exc:
        return f"data folder {path} cannot be read ({exc.strerror})"
    return None


def run(args: argparse.Namespace) -> int:
    from waitress.server import create_server

    from workbench.cli import server_limits
    from workbench.cli.logs import configure_logging
    from workbench.web import create_app

    problem = data_folder_problem(args.data)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
    if args.processes is not None:  # the command line's value, before anything starts
        try:
            server_processes(args.processes, {})
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.host not in LOOPBACK and not args.team:
        print(f"error: local mode answers this computer only; to serve on {args.host}, use team mode: "
              f"workbench user add NAME --role designer, then workbench serve --team --host {args.host}",
              file=sys.stderr)
        return 2
    if args.instance:
        os.environ["WORKBENCH_INSTANCE"] = os.path.abspath(args.instance)
    if args.team:
        from workbench.storage.users import UserStore
        from workbench.web.auth import default_instance_dir

        store = UserStore(default_instance_dir())
        if not store.has_users():
            print(f"error: team mode needs at least one account and {store.path} has none; add one with\n"
                  f"  workbench user add NAME --role designer{' --instance ' + args.instance if args.instance else ''}",
                  file=sys.stderr)
            return 1
        os.environ["WORKBENCH_TEAM"] = "1"
    if args.trusted_host:
        known = [h for h in os.environ.get("WORKBENCH_TRUSTED_HOSTS", "").split(",") if h.strip()]
        os.environ["WORKBENCH_TRUSTED_HOSTS"] = ",".join(known + args.trusted_host)
    if not port_is_free(args.host, args.port):
        print(f"error: port {args.port} on {args.host} is already in use; pick another with --port",
              file=sys.stderr)
        return 1
    configure_logging(args.log_format, args.log_file)
    logging.getLogger("waitress.queue").addFilter(QueueWarningThrottle())
    os.environ["WORKBENCH_DATA"] = os.path.abspath(args.data)
    app = create_app()
    try:
        processes = server_processes(args.processes, app.config)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.host not in LOOPBACK:
        print(f"warning: serving on {args.host}: other computers can reach this workbench (team mode, login required)",
              file=sys.stderr)
        if not args.trusted_host and not os.environ.get("WORKBENCH_TRUSTED_HOSTS"):
            print("warning: no --trusted-host given: only requests for localhost names are answered "
                  "(others get 400); add the name your team uses", file=sys.stderr)
    mode = "team mode, login required" if args.team else "local mode"
    workers = f"{processes} processes x {args.threads} threads" if processes > 1 else f"{args.threads} threads"
    # Everything made so far (modules, the app, templates) lives as long as the server: keep it
    # out of the collector's full sweeps, which otherwise walk it again and again under load
    # (and, after a fork, would copy every page the sweep touches into each worker).
    gc.collect()
    gc.freeze()
    try:
        options = server_limits.waitress_options(app, args.threads)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    screen = server_limits.team_screen(app) if app.config.get("TEAM_MODE") else None
    if processes == 1:
        print(f"Card Workbench on http://{args.host if ':' not in args.host else f'[{args.host}]'}:{args.port}/ "
              f"({mode}; {workers}; data: {os.path.abspath(args.data)}); Ctrl+C stops it", flush=True)
        server = create_server(app, host=args.host, port=args.port, **options)
        server_limits.install(server, screen)
        server.print_listen("Serving on http://{}:{}")
        server.run()  # returns after Ctrl+C or SIGTERM, once running requests finished
        return 0
    from workbench.cli.supervisor import PortTaken, Supervisor, bind_sockets, serve_balanced

    try:
        sockets = bind_sockets(args.host, args.port)
    except PortTaken as exc:
        print(f"error: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"Card Workbench on http://{args.host if ':' not in args.host else f'[{args.host}]'}:{args.port}/ "
          f"({mode}; {workers}; data: {os.path.abspath(args.data)}); Ctrl+C stops it", flush=True)
    return Supervisor(sockets, processes, lambda socks, counts, slot: serve_balanced(
        app, socks, counts, slot, screen, **options)).run()
