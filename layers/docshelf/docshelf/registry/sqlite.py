"""One SQLite file of the local store (the registry, the agentic run records, the search cache, the hit counts):
write-ahead logging, so `docshelf serve` reads while an ingest writes; its schema created once, on the first
connection; each `transaction()` one transaction on a connection kept open (opening one costs more than most
queries). Other processes share the file through SQLite's own locking."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

Sharing = Literal["per_thread", "one_locked"]


class SqliteFile:
    """`sharing`: a connection per thread (writers that may run concurrently in one process), or one connection
    for the process taken by one caller at a time. `synchronous="NORMAL"`: a commit waits for no fsync, so a crash
    can lose the newest rows (fine for what is written again or can be lost); "FULL" waits for it.
    `isolation_level`: "IMMEDIATE" takes the write lock when a transaction begins, "DEFERRED" at its first
    write."""

    def __init__(
        self,
        path: str | Path,
        schema: str,
        *,
        sharing: Sharing,
        synchronous: Literal["NORMAL", "FULL"] = "NORMAL",
        isolation_level: Literal["IMMEDIATE", "DEFERRED"] = "DEFERRED",
    ) -> None:
        self.path = Path(path)
        self._schema = schema
        self._sharing = sharing
        self._synchronous = synchronous
        self._isolation_level = isolation_level
        self._lock = threading.Lock()
        self._threads = threading.local()
        self._shared: sqlite3.Connection | None = None
        self._schema_done = False

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        if self._sharing == "one_locked":
            with self._lock:
                if self._shared is None:
                    self._shared = self._open(check_same_thread=False)
                with self._shared:
                    yield self._shared
            return
        db: sqlite3.Connection | None = getattr(self._threads, "db", None)
        if db is None:
            db = self._threads.db = self._open(check_same_thread=True)
        with db:
            yield db

    def close(self) -> None:
        """Close the shared connection (`one_locked`); the next transaction opens a new one."""
        with self._lock:
            if self._shared is not None:
                self._shared.close()
                self._shared = None

    def _open(self, *, check_same_thread: bool) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(
            self.path, timeout=30, isolation_level=self._isolation_level, check_same_thread=check_same_thread
        )
        db.execute("PRAGMA journal_mode=WAL")
        if self._synchronous != "FULL":
            db.execute(f"PRAGMA synchronous={self._synchronous}")
        if not self._schema_done:
            db.executescript(self._schema)
            self._schema_done = True
        return db
