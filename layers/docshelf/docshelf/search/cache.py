"""The search result cache: the key, the stored form of a response, and the local SQLite cache
(docs/architecture.md#search-cache).

An entry is keyed on the user, namespace, normalised query, top_k, max_tokens and filters. It is served only
while its namespace version equals the current one (every publish or delete bumps it) and its TTL has not
passed, and it is written only after a successful search. Hit counts are not the cache's (search/hits.py).
"""

from __future__ import annotations

import hashlib
import json
import time
import unicodedata
import zlib
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any, Protocol

from docshelf.registry.sqlite import SqliteFile
from docshelf.search.packing import PACKING
from docshelf.search.ranking import RANKING
from docshelf.search.request import SearchRequest
from docshelf.versions import CACHE_FORMAT

COMPRESS_ABOVE_BYTES = 8_192
MAX_ENTRY_BYTES = 350_000  # the DynamoDB item limit is 400 KB; the same bound keeps the SQLite file small


def normalise_query(query: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", query).casefold().split())


def cache_key(user: str, request: SearchRequest, mode: Mapping[str, Any] | None = None) -> str:
    """`mode`: what else decides the response (agentic: the mode, the budget and the planner; classic: the passage
    model, when there is one)."""
    material = {
        **({"mode": dict(mode)} if mode else {}),
        "format": CACHE_FORMAT,
        "user": user,
        "namespace": request.namespace,
        "query": normalise_query(request.query),
        "top_k": request.top_k,
        "max_tokens": request.max_tokens,
        "min_score": request.min_score,
        "filters": request.filters.cache_fields(),
        "ranking": asdict(RANKING),  # new ranking defaults never serve results ranked by the old ones
        "packing": asdict(PACKING),
    }
    text = json.dumps(material, sort_keys=True, ensure_ascii=False)
    # The API refuses text that is not Unicode; surrogatepass keeps a lone surrogate from any other caller hashable.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def encode_payload(payload: Mapping[str, Any]) -> tuple[bytes, bool] | None:
    """(stored bytes, compressed) for a response body, or None when even compressed it is too large to keep."""
    raw = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    if len(raw) <= COMPRESS_ABOVE_BYTES:
        return raw, False
    packed = zlib.compress(raw, 6)
    return (packed, True) if len(packed) <= MAX_ENTRY_BYTES else None


def decode_payload(data: bytes, compressed: bool) -> dict[str, Any]:
    payload: dict[str, Any] = json.loads(zlib.decompress(data) if compressed else data)
    return payload


class SearchCache(Protocol):
    def get(self, key: str, namespace_version: int) -> dict[str, Any] | None: ...

    def put(self, key: str, namespace: str, namespace_version: int, payload: Mapping[str, Any]) -> bool:
        """Store a response; False when it was not kept (too large). The search has succeeded either way."""
        ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    cache_key TEXT PRIMARY KEY, namespace TEXT NOT NULL, namespace_version INTEGER NOT NULL,
    expires_at REAL NOT NULL, compressed INTEGER NOT NULL, payload BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS entries_expiry ON entries (expires_at);
"""


class SqliteSearchCache:
    """The cache for `docshelf serve`, in a SQLite file inside the store folder."""

    def __init__(self, path: str | Path, *, ttl_s: int, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.ttl_s = ttl_s
        self.clock = clock
        # One connection for the process (opening and closing one per call costs more than the search), one caller
        # at a time; NORMAL sync: a crash may lose the newest entries, which a cache can afford.
        self._db = SqliteFile(self.path, _SCHEMA, sharing="one_locked")
        with self._db.transaction():
            pass

    def close(self) -> None:
        self._db.close()

    def get(self, key: str, namespace_version: int) -> dict[str, Any] | None:
        with self._db.transaction() as db:
            row = db.execute(
                "SELECT namespace_version, expires_at, compressed, payload FROM entries WHERE cache_key = ?", (key,)
            ).fetchone()
        if row is None or row[0] != namespace_version or row[1] <= self.clock():
            return None
        return decode_payload(bytes(row[3]), bool(row[2]))

    def put(self, key: str, namespace: str, namespace_version: int, payload: Mapping[str, Any]) -> bool:
        encoded = encode_payload(payload)
        if encoded is None:
            return False
        data, compressed = encoded
        now = self.clock()
        with self._db.transaction() as db:
            db.execute("DELETE FROM entries WHERE expires_at <= ?", (now,))
            db.execute(
                "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?)",
                (key, namespace, namespace_version, now + self.ttl_s, int(compressed), data),
            )
        return True
