"""``workbench serve``: run the web app under waitress (a production WSGI server).

Binds to 127.0.0.1 by default; the Flask debugger is never used.
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


def run(args: argparse.Namespace) -> int:
    from waitress import serve

    from workbench.web import create_app

    if not os.path.isdir(args.data):
        print(f"error: data folder {args.data} does not exist or is not readable", file=sys.stderr)
        return 1
    if not port_is_free(args.host, args.port):
        print(f"error: port {args.port} on {args.host} is already in use; pick another with --port",
              file=sys.stderr)
        return 1
    os.environ["WORKBENCH_DATA"] = os.path.abspath(args.data)
    app = create_app()
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: serving on {args.host}: other computers can reach this workbench", file=sys.stderr)
    print(f"Card Workbench on http://{args.host if ':' not in args.host else f'[{args.host}]'}:{args.port}/ "
          f"(data: {os.path.abspath(args.data)}); Ctrl+C stops it", flush=True)
    serve(app, host=args.host, port=args.port, threads=args.threads, ident="card-workbench")
    return 0
