"""Many objects read at once: a store's reads wait on the network (S3) or the disk, not on Python, so a bounded
pool of threads overlaps them (a 20 ms S3 GET a document made a 10,000-document namespace a 200 s serial load)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from docshelf.store.base import ObjectStore

GET_WORKERS = 32  # reads in flight at most; S3 clients made here keep as many connections
_AHEAD = 4  # results held at most per worker, so a large namespace is not all in memory as bytes at once


def get_many(
    store: ObjectStore, keys: Sequence[str], *, workers: int = GET_WORKERS, ahead: int = _AHEAD
) -> Iterator[tuple[str, bytes | None]]:
    """(key, object or None when missing) for each key, in the order of `keys`, with at most `workers * ahead`
    objects read and not yet taken. The threads end with the iteration: a pool kept for the next call would stop
    the process forking (`docshelf ingest` forks its parse workers)."""
    if workers < 1 or ahead < 1:
        raise ValueError(f"workers and ahead must be at least 1, not {workers} and {ahead}")
    if len(keys) <= 1 or workers == 1:
        for key in keys:
            yield key, store.get(key)
        return
    with ThreadPoolExecutor(max_workers=min(workers, len(keys)), thread_name_prefix="docshelf-store-get") as pool:
        pending: deque[tuple[str, Future[bytes | None]]] = deque()
        waiting = iter(keys)
        try:
            for key in waiting:
                pending.append((key, pool.submit(store.get, key)))
                if len(pending) >= workers * ahead:
                    break
            while pending:
                key, future = pending.popleft()
                found = future.result()
                following = next(waiting, None)
                if following is not None:
                    pending.append((following, pool.submit(store.get, following)))
                yield key, found
        finally:
            for _, future in pending:
                future.cancel()
