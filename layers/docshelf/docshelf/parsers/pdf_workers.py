"""Run a page-range function over a long PDF in forked worker processes, the caller taking a share itself.

Workers are plain `os.fork` children that write one pickled result to a pipe: no `multiprocessing` queues,
pools or semaphores, which need /dev/shm (absent on AWS Lambda). A child inherits the open document, so
nothing but the result crosses the pipe. Workers are killed and reaped whenever the caller leaves early
(the per-document time budget raises from SIGALRM while it reads its own pages or waits on a pipe), and a
worker that dies without a complete answer has its pages read by the caller instead.

Forking is used only where it is safe and pays: on a platform with `fork`, with more than one spare CPU
(`docshelf.tokens.spare_cpus`: DOCSHELF_CPUS=1 or a machine busy with other work reads serially), from a
process with a single thread (a fork copies locks other threads may hold), and for enough pages.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from docshelf import tokens
from docshelf.forked import can_fork, die_with_parent

T = TypeVar("T")

MIN_PAGES_PER_WORKER = 48
MAX_WORKERS = 4
SLICE_PAGES = 16  # pages are dealt in slices of this many, round robin, so uneven pages spread evenly
_READ_BYTES = 1 << 20


@dataclass(slots=True)
class _Worker:
    pid: int
    fd: int
    ranges: list[tuple[int, int]]


def worker_count(page_count: int) -> int:
    """How many processes (the caller included) should read `page_count` pages; 1 means read them serially."""
    if not can_fork():
        return 1
    return max(1, min(MAX_WORKERS, tokens.spare_cpus(), page_count // MIN_PAGES_PER_WORKER))


def deal_ranges(page_count: int, workers: int, slice_pages: int = SLICE_PAGES) -> list[list[tuple[int, int]]]:
    """Page index ranges [start, end) per worker: slices of `slice_pages` dealt round robin."""
    shares: list[list[tuple[int, int]]] = [[] for _ in range(workers)]
    for number, start in enumerate(range(0, page_count, slice_pages)):
        shares[number % workers].append((start, min(page_count, start + slice_pages)))
    return shares


def map_page_ranges(read: Callable[[int, int], list[T]], page_count: int, workers: int) -> list[T]:
    """`read(start, end)` over [0, page_count) split across `workers` processes; results in page order.

    `read` returns one item per page of its range. It runs in forked children, so it must not rely on
    state changed in the caller after the fork, and its items must pickle.
    """
    if workers <= 1:
        return read(0, page_count)
    shares = deal_ranges(page_count, workers)
    results: dict[tuple[int, int], list[T]] = {}
    with _forked(read, shares[1:]) as children:
        for start, end in shares[0]:
            results[start, end] = read(start, end)
        for child in children:
            answer: list[list[T]] | None = _collect(child)
            if answer is None:  # the worker died: read its pages here, as the serial path would
                answer = [read(start, end) for start, end in child.ranges]
            results.update(zip(child.ranges, answer, strict=True))
    return [item for key in sorted(results) for item in results[key]]


@contextlib.contextmanager
def _forked(read: Callable[[int, int], list[T]], shares: Sequence[list[tuple[int, int]]]) -> Iterator[list[_Worker]]:
    children: list[_Worker] = []
    try:
        for ranges in shares:
            children.append(_spawn(read, ranges))
        yield children
    finally:
        for child in children:
            _stop(child)


def _spawn(read: Callable[[int, int], list[T]], ranges: list[tuple[int, int]]) -> _Worker:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller's code
        os.close(read_fd)
        _child(read, ranges, write_fd)
    os.close(write_fd)
    return _Worker(pid=pid, fd=read_fd, ranges=ranges)


def _child(read: Callable[[int, int], list[T]], ranges: list[tuple[int, int]], write_fd: int) -> None:
    status = 1
    gc.disable()  # a collection would walk, and so copy, every object inherited from the caller's heap
    try:
        die_with_parent()
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        payload = pickle.dumps([read(start, end) for start, end in ranges], protocol=pickle.HIGHEST_PROTOCOL)
        with os.fdopen(write_fd, "wb", closefd=True) as pipe:
            pipe.write(payload)
        status = 0
    finally:
        os._exit(status)  # no atexit handlers, finalizers or buffered output of the parent's


def _collect(child: _Worker) -> list[list[T]] | None:
    """The worker's per-range results, or None when it did not deliver them all."""
    chunks: list[bytes] = []
    while chunk := os.read(child.fd, _READ_BYTES):
        chunks.append(chunk)
    _, status = os.waitpid(child.pid, 0)
    child.pid = 0
    if status != 0:
        return None
    try:
        answer: list[list[T]] = pickle.loads(b"".join(chunks))
    except (pickle.UnpicklingError, EOFError, ValueError):
        return None
    return answer if len(answer) == len(child.ranges) else None


def _stop(child: _Worker) -> None:
    with contextlib.suppress(OSError):
        os.close(child.fd)
    if child.pid:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child.pid, 0)
        child.pid = 0
