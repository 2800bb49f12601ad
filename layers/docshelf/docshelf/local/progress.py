"""Progress of `docshelf ingest` for logs (stderr not a terminal): one line every INTERVAL seconds, also while no
file completes (one large file can take minutes), and a last line at the end.

The timed lines come from a small forked process fed the counts through a pipe. A thread would do, but the
parsers fork workers of their own only from a single-threaded process (`forked.can_fork`); a process where
forking is not safe prints a line when a result arrives and INTERVAL seconds have passed since the last one.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import time
from collections import Counter
from typing import TextIO

from docshelf.forked import can_fork, die_with_parent, stop_child

INTERVAL_ENV = "DOCSHELF_PROGRESS_SECONDS"
DEFAULT_INTERVAL = 10.0
_STATUS_ORDER = ("ok", "partial", "needs_ocr", "failed")


def status_counts(statuses: Counter[str]) -> str:
    """`12 ok, 1 partial, 2 needs_ocr, 1 failed`: ok and failed always, the other statuses when present."""
    shown = [s for s in _STATUS_ORDER if statuses[s] or s in ("ok", "failed")]
    shown += sorted(s for s in statuses if s not in _STATUS_ORDER and statuses[s])
    return ", ".join(f"{statuses[s]} {s}" for s in shown)


def interval_seconds() -> float:
    try:
        return max(0.01, float(os.environ.get(INTERVAL_ENV, DEFAULT_INTERVAL)))
    except ValueError:
        return DEFAULT_INTERVAL


class ProgressLines:
    def __init__(self, total: int, out: TextIO, *, label: str = "docshelf ingest") -> None:
        self.total, self.out, self.label = total, out, label
        self.statuses: Counter[str] = Counter()
        self.parsed_files = 0
        self.interval = interval_seconds()
        self._started = self._last_line = time.monotonic()
        self._pipe = -1
        self._child = 0
        self._start_ticker()

    def parsed(self) -> None:
        self.parsed_files += 1
        self._send()

    def update(self, status: str) -> None:
        self.statuses[status] += 1
        self._send()

    def _send(self) -> None:
        if self._pipe >= 0:
            with contextlib.suppress(BlockingIOError, BrokenPipeError):  # the next update says it again
                os.write(self._pipe, (self._state() + "\n").encode())
        elif time.monotonic() - self._last_line >= self.interval:
            self._print(self._state())

    def close(self, *, finished: bool = True) -> None:
        """Stop the ticker and print the last line (`stopped` when the command did not finish)."""
        if self._pipe >= 0:
            os.close(self._pipe)
            self._pipe = -1
        if self._child:
            stop_child(self._child)
            self._child = 0
        self._print(self._state() + (", done" if finished else ", stopped"))

    def _state(self) -> str:
        parsed = max(self.parsed_files, sum(self.statuses.values()))
        percent = f" ({100 * parsed // self.total}%)" if self.total else ""
        published = sum(self.statuses.values())
        return f"{parsed}/{self.total} files parsed{percent}, {published} published: {status_counts(self.statuses)}"

    def _print(self, state: str) -> None:
        self._last_line = time.monotonic()
        print(f"{self.label}: {state}, {_elapsed(self._last_line - self._started)}", file=self.out, flush=True)

    def _start_ticker(self) -> None:
        try:
            out_fd = self.out.fileno()
        except (AttributeError, OSError, ValueError):  # not a real file (a test's capture): lines on results only
            return
        if not can_fork():
            return
        self.out.flush()
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(write_fd)
            _ticker(read_fd, out_fd, self.label, self._state(), self.interval, self._started)
        os.close(read_fd)
        os.set_blocking(write_fd, False)
        self._pipe, self._child = write_fd, pid


def _ticker(read_fd: int, out_fd: int, label: str, state: str, interval: float, started: float) -> None:
    """In the forked child: print the latest state every `interval` seconds until the pipe closes."""
    status = 1
    try:
        die_with_parent()
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent, which then ends this process
        next_line, unfinished = started + interval, b""
        while True:
            ready, _, _ = select.select([read_fd], [], [], max(0.0, next_line - time.monotonic()))
            if ready:
                data = os.read(read_fd, 1 << 16)
                if not data:
                    break
                *lines, unfinished = (unfinished + data).split(b"\n")
                state = lines[-1].decode() if lines else state
            now = time.monotonic()
            if now >= next_line:
                os.write(out_fd, f"{label}: {state}, {_elapsed(now - started)}\n".encode())
                next_line = now + interval
        status = 0
    finally:
        os._exit(status)


def _elapsed(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}m{rest:02d}s" if minutes else f"{seconds:.1f}s"
