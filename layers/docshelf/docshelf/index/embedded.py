"""The embedded BM25 index: inverted postings per channel, persisted per document in an object store.

Scores follow rank-bm25's BM25Okapi exactly (k1 1.5, b 0.75, epsilon 0.25; negative idf floored at
epsilon times the mean idf), computed only over the postings of the query terms.
"""

from __future__ import annotations

import math
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from docshelf.index.analyzer import analyze, path_text, raw_terms
from docshelf.index.base import CHANNELS, Channel
from docshelf.model import Chunk
from docshelf.search.filters import SearchFilters
from docshelf.serde import chunk_from_dict, chunk_to_dict, dumps, loads
from docshelf.store.base import ObjectStore

K1 = 1.5
B = 0.75
EPSILON = 0.25
INDEX_FORMAT = 1


def channel_terms(chunk: Chunk) -> dict[Channel, list[str]]:
    return {
        "content": analyze(chunk.text),
        "path": analyze(path_text(chunk.source_file_name, chunk.section_path)),
        "term": raw_terms(chunk.text),
    }


@dataclass(slots=True)
class _ChannelIndex:
    postings: dict[str, dict[str, int]] = field(default_factory=dict)
    lengths: dict[str, int] = field(default_factory=dict)
    total_length: int = 0
    _idf: dict[str, float] | None = None

    def add(self, chunk_id: str, counts: Counter[str]) -> None:
        for term, tf in counts.items():
            self.postings.setdefault(term, {})[chunk_id] = tf
        length = sum(counts.values())
        self.lengths[chunk_id] = length
        self.total_length += length
        self._idf = None

    def remove(self, chunk_id: str, terms: Sequence[str]) -> None:
        for term in set(terms):
            posting = self.postings.get(term)
            if posting is not None:
                posting.pop(chunk_id, None)
                if not posting:
                    del self.postings[term]
        self.total_length -= self.lengths.pop(chunk_id, 0)
        self._idf = None

    def idf(self) -> dict[str, float]:
        if self._idf is None:
            size = len(self.lengths)
            idf = {term: math.log(size - len(p) + 0.5) - math.log(len(p) + 0.5) for term, p in self.postings.items()}
            floor = EPSILON * (sum(idf.values()) / len(idf)) if idf else 0.0
            self._idf = {term: (value if value >= 0 else floor) for term, value in idf.items()}
        return self._idf

    def scores(self, terms: Sequence[str]) -> dict[str, float]:
        if not self.lengths:
            return {}
        idf = self.idf()
        average = self.total_length / len(self.lengths)
        scores: dict[str, float] = {}
        for term in terms:  # repeated query terms count again, as in rank-bm25
            posting = self.postings.get(term)
            if not posting:
                continue
            weight = idf[term]
            for chunk_id, tf in posting.items():
                norm = K1 * (1 - B + B * self.lengths[chunk_id] / average)
                scores[chunk_id] = scores.get(chunk_id, 0.0) + weight * tf * (K1 + 1) / (tf + norm)
        return scores


@dataclass(slots=True)
class _Namespace:
    chunks: dict[str, Chunk] = field(default_factory=dict)
    terms: dict[str, dict[Channel, list[str]]] = field(default_factory=dict)
    by_document: dict[str, list[str]] = field(default_factory=dict)
    channels: dict[Channel, _ChannelIndex] = field(default_factory=lambda: {c: _ChannelIndex() for c in CHANNELS})

    def add(self, chunk: Chunk, terms: dict[Channel, list[str]]) -> None:
        self.chunks[chunk.chunk_id] = chunk
        self.terms[chunk.chunk_id] = terms
        self.by_document.setdefault(chunk.document_id, []).append(chunk.chunk_id)
        for channel in CHANNELS:
            self.channels[channel].add(chunk.chunk_id, Counter(terms[channel]))

    def remove_document(self, document_id: str) -> None:
        for chunk_id in self.by_document.pop(document_id, []):
            terms = self.terms.pop(chunk_id)
            for channel in CHANNELS:
                self.channels[channel].remove(chunk_id, terms[channel])
            del self.chunks[chunk_id]


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
            if loaded is None:
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
        space = self._namespace(namespace)
        scores = space.channels[channel].scores(terms)
        allowed = [(cid, score) for cid, score in scores.items() if filters.allows(space.chunks[cid])]
        allowed.sort(key=lambda item: (-item[1], item[0]))
        return allowed[:limit]

    def count(self, namespace: str, filters: SearchFilters) -> int:
        return sum(1 for chunk in self._namespace(namespace).chunks.values() if filters.allows(chunk))

    def fetch(self, namespace: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        chunks = self._namespace(namespace).chunks
        return [chunks[cid] for cid in chunk_ids if cid in chunks]

    def list_chunks(self, namespace: str, filters: SearchFilters, limit: int) -> list[Chunk]:
        allowed = [c for c in self._namespace(namespace).chunks.values() if filters.allows(c)]
        allowed.sort(key=lambda c: (c.source_file_name, c.document_id, c.ordinal))
        return allowed[:limit]
