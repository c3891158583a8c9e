"""Real PennMUSH 1.8.8 and TinyMUX 2.14 servers for the MUSH export tests (issue 12).

The servers, ``start-mush``/``stop-mush`` and ``mushclient.py`` live in ``../shared/tools/mush``
next to the project (``MUSH_TOOLS`` points elsewhere). Each server runs on a free port of
127.0.0.1 in a folder from :func:`tempfile.mkdtemp` (pytest's ``tmp_path`` is 0700 under root, and
start-mush runs the server as ``nobody`` then).

Both servers let one connection run 100 commands and then one a second, so :class:`Session`
opens a new connection every :data:`COMMANDS_PER_CONNECTION` commands; on TinyMUX the wizard lifts
the quota for the running game as well.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
TOOLS = Path(os.environ.get("MUSH_TOOLS") or ROOT.parent / "shared" / "tools" / "mush").resolve()
SERVERS = ("pennmush", "tinymux")
COMMANDS_PER_CONNECTION = 80  # under the burst of 100, with room for eval() slices


def missing_reason() -> str | None:
    """Why the servers cannot run here, or None."""
    if not (TOOLS / "start-mush").is_file():
        return (f"the PennMUSH/TinyMUX test servers are not at {TOOLS} "
                "(set MUSH_TOOLS to the folder holding start-mush)")
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One running game: ``start`` it, open :class:`Session` on it, ``stop`` it."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.workdir = tempfile.mkdtemp(prefix=f"workbench-{kind}-")  # not tmp_path: see the module notes
        self.port = _free_port()
        self.login = ""

    def start(self) -> None:
        result = subprocess.run([str(TOOLS / "start-mush"), self.kind, str(self.port), self.workdir],
                                capture_output=True, text=True, timeout=120)
        if result.returncode:
            raise RuntimeError(f"start-mush {self.kind} failed ({result.returncode}):\n"
                               f"{result.stdout}{result.stderr}")
        info = dict(line.split("=", 1) for line in Path(self.workdir, "mush.info").read_text().splitlines()
                    if "=" in line)
        self.login = info["LOGIN"]
        if self.kind == "tinymux":
            with self.session() as s:
                s.cmd("@admin command_quota_max=1000000")
                s.cmd("@admin command_quota_increment=1000000")

    def stop(self) -> None:
        subprocess.run([str(TOOLS / "stop-mush"), self.workdir], capture_output=True, text=True, timeout=120)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def session(self, login: str | None = None, utf8: bool = True) -> Session:
        """A client logged in as the wizard (or with ``login``); on TinyMUX it negotiates UTF-8
        unless ``utf8`` is false."""
        return Session(self, login or self.login, utf8)

    def new_player(self) -> str:
        """Make a player without wizard powers, as a designer would be; its login line."""
        name, password = f"Designer{uuid.uuid4().hex[:6]}", uuid.uuid4().hex[:10]
        with self.session() as s:
            reply = s.cmd(f"@pcreate {name}={password}")
        if "created" not in reply:
            raise RuntimeError(f"@pcreate failed: {reply}")
        return f"connect {name} {password}"


class Session:
    """A client for :class:`Server` that reconnects before the per-connection command quota."""

    def __init__(self, server: Server, login: str, utf8: bool = True) -> None:
        if str(TOOLS) not in sys.path:
            sys.path.insert(0, str(TOOLS))
        self._client_class = importlib.import_module("mushclient").Mush
        self.server = server
        self.login = login
        self.charset = "UTF-8" if server.kind == "tinymux" and utf8 else None
        self.count = 0
        self.client: Any = None
        self._open()

    def _open(self) -> None:
        if self.client is not None:
            self.client.close()
        self.client = self._client_class(self.server.port, login=self.login, charset=self.charset)
        self.count = 0

    def _spend(self, commands: int) -> None:
        if self.count + commands > COMMANDS_PER_CONNECTION:
            self._open()
        self.count += commands

    def cmd(self, line: str) -> str:
        self._spend(1)
        return str(self.client.cmd(line))

    def paste(self, lines: Iterable[str | bytes]) -> list[Any]:
        """Paste lines one by one, as a client would; one PasteResult per line."""
        results = []
        for n, line in enumerate(lines, start=1):
            self._spend(1)
            results += [dataclasses.replace(r, lineno=n) for r in self.client.paste([line])]
        return results

    def eval(self, expr: str, chunk: int = 1000) -> str:
        """The exact value of ``expr`` (1000-character slices: TinyMUX base64 of 3000 CJK
        characters would pass its 8,000-byte buffer)."""
        self._spend(2)
        value = str(self.client.eval(expr, chunk=chunk))
        self.count += len(value) // chunk
        return value.replace("\r\n", "\n") if self.server.kind == "tinymux" else value

    def wait_for(self, expr: str, want: str, seconds: float = 60.0) -> str:
        """Evaluate ``expr`` until it gives ``want`` (queued commands run after their reply)."""
        deadline = time.monotonic() + seconds
        value = self.eval(expr)
        while value != want and time.monotonic() < deadline:
            time.sleep(0.3)
            value = self.eval(expr)
        return value

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# What the servers answer to each command an export writes (PennMUSH first, then TinyMUX).
_GOOD_REPLIES = [
    (re.compile(r"&\S+ .*"), re.compile(r"(.*/\S+ - )?(Set|Cleared)\.")),
    (re.compile(r"@set .*"), re.compile(r".*(set|Set|cleared)\.")),
    (re.compile(r"@wipe .*"), re.compile(r"(\d+ attributes|One attribute) wiped\.|Wiped\.")),
    (re.compile(r"think \[switch\(locate.*"), re.compile(r"(Created: Object #\d+\.\n)?#\d+|Updating .*\.")),
    (re.compile(r"think \[switch\(strlen.*"), re.compile(r"Your client sends UTF-8: good\.")),
    (re.compile(r"@@.*|cleardeck|loadcard .*"), re.compile(r"")),
]


@contextmanager
def running(name: str) -> Iterator[Server]:
    """A started ``name`` server (pennmush or tinymux) for the ``with`` body, stopped after it; a
    server that cannot start fails the test with its reason (pytest.fail)."""
    import pytest

    srv = Server(name)
    try:
        srv.start()
    except RuntimeError as exc:
        srv.stop()
        pytest.fail(str(exc))
    try:
        yield srv
    finally:
        srv.stop()


def reply_problems(results: Iterable[Any]) -> list[str]:
    """Sentences for every pasted line whose reply is not the one that command gives on success."""
    problems = []
    for r in results:
        line = r.line.decode("utf-8", "replace") if isinstance(r.line, bytes) else r.line
        expected = next((good for cmd, good in _GOOD_REPLIES if cmd.fullmatch(line)), None)
        if r.status != "ok" or (expected is not None and not expected.fullmatch(r.reply)):
            problems.append(f"line {r.lineno}: {line[:70]!r} -> {r.status}: {r.reply[:120]!r}")
    return problems
