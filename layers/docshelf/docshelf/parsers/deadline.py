"""A per-document wall-clock budget, enforced with SIGALRM where the platform allows it."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from docshelf.errors import ParseTimeoutError


@contextmanager
def time_budget(seconds: float) -> Iterator[None]:
    """Raise ParseTimeoutError if the body runs longer than `seconds`.

    Only the main thread can receive signals; elsewhere (or with a budget of 0) this is a no-op.
    Native code that never returns to the interpreter is interrupted when it does.
    """
    usable = seconds > 0 and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def on_alarm(_signum: int, _frame: FrameType | None) -> None:
        raise ParseTimeoutError(f"parsing took longer than the budget of {seconds:g}s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
