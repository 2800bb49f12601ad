"""The registry in a SQLite file inside the local store folder (safe for concurrent processes)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import astuple, fields, replace
from pathlib import Path

from docshelf.registry.base import DocumentRecord, sequencer_is_newer, stored_name

_COLUMNS = [stored_name(f.name) for f in fields(DocumentRecord)]  # in field order: rows build records
_INT_COLUMNS = {stored_name(f.name) for f in fields(DocumentRecord) if f.type in (int, "int")}
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS documents ({", ".join(_COLUMNS)}, PRIMARY KEY (namespace, document_id));
CREATE TABLE IF NOT EXISTS namespaces (namespace PRIMARY KEY, version INTEGER NOT NULL);
"""


class LocalRegistry:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._connections = threading.local()
        with self._connect() as db:
            db.executescript(_SCHEMA)
            present = {row[1] for row in db.execute("PRAGMA table_info(documents)")}
            for column in _COLUMNS:
                if column not in present:  # a registry file without the column gets it, empty
                    default = 0 if column in _INT_COLUMNS else "''"
                    db.execute(f"ALTER TABLE documents ADD COLUMN {column} DEFAULT {default}")
            db.execute("CREATE INDEX IF NOT EXISTS documents_by_revision ON documents (revision)")

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """One transaction on this thread's connection, kept open (opening one costs more than most queries).
        Write-ahead logging lets `docshelf serve` read while an ingest writes, and with synchronous=NORMAL a
        commit waits for no fsync: a crash can lose the last statuses, which the next ingest writes again."""
        db: sqlite3.Connection | None = getattr(self._connections, "db", None)
        if db is None:
            db = self._connections.db = sqlite3.connect(self.path, timeout=30, isolation_level="IMMEDIATE")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
        with db:
            yield db

    def get(self, namespace: str, document_id: str) -> DocumentRecord | None:
        with self._connect() as db:
            row = db.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM documents WHERE namespace = ? AND document_id = ?",
                (namespace, document_id),
            ).fetchone()
        return DocumentRecord(*row) if row else None

    def list(self, namespace: str) -> list[DocumentRecord]:
        with self._connect() as db:
            rows = db.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM documents WHERE namespace = ? ORDER BY source_key", (namespace,)
            ).fetchall()
        return [DocumentRecord(*row) for row in rows]

    def put(self, record: DocumentRecord) -> bool:
        record = replace(record, updated_at=record.updated_at or time.time())
        with self._connect() as db:
            row = db.execute(
                "SELECT sequencer FROM documents WHERE namespace = ? AND document_id = ?",
                (record.namespace, record.document_id),
            ).fetchone()
            if row and not sequencer_is_newer(record.sequencer, row[0]):
                return False
            placeholders = ", ".join("?" for _ in _COLUMNS)
            db.execute(
                f"INSERT OR REPLACE INTO documents ({', '.join(_COLUMNS)}) VALUES ({placeholders})", astuple(record)
            )
        return True

    def revision_in_use(self, revision: str, *, besides: tuple[str, str] | None = None) -> bool:
        namespace, document_id = besides or ("", "")
        with self._connect() as db:
            row = db.execute(
                "SELECT 1 FROM documents WHERE revision = ? AND status != 'deleted'"
                " AND NOT (namespace = ? AND document_id = ?) LIMIT 1",
                (revision, namespace, document_id),
            ).fetchone()
        return row is not None

    def namespace_version(self, namespace: str) -> int:
        with self._connect() as db:
            row = db.execute("SELECT version FROM namespaces WHERE namespace = ?", (namespace,)).fetchone()
        return int(row[0]) if row else 0

    def namespaces(self) -> tuple[str, ...]:
        with self._connect() as db:
            rows = db.execute("SELECT namespace FROM namespaces UNION SELECT namespace FROM documents").fetchall()
        return tuple(sorted(str(row[0]) for row in rows))

    def bump_namespace_version(self, namespace: str) -> int:
        with self._connect() as db:
            db.execute(
                "INSERT INTO namespaces VALUES (?, 1) ON CONFLICT(namespace) DO UPDATE SET version = version + 1",
                (namespace,),
            )
            row = db.execute("SELECT version FROM namespaces WHERE namespace = ?", (namespace,)).fetchone()
        return int(row[0])
