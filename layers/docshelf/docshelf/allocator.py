"""glibc's allocator set to keep freed memory for reuse, for processes that run the embedded index.

The index's numpy code allocates and frees arrays of megabytes many times a second. By default glibc serves
such arrays with mmap and hands freed memory at the top of its heap back to the system once the dynamic
thresholds are passed, so the next array is faulted in page by page again. A 100k-chunk bulk build took about
170k page faults that way, and 35k with these settings; each fault costs microseconds on a virtual machine.
Peak RSS stays the same; after a peak, the process keeps up to TRIM_THRESHOLD of freed memory mapped.

Set once per process, at the edges that open an embedded index (the CLI, the Lambdas' services). glibc's own
MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_ variables, when set, win.
"""

from __future__ import annotations

import ctypes
import os
import sys
from functools import cache

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # the largest glibc accepts: arrays up to this size come from the heap
TRIM_THRESHOLD = 128 << 20
_USER_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")


@cache
def keep_freed_memory() -> bool:
    """Apply the thresholds; False where the C library is not glibc or the user has set them."""
    if not sys.platform.startswith("linux") or any(name in os.environ for name in _USER_SETTINGS):
        return False
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "gnu_get_libc_version"):  # musl has a mallopt that does nothing
        return False
    mallopt = libc.mallopt
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
