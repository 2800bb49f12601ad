"""Hit statistics of a local store (`docshelf serve`): `hits.sqlite` in the store folder (search/hits.py).

Counts are added inside SQLite (`ON CONFLICT DO UPDATE SET hits = hits + excluded.hits`), so concurrent searches,
in threads or in processes sharing the folder, never lose a hit.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path

from docshelf.registry.sqlite import SqliteFile
from docshelf.search.hits import HALF_LIFE_DAYS, decayed, forward_weight, now

HITS_FILE = "hits.sqlite"
_log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chunk_hits (
    namespace TEXT NOT NULL, chunk_id TEXT NOT NULL, document_id TEXT NOT NULL,
    hits INTEGER NOT NULL, weight REAL NOT NULL, PRIMARY KEY (namespace, chunk_id));
CREATE TABLE IF NOT EXISTS document_hits (
    namespace TEXT NOT NULL, document_id TEXT NOT NULL,
    hits INTEGER NOT NULL, weight REAL NOT NULL, PRIMARY KEY (namespace, document_id));
"""
_ADD_CHUNK = (
    "INSERT INTO chunk_hits VALUES (?, ?, ?, 1, ?) ON CONFLICT (namespace, chunk_id) "
    "DO UPDATE SET hits = hits + 1, weight = weight + excluded.weight, document_id = excluded.document_id"
)
_ADD_DOCUMENT = (
    "INSERT INTO document_hits VALUES (?, ?, ?, ?) ON CONFLICT (namespace, document_id) "
    "DO UPDATE SET hits = hits + excluded.hits, weight = weight + excluded.weight"
)
_IN_CLAUSE = 500  # ids per query, below SQLite's variable limit


class SqliteHits:
    def __init__(
        self, path: str | Path, *, half_life_days: float = HALF_LIFE_DAYS, clock: Callable[[], float] = now
    ) -> None:
        self.path = Path(path)
        self.half_life_days = half_life_days
        self.clock = clock
        self._db = SqliteFile(self.path, _SCHEMA, sharing="one_locked")  # the file is made by the first use

    def close(self) -> None:
        self._db.close()

    def record(self, namespace: str, hits: Sequence[tuple[str, str]]) -> None:
        if not hits:
            return
        weight = forward_weight(1, self.clock(), self.half_life_days)
        documents: dict[str, int] = {}
        for document_id, _ in hits:
            documents[document_id] = documents.get(document_id, 0) + 1
        try:
            with self._db.transaction() as db:
                db.executemany(_ADD_CHUNK, [(namespace, chunk, document, weight) for document, chunk in hits])
                db.executemany(
                    _ADD_DOCUMENT, [(namespace, document, n, n * weight) for document, n in documents.items()]
                )
        except sqlite3.Error as error:  # statistics: the search has already succeeded
            _log.warning("could not record hits: %s", error)

    def chunk_hits(self, namespace: str, chunk_ids: Sequence[str]) -> dict[str, float]:
        if not chunk_ids or not self.path.exists():
            return {}
        moment = self.clock()
        found: dict[str, float] = {}
        with self._db.transaction() as db:
            for at in range(0, len(chunk_ids), _IN_CLAUSE):
                part = list(chunk_ids[at : at + _IN_CLAUSE])
                marks = ",".join("?" * len(part))
                rows = db.execute(
                    f"SELECT chunk_id, weight FROM chunk_hits WHERE namespace = ? AND chunk_id IN ({marks})",
                    [namespace, *part],
                )
                found.update((chunk, decayed(weight, moment, self.half_life_days)) for chunk, weight in rows)
        return found

    def top_documents(self, namespace: str, limit: int) -> list[tuple[str, int, float]]:
        if not self.path.exists():
            return []
        moment = self.clock()
        with self._db.transaction() as db:
            rows = db.execute(
                "SELECT document_id, hits, weight FROM document_hits WHERE namespace = ? "
                "ORDER BY weight DESC, document_id LIMIT ?",
                (namespace, limit),
            ).fetchall()
        return [(document, int(hits), decayed(weight, moment, self.half_life_days)) for document, hits, weight in rows]

    def hits(self, namespace: str, document_id: str, chunk_id: str = "") -> int:
        """How often a chunk (or, with no chunk id, any chunk of the document) was in evidence."""
        if not self.path.exists():
            return 0
        with self._db.transaction() as db:
            if chunk_id:
                row = db.execute(
                    "SELECT hits FROM chunk_hits WHERE namespace = ? AND chunk_id = ?", (namespace, chunk_id)
                ).fetchone()
            else:
                row = db.execute(
                    "SELECT hits FROM document_hits WHERE namespace = ? AND document_id = ?", (namespace, document_id)
                ).fetchone()
        return int(row[0]) if row else 0
