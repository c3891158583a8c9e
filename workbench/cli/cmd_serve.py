"""``workbench serve``: run the web app under waitress (a production WSGI server).

Binds to 127.0.0.1 by default; the Flask debugger is never used. Local mode needs no login and
stays on the loopback address; ``--team`` (login required, see docs/team-server.md) is needed to
bind any other address. Logs are JSON lines on stderr (and ``--log-file``).
"""

from __future__ import annotations

import argparse
import errno
import os
import socket
import sys

from workbench.cli import add_data_option


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("serve", help="start the web app (http://127.0.0.1:5000)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: only this computer can connect)")
    parser.add_argument("--port", type=int, default=5000, help="port (default 5000)")
    parser.add_argument("--threads", type=int, default=8, help="worker threads (default 8)")
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
    from waitress import serve

    from workbench.cli.logs import configure_logging
    from workbench.web import create_app

    problem = data_folder_problem(args.data)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 1
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
    os.environ["WORKBENCH_DATA"] = os.path.abspath(args.data)
    app = create_app()
    if args.host not in LOOPBACK:
        print(f"warning: serving on {args.host}: other computers can reach this workbench (team mode, login required)",
              file=sys.stderr)
        if not args.trusted_host and not os.environ.get("WORKBENCH_TRUSTED_HOSTS"):
            print("warning: no --trusted-host given: only requests for localhost names are answered "
                  "(others get 400); add the name your team uses", file=sys.stderr)
    mode = "team mode, login required" if args.team else "local mode"
    print(f"Card Workbench on http://{args.host if ':' not in args.host else f'[{args.host}]'}:{args.port}/ "
          f"({mode}; data: {os.path.abspath(args.data)}); Ctrl+C stops it", flush=True)
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="card-workbench")
    return 0
