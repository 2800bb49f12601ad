"""The embedded BM25 index: numpy postings per channel (index/bm25.py), persisted one object per
document in an object store (index/document_objects.py), so a document is upserted or deleted without
rebuilding the rest. Documents are analysed in batches (index/analysed_batch.py); `upsert_many` merges
postings before it returns, so the first search after a bulk build does not pay for the merge. A namespace's
postings are also kept in a snapshot object (index/namespace_snapshot.py), which a new process loads instead of
analysing the documents it covers again.
"""

from __future__ import annotations

import gc
import logging
import threading
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache, partial
from itertools import chain

import numpy as np

from docshelf.batching import sized_batches
from docshelf.index.analysed_batch import AnalysedBatch, ChannelPostings, analysed_batch, concatenated
from docshelf.index.analyzer import analyze, content_and_raw_terms, path_text
from docshelf.index.base import CHANNELS, Channel, DocumentChunks, QueryTerms, required_matches, term_weights
from docshelf.index.bm25 import BM25Channel, BoolArray, IntArray, Postings, Vocabulary, runs, sorted_distinct
from docshelf.index.document_objects import INDEX_FORMAT, dump_document, load_document
from docshelf.index.namespace_snapshot import (
    NamespaceSnapshot,
    SnapshotDocument,
    SnapshotError,
    decode,
    encode,
    fingerprint,
    renumbered,
    rows_kept,
    unless_identity,
)
from docshelf.index.term_table import TermTable
from docshelf.model import Chunk
from docshelf.search.corrections import MAX_EDITS, PREFIX, edit_distance
from docshelf.search.filters import SearchFilters
from docshelf.store.base import ObjectStore

__all__ = ["INDEX_FORMAT", "EmbeddedIndex", "channel_terms"]

_log = logging.getLogger(__name__)

# Chunks analysed in one batch at most: the analysis of 8,192 chunks of 120 words peaks at about 100 MB on top
# of the index (tracemalloc; 65,536 took 800 MB).
BATCH_CHUNKS = 1 << 13
ANALYSIS_CHARS = 2_000_000


def _slices(sizes: Sequence[int], budget: int) -> Iterator[tuple[int, int]]:
    """Consecutive non-empty (start, end) ranges of `sizes`, each summing to at most `budget` unless one item is
    over it by itself."""
    start, used = 0, 0
    for index, size in enumerate(sizes):
        if index > start and used + size > budget:
            yield start, index
            start, used = index, 0
        used += size
    if start < len(sizes):
        yield start, len(sizes)


@lru_cache(maxsize=65_536)
def _path_terms(source_file_name: str, section_path: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(analyze(path_text(source_file_name, section_path)))


def channel_terms(chunk: Chunk) -> dict[Channel, list[str]]:
    """A chunk's terms per channel (the embedded index gets the same terms as ids from TermTable)."""
    content, raw = content_and_raw_terms(chunk.text)
    return {"content": content, "path": list(_path_terms(chunk.source_file_name, chunk.section_path)), "term": raw}


def _flattened(term_ids: Sequence[Sequence[int]]) -> tuple[IntArray, IntArray]:
    """(term ids, position of their list) of lists of term ids."""
    lengths = np.fromiter(map(len, term_ids), dtype=np.int64, count=len(term_ids))
    flat = np.fromiter(chain.from_iterable(term_ids), dtype=np.int64, count=int(lengths.sum()))
    return flat, np.repeat(np.arange(len(term_ids), dtype=np.int64), lengths)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off for a block that creates many objects that hold no cycles (a load makes
    hundreds of thousands of chunks and tuples): the collections they set off took a fifth of a 100k-chunk load."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


Analyse = Callable[[Sequence[tuple[str, Sequence[Chunk]]]], AnalysedBatch]
StoredDocument = tuple[str, list[Chunk], str]  # document id, chunks, fingerprint of its store object


class _Namespace:
    """Chunks in rows; a deleted document's rows are masked, and the namespace is reloaded when
    more than half of its rows are dead. Which terms a chunk holds is not kept: removing a document, or
    asking for a chunk's terms, analyses its chunks again (the analyzer is deterministic)."""

    def __init__(self, vocabulary: Vocabulary, analyse: Analyse) -> None:
        self.rows: list[Chunk | None] = []
        self.row_of: dict[str, int] = {}
        self.by_document: dict[str, IntArray] = {}  # rows
        self.vocabulary = vocabulary
        self._analyse = analyse
        self.channels: dict[Channel, BM25Channel] = {channel: BM25Channel() for channel in CHANNELS}
        self.fingerprints: dict[str, str] = {}  # of each document's store object
        self.dead = 0
        self.added_since_snapshot = 0  # chunks added since the namespace's snapshot was loaded or written
        self._allowed: dict[SearchFilters, BoolArray] = {}

    def _place(self, document_id: str, chunks: Sequence[Chunk], fingerprint: str) -> None:
        start = len(self.rows)
        self.rows.extend(chunks)
        self.row_of.update(zip([chunk.chunk_id for chunk in chunks], range(start, len(self.rows)), strict=True))
        self.by_document[document_id] = np.arange(start, len(self.rows), dtype=np.int64)
        self.fingerprints[document_id] = fingerprint

    def add_batch(self, batch: AnalysedBatch, fingerprints: Sequence[str]) -> None:
        """Add a batch's documents, none of them in the namespace (remove their old versions first), with the
        fingerprint of each one's store object."""
        first = len(self.rows)
        for (document_id, chunks), print_ in zip(batch.documents, fingerprints, strict=True):
            self._place(document_id, chunks, print_)
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
        for document in snapshot.documents:
            if document.document_id in covered:
                self._place(document.document_id, *covered[document.document_id])
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
        return NamespaceSnapshot(
            documents=[SnapshotDocument(d, self.fingerprints[d], len(rows)) for d, rows in documents],
            terms=[self.vocabulary.terms[term] for term in used.tolist()],
            channels={channel: renumbered(part, row_map, term_map_or_none) for channel, part in postings.items()},
        )

    def merge_segments(self) -> None:
        for channel in self.channels.values():
            channel.merge_pending()

    def remove_document(self, document_id: str) -> None:
        rows = self.by_document.pop(document_id, None)
        if rows is None:
            return
        chunks = [self._chunk(row) for row in rows.tolist()]
        for channel, postings in self._analyse([(document_id, chunks)]).channels.items():
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
        rows = [self.row_of.get(chunk_id) for chunk_id in chunk_ids]
        return [{} if row is None else Counter(analyze(self._chunk(row).text)) for row in rows]

    def content_idf(self, terms: Collection[str]) -> dict[str, float]:
        content = self.channels["content"]
        return {term: content.idf(self.vocabulary[term]) if term in self.vocabulary else 0.0 for term in terms}

    def common_content_terms(self, terms: Collection[str]) -> set[str]:
        content, half = self.channels["content"], len(self.row_of) / 2
        known = [(term, self.vocabulary[term]) for term in terms if term in self.vocabulary]
        return {term for term, term_id in known if content.document_frequency(term_id) > half}

    def similar_terms(self, terms: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        content, found = self.channels["content"], {}
        for term in dict.fromkeys(terms):
            lengths = range(max(1, len(term) - MAX_EDITS), len(term) + MAX_EDITS + 1)
            shaped = [
                (self.vocabulary.terms[i], content.document_frequency(i))
                for i in self.vocabulary.with_shape(term[:PREFIX], lengths)
            ]
            close = [
                (candidate, chunks)
                for candidate, chunks in shaped
                if chunks and candidate != term and edit_distance(term, candidate, MAX_EDITS) <= MAX_EDITS
            ]
            if close:
                found[term] = close
        return found

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


def _dumped(document: DocumentChunks) -> bytes:
    return dump_document(document.document_id, document.revision, document.chunks)


class _OrderedWrites:
    """Store objects put in order by a thread of their own, which stops at the first failure. Writing a file or
    a request releases the GIL, and so does much of the caller's numpy analysis, so the two overlap: a 100k-chunk
    bulk build ran 1.2-1.4x faster in alternated runs (bench/index_bench.py)."""

    def __init__(self, store: ObjectStore, objects: Sequence[tuple[str, Callable[[], bytes]]]) -> None:
        self.written = 0
        self.fingerprints: list[str] = []  # of the objects written
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(store, objects), name="docshelf-index-writes")
        self._thread.start()

    def _run(self, store: ObjectStore, objects: Sequence[tuple[str, Callable[[], bytes]]]) -> None:
        try:
            for key, payload in objects:
                data = payload()
                store.put(key, data, content_type="application/json")
                self.fingerprints.append(fingerprint(data))
                self.written += 1
        except BaseException as error:  # handed to the caller by `wait`
            self.error = error

    def wait(self) -> tuple[int, BaseException | None]:
        """(objects written, the failure that stopped the writes or None), once the writes are over."""
        self._thread.join()
        return self.written, self.error


class EmbeddedIndex:
    """BM25 over an object store. Readers load lazily; writers update memory and one object per document."""

    LOAD_BATCH = 256  # documents read before they are analysed and join the namespace
    # A namespace's snapshot is written again once this many chunks were added since it was loaded or written:
    # by `refresh`, and by a load that had to analyse as many (analysing them took about 0.25 s).
    SNAPSHOT_AFTER_CHUNKS = 4096

    def __init__(self, store: ObjectStore, *, prefix: str = "index", writes_snapshots: bool = True) -> None:
        """`writes_snapshots` False: snapshots are read but never written (a reader that may not write the store)."""
        self.store = store
        self.prefix = prefix
        self.writes_snapshots = writes_snapshots
        self._namespaces: dict[str, _Namespace] = {}
        self._lock = threading.RLock()
        self._vocabulary = Vocabulary()
        self._terms = TermTable(self._vocabulary)
        self._path_terms: dict[tuple[str, tuple[str, ...]], list[int]] = {}

    @property
    def identity(self) -> str:
        """The index within its store (`index.base.index_identity`); the store is the registry's own."""
        return f"embedded:{self.prefix}"

    def _key(self, namespace: str, document_id: str) -> str:
        return f"{self.prefix}/{namespace}/{document_id}.json"

    def _snapshot_key(self, namespace: str) -> str:
        return f"{self.prefix}/{namespace}.snapshot"  # a namespace name holds no dot, so no document is there

    def _stored_documents(self, namespace: str) -> Iterator[StoredDocument]:
        for key in self.store.list(f"{self.prefix}/{namespace}/"):
            raw = self.store.get(key)
            if raw is not None:
                yield (*load_document(raw), fingerprint(raw))

    def _namespace(self, namespace: str) -> _Namespace:
        with self._lock:
            loaded = self._namespaces.get(namespace)
            if loaded is None or loaded.needs_rebuild():
                with _collector_paused():
                    loaded = self._namespaces[namespace] = self._load(namespace)
                self._write_snapshot_if_due(namespace, loaded)
            return loaded

    def _load(self, namespace: str) -> _Namespace:
        """The namespace as the store holds it: documents whose objects the snapshot covers unchanged take their
        postings from it, the others are analysed."""
        space = _Namespace(self._vocabulary, self._analysed)
        snapshot = self._read_snapshot(namespace)
        in_snapshot = {document.document_id: document for document in snapshot.documents} if snapshot else {}
        covered: dict[str, tuple[Sequence[Chunk], str]] = {}

        def not_covered() -> Iterator[StoredDocument]:
            for document_id, chunks, print_ in self._stored_documents(namespace):
                known = in_snapshot.get(document_id)
                if known is not None and known.fingerprint == print_ and known.rows == len(chunks):
                    covered[document_id] = (chunks, print_)
                else:
                    yield document_id, chunks, print_

        for documents in sized_batches(not_covered(), lambda document: len(document[1]), BATCH_CHUNKS, self.LOAD_BATCH):
            batch = self._analysed([(document_id, chunks) for document_id, chunks, _ in documents])
            space.add_batch(batch, [print_ for _, _, print_ in documents])
        if snapshot is not None and covered:
            space.adopt(snapshot, covered)
        space.merge_segments()
        return space

    def _read_snapshot(self, namespace: str) -> NamespaceSnapshot | None:
        raw = self.store.get(self._snapshot_key(namespace))
        if raw is None:
            return None
        try:
            return decode(raw)
        except SnapshotError as error:
            _log.warning("namespace %s: snapshot not used, its documents are analysed instead: %s", namespace, error)
            return None

    def _write_snapshot_if_due(self, namespace: str, space: _Namespace) -> None:
        """Write the namespace's snapshot once SNAPSHOT_AFTER_CHUNKS chunks or more were added since it was loaded
        or written. Failing to is logged, not raised: the snapshot only saves time."""
        if not self.writes_snapshots or space.added_since_snapshot < self.SNAPSHOT_AFTER_CHUNKS:
            return
        try:
            self.store.put(self._snapshot_key(namespace), encode(space.snapshot()))
        except Exception as error:  # any store's failure (a read-only bucket, a full disk)
            _log.warning("namespace %s: snapshot not written: %r", namespace, error)
            return
        space.added_since_snapshot = 0

    def refresh(self) -> None:
        """Write the snapshot of each namespace that had SNAPSHOT_AFTER_CHUNKS chunks or more added since its
        snapshot was loaded or written, so that a new process loads them without analysing them again (`docshelf
        ingest` calls this once at its end; the index is searchable without it)."""
        with self._lock:
            for namespace, space in self._namespaces.items():
                self._write_snapshot_if_due(namespace, space)

    def _analysed(self, documents: Sequence[tuple[str, Sequence[Chunk]]]) -> AnalysedBatch:
        """The documents' postings, analysed in slices of at most ANALYSIS_CHARS characters of text: the term
        occurrences of a slice take about 18 bytes a character at their peak, so one large document analysed at
        once (200 MB of text) took gigabytes."""
        chunks = [chunk for _, chunks in documents for chunk in chunks]
        parts: dict[Channel, list[tuple[int, ChannelPostings]]] = {channel: [] for channel in CHANNELS}
        for first, end in _slices([len(chunk.text) for chunk in chunks], ANALYSIS_CHARS):
            part = chunks[first:end]
            content, raw = self._terms.text_terms([chunk.text for chunk in part])
            paths = _flattened([self._path_ids(chunk.source_file_name, chunk.section_path) for chunk in part])
            analysed = analysed_batch([], {"content": content, "path": paths, "term": raw})
            for channel, postings in analysed.channels.items():
                parts[channel].append((first, postings))
        if not chunks:
            return analysed_batch(documents, {channel: _flattened([]) for channel in CHANNELS})
        return AnalysedBatch(list(documents), {channel: concatenated(found) for channel, found in parts.items()})

    def _path_ids(self, source_file_name: str, section_path: tuple[str, ...]) -> list[int]:
        key = (source_file_name, section_path)
        ids = self._path_terms.get(key)
        if ids is None:
            if len(self._path_terms) > 100_000:
                self._path_terms.clear()
            ids = self._path_terms[key] = self._vocabulary.ids(_path_terms(*key)).tolist()
        return ids

    def similar_terms(self, namespace: str, terms: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        return self._namespace(namespace).similar_terms(terms)

    def upsert(self, namespace: str, document_id: str, revision: str, chunks: Sequence[Chunk]) -> None:
        self._upsert(namespace, [DocumentChunks(document_id, revision, chunks)], merge=False)

    def upsert_many(self, namespace: str, documents: Sequence[DocumentChunks]) -> dict[str, str]:
        """`upsert` of many documents, analysed together; searchable and persisted on return, with postings
        merged so that the next search pays for nothing the build left behind. A document given twice is
        published in its last version. No document is refused on its own: a store error stops the batch (raised),
        the documents written before it are in the index, the others keep their previous version."""
        self._upsert(namespace, documents, merge=True)
        return {}

    def _upsert(self, namespace: str, documents: Sequence[DocumentChunks], *, merge: bool) -> None:
        latest = {document.document_id: document for document in documents}
        with self._lock:
            space = self._namespace(namespace)
            for group in sized_batches(latest.values(), lambda document: len(document.chunks), BATCH_CHUNKS):
                self._store(namespace, space, group)
            if merge:
                space.merge_segments()

    def _store(self, namespace: str, space: _Namespace, documents: Sequence[DocumentChunks]) -> None:
        """Write the documents to the store one by one while they are analysed; those written replace their old
        versions in the namespace, also when a write fails. Should the analysis fail, the namespace is read
        again from the store at its next use."""
        writes = _OrderedWrites(
            self.store,
            [(self._key(namespace, document.document_id), partial(_dumped, document)) for document in documents],
        )
        try:
            batch = self._analysed([(document.document_id, document.chunks) for document in documents])
        except BaseException:
            writes.wait()
            self._namespaces.pop(namespace, None)
            raise
        written, error = writes.wait()
        stored = batch.first(written)
        for document_id, _ in stored.documents:
            space.remove_document(document_id)
        space.add_batch(stored, writes.fingerprints[:written])
        if error is not None:
            raise error

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
