"""Probing a real server's /healthz while an attack runs (the connection-limit tests)."""

from __future__ import annotations

import time

from tests.security.helpers import http

FAILED_PROBE_S = 99.0  # what a refused or timed-out probe counts as


def probe_health(url: str, hold_s: float, every_s: float) -> list[float]:
    """GET /healthz every ``every_s`` for ``hold_s``; each probe's seconds (a probe that was
    refused, timed out after 5 s or did not answer 200 counts as FAILED_PROBE_S)."""
    latencies = []
    deadline = time.monotonic() + hold_s
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            ok = http(url, path="/healthz", timeout=5)[0] == 200
        except OSError:
            ok = False
        latencies.append(time.monotonic() - started if ok else FAILED_PROBE_S)
        time.sleep(max(0.0, every_s - (time.monotonic() - started)))
    return latencies
