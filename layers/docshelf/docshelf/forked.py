"""Work spread over forked child processes talking through pipes: no `multiprocessing` queues, pools or
semaphores, which need /dev/shm (absent on AWS Lambda: ParseFunction's PDF page workers run there), and no
re-import of everything in each worker (children of `concurrent.futures` with the spawn or forkserver start).
The one pool serves `docshelf ingest` (`forked_imap`, files in workers of one CPU each) and the PDF parser
(`parsers.pdf_workers`, page ranges while the caller reads a share itself). How many CPUs work may spread over
(`usable_cpus`, `spare_cpus`, DOCSHELF_CPUS) is decided here too, for the pool and for token counting threads.

`ForkedPool` hands out item numbers through one shared pipe (each number is a 4-byte write, so a read
of 4 bytes takes exactly one) and gets each result back, pickled and length-prefixed, on the child's
own pipe. Results arrive in completion order, so the caller can use one while the children work on
the next. An item whose child died before answering is computed by the caller itself.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import pickle
import selectors
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

CPUS_ENV = "DOCSHELF_CPUS"
_PR_SET_PDEATHSIG = 1
_JOB = struct.Struct("<I")
_LENGTH = struct.Struct("<Q")
_READ_BYTES = 1 << 20
_JOBS_PER_WRITE = 1024  # 4 KiB: one atomic pipe write (PIPE_BUF)
# A child's results pipe holds this much (where Linux lets a pipe grow past its 64 KiB): a child goes on with its
# next items while the caller is busy elsewhere (publishing a batch) instead of waiting for it to read. With 64
# KiB, about two plain reports' chunks, `docshelf ingest` of 400 reports took about 12% longer.
_RESULTS_PIPE_BYTES = 1 << 20
_F_SETPIPE_SZ = 1031  # fcntl.F_SETPIPE_SZ, named by Python only on Linux


def can_fork() -> bool:
    """Forking copies locks other threads may hold: only a single-threaded process on a platform with fork."""
    return hasattr(os, "fork") and threading.active_count() == 1


def spare_cpus() -> int:
    """CPUs worth spreading work over now: every usable one while the machine has idle capacity, else those no
    other task is running on.

    With the one-minute load average (which counts this process too) at or above the CPU count, extra
    threads and workers only add switching and copying; measured on a shared 2-CPU machine, forked PDF
    workers gave 1.7x at load ~2 and 0.8x at load ~3. That average trails by a minute, though: right after a
    busy minute of this process's own (the previous ingest of a batch, a bench's previous run) it stays high on a
    machine gone quiet. So a high average is checked against the tasks runnable now (`_others_running`)."""
    cpus = usable_cpus()
    if cpus > 1 and hasattr(os, "getloadavg"):
        with contextlib.suppress(OSError):
            if os.getloadavg()[0] >= cpus:
                return max(1, cpus - _others_running(cpus))
    return cpus


_LOADAVG = "/proc/loadavg"
_RUNNING_SAMPLES = 3  # a moment when others wait for I/O is no idle machine: several samples, the busiest counts
_SAMPLE_GAP_SECONDS = 0.001
_RUNNING_FOR_SECONDS = 1.0  # how long a sampled answer holds (token counting asks for every document)
_running_seen: list[float] = []  # [when sampled (monotonic), others running]


def _others_running(cpus: int) -> int:
    """Other tasks runnable now: the most of a few samples, a millisecond apart, of the kernel's count
    (/proc/loadavg's fourth field); `cpus` where it cannot be read."""
    now = time.monotonic()
    if _running_seen and now - _running_seen[0] < _RUNNING_FOR_SECONDS:
        return int(_running_seen[1])
    others = 0
    try:
        for sample in range(_RUNNING_SAMPLES):
            if sample:
                time.sleep(_SAMPLE_GAP_SECONDS)
            others = max(others, _runnable_tasks() - 1)
    except (OSError, ValueError, IndexError):
        others = cpus
    _running_seen[:] = [now, float(others)]
    return others


def _runnable_tasks() -> int:
    """The kernel's count of tasks runnable now, the reading thread included."""
    return int(Path(_LOADAVG).read_bytes().split()[3].split(b"/")[0])


def usable_cpus() -> int:
    """CPUs this process may run on (the affinity mask where the platform has one), at most DOCSHELF_CPUS.

    Parsing uses them for token counting threads and PDF page workers; DOCSHELF_CPUS=1 keeps it serial."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    with contextlib.suppress(ValueError):
        cpus = min(cpus, int(os.environ.get(CPUS_ENV, cpus)))
    return max(1, cpus)


def die_with_parent() -> None:
    """In a forked child: be killed when the parent dies, so no orphan keeps working."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() == 1:
            os._exit(1)


@dataclass(slots=True)
class _Child:
    pid: int
    fd: int
    buffer: bytearray = field(default_factory=bytearray)


def stop_child(pid: int) -> None:
    """Kill a forked child and reap it (it may have ended, or been reaped, already)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def forked_imap(
    work: Callable[[T], R],
    items: Sequence[T],
    workers: int,
    *,
    child_setup: Callable[[], None] | None = None,
) -> Generator[tuple[int, R], None, None]:
    """Yield `(i, work(items[i]))` for every item, in completion order, computed by `workers` forked children.

    `work` runs in the children, so it sees the caller's state as of the fork, and its results must pickle.
    `child_setup` runs once in each child before its first item. With `workers` <= 1, fewer than two items,
    or no safe way to fork, everything is computed here, in order."""
    if workers <= 1 or len(items) < 2 or not can_fork():
        for number, item in enumerate(items):
            yield number, work(item)
        return
    with ForkedPool(work, items, min(workers, len(items)), child_setup=child_setup) as pool:
        yield from pool.results()


class ForkedPool(Generic[T, R]):
    """`workers` children forked at once over `items`, which the caller may leave working while it does work of
    its own; `results` then yields every `(i, work(items[i]))`. Used as a context manager: leaving it, by an
    exception or early, kills and reaps the children."""

    def __init__(
        self,
        work: Callable[[T], R],
        items: Sequence[T],
        workers: int,
        *,
        child_setup: Callable[[], None] | None = None,
    ) -> None:
        self._work, self._items = work, items
        self._next_job = 0
        self._children: list[_Child] = []
        self._jobs_read, self._jobs_write = os.pipe()
        try:
            for _ in range(workers):
                self._children.append(self._spawn(child_setup))
        except BaseException:
            self.close()
            raise
        os.close(self._jobs_read)
        self._jobs_read = -1
        os.set_blocking(self._jobs_write, False)
        if self._feed_jobs():  # the children start at once, not when the caller asks for results
            self._close_jobs()

    def __enter__(self) -> ForkedPool[T, R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def results(self) -> Iterator[tuple[int, R]]:
        """Every item's result, in completion order; those of a child that died are computed here, last."""
        delivered: set[int] = set()
        for number, result in self._delivered():
            delivered.add(number)
            yield number, result
        for number, item in enumerate(self._items):
            if number not in delivered:
                yield number, self._work(item)

    def _delivered(self) -> Iterator[tuple[int, R]]:
        with selectors.DefaultSelector() as selector:
            if self._jobs_write >= 0:
                selector.register(self._jobs_write, selectors.EVENT_WRITE)
            for started in self._children:
                selector.register(started.fd, selectors.EVENT_READ, started)
            open_children = len(self._children)
            while open_children:
                for key, _ in selector.select():
                    if key.data is None:
                        if self._feed_jobs():
                            selector.unregister(self._jobs_write)
                            self._close_jobs()
                        continue
                    child = key.data
                    chunk = os.read(child.fd, _READ_BYTES)
                    if not chunk:
                        selector.unregister(child.fd)
                        self._reap(child)
                        open_children -= 1
                        continue
                    child.buffer += chunk
                    yield from _complete_messages(child)

    def _close_jobs(self) -> None:
        os.close(self._jobs_write)
        self._jobs_write = -1

    def _feed_jobs(self) -> bool:
        """Write as many job numbers as the pipe takes now; True once all are written, or once no child is
        left to read them (the caller then computes what was not delivered)."""
        count = len(self._items)
        while self._next_job < count:
            batch = range(self._next_job, min(count, self._next_job + _JOBS_PER_WRITE))
            try:
                os.write(self._jobs_write, b"".join(_JOB.pack(number) for number in batch))
            except BlockingIOError:
                return False
            except BrokenPipeError:
                return True
            self._next_job = batch.stop
        return True

    def _spawn(self, child_setup: Callable[[], None] | None) -> _Child:
        read_fd, write_fd = os.pipe()
        _widen(write_fd)
        pid = os.fork()
        if pid == 0:  # the child: never returns into the caller's code
            inherited = [read_fd, self._jobs_write, *(c.fd for c in self._children)]
            _child_main(self._work, self._items, self._jobs_read, write_fd, child_setup, inherited)
        os.close(write_fd)
        return _Child(pid=pid, fd=read_fd)

    def _reap(self, child: _Child) -> None:
        with contextlib.suppress(OSError):
            os.close(child.fd)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child.pid, 0)
        child.pid = 0

    def close(self) -> None:
        for fd in (self._jobs_read, self._jobs_write):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._jobs_read = self._jobs_write = -1
        for child in self._children:
            with contextlib.suppress(OSError):
                os.close(child.fd)
            if child.pid:
                stop_child(child.pid)
                child.pid = 0


def _widen(pipe_fd: int) -> None:
    """Let the pipe hold `_RESULTS_PIPE_BYTES`, or as much as the system allows; elsewhere it stays as it is."""
    if not sys.platform.startswith("linux"):
        return
    import fcntl

    for size in (_RESULTS_PIPE_BYTES, _system_pipe_limit()):
        with contextlib.suppress(OSError):
            fcntl.fcntl(pipe_fd, _F_SETPIPE_SZ, size)
            return


def _system_pipe_limit() -> int:
    """The most an unprivileged process may give a pipe (/proc/sys/fs/pipe-max-size); 0 if unknown."""
    try:
        return int(Path("/proc/sys/fs/pipe-max-size").read_text())
    except (OSError, ValueError):
        return 0


def _complete_messages(child: _Child) -> Iterator[tuple[int, R]]:
    while len(child.buffer) >= _LENGTH.size:
        (length,) = _LENGTH.unpack_from(child.buffer)
        end = _LENGTH.size + length
        if len(child.buffer) < end:
            return
        message = bytes(child.buffer[_LENGTH.size : end])
        del child.buffer[:end]
        answer: tuple[int, R] = pickle.loads(message)
        yield answer


def _child_main(
    work: Callable[[T], R],
    items: Sequence[T],
    jobs_fd: int,
    results_fd: int,
    child_setup: Callable[[], None] | None,
    inherited: list[int],
) -> None:
    status = 1
    gc.freeze()  # collections then skip the heap inherited from the parent, which stays shared
    try:
        for fd in inherited:  # the jobs pipe must see EOF once the parent closes its end
            os.close(fd)
        die_with_parent()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if child_setup is not None:
            child_setup()
        with os.fdopen(results_fd, "wb", closefd=True) as pipe:
            while job := os.read(jobs_fd, _JOB.size):
                (number,) = _JOB.unpack(job)
                payload = pickle.dumps((number, work(items[number])), protocol=pickle.HIGHEST_PROTOCOL)
                pipe.write(_LENGTH.pack(len(payload)) + payload)
                pipe.flush()
        status = 0
    finally:
        os._exit(status)  # no atexit handlers, finalizers or buffered output of the parent's
