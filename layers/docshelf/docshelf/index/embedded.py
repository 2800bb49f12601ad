"""The embedded BM25 index: numpy postings per channel (index/bm25.py), persisted one object per
document in an object store, so a document is upserted or deleted without rebuilding the rest.

A document's object holds its chunks, its distinct terms, and per channel its postings in a compact
form: the channel's terms (as indexes into the document's terms), how many of the document's chunks
hold each, and then those chunks (as positions in the document) with the term's frequency; the
numbers as base64 of the smallest little-endian unsigned type that holds them. Loading maps the
terms to ids and takes the arrays as they are; no text is analysed again.
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from functools import lru_cache
from typing import Any

import numpy as np

from docshelf.index.analyzer import analyze, content_and_raw_terms, path_text
from docshelf.index.base import CHANNELS, Channel, required_matches
from docshelf.index.bm25 import BM25Channel, BoolArray, IntArray, Vocabulary, count_postings
from docshelf.index.term_table import TermTable
from docshelf.model import Chunk
from docshelf.search.filters import SearchFilters
from docshelf.serde import chunk_from_dict, dumps, loads
from docshelf.store.base import ObjectStore

INDEX_FORMAT = 3


@lru_cache(maxsize=65_536)
def _path_terms(source_file_name: str, section_path: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(analyze(path_text(source_file_name, section_path)))


def channel_terms(chunk: Chunk) -> dict[Channel, list[str]]:
    """A chunk's terms per channel (the embedded index gets the same terms as ids from TermTable)."""
    content, raw = content_and_raw_terms(chunk.text)
    return {"content": content, "path": list(_path_terms(chunk.source_file_name, chunk.section_path)), "term": raw}


# Per channel: (term ids, position of the chunk in its document, term frequency), one per distinct term of a chunk.
ChannelPostings = dict[Channel, tuple[IntArray, IntArray, IntArray]]
_CHUNK_FIELDS = tuple(field.name for field in fields(Chunk))


def _chunk_dict(chunk: Chunk) -> dict[str, Any]:
    """serde.chunk_to_dict without dataclasses.asdict's deep copies."""
    data = {name: getattr(chunk, name) for name in _CHUNK_FIELDS}
    data["connect_to"] = [asdict(link) for link in chunk.connect_to]
    return data


def _encode(values: IntArray) -> str:
    """Non-negative integers as `<dtype>:<base64>`, in the smallest little-endian unsigned type that holds them."""
    top = int(values.max()) if len(values) else 0
    dtype = "<u1" if top < 1 << 8 else "<u2" if top < 1 << 16 else "<u4"
    return f"{dtype}:{base64.b64encode(values.astype(dtype).tobytes()).decode('ascii')}"


def _decode(text: str) -> IntArray:
    dtype, _, data = text.partition(":")
    if dtype not in ("<u1", "<u2", "<u4"):
        raise ValueError(f"unknown array type {dtype!r} in an index object")
    return np.frombuffer(base64.b64decode(data), dtype=dtype).astype(np.int64)


def _runs(sorted_values: IntArray) -> tuple[IntArray, IntArray]:
    """(distinct values, how often each occurs) of a sorted array."""
    if not len(sorted_values):
        return sorted_values, sorted_values
    firsts = np.flatnonzero(np.concatenate(([True], sorted_values[1:] != sorted_values[:-1])))
    return sorted_values[firsts], np.diff(np.append(firsts, len(sorted_values)))


def _counted(term_ids: IntArray, positions: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    keys, tfs = np.unique((term_ids << 32) | positions, return_counts=True)
    return keys >> 32, keys & 0xFFFFFFFF, tfs.astype(np.int64)


@dataclass(frozen=True, slots=True)
class _DocumentRows:
    rows: IntArray
    removal: dict[Channel, tuple[IntArray, IntArray]]  # per channel what BM25Channel.remove needs


class _Namespace:
    """Chunks in rows; a deleted document's rows are masked, and the namespace is reloaded when
    more than half of its rows are dead."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self.rows: list[Chunk | None] = []
        self.row_of: dict[str, int] = {}
        self.by_document: dict[str, _DocumentRows] = {}
        self.vocabulary = vocabulary
        self.channels: dict[Channel, BM25Channel] = {channel: BM25Channel() for channel in CHANNELS}
        self.dead = 0
        self._allowed: dict[SearchFilters, BoolArray] = {}

    def add_document(self, document_id: str, chunks: Sequence[Chunk], postings: ChannelPostings) -> None:
        first = len(self.rows)
        rows = np.arange(first, first + len(chunks), dtype=np.int64)
        for chunk in chunks:
            self.row_of[chunk.chunk_id] = len(self.rows)
            self.rows.append(chunk)
        removal: dict[Channel, tuple[IntArray, IntArray]] = {}
        for channel in CHANNELS:
            term_col, positions, tfs = postings[channel]
            removal[channel] = self.channels[channel].add(rows, term_col, positions + first, tfs)
        self.by_document[document_id] = _DocumentRows(rows, removal)
        self._allowed.clear()

    def remove_document(self, document_id: str) -> None:
        document = self.by_document.pop(document_id, None)
        if document is None:
            return
        for channel, (terms, df_delta) in document.removal.items():
            self.channels[channel].remove(document.rows, terms, df_delta)
        for row in document.rows.tolist():
            chunk = self.rows[row]
            if chunk is not None:
                self.rows[row] = None
                del self.row_of[chunk.chunk_id]
                self.dead += 1
        self._allowed.clear()

    def _chunk(self, row: int) -> Chunk:
        chunk = self.rows[row]
        if chunk is None:  # postings of dead rows are masked before they get here
            raise LookupError(f"row {row} was deleted")
        return chunk

    def live(self) -> list[Chunk]:
        return [chunk for chunk in self.rows if chunk is not None]

    def allowed(self, filters: SearchFilters) -> BoolArray:
        mask = self._allowed.get(filters)
        if mask is None:
            if len(self._allowed) > 64:
                self._allowed.clear()
            flags = (chunk is not None and filters.allows(chunk) for chunk in self.rows)
            mask = self._allowed[filters] = np.fromiter(flags, dtype=np.bool_, count=len(self.rows))
        return mask

    def needs_rebuild(self) -> bool:
        return self.dead > 256 and self.dead * 2 > len(self.rows)

    def rank(
        self, channel: Channel, terms: Sequence[str], filters: SearchFilters, limit: int
    ) -> list[tuple[str, float]]:
        term_ids = [self.vocabulary.get(term, -1) for term in terms]
        required = required_matches(channel, len(set(terms)))
        scores, selected = self.channels[channel].scores(term_ids, len(self.rows), required)
        if not filters.is_empty():
            selected &= self.allowed(filters)
        candidates = np.flatnonzero(selected)
        if len(candidates) > limit * 4:
            # Keep ties at the cut: everything scoring at least the limit-th best score.
            kth = np.partition(scores[candidates], len(candidates) - limit)[len(candidates) - limit]
            candidates = candidates[scores[candidates] >= kth]
        ranked = [(self._chunk(row).chunk_id, float(scores[row])) for row in candidates.tolist()]
        ranked.sort(key=lambda item: (-item[1], item[0]))
        return ranked[:limit]


class EmbeddedIndex:
    """BM25 over an object store. Readers load lazily; writers update memory and one object per document."""

    def __init__(self, store: ObjectStore, *, prefix: str = "index") -> None:
        self.store = store
        self.prefix = prefix
        self._namespaces: dict[str, _Namespace] = {}
        self._lock = threading.RLock()
        self._vocabulary = Vocabulary()
        self._terms = TermTable(self._vocabulary)
        self._path_terms: dict[tuple[str, tuple[str, ...]], list[int]] = {}

    def _key(self, namespace: str, document_id: str) -> str:
        return f"{self.prefix}/{namespace}/{document_id}.json"

    def _namespace(self, namespace: str) -> _Namespace:
        with self._lock:
            loaded = self._namespaces.get(namespace)
            if loaded is None or loaded.needs_rebuild():
                loaded = _Namespace(self._vocabulary)
                for key in self.store.list(f"{self.prefix}/{namespace}/"):
                    raw = self.store.get(key)
                    if raw is not None:
                        self._load_document(loaded, raw)
                self._namespaces[namespace] = loaded
            return loaded

    def _load_document(self, space: _Namespace, raw: bytes) -> None:
        data = loads(raw)
        if data.get("format", 1) == 1:  # every chunk with its term lists
            chunks = [chunk_from_dict(entry["chunk"]) for entry in data["chunks"]]
            postings = self._listed_postings([entry["terms"] for entry in data["chunks"]])
        else:
            chunks = [chunk_from_dict(entry) for entry in data["chunks"]]
            postings = {}
            term_ids = self._vocabulary.ids(data["postings"]["terms"])
            for channel in CHANNELS:
                stored = data["postings"][channel]
                term_col = np.repeat(term_ids[_decode(stored["terms"])], _decode(stored["per_term"]))
                postings[channel] = (term_col, _decode(stored["positions"]), _decode(stored["tfs"]))
        space.add_document(data["document_id"], chunks, postings)

    def _listed_postings(self, terms_per_chunk: Sequence[dict[Channel, list[str]]]) -> ChannelPostings:
        ids = self._vocabulary.ids
        return {
            channel: count_postings(range(len(terms_per_chunk)), [ids(terms[channel]) for terms in terms_per_chunk])
            for channel in CHANNELS
        }

    def _analysed(self, chunks: Sequence[Chunk]) -> ChannelPostings:
        (content, content_at), (raw, raw_at) = self._terms.text_terms([chunk.text for chunk in chunks])
        paths = [self._path_ids(chunk.source_file_name, chunk.section_path) for chunk in chunks]
        return {
            "content": _counted(content, content_at),
            "path": count_postings(range(len(chunks)), paths),
            "term": _counted(raw, raw_at),
        }

    def _path_ids(self, source_file_name: str, section_path: tuple[str, ...]) -> list[int]:
        key = (source_file_name, section_path)
        ids = self._path_terms.get(key)
        if ids is None:
            if len(self._path_terms) > 100_000:
                self._path_terms.clear()
            ids = self._path_terms[key] = self._vocabulary.ids(_path_terms(*key)).tolist()
        return ids

    def _stored_postings(self, postings: ChannelPostings) -> dict[str, Any]:
        """The document's distinct terms once, and per channel its postings with terms as indexes into them."""
        runs = {channel: _runs(term_col) for channel, (term_col, _, _) in postings.items()}
        terms = np.unique(np.concatenate([distinct for distinct, _ in runs.values()]))
        stored: dict[str, Any] = {"terms": list(map(self._vocabulary.terms.__getitem__, terms.tolist()))}
        for channel, (_, positions, tfs) in postings.items():
            distinct, per_term = runs[channel]
            stored[channel] = {
                "terms": _encode(np.searchsorted(terms, distinct)),
                "per_term": _encode(per_term),
                "positions": _encode(positions),
                "tfs": _encode(tfs),
            }
        return stored

    def upsert(self, namespace: str, document_id: str, revision: str, chunks: Sequence[Chunk]) -> None:
        with self._lock:
            postings = self._analysed(chunks)
            payload = {
                "format": INDEX_FORMAT,
                "document_id": document_id,
                "revision": revision,
                "chunks": [_chunk_dict(chunk) for chunk in chunks],
                "postings": self._stored_postings(postings),
            }
            self.store.put(self._key(namespace, document_id), dumps(payload), content_type="application/json")
            space = self._namespace(namespace)
            space.remove_document(document_id)
            space.add_document(document_id, chunks, postings)

    def delete(self, namespace: str, document_id: str) -> None:
        with self._lock:
            self.store.delete(self._key(namespace, document_id))
            self._namespace(namespace).remove_document(document_id)

    def rank(
        self, namespace: str, channel: Channel, terms: Sequence[str], filters: SearchFilters, limit: int
    ) -> list[tuple[str, float]]:
        with self._lock:
            return self._namespace(namespace).rank(channel, terms, filters, limit)

    def count(self, namespace: str, filters: SearchFilters) -> int:
        with self._lock:
            space = self._namespace(namespace)
            if filters.is_empty():
                return len(space.row_of)
            return int(space.allowed(filters).sum())

    def fetch(self, namespace: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        with self._lock:
            space = self._namespace(namespace)
            rows = [space.row_of.get(cid) for cid in chunk_ids]
            return [chunk for row in rows if row is not None and (chunk := space.rows[row]) is not None]

    def list_chunks(self, namespace: str, filters: SearchFilters, limit: int) -> list[Chunk]:
        with self._lock:
            allowed = [c for c in self._namespace(namespace).live() if filters.allows(c)]
        allowed.sort(key=lambda c: (c.source_file_name, c.document_id, c.ordinal))
        return allowed[:limit]
