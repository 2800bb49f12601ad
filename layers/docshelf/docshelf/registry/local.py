"""The registry in a SQLite file inside the local store folder (safe for concurrent processes)."""

from __future__ import annotations

import time
from dataclasses import astuple, fields, replace
from pathlib import Path

from docshelf.errors import StorageError
from docshelf.registry.base import DocumentRecord, sequencer_is_newer, stored_name
from docshelf.registry.sqlite import SqliteFile

_COLUMNS = [stored_name(f.name) for f in fields(DocumentRecord)]  # in field order: rows build records
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS documents ({", ".join(_COLUMNS)}, PRIMARY KEY (namespace, document_id));
CREATE TABLE IF NOT EXISTS namespaces (namespace PRIMARY KEY, version INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS documents_by_revision ON documents (revision);
"""


class LocalRegistry:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = SqliteFile(self.path, _SCHEMA, sharing="per_thread", isolation_level="IMMEDIATE")
        with self._db.transaction() as db:  # the file and its tables exist once the registry is open
            present = {row[1] for row in db.execute("PRAGMA table_info(documents)")}
        if missing := [column for column in _COLUMNS if column not in present]:
            raise StorageError(
                f"{self.path} was written by another docshelf version (no {', '.join(missing)} column): "
                "remove the store folder and ingest again"
            )

    def get(self, namespace: str, document_id: str) -> DocumentRecord | None:
        with self._db.transaction() as db:
            row = db.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM documents WHERE namespace = ? AND document_id = ?",
                (namespace, document_id),
            ).fetchone()
        return DocumentRecord(*row) if row else None

    def list(self, namespace: str) -> list[DocumentRecord]:
        with self._db.transaction() as db:
            rows = db.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM documents WHERE namespace = ? ORDER BY source_key", (namespace,)
            ).fetchall()
        return [DocumentRecord(*row) for row in rows]

    def put(self, record: DocumentRecord) -> bool:
        record = replace(record, updated_at=record.updated_at or time.time())
        with self._db.transaction() as db:
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
        with self._db.transaction() as db:
            row = db.execute(
                "SELECT 1 FROM documents WHERE revision = ? AND status != 'deleted'"
                " AND NOT (namespace = ? AND document_id = ?) LIMIT 1",
                (revision, namespace, document_id),
            ).fetchone()
        return row is not None

    def namespace_version(self, namespace: str) -> int:
        with self._db.transaction() as db:
            row = db.execute("SELECT version FROM namespaces WHERE namespace = ?", (namespace,)).fetchone()
        return int(row[0]) if row else 0

    def namespaces(self) -> tuple[str, ...]:
        with self._db.transaction() as db:
            rows = db.execute("SELECT namespace FROM namespaces UNION SELECT namespace FROM documents").fetchall()
        return tuple(sorted(str(row[0]) for row in rows))

    def bump_namespace_version(self, namespace: str) -> int:
        with self._db.transaction() as db:
            db.execute(
                "INSERT INTO namespaces VALUES (?, 1) ON CONFLICT(namespace) DO UPDATE SET version = version + 1",
                (namespace,),
            )
            row = db.execute("SELECT version FROM namespaces WHERE namespace = ?", (namespace,)).fetchone()
        return int(row[0])
