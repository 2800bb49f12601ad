from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from docshelf import forked
from docshelf.forked import ForkedPool, forked_imap

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")
PARENT = os.getpid()


@pytest.fixture(autouse=True)
def _single_threaded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Other tests in the session may leave a thread behind (a server, a client pool): count only this one.
    monkeypatch.setattr(threading, "active_count", lambda: 1)


def _square_with_pid(number: int) -> tuple[int, int]:
    return number * number, os.getpid()


def _no_children_left() -> bool:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@needs_fork
def test_every_item_once_from_the_workers() -> None:
    # 40,000 job numbers are 160 KB: more than a pipe holds, so jobs are fed while results come back.
    items = list(range(40_000))
    results = list(forked_imap(_square_with_pid, items, 2))
    assert sorted(number for number, _ in results) == items
    assert all(square == items[number] ** 2 for number, (square, _) in results)
    workers = {pid for _, (_, pid) in results}
    assert len(workers) == 2 and PARENT not in workers
    assert _no_children_left()


@needs_fork
def test_a_dead_workers_items_are_computed_by_the_caller() -> None:
    def dies_on_seven(number: int) -> tuple[int, int]:
        if number == 7 and os.getpid() != PARENT:
            os._exit(3)
        return _square_with_pid(number)

    results = dict(forked_imap(dies_on_seven, list(range(200)), 2))
    assert sorted(results) == list(range(200))
    assert results[7] == (49, PARENT)
    assert _no_children_left()


@needs_fork
def test_when_every_worker_dies_the_caller_computes_everything() -> None:
    def dies_in_a_worker(number: int) -> tuple[int, int]:
        if os.getpid() != PARENT:
            os._exit(3)
        return _square_with_pid(number)

    # More job numbers than the pipe holds: feeding them must stop, not fail, once no worker reads.
    results = dict(forked_imap(dies_in_a_worker, list(range(40_000)), 2))
    assert len(results) == 40_000 and {pid for _, pid in results.values()} == {PARENT}
    assert _no_children_left()


@needs_fork
def test_an_error_in_a_worker_is_raised_by_the_caller() -> None:
    def fails_on_three(number: int) -> int:
        if number == 3:
            raise ValueError(f"bad item {number}")
        return number

    with pytest.raises(ValueError, match="bad item 3"):
        list(forked_imap(fails_on_three, list(range(20)), 2))
    assert _no_children_left()


@needs_fork
def test_setup_runs_in_the_workers_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DOCSHELF_FORKED_TEST", raising=False)

    def setup() -> None:
        os.environ["DOCSHELF_FORKED_TEST"] = "worker"

    results = list(forked_imap(lambda _: os.environ.get("DOCSHELF_FORKED_TEST"), [1, 2, 3, 4], 2, child_setup=setup))
    assert [value for _, value in results] == ["worker"] * 4
    assert "DOCSHELF_FORKED_TEST" not in os.environ


@needs_fork
def test_leaving_early_stops_the_workers() -> None:
    results = forked_imap(_square_with_pid, list(range(100_000)), 2)
    number, (square, _) = next(results)
    assert square == number * number
    results.close()
    assert _no_children_left()


def test_serial_without_spare_workers_or_with_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    assert list(forked_imap(_square_with_pid, [3, 1, 2], 1)) == [(0, (9, PARENT)), (1, (1, PARENT)), (2, (4, PARENT))]
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert [pid for _, (_, pid) in forked_imap(_square_with_pid, list(range(10)), 4)] == [PARENT] * 10


@needs_fork
def test_the_children_work_while_the_caller_does(tmp_path: Path) -> None:
    # The PDF parser reads a share of the pages itself before it asks the pool for results.
    started = tmp_path / "started"

    def mark_started(number: int) -> int:
        started.write_text(str(os.getpid()))
        return number

    with ForkedPool(mark_started, [5], 1) as pool:
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert started.exists() and started.read_text() != str(PARENT)
        assert list(pool.results()) == [(0, 5)]
    assert _no_children_left()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="pipe sizes are set on Linux only")
def test_a_results_pipe_holds_a_megabyte_where_the_system_allows() -> None:
    import fcntl

    read_fd, write_fd = os.pipe()
    try:
        forked._widen(write_fd)
        size = fcntl.fcntl(read_fd, 1032)  # F_GETPIPE_SZ
        limit = forked._system_pipe_limit()
        assert size >= 1 << 20 or (os.geteuid() != 0 and size == limit)
    finally:
        os.close(read_fd)
        os.close(write_fd)
