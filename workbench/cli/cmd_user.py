"""``workbench user``: the accounts of team mode (add, list, remove, passwd, role).

Accounts live in the instance folder (``--instance``, default ``$WORKBENCH_INSTANCE`` or
``./instance`` of the project), the same folder ``workbench serve`` reads. Passwords are asked
for twice on a terminal, or read from one line of standard input with ``--password-stdin``.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from workbench.cli.output import print_json
from workbench.domain.accounts import ROLES, AccountError


def add_instance_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--instance DIR`` (the folder holding users.json and the secret key)."""
    parser.add_argument("--instance", metavar="DIR",
                        help="instance folder (default: $WORKBENCH_INSTANCE or the project's instance/)")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser("user", help="manage team-mode accounts (add, list, remove, passwd, role)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    add = actions.add_parser("add", help="create an account")
    add.add_argument("name", help="user name: lower-case letters, digits, '.', '-', '_'")
    add.add_argument("--role", required=True, choices=ROLES, help="designer (may change) or viewer (read only)")
    add.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    add_instance_option(add)
    add.set_defaults(func=run_add)

    listing = actions.add_parser("list", help="list the accounts")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    add_instance_option(listing)
    listing.set_defaults(func=run_list)

    remove = actions.add_parser("remove", help="delete an account (its sessions end at once)")
    remove.add_argument("name")
    add_instance_option(remove)
    remove.set_defaults(func=run_remove)

    passwd = actions.add_parser("passwd", help="set a new password (ends the user's sessions)")
    passwd.add_argument("name")
    passwd.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    add_instance_option(passwd)
    passwd.set_defaults(func=run_passwd)

    role = actions.add_parser("role", help="change an account's role")
    role.add_argument("name")
    role.add_argument("role", choices=ROLES)
    add_instance_option(role)
    role.set_defaults(func=run_role)


def _store(args: argparse.Namespace):  # noqa: ANN202 - UserStore, imported lazily
    from pathlib import Path

    from workbench.storage.users import UserStore
    from workbench.web.auth import default_instance_dir

    return UserStore(Path(args.instance) if args.instance else default_instance_dir())


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        line = sys.stdin.readline()
        return line[:-1] if line.endswith("\n") else line
    if not sys.stdin.isatty():
        raise AccountError("no terminal to ask for the password: pass it on standard input with --password-stdin")
    first = getpass.getpass(f"Password for {args.name}: ")
    if getpass.getpass("Again: ") != first:
        raise AccountError("the two passwords differ; nothing was changed")
    return first


def run_add(args: argparse.Namespace) -> int:
    store = _store(args)
    user = store.add(args.name, args.role, _password(args))
    print(f"added {user.role} {user.name} ({store.path})")
    return 0


def run_list(args: argparse.Namespace) -> int:
    accounts = _store(args).list()
    if args.json:
        print_json([{"name": u.name, "role": u.role, "created": u.created} for u in accounts])
        return 0
    for user in accounts:
        print(f"{user.name:32} {user.role:9} created {user.created}")
    print(f"{len(accounts)} accounts")
    return 0


def run_remove(args: argparse.Namespace) -> int:
    _store(args).remove(args.name)
    print(f"removed {args.name}")
    return 0


def run_passwd(args: argparse.Namespace) -> int:
    _store(args).set_password(args.name, _password(args))
    print(f"new password set for {args.name}; their sessions have ended")
    return 0


def run_role(args: argparse.Namespace) -> int:
    _store(args).set_role(args.name, args.role)
    print(f"{args.name} is now a {args.role}")
    return 0
