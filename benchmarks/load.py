"""Load test: the workbench under waitress, loopback only, bounded in time.

Starts ``workbench serve`` (waitress) on a free 127.0.0.1 port with a private copy of the sample
games, then keeps ``--connections`` keep-alive connections busy for ``--duration`` seconds with a
mix of the gallery of each sample game, a card page, the validate API and a live preview render.
Prints requests per second, p50/p95/p99 latency and errors per request type, the server's CPU
time per request (all its processes, from /proc) and the load average, and stops by itself.
``--processes N`` starts ``workbench serve --processes N``; ``--warmup`` seconds of the same load
run first and are not counted, so every server process has filled its caches.

Two clients: pure Python (threads in a few client processes; nothing to install) and ``wrk``
(used when installed, ``--client auto``). The Python client costs about as much CPU per request
as the server's cached pages do, and it shares the two cores with the server, so its figures are
a floor. ``wrk`` (C, one process per request type with connections split by the mix's weights,
``timeout`` bounded) leaves the server its core; each type's latencies are exact, the mix is
then set by how fast each type answers rather than by the weights.

    python benchmarks/load.py [--duration 60] [--connections 32] [--processes 1] [--threads 8] [--warmup 5]
                              [--client auto] [--browser-session] [--json]
    python benchmarks/load.py --url http://127.0.0.1:5000   # an already running local server
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import queue as queue_module
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("warzone", "seth", "fusion")
CARD = {"warzone": "ironbark-warden", "seth": "glass-wasp", "fusion": "chi-yan-lang"}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def process_tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` and all its descendants, from
    /proc (Linux). Children that already exited count once they were waited for."""
    ticks = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry)] = fields
        children.setdefault(int(fields[1]), []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        fields = stats.get(current)
        if fields:  # utime stime cutime cstime are fields 14-17 of stat (11-14 after the name)
            total += sum(int(x) for x in fields[11:15])
        todo.extend(children.get(current, []))
    return total / ticks


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _request_mix(url: str) -> list[tuple[str, str, str, bytes | None, int]]:
    """(label, method, path, body, weight): what a designer's browser asks for most."""
    conn = _connect(url)
    mix: list[tuple[str, str, str, bytes | None, int]] = []
    for game in GAMES:
        conn.request("GET", f"/api/games/{game}/cards/{CARD[game]}")
        card = json.loads(conn.getresponse().read())["card"]
        body = json.dumps({"card": card}).encode()
        mix += [
            ("gallery", "GET", f"/games/{game}/cards", None, 6),
            ("card page", "GET", f"/games/{game}/cards/{CARD[game]}/edit", None, 3),
            ("validate API", "POST", f"/api/games/{game}/validate", body, 3),
            ("preview render", "POST", f"/games/{game}/preview.png", body, 1),
        ]
    conn.close()
    return mix


def browser_session(url: str) -> dict[str, str]:
    """Headers of one designer's browser: the session cookie and its CSRF token (sent by the
    editor's script), so pages do not start a new session on every request."""
    conn = _connect(url)
    conn.request("GET", "/api/csrf")
    answer = conn.getresponse()
    token = json.loads(answer.read())["csrf_token"]
    cookie = (answer.getheader("Set-Cookie") or "").split(";", 1)[0]
    conn.close()
    return {"Cookie": cookie, "X-CSRF-Token": token}


def _connect(url: str) -> http.client.HTTPConnection:
    parts = urllib.parse.urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)


def warm_every_worker(url: str, processes: int) -> None:
    """Send every request of the mix to every server process. A server process keeps a
    connection for good and shares new ones out evenly among the processes, so 2 x processes
    connections held open at once reach each of them. (wrk opens new connections for the
    measured run, one URL per connection: without this a worker could meet a request type for
    the first time, cold, while being measured.)"""
    for _, method, path, body, _ in _request_mix(url):
        conns = [_connect(url) for _ in range(2 * max(1, processes))]
        for conn in conns:
            conn.connect()
        for conn in conns:
            conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
            conn.getresponse().read()
        for conn in conns:
            conn.close()


def _worker(url: str, mix: list, deadline: float, seed: int, out: list, extra: dict | None = None) -> None:
    rng = random.Random(seed)
    weights = [m[4] for m in mix]
    conn = _connect(url)
    while time.monotonic() < deadline:
        label, method, path, body, _ = rng.choices(mix, weights)[0]
        headers = dict(extra or {}, **({"Content-Type": "application/json"} if body else {}))
        start = time.perf_counter()
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            answer.read()
            ok = 200 <= answer.status < 300
        except (OSError, http.client.HTTPException):
            ok = False
            conn.close()
            conn = _connect(url)
        out.append((label, time.perf_counter() - start, ok))
    conn.close()


def _client_process(url: str, mix: list, connections: int, deadline: float, seed: int, queue,
                    extra: dict | None = None) -> None:
    results: list = []
    threads = [threading.Thread(target=_worker, args=(url, mix, deadline, seed * 1000 + i, results, extra))
               for i in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    queue.put(results)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def run_load(url: str, duration: float, connections: int, processes: int, session: bool = False,
             on_start: Callable[[], None] | None = None) -> dict:
    """Drive the server at ``url``; return figures per request type and overall. ``session``:
    every connection is the same browser (cookie and CSRF token), else none sends a cookie.
    ``processes``: client processes. ``on_start`` is called when the measured load begins."""
    host = urllib.parse.urlsplit(url).hostname or ""
    if host not in LOOPBACK:
        raise SystemExit(f"refusing to load {host}: this script only targets the loopback interface")
    mix = _request_mix(url)
    extra = browser_session(url) if session else None
    for label, method, path, body, _ in mix:  # warm the caches once, as a designer's first visit does
        conn = _connect(url)
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        conn.getresponse().read()
        conn.close()
    if on_start:
        on_start()
    deadline = time.monotonic() + duration
    started = time.monotonic()
    if processes <= 1:  # threads in this process (also what importing callers such as tests get)
        inline: queue_module.Queue = queue_module.Queue()
        _client_process(url, mix, connections, deadline, 1, inline, extra)
        results = inline.get()
    else:
        context = multiprocessing.get_context("spawn")
        queue = context.Queue()
        per = [connections // processes + (1 if i < connections % processes else 0) for i in range(processes)]
        procs = [context.Process(target=_client_process, args=(url, mix, n, deadline, i + 1, queue, extra))
                 for i, n in enumerate(per) if n]
        for proc in procs:
            proc.start()
        results = [item for _ in procs for item in queue.get(timeout=duration + 120)]
        for proc in procs:
            proc.join(timeout=30)
    elapsed = time.monotonic() - started
    report: dict = {"duration_s": round(elapsed, 1), "connections": connections, "types": {}}
    for label in dict.fromkeys(m[0] for m in mix):
        times = [t for lab, t, _ in results if lab == label]
        report["types"][label] = _figures(times, sum(1 for lab, _, ok in results if lab == label and not ok), elapsed)
    report["overall"] = _figures([t for _, t, _ in results], sum(1 for *_, ok in results if not ok), elapsed)
    return report


WRK_SCRIPT = """
wrk.method = %(method)s
wrk.body = %(body)s
wrk.headers["Content-Type"] = "application/json"
%(headers)s
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests": %%d, "errors": %%d, "duration_us": %%d, "p50_us": %%d, '
    .. '"p95_us": %%d, "p99_us": %%d, "max_us": %%d}\\n', summary.requests,
    e.connect + e.read + e.write + e.status + e.timeout, summary.duration, latency:percentile(50),
    latency:percentile(95), latency:percentile(99), latency.max))
end
"""


def _lua_string(value: str) -> str:
    return '"' + "".join(ch if (ch.isascii() and ch.isalnum()) or ch in " -_/.:,{}[]" else f"\\{ord(ch):03d}"
                         for ch in value.encode("utf-8").decode("latin-1")) + '"'


def run_wrk(url: str, duration: float, connections: int, session: bool = False,
            on_start: Callable[[], None] | None = None) -> dict:
    """Drive the server at ``url`` with ``wrk``: one wrk per request type, all at once, the
    connections split by the mix's weights (at least one each). Same report as :func:`run_load`."""
    host = urllib.parse.urlsplit(url).hostname or ""
    if host not in LOOPBACK:
        raise SystemExit(f"refusing to load {host}: this script only targets the loopback interface")
    wrk = shutil.which("wrk")
    if not wrk:
        raise SystemExit("wrk is not installed (Debian: apt-get install wrk); use --client python")
    mix = _request_mix(url)
    extra = browser_session(url) if session else {}
    headers = "\n".join(f"wrk.headers[{_lua_string(k)}] = {_lua_string(v)}" for k, v in extra.items())
    folder = Path(tempfile.mkdtemp(prefix="workbench-wrk-"))
    procs = []
    if on_start:
        on_start()
    try:
        for (label, method, path, body, _), conns in zip(mix, _split(connections, [m[4] for m in mix])):
            script = folder / f"{len(procs)}.lua"
            script.write_text(WRK_SCRIPT % {"method": _lua_string(method), "headers": headers,
                                            "body": _lua_string(body.decode()) if body else "nil"})
            procs.append((label, subprocess.Popen(
                ["timeout", str(int(duration) + 30), wrk, "-t1", f"-c{conns}", f"-d{max(1, int(duration))}s",
                 "--timeout", "10s", "-s", str(script), url + path],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
        figures: dict[str, list[dict]] = {}
        for label, proc in procs:
            out, _ = proc.communicate(timeout=duration + 60)
            line = next((ln for ln in out.splitlines() if ln.startswith("WRK ")), None)
            if line is None:
                raise SystemExit(f"wrk failed:\n{out}")
            figures.setdefault(label, []).append(json.loads(line[4:]))
    finally:
        for _, proc in procs:
            if proc.poll() is None:
                proc.kill()
        shutil.rmtree(folder, ignore_errors=True)
    report: dict = {"duration_s": round(duration, 1), "connections": connections, "client": "wrk",
                    "browser_session": session, "types": {}}
    for label, runs in figures.items():
        report["types"][label] = _merge_wrk(runs, duration)
    report["overall"] = _merge_wrk([r for runs in figures.values() for r in runs], duration)
    return report


def _split(total: int, weights: list[int]) -> list[int]:
    """``total`` connections shared by weight (largest remainders), at least one each."""
    exact = [total * w / sum(weights) for w in weights]
    shares = [max(1, int(x)) for x in exact]
    for i in sorted(range(len(weights)), key=lambda i: exact[i] - shares[i], reverse=True):
        if sum(shares) >= total:
            break
        shares[i] += 1
    return shares


def _merge_wrk(runs: list[dict], duration: float) -> dict:
    """Requests and errors add up; a percentile of several runs is taken as the worst run's,
    weighted runs of one type are the same URL pattern, so this errs on the slow side."""
    requests = sum(r["requests"] for r in runs)
    return {"requests": requests, "errors": sum(r["errors"] for r in runs), "rps": round(requests / duration, 1),
            "p50_ms": round(max(r["p50_us"] for r in runs) / 1000, 1),
            "p95_ms": round(max(r["p95_us"] for r in runs) / 1000, 1),
            "p99_ms": round(max(r["p99_us"] for r in runs) / 1000, 1),
            "max_ms": round(max(r["max_us"] for r in runs) / 1000, 1)}


def _figures(times: list[float], errors: int, elapsed: float) -> dict:
    if not times:
        return {"requests": 0, "errors": errors}
    return {"requests": len(times), "errors": errors, "rps": round(len(times) / elapsed, 1),
            "p50_ms": round(statistics.median(times) * 1000, 1), "p95_ms": round(_percentile(times, 95) * 1000, 1),
            "p99_ms": round(_percentile(times, 99) * 1000, 1), "max_ms": round(max(times) * 1000, 1)}


def _start_server(threads: int, processes: int = 1) -> tuple[subprocess.Popen, str, Path]:
    work = Path(tempfile.mkdtemp(prefix="workbench-load-"))
    shutil.copytree(ROOT / "card_data", work / "card_data", ignore=shutil.ignore_patterns(".locks", ".tmp-*", ".audit"))
    port = _free_port()
    env = dict(os.environ, WORKBENCH_INSTANCE=str(work / "instance"))
    env.pop("WORKBENCH_TEAM", None)
    log = open(work / "server.log", "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen([sys.executable, "-m", "workbench", "serve", "--port", str(port), "--data",
                             str(work / "card_data"), "--threads", str(threads),
                             *(["--processes", str(processes)] if processes != 1 else [])],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit((work / "server.log").read_text())
        try:
            conn = _connect(url)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return proc, url, work
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start within 60 s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of load (default 60)")
    parser.add_argument("--connections", type=int, default=32, help="concurrent keep-alive connections (default 32)")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes: workbench serve --processes (default 1)")
    parser.add_argument("--client-processes", type=int, default=2,
                        help="processes of the Python client (default 2)")
    parser.add_argument("--threads", type=int, default=8, help="waitress worker threads per process (default 8)")
    parser.add_argument("--url", help="load an already running loopback server instead of starting one")
    parser.add_argument("--client", choices=("auto", "python", "wrk"), default="auto",
                        help="load generator: wrk when installed (auto), or the Python threads")
    parser.add_argument("--browser-session", action="store_true",
                        help="send one session cookie and CSRF token, as a designer's browser does "
                             "(default: no cookie, so every page starts a session)")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of the same load before measuring, not counted (default 5): every "
                             "server process fills its caches, as after a designer's first visits")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not 0 < args.duration <= 600:
        parser.error("--duration must be between 0 and 600 seconds")
    if not 0 <= args.warmup <= 60:
        parser.error("--warmup must be between 0 and 60 seconds")
    proc = work = None
    url = args.url
    if not url:
        proc, url, work = _start_server(args.threads, args.processes)
    cpu: list[float] = []

    def started() -> None:  # the server's CPU clock when the measured load begins
        if proc:
            cpu.append(process_tree_cpu(proc.pid))

    use_wrk = args.client == "wrk" or (args.client == "auto" and shutil.which("wrk"))
    try:
        if args.warmup > 0:  # the same load, thrown away: cold caches are not what is measured
            warm_every_worker(url, args.processes)
            if use_wrk:
                run_wrk(url, args.warmup, args.connections, args.browser_session)
            else:
                run_load(url, args.warmup, args.connections, max(1, args.client_processes), args.browser_session)
        if use_wrk:
            report = run_wrk(url, args.duration, args.connections, args.browser_session, started)
        else:
            report = run_load(url, args.duration, args.connections, max(1, args.client_processes),
                              args.browser_session, started)
            report.update(client="python", browser_session=args.browser_session)
        report["warmup_s"] = args.warmup
        if cpu and proc:
            used = process_tree_cpu(proc.pid) - cpu[0]
            report["server"] = {"processes": args.processes, "threads": args.threads, "cpu_s": round(used, 2),
                                "cpu_ms_per_request": round(1000 * used / max(1, report["overall"]["requests"]), 2)}
        report["load_average"] = [round(x, 2) for x in os.getloadavg()]
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=20)
        if work:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        server = report.get("server")
        print(f"{report['connections']} connections for {report['duration_s']} s against waitress ({url}), "
              f"client {report['client']}" + (f", {server['processes']} server process(es) x {server['threads']} "
                                              f"threads" if server else ""))
        print(f"{'request':16} {'count':>7} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>6}")
        for label, fig in [*report["types"].items(), ("ALL", report["overall"])]:
            print(f"{label:16} {fig['requests']:7} {fig.get('rps', 0):7} {fig.get('p50_ms', 0):8} "
                  f"{fig.get('p95_ms', 0):8} {fig.get('p99_ms', 0):8} {fig.get('max_ms', 0):8} {fig['errors']:6}")
        if server:
            print(f"server CPU: {server['cpu_s']} s, {server['cpu_ms_per_request']} ms per request")
        print("load average (1, 5, 15 min): " + ", ".join(str(x) for x in report["load_average"]))
    return 1 if report["overall"]["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
