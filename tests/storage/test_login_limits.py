"""Failed logins are counted in a file every server process shares, so N processes do not give
an attacker N times the attempts."""

from __future__ import annotations

import multiprocessing
import stat

import pytest

from workbench.storage.login_limits import FILE_NAME, MAX_PER_KEY, MemoryFailureLog, SqliteFailureLog
from workbench.web.auth import LoginLimiter


def _fail_in_another_process(folder: str, name: str, times: int) -> None:
    limiter = LoginLimiter(per_user=5, window_s=300, log=SqliteFailureLog(folder))
    for _ in range(times):
        limiter.failed(name, "10.0.0.9")


def test_failures_counted_by_another_process_lock_the_name_here(tmp_path):
    context = multiprocessing.get_context("spawn")  # a separate interpreter, as a server worker is
    child = context.Process(target=_fail_in_another_process, args=(str(tmp_path), "alice", 5))
    child.start()
    child.join(60)
    assert child.exitcode == 0
    here = LoginLimiter(per_user=5, window_s=300, log=SqliteFailureLog(tmp_path))
    assert 290 <= here.retry_after("alice", "10.0.0.9") <= 301
    assert here.retry_after("alice", "10.0.0.8") == 0  # another address is not locked out
    assert here.retry_after("bob", "10.0.0.9") == 0


def test_a_success_in_one_process_clears_the_count_for_all(tmp_path):
    first = LoginLimiter(per_user=3, window_s=60, log=SqliteFailureLog(tmp_path))
    second = LoginLimiter(per_user=3, window_s=60, log=SqliteFailureLog(tmp_path))
    for t in (0, 1, 2):
        (first if t % 2 else second).failed("alice", "10.0.0.1", now=t)
    assert first.retry_after("alice", "10.0.0.1", now=3) == 58
    assert second.retry_after("alice", "10.0.0.1", now=3) == 58
    assert second.retry_after("alice", "10.0.0.1", now=61) == 0  # the first failure left the window
    second.succeeded("alice", "10.0.0.1")
    assert first.retry_after("alice", "10.0.0.1", now=30) == 0


@pytest.mark.parametrize("log", ["memory", "sqlite"])
def test_both_logs_count_the_same(tmp_path, log):
    store = MemoryFailureLog() if log == "memory" else SqliteFailureLog(tmp_path)
    spray = LoginLimiter(per_user=3, per_address=5, window_s=60, log=store)
    for name in ("bob", "carol", "erin", "frank"):
        spray.failed(name, "10.0.0.7", now=10)
    assert spray.retry_after("dave", "10.0.0.7", now=11) == 0  # four from this address: still allowed
    spray.failed("gina", "10.0.0.7", now=10)
    assert spray.retry_after("dave", "10.0.0.7", now=11) == 60  # the fifth locks the address


def test_the_file_is_owner_only_made_on_the_first_failure_and_bounded(tmp_path):
    log = SqliteFailureLog(tmp_path)
    assert log.window("u:alice|x", 0) == (0, None)
    assert not (tmp_path / FILE_NAME).exists()  # reading (every login) creates nothing
    for i in range(MAX_PER_KEY + 20):
        log.add(["u:alice|x"], now=1000 + i, keep_s=10_000)
    assert stat.S_IMODE((tmp_path / FILE_NAME).stat().st_mode) == 0o600
    assert log.window("u:alice|x", 0) == (MAX_PER_KEY, 1000 + 20)  # the oldest were dropped
    log.add(["u:bob|x"], now=50_000, keep_s=100)  # everything older than 100 s goes
    assert log.window("u:alice|x", 0) == (0, None)


def test_a_damaged_file_is_moved_aside_and_counting_goes_on(tmp_path):
    (tmp_path / FILE_NAME).write_bytes(b"this is not an SQLite database" * 40)
    log = SqliteFailureLog(tmp_path)
    assert log.window("u:alice|x", 0) == (0, None)
    log.add(["u:alice|x"], now=5, keep_s=100)
    assert log.window("u:alice|x", 0) == (1, 5)
    assert (tmp_path / (FILE_NAME + ".damaged")).exists()
