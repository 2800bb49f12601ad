"""The embedded BM25 index: numpy postings per channel (index/bm25.py), persisted one object per
document in an object store, so a document is upserted or deleted without rebuilding the rest."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from docshelf.index.analyzer import analyze, path_text, raw_terms
from docshelf.index.base import CHANNELS, Channel, required_matches
from docshelf.index.bm25 import BM25Channel
from docshelf.model import Chunk
from docshelf.search.filters import SearchFilters
from docshelf.serde import chunk_from_dict, chunk_to_dict, dumps, loads
from docshelf.store.base import ObjectStore

INDEX_FORMAT = 1


def channel_terms(chunk: Chunk) -> dict[Channel, list[str]]:
    return {
        "content": analyze(chunk.text),
        "path": analyze(path_text(chunk.source_file_name, chunk.section_path)),
        "term": raw_terms(chunk.text),
    }


class _Namespace:
    """Chunks in rows; a deleted document's rows are masked, and the namespace is rebuilt when
    more than half of its rows are dead."""

    def __init__(self) -> None:
        self.rows: list[Chunk | None] = []
        self.row_of: dict[str, int] = {}
        self.by_document: dict[str, list[int]] = {}
        self.channels: dict[Channel, BM25Channel] = {channel: BM25Channel() for channel in CHANNELS}
        self.dead = 0

    def add(self, chunk: Chunk, terms: dict[Channel, list[str]]) -> None:
        row = len(self.rows)
        self.rows.append(chunk)
        self.row_of[chunk.chunk_id] = row
        self.by_document.setdefault(chunk.document_id, []).append(row)
        for channel in CHANNELS:
            self.channels[channel].add(row, terms[channel])

    def remove_document(self, document_id: str) -> None:
        for row in self.by_document.pop(document_id, []):
            chunk = self.rows[row]
            if chunk is None:
                continue
            for channel, terms in channel_terms(chunk).items():
                self.channels[channel].remove(row, terms)
            self.rows[row] = None
            del self.row_of[chunk.chunk_id]
            self.dead += 1

    def _chunk(self, row: int) -> Chunk:
        chunk = self.rows[row]
        if chunk is None:  # postings of dead rows are masked before they get here
            raise LookupError(f"row {row} was deleted")
        return chunk

    def live(self) -> list[Chunk]:
        return [chunk for chunk in self.rows if chunk is not None]

    def needs_rebuild(self) -> bool:
        return self.dead > 256 and self.dead * 2 > len(self.rows)

    def rank(
        self, channel: Channel, terms: Sequence[str], filters: SearchFilters, limit: int
    ) -> list[tuple[str, float]]:
        scores, matched = self.channels[channel].scores(terms, len(self.rows))
        candidates = np.flatnonzero(matched >= required_matches(channel, len(set(terms))))
        if not filters.is_empty():
            candidates = np.array([row for row in candidates if filters.allows(self._chunk(int(row)))], dtype=np.int64)
        if len(candidates) > limit * 4:
            # Keep ties at the cut: everything scoring at least the limit-th best score.
            kth = np.partition(scores[candidates], len(candidates) - limit)[len(candidates) - limit]
            candidates = candidates[scores[candidates] >= kth]
        ranked = [(self._chunk(int(row)).chunk_id, float(scores[row])) for row in candidates]
        ranked.sort(key=lambda item: (-item[1], item[0]))
        return ranked[:limit]


class EmbeddedIndex:
    """BM25 over an object store. Readers load lazily; writers update memory and one object per document."""

    def __init__(self, store: ObjectStore, *, prefix: str = "index") -> None:
        self.store = store
        self.prefix = prefix
        self._namespaces: dict[str, _Namespace] = {}
        self._lock = threading.RLock()

    def _key(self, namespace: str, document_id: str) -> str:
        return f"{self.prefix}/{namespace}/{document_id}.json"

    def _namespace(self, namespace: str) -> _Namespace:
        with self._lock:
            loaded = self._namespaces.get(namespace)
            if loaded is None or loaded.needs_rebuild():
                loaded = _Namespace()
                for key in self.store.list(f"{self.prefix}/{namespace}/"):
                    raw = self.store.get(key)
                    if raw is not None:
                        self._load_document(loaded, raw)
                self._namespaces[namespace] = loaded
            return loaded

    @staticmethod
    def _load_document(space: _Namespace, raw: bytes) -> None:
        data = loads(raw)
        for entry in data["chunks"]:
            space.add(chunk_from_dict(entry["chunk"]), entry["terms"])

    def upsert(self, namespace: str, document_id: str, revision: str, chunks: Sequence[Chunk]) -> None:
        entries = [(chunk, channel_terms(chunk)) for chunk in chunks]
        payload = {
            "format": INDEX_FORMAT,
            "document_id": document_id,
            "revision": revision,
            "chunks": [{"chunk": chunk_to_dict(chunk), "terms": terms} for chunk, terms in entries],
        }
        with self._lock:
            self.store.put(self._key(namespace, document_id), dumps(payload), content_type="application/json")
            space = self._namespace(namespace)
            space.remove_document(document_id)
            for chunk, terms in entries:
                space.add(chunk, terms)

    def delete(self, namespace: str, document_id: str) -> None:
        with self._lock:
            self.store.delete(self._key(namespace, document_id))
            self._namespace(namespace).remove_document(document_id)

    def rank(
        self, namespace: str, channel: Channel, terms: Sequence[str], filters: SearchFilters, limit: int
    ) -> list[tuple[str, float]]:
        return self._namespace(namespace).rank(channel, terms, filters, limit)

    def count(self, namespace: str, filters: SearchFilters) -> int:
        space = self._namespace(namespace)
        if filters.is_empty():
            return len(space.row_of)
        return sum(1 for chunk in space.live() if filters.allows(chunk))

    def fetch(self, namespace: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        space = self._namespace(namespace)
        rows = [space.row_of.get(cid) for cid in chunk_ids]
        return [chunk for row in rows if row is not None and (chunk := space.rows[row]) is not None]

    def list_chunks(self, namespace: str, filters: SearchFilters, limit: int) -> list[Chunk]:
        allowed = [c for c in self._namespace(namespace).live() if filters.allows(c)]
        allowed.sort(key=lambda c: (c.source_file_name, c.document_id, c.ordinal))
        return allowed[:limit]
