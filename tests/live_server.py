"""A real ``workbench serve`` process on a free port, for browser, security and operations tests."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def copy_data(target: Path) -> Path:
    """A private copy of the bundled data folder at ``target``."""
    shutil.copytree(PROJECT_ROOT / "card_data", target,
                    ignore=shutil.ignore_patterns(".locks", ".tmp-*", ".audit", ".history"))
    return target


@dataclass
class Server:
    """A running ``workbench serve`` process."""

    proc: subprocess.Popen
    url: str
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = 30.0) -> None:
    """Poll ``/healthz`` until it answers 200; raise with the server log when it never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"server did not answer within {timeout} s:\n{log.read_text(errors='replace')}")


@contextmanager
def running_server(data: Path, instance: Path, *extra: str, threads: int = 8,
                   env_extra: Mapping[str, str] | None = None) -> Iterator[Server]:
    """Start ``python -m workbench serve`` on a free port; stop it (terminate, then kill) afterwards."""
    port = free_port()
    instance.mkdir(parents=True, exist_ok=True)
    log = instance / f"server-{port}.log"
    env = dict(os.environ, WORKBENCH_INSTANCE=str(instance), PYTHONUNBUFFERED="1")
    for key in ("WORKBENCH_TRUSTED_HOSTS", "WORKBENCH_TEAM", "WORKBENCH_DATA", "WORKBENCH_EXPORTS"):
        env.pop(key, None)
    env.update(env_extra or {})
    with open(log, "wb") as handle:
        proc = subprocess.Popen(
            [sys.executable, "-m", "workbench", "serve", "--port", str(port), "--data", str(data),
             "--threads", str(threads), *extra],
            cwd=PROJECT_ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
        )
    server = Server(proc, f"http://127.0.0.1:{port}", log)
    try:
        wait_healthy(server.url, proc, log)
        yield server
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
