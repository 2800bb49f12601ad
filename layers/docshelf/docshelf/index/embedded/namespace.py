"""One namespace of the embedded index in memory: its chunks in rows and BM25 postings per channel."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence

import numpy as np

from docshelf.edit_distance import edit_distance
from docshelf.index.analyzer import text_terms
from docshelf.index.embedded.analyzed_batch import AnalyzedBatch
from docshelf.index.embedded.bm25 import (
    BM25Channel,
    BoolArray,
    FloatArray,
    IntArray,
    Postings,
    Vocabulary,
    runs,
    sorted_distinct,
)
from docshelf.index.embedded.namespace_snapshot import (
    NamespaceSnapshot,
    SnapshotDocument,
    renumbered,
    rows_kept,
    unless_identity,
)
from docshelf.index.embedded.vector_rows import VectorRows
from docshelf.index.plan import CHANNELS, Channel, ChannelQuery, SearchFilters, SemanticQuery, SpellingRule
from docshelf.index.vectors import StoredVectors, VectorModel
from docshelf.model import Chunk

AnalyzeBatch = Callable[[Sequence[tuple[str, Sequence[Chunk]]]], AnalyzedBatch]


class Namespace:
    """Chunks in rows; a deleted document's rows are masked, and the namespace is reloaded when
    more than half of its rows are dead. Which terms a chunk holds is not kept: removing a document, or
    asking for a chunk's terms, analyzes its chunks again (the analyzer is deterministic)."""

    def __init__(self, vocabulary: Vocabulary, analyze_batch: AnalyzeBatch) -> None:
        self.rows: list[Chunk | None] = []
        self.row_of: dict[str, int] = {}
        self.by_document: dict[str, IntArray] = {}  # rows
        self.vocabulary = vocabulary
        self._analyze_batch = analyze_batch
        self.channels: dict[Channel, BM25Channel] = {channel: BM25Channel() for channel in CHANNELS}
        self.fingerprints: dict[str, str] = {}  # of each document's store object
        self.dead = 0
        self.added_since_snapshot = 0  # chunks added since the namespace's snapshot was loaded or written
        self.log_entry = 0  # the last entry of the namespace's change log (change_log.py) this state holds
        self.writes = 0  # writes by this process, so that a reload read meanwhile is not put over one
        self.segments_entry = 0  # the log entry the namespace's segments (segments.py) include, 0 without any
        self.changed_since_segments = 0  # documents read or written since, other than from the segments
        self._allowed: dict[SearchFilters, BoolArray] = {}
        self.vectors: VectorRows | None = None

    @property
    def model(self) -> VectorModel | None:
        """The embedding model of the namespace's vectors (None without any, or without live chunks)."""
        if self.vectors is None or not self.row_of:
            return None
        row = next(iter(self.row_of.values()))  # mixing is refused, so any live row tells
        return self.vectors.model if self.vectors.present(row + 1)[row] else None

    def _place_vectors(self, start: int, vectors: StoredVectors | None) -> None:
        if vectors is None:
            return
        if self.vectors is None or self.vectors.model != vectors.model:
            self.vectors = VectorRows(vectors.model)  # a namespace takes another model only while it is empty
        self.vectors.put(start, vectors)

    def _place(
        self, document_id: str, chunks: Sequence[Chunk], fingerprint: str, vectors: StoredVectors | None = None
    ) -> None:
        start = len(self.rows)
        self._place_vectors(start, vectors)
        self.rows.extend(chunks)
        self.row_of.update(zip([chunk.chunk_id for chunk in chunks], range(start, len(self.rows)), strict=True))
        self.by_document[document_id] = np.arange(start, len(self.rows), dtype=np.int64)
        self.fingerprints[document_id] = fingerprint

    def add_batch(
        self,
        batch: AnalyzedBatch,
        fingerprints: Sequence[str],
        vectors: Sequence[StoredVectors | None] | None = None,
    ) -> None:
        """Add a batch's documents, none of them in the namespace (remove their old versions first), with the
        fingerprint of each one's store object and their vectors if any."""
        first = len(self.rows)
        each = vectors if vectors is not None else [None] * len(batch.documents)
        for (document_id, chunks), print_, stored in zip(batch.documents, fingerprints, each, strict=True):
            self._place(document_id, chunks, print_, stored)
        rows = np.arange(first, len(self.rows), dtype=np.int64)
        for channel in CHANNELS:
            found = batch.channels[channel]
            self.channels[channel].add(rows, Postings.of_sorted(found.terms, found.positions + first, found.tfs))
        self.added_since_snapshot += len(rows)
        self._allowed.clear()

    def adopt(self, snapshot: NamespaceSnapshot, covered: Mapping[str, tuple[Sequence[Chunk], str]]) -> None:
        """Add the `covered` documents (none of them in the namespace; chunks and fingerprint of each) with their
        postings from the snapshot, which holds them as stored."""
        keep = rows_kept(snapshot, set(covered))
        first = len(self.rows)
        row_map = unless_identity(first + np.cumsum(keep) - 1)
        term_map = unless_identity(self.vocabulary.ids(list(snapshot.terms)))
        start = 0
        for document in snapshot.documents:
            if document.document_id in covered:
                found = snapshot.vectors_of(start, document.rows)
                self._place(document.document_id, *covered[document.document_id], found)
            start += document.rows
        rows = np.arange(first, len(self.rows), dtype=np.int64)
        for channel in CHANNELS:
            postings = snapshot.channels[channel].live(keep)
            self.channels[channel].add(rows, renumbered(postings, row_map, term_map))
        self._allowed.clear()

    def snapshot(self) -> NamespaceSnapshot:
        """The live documents and their postings, with rows and terms numbered afresh."""
        documents = sorted(self.by_document.items(), key=lambda item: int(item[1][0]) if len(item[1]) else -1)
        keep = np.zeros(len(self.rows), dtype=np.bool_)
        for _, rows in documents:
            keep[rows] = True
        row_map = unless_identity(np.cumsum(keep) - 1)
        postings = {channel: self.channels[channel].live_postings() for channel in CHANNELS}
        used = sorted_distinct(np.concatenate([part.terms for part in postings.values()]))
        term_map = np.zeros(int(used[-1]) + 1 if len(used) else 0, dtype=np.int64)
        term_map[used] = np.arange(len(used), dtype=np.int64)
        term_map_or_none = unless_identity(term_map)
        vectors = self.vectors
        if vectors is not None and not vectors.present(len(keep))[keep].all():
            vectors = None
        return NamespaceSnapshot(
            documents=[SnapshotDocument(d, self.fingerprints[d], len(rows)) for d, rows in documents],
            terms=[self.vocabulary.terms[term] for term in used.tolist()],
            channels={channel: renumbered(part, row_map, term_map_or_none) for channel, part in postings.items()},
            vectors=vectors.rows(np.flatnonzero(keep)) if vectors is not None else None,
        )

    def merge_segments(self) -> None:
        for channel in self.channels.values():
            channel.merge_pending()
        if self.vectors is not None:
            self.vectors.compact()

    def remove_document(self, document_id: str) -> None:
        rows = self.by_document.pop(document_id, None)
        if rows is None:
            return
        chunks = [self._chunk(row) for row in rows.tolist()]
        for channel, postings in self._analyze_batch([(document_id, chunks)]).channels.items():
            terms, chunks_holding = runs(postings.terms)  # the distinct terms, and how many chunks hold each
            self.channels[channel].remove(rows, terms, chunks_holding)
        for row, chunk in zip(rows.tolist(), chunks, strict=True):
            self.rows[row] = None
            del self.row_of[chunk.chunk_id]
        del self.fingerprints[document_id]
        self.dead += len(chunks)
        self._allowed.clear()

    def _chunk(self, row: int) -> Chunk:
        chunk = self.rows[row]
        if chunk is None:  # postings of dead rows are masked before they get here
            raise LookupError(f"row {row} was deleted")
        return chunk

    def live(self) -> list[Chunk]:
        return [chunk for chunk in self.rows if chunk is not None]

    def live_allowed(self, filters: SearchFilters) -> list[Chunk]:
        """The live chunks the filters allow; when they name documents by id only, just those documents' rows are
        read (agentic navigation lists one document's chunks at a time)."""
        if filters.documents and all(name in self.by_document for name in filters.documents):
            rows = sorted({int(row) for name in filters.documents for row in self.by_document[name]})
            candidates = [self.rows[row] for row in rows]
        else:
            candidates = self.rows
        return [chunk for chunk in candidates if chunk is not None and filters.allows(chunk)]

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

    def count(self, filters: SearchFilters) -> int:
        return len(self.row_of) if filters.is_empty() else int(self.allowed(filters).sum())

    def content_frequencies(self, chunk_ids: Sequence[str]) -> list[dict[str, int]]:
        """Each chunk's content terms with their frequencies ({} for an unknown chunk), from its text analyzed again
        (`text_terms`, kept for the passage vote and the sibling order, which read the same first results)."""
        rows = [self.row_of.get(chunk_id) for chunk_id in chunk_ids]
        return [{} if row is None else Counter(text_terms(self._chunk(row).text)[0]) for row in rows]

    def content_idf(self, terms: Collection[str]) -> dict[str, float]:
        """The content channel's BM25 idf of each term (0.0 for a term no chunk holds)."""
        content = self.channels["content"]
        return {term: content.idf(self.vocabulary[term]) if term in self.vocabulary else 0.0 for term in terms}

    def content_document_frequencies(self, terms: Collection[str]) -> dict[str, int]:
        """How many live chunks hold each of the terms the vocabulary knows in their content."""
        known = list(filter(self.vocabulary.__contains__, terms))  # in C: a document's graph asks for ~1,000
        ids = np.fromiter(map(self.vocabulary.__getitem__, known), dtype=np.int64, count=len(known))
        return dict(zip(known, self.channels["content"].document_frequencies(ids).tolist(), strict=True))

    def similar_terms(self, terms: Sequence[str], rule: SpellingRule) -> dict[str, list[tuple[str, int]]]:
        content, found = self.channels["content"], {}
        for term in dict.fromkeys(terms):
            lengths = range(max(1, len(term) - rule.max_edits), len(term) + rule.max_edits + 1)
            shaped = [
                (self.vocabulary.terms[i], content.document_frequency(i))
                for i in self.vocabulary.with_shape(term[:1], lengths)
            ]
            close = [
                (candidate, chunks)
                for candidate, chunks in shaped
                if chunks
                and candidate != term
                and candidate.startswith(term[: rule.prefix])
                and edit_distance(term, candidate, rule.max_edits) <= rule.max_edits
            ]
            if close:
                found[term] = close
        return found

    def rank_semantic(self, query: SemanticQuery, filters: SearchFilters) -> list[tuple[str, float]]:
        """The chunks the filters allow nearest the query's vector, best first (filters before the cut)."""
        if self.vectors is None:
            return []
        allowed = self.allowed(filters) if not filters.is_empty() else self._live_mask()
        ranked = self.vectors.rank(query.vector, allowed, query.limit)
        return [(self._chunk(row).chunk_id, score) for row, score in ranked]

    def _live_mask(self) -> BoolArray:
        if not self.dead:
            return np.ones(len(self.rows), dtype=np.bool_)
        return self.allowed(SearchFilters())

    def rank(
        self, channel: Channel, query: ChannelQuery, filters: SearchFilters, limit: int
    ) -> list[tuple[str, float]]:
        known = {self.vocabulary[term]: weight for term, weight in query.terms.items() if term in self.vocabulary}
        optional = {self.vocabulary[term] for term in query.optional if term in self.vocabulary}
        scores, selected = self.channels[channel].scores(known, len(self.rows), query.min_match, optional)
        if not filters.is_empty():
            selected &= self.allowed(filters)
        candidates = best_with_ties(scores, np.flatnonzero(selected), limit)
        ranked = [(self._chunk(row).chunk_id, float(scores[row])) for row in candidates.tolist()]
        ranked.sort(key=lambda item: (-item[1], item[0]))
        return ranked[:limit]


# A common query term matches half a large namespace; the cut is first bounded from below by a strided sample of
# about this many times `limit` candidates, so that only the few above the bound are partitioned.
_SAMPLE_PER_RESULT = 32


def best_with_ties(scores: FloatArray, candidates: IntArray, limit: int) -> IntArray:
    """The candidate rows scoring at least the `limit`-th best candidate score (ties at the cut kept), in row order.
    The `limit`-th best of a sample is no higher than that of all candidates, so the sample's floor drops none."""
    if len(candidates) <= limit * 4:
        return candidates
    sample = candidates[:: max(1, len(candidates) // (limit * _SAMPLE_PER_RESULT))]
    if len(sample) >= limit:
        floor = np.partition(scores[sample], len(sample) - limit)[len(sample) - limit]
        candidates = candidates[scores[candidates] >= floor]
    if len(candidates) <= limit:
        return candidates
    values = scores[candidates]
    kth = np.partition(values, len(values) - limit)[len(values) - limit]
    kept: IntArray = candidates[values >= kth]
    return kept
