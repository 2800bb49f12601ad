"""The embedded BM25 index: numpy postings per channel (index/bm25.py), persisted one object per
document in an object store (index/document_objects.py), so a document is upserted or deleted without
rebuilding the rest. `upsert_many` analyses many documents in one pass and merges postings before it
returns, so the first search after a bulk build does not pay for the merge.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

import numpy as np
import numpy.typing as npt

from docshelf.index.analyzer import analyze, content_and_raw_terms, path_text
from docshelf.index.base import CHANNELS, Channel, DocumentChunks, QueryTerms, required_matches, term_weights
from docshelf.index.bm25 import BM25Channel, BoolArray, IntArray, Vocabulary
from docshelf.index.document_objects import (
    INDEX_FORMAT,
    ChannelPostings,
    DocumentPostings,
    document_postings,
    dump_document,
    load_document,
)
from docshelf.index.term_table import TermTable
from docshelf.model import Chunk
from docshelf.search.filters import SearchFilters
from docshelf.store.base import ObjectStore

__all__ = ["INDEX_FORMAT", "EmbeddedIndex", "channel_terms"]

Int32Array = npt.NDArray[np.int32]


@lru_cache(maxsize=65_536)
def _path_terms(source_file_name: str, section_path: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(analyze(path_text(source_file_name, section_path)))


def channel_terms(chunk: Chunk) -> dict[Channel, list[str]]:
    """A chunk's terms per channel (the embedded index gets the same terms as ids from TermTable)."""
    content, raw = content_and_raw_terms(chunk.text)
    return {"content": content, "path": list(_path_terms(chunk.source_file_name, chunk.section_path)), "term": raw}


def _counted_by_position(term_ids: IntArray, positions: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """(term, position, tf) per distinct (term, position) pair, sorted by position, then term."""
    keys, tfs = np.unique((positions << 32) | term_ids, return_counts=True)
    return keys & 0xFFFFFFFF, keys >> 32, tfs.astype(np.int64)


def _flattened(term_ids: Sequence[Sequence[int]]) -> tuple[IntArray, IntArray]:
    """(term ids, position of their list) of lists of term ids."""
    lengths = np.fromiter(map(len, term_ids), dtype=np.int64, count=len(term_ids))
    flat = np.fromiter(chain.from_iterable(term_ids), dtype=np.int64, count=int(lengths.sum()))
    return flat, np.repeat(np.arange(len(term_ids), dtype=np.int64), lengths)


def _per_document(
    postings: ChannelPostings, documents: Sequence[tuple[str, Sequence[Chunk]]]
) -> list[DocumentPostings]:
    """Split a batch's postings (positions in the batch, sorted by position, then term) into each document's
    postings (positions in the document, sorted by term, then position). One stable sort per document and
    channel measured faster than one for the whole batch, whose key has a run per chunk."""
    sizes = np.fromiter((len(chunks) for _, chunks in documents), dtype=np.int64, count=len(documents))
    ends = np.cumsum(sizes)
    starts = ends - sizes
    bounds = {channel: np.searchsorted(positions, ends).tolist() for channel, (_, positions, _) in postings.items()}
    split = []
    for i, (document_id, chunks) in enumerate(documents):
        own: ChannelPostings = {}
        for channel, (terms, positions, tfs) in postings.items():
            low, high = bounds[channel][i - 1] if i else 0, bounds[channel][i]
            order = np.argsort(terms[low:high], kind="stable")
            own[channel] = (terms[low:high][order], positions[low:high][order] - starts[i], tfs[low:high][order])
        terms, positions, tfs = postings["content"]
        low, high = bounds["content"][i - 1] if i else 0, bounds["content"][i]
        by_chunk = (terms[low:high], positions[low:high] - starts[i], tfs[low:high])
        split.append(document_postings(document_id, chunks, own, content_by_chunk=by_chunk))
    return split


@dataclass(frozen=True, slots=True)
class _DocumentRows:
    rows: IntArray
    removal: dict[Channel, tuple[Int32Array, Int32Array]]  # per channel what BM25Channel.remove needs
    # The content channel by chunk: chunk i's term ids and tfs are at content_offsets[i]:content_offsets[i + 1].
    content_terms: Int32Array
    content_tfs: Int32Array
    content_offsets: IntArray

    @classmethod
    def of(cls, rows: IntArray, document: DocumentPostings) -> _DocumentRows:
        removal = {
            channel: (terms.astype(np.int32), counts.astype(np.int32))
            for channel, (terms, counts) in document.distinct.items()
        }
        if document.content_by_chunk is None:
            terms, positions, tfs = document.postings["content"]
            order = np.argsort(positions, kind="stable")
            terms, positions, tfs = terms[order], positions[order], tfs[order]
        else:
            terms, positions, tfs = document.content_by_chunk
        offsets = np.searchsorted(positions, np.arange(len(rows) + 1)).astype(np.int64)
        return cls(rows, removal, terms.astype(np.int32), tfs.astype(np.int32), offsets)

    def content_frequencies(self, row: int, vocabulary: Vocabulary) -> dict[str, int]:
        local = row - int(self.rows[0])
        low, high = int(self.content_offsets[local]), int(self.content_offsets[local + 1])
        terms = vocabulary.terms
        names = [terms[term_id] for term_id in self.content_terms[low:high].tolist()]
        return dict(zip(names, self.content_tfs[low:high].tolist(), strict=True))


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

    def add_documents(self, documents: Sequence[DocumentPostings]) -> None:
        """Add documents not in the namespace (remove their old versions first), all channels in one step each."""
        first = len(self.rows)
        starts = []
        for document in documents:
            start = len(self.rows)
            starts.append(start)
            self.rows.extend(document.chunks)
            self.row_of.update(
                zip([chunk.chunk_id for chunk in document.chunks], range(start, len(self.rows)), strict=True)
            )
            rows = np.arange(start, len(self.rows), dtype=np.int64)
            self.by_document[document.document_id] = _DocumentRows.of(rows, document)
        rows = np.arange(first, len(self.rows), dtype=np.int64)
        for channel in CHANNELS:
            columns = [document.postings[channel] for document in documents]
            term_col = np.concatenate([terms for terms, _, _ in columns] or [rows[:0]])
            row_col = np.concatenate(
                [at + start for (_, at, _), start in zip(columns, starts, strict=True)] or [rows[:0]]
            )
            tf_col = np.concatenate([tfs for _, _, tfs in columns] or [rows[:0]])
            self.channels[channel].add(rows, term_col, row_col, tf_col)
        self._allowed.clear()

    def merge_segments(self) -> None:
        for channel in self.channels.values():
            channel.merge_pending()

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

    def content_frequencies(self, chunk_ids: Sequence[str]) -> list[dict[str, int]]:
        frequencies: list[dict[str, int]] = []
        for chunk_id in chunk_ids:
            row = self.row_of.get(chunk_id)
            chunk = None if row is None else self.rows[row]
            if row is None or chunk is None:
                frequencies.append({})
                continue
            frequencies.append(self.by_document[chunk.document_id].content_frequencies(row, self.vocabulary))
        return frequencies

    def content_idf(self, terms: Collection[str]) -> dict[str, float]:
        content = self.channels["content"]
        return {term: content.idf(self.vocabulary[term]) if term in self.vocabulary else 0.0 for term in terms}

    def common_content_terms(self, terms: Collection[str]) -> set[str]:
        content, half = self.channels["content"], len(self.row_of) / 2
        known = [(term, self.vocabulary[term]) for term in terms if term in self.vocabulary]
        return {term for term, term_id in known if content.document_frequency(term_id) > half}

    def rank(self, channel: Channel, terms: QueryTerms, filters: SearchFilters, limit: int) -> list[tuple[str, float]]:
        weights = term_weights(terms)
        known = {self.vocabulary[term]: weight for term, weight in weights.items() if term in self.vocabulary}
        required = required_matches(channel, len(weights))
        scores, selected = self.channels[channel].scores(known, len(self.rows), required)
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

    LOAD_BATCH = 256  # documents decoded before their postings join the namespace

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
                documents: list[DocumentPostings] = []
                for key in self.store.list(f"{self.prefix}/{namespace}/"):
                    raw = self.store.get(key)
                    if raw is not None:
                        documents.append(load_document(raw, self._vocabulary))
                    if len(documents) == self.LOAD_BATCH:  # bounds the decoded arrays held at once
                        loaded.add_documents(documents)
                        documents = []
                loaded.add_documents(documents)
                loaded.merge_segments()
                self._namespaces[namespace] = loaded
            return loaded

    def _analysed(self, documents: Sequence[tuple[str, Sequence[Chunk]]]) -> list[DocumentPostings]:
        chunks = [chunk for _, chunks in documents for chunk in chunks]
        (content, content_at), (raw, raw_at) = self._terms.text_terms([chunk.text for chunk in chunks])
        paths = [self._path_ids(chunk.source_file_name, chunk.section_path) for chunk in chunks]
        postings: ChannelPostings = {
            "content": _counted_by_position(content, content_at),
            "path": _counted_by_position(*_flattened(paths)),
            "term": _counted_by_position(raw, raw_at),
        }
        return _per_document(postings, documents)

    def _path_ids(self, source_file_name: str, section_path: tuple[str, ...]) -> list[int]:
        key = (source_file_name, section_path)
        ids = self._path_terms.get(key)
        if ids is None:
            if len(self._path_terms) > 100_000:
                self._path_terms.clear()
            ids = self._path_terms[key] = self._vocabulary.ids(_path_terms(*key)).tolist()
        return ids

    def upsert(self, namespace: str, document_id: str, revision: str, chunks: Sequence[Chunk]) -> None:
        self._upsert(namespace, [DocumentChunks(document_id, revision, chunks)], merge=False)

    def upsert_many(self, namespace: str, documents: Sequence[DocumentChunks]) -> None:
        """`upsert` of many documents, analysed together; searchable and persisted on return, with postings
        merged so that the next search pays for nothing the build left behind. A document given twice is
        published in its last version. A store error stops the batch: the documents written before it
        are in the index, the others keep their previous version."""
        self._upsert(namespace, documents, merge=True)

    def _upsert(self, namespace: str, documents: Sequence[DocumentChunks], *, merge: bool) -> None:
        latest = {document.document_id: document for document in documents}
        with self._lock:
            analysed = self._analysed([(document_id, document.chunks) for document_id, document in latest.items()])
            space = self._namespace(namespace)
            written: list[DocumentPostings] = []
            try:
                for document in analysed:
                    payload = dump_document(document, latest[document.document_id].revision, self._vocabulary)
                    self.store.put(self._key(namespace, document.document_id), payload, content_type="application/json")
                    written.append(document)
            finally:
                for document in written:
                    space.remove_document(document.document_id)
                space.add_documents(written)
                if merge:
                    space.merge_segments()

    def delete(self, namespace: str, document_id: str) -> None:
        with self._lock:
            self.store.delete(self._key(namespace, document_id))
            self._namespace(namespace).remove_document(document_id)

    def rank(
        self, namespace: str, channel: Channel, terms: QueryTerms, filters: SearchFilters, limit: int
    ) -> list[tuple[str, float]]:
        with self._lock:
            return self._namespace(namespace).rank(channel, terms, filters, limit)

    def content_frequencies(self, namespace: str, chunk_ids: Sequence[str]) -> list[dict[str, int]]:
        """Each chunk's content-channel terms with their frequencies ({} for an unknown chunk)."""
        with self._lock:
            return self._namespace(namespace).content_frequencies(chunk_ids)

    def content_idf(self, namespace: str, terms: Collection[str]) -> dict[str, float]:
        """The content channel's BM25 idf of each term (0.0 for a term no chunk holds)."""
        with self._lock:
            return self._namespace(namespace).content_idf(terms)

    def common_content_terms(self, namespace: str, terms: Collection[str]) -> set[str]:
        """The terms found in the content of more than half of the namespace's chunks."""
        with self._lock:
            return self._namespace(namespace).common_content_terms(terms)

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
