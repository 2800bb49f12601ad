"""Run a page-range function over a long PDF in forked worker processes, the caller taking a share itself.

The workers are a `docshelf.forked.ForkedPool`: plain `os.fork` children answering through pipes, with no
`multiprocessing` queues, pools or semaphores, which need /dev/shm (absent on AWS Lambda). A child inherits
the open document, so nothing but the result crosses the pipe. Workers are killed and reaped whenever the
caller leaves early (the per-document time budget raises from SIGALRM while it reads its own pages or waits
on a pipe), and a worker that dies without a complete answer has its pages read by the caller instead.

Forking is used only where it is safe and pays: on a platform with `fork`, with more than one spare CPU
(`docshelf.forked.spare_cpus`: DOCSHELF_CPUS=1 or a machine busy with other work reads serially), from a
process with a single thread (a fork copies locks other threads may hold), and for enough pages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from docshelf import forked
from docshelf.forked import ForkedPool, can_fork

T = TypeVar("T")

MIN_PAGES_PER_WORKER = 48
MAX_WORKERS = 4
SLICE_PAGES = 16  # pages are dealt in slices of this many, round robin, so uneven pages spread evenly


def worker_count(page_count: int, pages_per_worker: int = MIN_PAGES_PER_WORKER) -> int:
    """How many processes (the caller included) should read `page_count` pages; 1 means read them serially.
    `pages_per_worker`: the fewest pages worth a process (1 for OCR, a second or so a page)."""
    if not can_fork():
        return 1
    return max(1, min(MAX_WORKERS, forked.spare_cpus(), page_count // pages_per_worker))


def deal_ranges(page_count: int, workers: int, slice_pages: int = SLICE_PAGES) -> list[list[tuple[int, int]]]:
    """Page index ranges [start, end) per worker: slices of `slice_pages` dealt round robin."""
    shares: list[list[tuple[int, int]]] = [[] for _ in range(workers)]
    for number, start in enumerate(range(0, page_count, slice_pages)):
        shares[number % workers].append((start, min(page_count, start + slice_pages)))
    return shares


def map_page_ranges(
    read: Callable[[int, int], list[T]], page_count: int, workers: int, slice_pages: int = SLICE_PAGES
) -> list[T]:
    """`read(start, end)` over [0, page_count) split across `workers` processes; results in page order.

    `read` returns one item per page of its range. It runs in forked children, so it must not rely on
    state changed in the caller after the fork, and its items must pickle.
    """
    if workers <= 1:
        return read(0, page_count)
    shares = deal_ranges(page_count, workers, slice_pages)

    def read_share(ranges: list[tuple[int, int]]) -> list[list[T]]:
        return [read(start, end) for start, end in ranges]

    results: dict[tuple[int, int], list[T]] = {}
    with ForkedPool(read_share, shares[1:], workers - 1) as children:
        results.update(zip(shares[0], read_share(shares[0]), strict=True))
        for number, answer in children.results():
            results.update(zip(shares[1 + number], answer, strict=True))
    return [item for key in sorted(results) for item in results[key]]
