"""The embedded BM25 engine: numpy postings per channel (bm25.py), persisted one object per document in an object
store (document_objects.py), so a document is written or deleted without rebuilding the rest. Documents are analyzed
in batches (analyzed_batch.py); `write` merges postings before it returns, so the first search after a bulk build does
not pay for the merge. A namespace's postings are also kept in a snapshot object (namespace_snapshot.py), which a new
process loads instead of analyzing the documents it covers again. Every write is recorded in the namespace's change
log (change_log.py): a reader whose namespace version moved on reads only the documents changed since, and builds
the whole namespace again only when it cannot follow the log. Such a whole load, and a cold one, reads the
namespace's segments (segments.py: its document objects packed into a few objects by a writer now and then) and the
documents the log names since; without usable segments, each document's object, concurrently.
"""

from __future__ import annotations

import gc
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from itertools import chain, compress
from typing import Any, Generic, TypeVar

import numpy as np

from docshelf.batching import sized_batches
from docshelf.index.analyzer import path_terms
from docshelf.index.base import DocumentChunks, ExpansionPass, FirstPass, SearchBackend
from docshelf.index.embedded.analyzed_batch import AnalyzedBatch, ChannelPostings, analyzed_batch, concatenated
from docshelf.index.embedded.bm25 import IntArray, Vocabulary
from docshelf.index.embedded.change_log import ChangeLog, ChangeLogError
from docshelf.index.embedded.document_objects import dump_document, load_document
from docshelf.index.embedded.namespace import Namespace
from docshelf.index.embedded.namespace_snapshot import NamespaceSnapshot, SnapshotError, decode, encode, fingerprint
from docshelf.index.embedded.segments import Manifest, NamespaceSegments, SegmentError
from docshelf.index.embedded.term_table import TermTable
from docshelf.index.plan import CHANNELS, Channel, ExpansionPlan, QueryPlan, RankedList, SearchFilters, SpellingRule
from docshelf.index.vectors import EmbeddingModelLike, ModelMismatchError, StoredVectors, VectorModel, refusals
from docshelf.model import Chunk
from docshelf.store.base import ObjectStore
from docshelf.store.fetch import get_many

__all__ = ["EmbeddedIndex"]

_log = logging.getLogger(__name__)

# Chunks analyzed in one batch at most: the analysis's peak memory grows with the batch, and this one keeps it
# small beside the index (docs/evaluation.md, "Figures from code comments").
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


# document id, chunks, their vectors if any, fingerprint of its store object

StoredDocument = tuple[str, list[Chunk], StoredVectors | None, str]


def _decoded(raw: bytes) -> StoredDocument:
    document_id, chunks, vectors = load_document(raw)
    return document_id, chunks, vectors, fingerprint(raw)


@dataclass(frozen=True, slots=True)
class _StoredNamespace:
    """A namespace's objects as read from the store, before any analysis."""

    log_entry: int  # the change log's last entry, read before the documents
    snapshot: NamespaceSnapshot | None
    documents: list[StoredDocument]
    segments_entry: int = 0  # the log entry of the segments the documents were read from, 0 if none
    not_from_segments: int = 0  # documents read from their own objects


T = TypeVar("T")


class _Beside(Generic[T]):
    """A call run in a thread of its own while the caller works (numpy releases the GIL in vector products). The
    thread ends with the call: a thread kept for the next one would stop this process forking (forked.can_fork),
    as `docshelf ingest` does for its parse workers."""

    def __init__(self, call: Callable[[], T]) -> None:
        self._outcome: list[T] = []
        self._error: list[BaseException] = []
        self._thread = threading.Thread(target=self._run, args=(call,), name="docshelf-semantic")
        self._thread.start()

    def _run(self, call: Callable[[], T]) -> None:
        try:
            self._outcome.append(call())
        except BaseException as error:  # re-raised in the caller's thread by `result`
            self._error.append(error)

    def result(self) -> T:
        self._thread.join()
        if self._error:
            raise self._error[0]
        return self._outcome[0]


def _flattened(term_ids: Sequence[Sequence[int]]) -> tuple[IntArray, IntArray]:
    """(term ids, position of their list) of lists of term ids."""
    lengths = np.fromiter(map(len, term_ids), dtype=np.int64, count=len(term_ids))
    flat = np.fromiter(chain.from_iterable(term_ids), dtype=np.int64, count=int(lengths.sum()))
    return flat, np.repeat(np.arange(len(term_ids), dtype=np.int64), lengths)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off for a block that creates many objects that hold no cycles (a load makes
    hundreds of thousands of chunks and tuples): the collections they set off cost a fifth of a 100k-chunk load."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _dumped(document: DocumentChunks, vectors: StoredVectors | None) -> bytes:
    return dump_document(document.document_id, document.revision, document.chunks, vectors)


class _OrderedWrites:
    """Store objects put in order by a thread of their own, which stops at the first failure. Writing a file or
    a request releases the GIL, and so does much of the caller's numpy analysis, so the two overlap: a 100k-chunk
    bulk build runs 1.2-1.4x faster than with the writes inline (alternated runs of bench/index_bench.py)."""

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


class EmbeddedIndex(SearchBackend):
    """BM25 over an object store. Readers load lazily; writers update memory and one object per document."""

    LOAD_BATCH = 256  # documents read before they are analyzed and join the namespace
    # A namespace's snapshot is written again once this many chunks were added since it was loaded or written:
    # by `commit`, and by a load that had to analyze as many (docs/evaluation.md, "Figures from code comments").
    SNAPSHOT_AFTER_CHUNKS = 4096
    # A writer compacts the namespace into segments once its log has this many entries after the segments', or this
    # many documents were read or written other than from them. Below the change log's MAX_ENTRIES, so that a cold
    # reader can follow the log from the segments.
    COMPACT_AFTER_ENTRIES = 64
    COMPACT_AFTER_DOCUMENTS = 512

    def __init__(self, store: ObjectStore, *, prefix: str = "index", writes_snapshots: bool = True) -> None:
        """`writes_snapshots` False: snapshots are read but never written (a reader that may not write the store)."""
        self.store = store
        self.prefix = prefix
        self.writes_snapshots = writes_snapshots
        self._namespaces: dict[str, Namespace] = {}
        self._versions: dict[str, int] = {}  # the namespace version each loaded namespace was last read at
        self._lock = threading.RLock()
        self._refreshing: dict[str, threading.Lock] = {}  # one reader at a time brings a namespace up to date
        self._log = ChangeLog(store, prefix)
        self._segments = NamespaceSegments(store, prefix)
        self._vocabulary = Vocabulary()
        self._terms = TermTable(self._vocabulary)
        self._path_terms: dict[tuple[str, tuple[str, ...]], list[int]] = {}

    @property
    def identity(self) -> str:
        """The index within its store; the store is the registry's own."""
        return f"embedded:{self.prefix}"

    def _key(self, namespace: str, document_id: str) -> str:
        return f"{self.prefix}/{namespace}/{document_id}.json"

    def _snapshot_key(self, namespace: str) -> str:
        return f"{self.prefix}/{namespace}.snapshot"  # a namespace name holds no dot, so no document is there

    def _document_id(self, namespace: str, key: str) -> str:
        return key[len(f"{self.prefix}/{namespace}/") : -len(".json")]

    def _stored_namespace(self, namespace: str) -> _StoredNamespace:
        """The namespace's documents: from its segments and the documents changed since, or, when they cannot be
        used, from every document's object."""
        try:
            stored = self._stored_from_segments(namespace)
        except (SegmentError, ChangeLogError) as error:
            _log.warning("namespace %s: segments not used, each document is read: %s", namespace, error)
            stored = None
        return stored if stored is not None else self._stored_documents(namespace)

    def _stored_documents(self, namespace: str) -> _StoredNamespace:
        """Every document's object, read concurrently. The log's position is read first: documents changed after
        it may be read in either version, and a reader following the log from there reads them again."""
        log_entry = self._log.last(namespace)
        snapshot = self._read_snapshot(namespace)
        keys = list(self.store.list(f"{self.prefix}/{namespace}/"))
        documents = [_decoded(raw) for _, raw in get_many(self.store, keys) if raw is not None]
        return _StoredNamespace(log_entry, snapshot, documents, not_from_segments=len(documents))

    def _stored_from_segments(self, namespace: str) -> _StoredNamespace | None:
        """The documents of the namespace's segments, those the log names since read from their objects; in the
        order of their keys, as a listing gives them, so the namespace is built as from every object. None without
        segments or when the log goes on too far past them."""
        manifest = self._segments.manifest(namespace)
        if manifest is None:
            return None
        changes = self._log.changes_after(namespace, manifest.log_entry)
        if changes is None:
            return None
        snapshot = self._read_snapshot(namespace)
        documents: dict[str, StoredDocument] = {}
        for document_id, raw in self._segments.records(namespace, manifest):
            if document_id in changes.documents:
                continue
            decoded = _decoded(raw)
            if decoded[0] != document_id or document_id in documents:
                raise SegmentError(f"namespace {namespace}: a segment's record of {document_id} is not its own")
            documents[document_id] = decoded
        for document_id, found in self._changed_objects(namespace, changes.documents):
            if found is None:
                documents.pop(document_id, None)
            else:
                documents[document_id] = _decoded(found)
        keys = sorted((self._key(namespace, document_id), document_id) for document_id in documents)
        ordered = [documents[document_id] for _, document_id in keys]
        return _StoredNamespace(changes.last, snapshot, ordered, manifest.log_entry, len(changes.documents))

    def _changed_objects(self, namespace: str, document_ids: Iterable[str]) -> Iterator[tuple[str, bytes | None]]:
        """(document id, its object or None when deleted), read concurrently."""
        ids = sorted(document_ids)
        read = get_many(self.store, [self._key(namespace, document_id) for document_id in ids])
        for document_id, (_, raw) in zip(ids, read, strict=True):
            yield document_id, raw

    def _namespace(self, namespace: str) -> Namespace:
        with self._lock:
            loaded = self._namespaces.get(namespace)
            if loaded is None or loaded.needs_rebuild():
                loaded = self._built(namespace, self._stored_namespace(namespace))
            return loaded

    def _built(self, namespace: str, stored: _StoredNamespace) -> Namespace:
        """The namespace built from what was read of it, in place of the one in memory. Holds the lock."""
        with _collector_paused():
            space = self._namespaces[namespace] = self._build(stored)
        self._write_snapshot_if_due(namespace, space)
        return space

    def _build(self, stored: _StoredNamespace) -> Namespace:
        """The namespace as the store holds it: documents whose objects the snapshot covers unchanged take their
        postings from it, the others are analyzed."""
        space = Namespace(self._vocabulary, self._analyzed)
        space.log_entry = stored.log_entry
        space.segments_entry = stored.segments_entry
        space.changed_since_segments = stored.not_from_segments
        snapshot = stored.snapshot
        in_snapshot = {document.document_id: document for document in snapshot.documents} if snapshot else {}
        covered: dict[str, tuple[Sequence[Chunk], str]] = {}
        not_covered: list[StoredDocument] = []
        for document_id, chunks, vectors, print_ in stored.documents:
            known = in_snapshot.get(document_id)
            if known is not None and known.fingerprint == print_ and known.rows == len(chunks):
                covered[document_id] = (chunks, print_)
            else:
                not_covered.append((document_id, chunks, vectors, print_))
        self._add(space, not_covered)
        if snapshot is not None and covered:
            space.adopt(snapshot, covered)
        space.merge_segments()
        return space

    def _add(self, space: Namespace, documents: Sequence[StoredDocument]) -> None:
        """Stored documents analyzed in batches into the namespace, which holds none of them."""
        for batch in sized_batches(documents, lambda document: len(document[1]), BATCH_CHUNKS, self.LOAD_BATCH):
            analyzed = self._analyzed([(document_id, chunks) for document_id, chunks, _, _ in batch])
            space.add_batch(analyzed, [document[3] for document in batch], [document[2] for document in batch])

    def _read_snapshot(self, namespace: str) -> NamespaceSnapshot | None:
        raw = self.store.get(self._snapshot_key(namespace))
        if raw is None:
            return None
        try:
            return decode(raw)
        except SnapshotError as error:
            _log.warning("namespace %s: snapshot not used, its documents are analyzed instead: %s", namespace, error)
            return None

    def _write_snapshot_if_due(self, namespace: str, space: Namespace) -> None:
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

    def commit(self) -> None:
        """Write the snapshot of each namespace that had SNAPSHOT_AFTER_CHUNKS chunks or more added since its
        snapshot was loaded or written, so that a new process loads them without analyzing them again (writes are
        durable and searchable when `write` returns)."""
        with self._lock:
            for namespace, space in self._namespaces.items():
                self._write_snapshot_if_due(namespace, space)

    def reader(self, namespace: str, version: int) -> EmbeddedIndex:
        """This index, with `namespace` brought up to `version` (another process wrote it since it was loaded):
        the documents its change log names since are read again, or, when the log cannot be followed, the whole
        namespace. Either is read outside the lock, so searches go on meanwhile with the state before, and put in
        place at once: no search sees part of a change."""
        with self._lock:
            refreshing = self._refreshing.setdefault(namespace, threading.Lock())
        with refreshing:
            with self._lock:
                space = self._namespaces.get(namespace)
                known = self._versions.get(namespace)
                if space is None or (known is not None and version <= known):
                    if space is None:
                        self._versions[namespace] = version  # the next read loads it whole
                    return self
            self._catch_up(namespace, space)
            with self._lock:
                self._versions[namespace] = version
        return self

    def _catch_up(self, namespace: str, space: Namespace) -> None:
        writes = space.writes
        try:
            changes = self._log.changes_after(namespace, space.log_entry)
        except ChangeLogError as error:
            _log.warning("namespace %s: read whole, its change log cannot be followed: %s", namespace, error)
            changes = None
        if changes is None or len(changes.documents) > max(self.LOAD_BATCH, len(space.by_document) // 2):
            stored = self._stored_namespace(namespace)
            with self._lock:
                if self._is_current(namespace, space, writes):
                    self._built(namespace, stored)
            return
        found = [
            (document_id, None if raw is None else _decoded(raw))
            for document_id, raw in self._changed_objects(namespace, changes.documents)
        ]
        with self._lock:
            if not self._is_current(namespace, space, writes):
                return
            try:
                with _collector_paused():
                    self._apply(space, found)
            except BaseException:
                self._namespaces.pop(namespace, None)  # read whole at its next use
                raise
            space.log_entry = max(space.log_entry, changes.last)
            space.changed_since_segments += len(found)

    def _is_current(self, namespace: str, space: Namespace, writes: int) -> bool:
        """Whether `space`, read from before this process's last write to it, may take what was read since.
        Otherwise another state took its place (read after), or this process wrote the namespace while it was
        read: what was read may predate that write, so the namespace is dropped and read whole at its next use.
        Holds the lock."""
        if self._namespaces.get(namespace) is not space:
            return False
        if space.writes != writes:
            self._namespaces.pop(namespace, None)
            return False
        return True

    def _apply(self, space: Namespace, found: Sequence[tuple[str, StoredDocument | None]]) -> None:
        """The changed documents as read (None: deleted) in place of their versions in the namespace. Holds the
        lock."""
        changed = []
        for document_id, stored in found:
            if stored is None:
                space.remove_document(document_id)
            elif space.fingerprints.get(stored[0]) != stored[3]:  # an object this process wrote is there already
                changed.append(stored)
        for document_id, _, _, _ in changed:
            space.remove_document(document_id)
        self._add(space, changed)

    def _analyzed(self, documents: Sequence[tuple[str, Sequence[Chunk]]]) -> AnalyzedBatch:
        """The documents' postings, analyzed in slices of at most ANALYSIS_CHARS characters of text: the term
        occurrences of a slice take about 18 bytes a character at their peak, so one large document analyzed at
        once (200 MB of text) would take gigabytes."""
        chunks = [chunk for _, chunks in documents for chunk in chunks]
        if not chunks:
            return analyzed_batch(documents, {channel: _flattened([]) for channel in CHANNELS})
        parts: dict[Channel, list[tuple[int, ChannelPostings]]] = {channel: [] for channel in CHANNELS}
        for first, end in _slices([len(chunk.text) for chunk in chunks], ANALYSIS_CHARS):
            part = chunks[first:end]
            content, raw = self._terms.text_terms([chunk.text for chunk in part])
            raw = self._terms.bounded_trigrams(*raw)
            paths = _flattened([self._path_ids(chunk.source_file_name, chunk.section_path) for chunk in part])
            analyzed = analyzed_batch([], {"content": content, "path": paths, "term": raw})
            for channel, postings in analyzed.channels.items():
                parts[channel].append((first, postings))
        return AnalyzedBatch(list(documents), {channel: concatenated(found) for channel, found in parts.items()})

    def _path_ids(self, source_file_name: str, section_path: tuple[str, ...]) -> list[int]:
        key = (source_file_name, section_path)
        ids = self._path_terms.get(key)
        if ids is None:
            if len(self._path_terms) > 100_000:
                self._path_terms.clear()
            ids = self._path_terms[key] = self._vocabulary.ids(path_terms(*key)).tolist()
        return ids

    def upsert(
        self,
        namespace: str,
        document_id: str,
        revision: str,
        chunks: Sequence[Chunk],
        vectors: Any = None,
        model: EmbeddingModelLike | None = None,
    ) -> None:
        """One document, its postings left in segments: merging them at each of many single writes would copy the
        namespace's postings each time."""
        document = DocumentChunks(document_id, revision, chunks, vectors, model)
        refused = self._upsert(namespace, [document], merge=False)
        if refused:
            raise ModelMismatchError(f"document {document_id}: {refused[document_id]}")

    def write(self, namespace: str, documents: Sequence[DocumentChunks]) -> dict[str, str]:
        """Documents analyzed together; searchable and persisted on return, with postings merged so that the next
        search pays for nothing the build left behind. A document given twice is published in its last version.
        A document is refused on its own when its vectors' model is not the namespace's (`vector_model`); a store
        error stops the batch (raised), the documents written before it are in the index, the others keep their
        previous version."""
        return self._upsert(namespace, documents, merge=True)

    def _upsert(self, namespace: str, documents: Sequence[DocumentChunks], *, merge: bool) -> dict[str, str]:
        latest = {document.document_id: document for document in documents}
        with self._lock:
            space = self._namespace(namespace)
            refused = self._refused(space, list(latest.values()))
            accepted = [document for document in latest.values() if document.document_id not in refused]
            for group in sized_batches(accepted, lambda document: len(document.chunks), BATCH_CHUNKS):
                self._store(namespace, space, group)
            if merge:
                space.merge_segments()
        return refused

    @staticmethod
    def _refused(space: Namespace, documents: Sequence[DocumentChunks]) -> dict[str, str]:
        """The documents whose vectors' model the namespace cannot take, with why: documents replacing every
        chunk of the namespace may bring a new model."""
        replaced = {document.document_id for document in documents}
        others = any(document_id not in replaced for document_id in space.by_document)
        return refusals(space.model, others, [(d.document_id, d.vector_model()) for d in documents])

    def _store(self, namespace: str, space: Namespace, documents: Sequence[DocumentChunks]) -> None:
        """Write the documents to the store one by one while they are analyzed; those written replace their old
        versions in the namespace, also when a write fails. Should the analysis fail, the namespace is read
        again from the store at its next use."""
        space.writes += 1
        vectors = [document.stored_vectors() for document in documents]
        writes = _OrderedWrites(
            self.store,
            [
                (self._key(namespace, document.document_id), partial(_dumped, document, found))
                for document, found in zip(documents, vectors, strict=True)
            ],
        )
        try:
            batch = self._analyzed([(document.document_id, document.chunks) for document in documents])
        except BaseException:
            written, _ = writes.wait()
            self._namespaces.pop(namespace, None)
            if written:
                self._log.append(namespace, [document.document_id for document in documents[:written]])
            raise
        written, error = writes.wait()
        stored = batch.first(written)
        for document_id, _ in stored.documents:
            space.remove_document(document_id)
        space.add_batch(stored, writes.fingerprints[:written], vectors[:written])
        if written:
            self._record(namespace, space, [document_id for document_id, _ in stored.documents])
        if error is not None:
            raise error

    def _record(self, namespace: str, space: Namespace, document_ids: Sequence[str]) -> None:
        """The change in the namespace's log, once its objects are in the store. Holds the lock."""
        entry = self._log.append(namespace, document_ids, after=space.log_entry)
        if space.log_entry == entry - 1:
            space.log_entry = entry
        space.changed_since_segments += len(document_ids)
        self._compact_if_due(namespace, space, entry)

    def _compact_if_due(self, namespace: str, space: Namespace, entry: int) -> None:
        """Compact the namespace into segments once COMPACT_AFTER_ENTRIES log entries or COMPACT_AFTER_DOCUMENTS
        documents passed since. Failing to is logged, not raised: segments only save time. Holds the lock."""
        behind = entry - space.segments_entry
        due = behind >= self.COMPACT_AFTER_ENTRIES or space.changed_since_segments >= self.COMPACT_AFTER_DOCUMENTS
        if not self.writes_snapshots or not due:
            return
        try:
            space.segments_entry = self.compact(namespace).log_entry
        except Exception as error:  # any store's failure; tried again after as many changes
            _log.warning("namespace %s: segments not written: %r", namespace, error)
            space.segments_entry = entry
        space.changed_since_segments = 0

    def compact(self, namespace: str) -> Manifest:
        """Write the namespace's documents into segments as the store holds them now, from its segments and the
        documents its log names since when it has usable ones, else from every document's object; the manifest."""
        try:
            previous = self._segments.manifest(namespace)
        except SegmentError as error:
            _log.warning("namespace %s: segments written again from each document: %s", namespace, error)
            previous = None
        if previous is not None:
            try:
                changes = self._log.changes_after(namespace, previous.log_entry)
                if changes is not None:
                    return self._segments.write(
                        namespace, changes.last, self._records_since(namespace, previous, changes.documents), previous
                    )
            except (SegmentError, ChangeLogError) as error:
                _log.warning("namespace %s: segments written again from each document: %s", namespace, error)
        log_entry = self._log.last(namespace)  # before the documents, as a load reads it
        keys = list(self.store.list(f"{self.prefix}/{namespace}/"))
        records = (
            (self._document_id(namespace, key), raw) for key, raw in get_many(self.store, keys) if raw is not None
        )
        return self._segments.write(namespace, log_entry, records, previous)

    def _records_since(
        self, namespace: str, previous: Manifest, changed: frozenset[str]
    ) -> Iterator[tuple[str, bytes]]:
        for document_id, raw in self._segments.records(namespace, previous):
            if document_id not in changed:
                yield document_id, raw
        for document_id, found in self._changed_objects(namespace, changed):
            if found is not None:
                yield document_id, found

    def delete(self, namespace: str, document_id: str) -> None:
        with self._lock:
            space = self._namespace(namespace)
            space.writes += 1
            self.store.delete(self._key(namespace, document_id))
            space.remove_document(document_id)
            # The snapshot may still hold the document's terms: the next `commit` writes it without them.
            space.added_since_snapshot = max(space.added_since_snapshot, self.SNAPSHOT_AFTER_CHUNKS)
            self._record(namespace, space, [document_id])

    def first_pass(self, namespace: str, plan: QueryPlan) -> FirstPass:
        """The feedback chunks' content terms come from their texts analyzed again, without a fetch; the idf of the
        content query's terms from the content channel."""
        with self._lock:
            space = self._namespace(namespace)
            total = space.count(plan.filters)
            if total == 0:
                return FirstPass(total, {})
            semantic = None
            if plan.semantic is not None and space.model is not None:
                # numpy releases the GIL in the vector products: they run beside the BM25 channels.
                semantic = _Beside(partial(space.rank_semantic, plan.semantic, plan.filters))
            rankings: dict[RankedList, list[tuple[str, float]]] = {
                channel: space.rank(channel, query, plan.filters, plan.limit)
                for channel, query in plan.channels.items()
            }
            if semantic is not None:
                rankings["semantic"] = semantic.result()
            feedback = [chunk_id for chunk_id, _ in rankings.get("content", [])[: max(0, plan.feedback)]]
            frequencies = dict(zip(feedback, space.content_frequencies(feedback), strict=True))
            content = plan.channels.get("content")
            idf = space.content_idf(list(content.terms)) if content is not None else {}
            return FirstPass(total, rankings, frequencies, idf)

    def vector_model(self, namespace: str) -> VectorModel | None:
        with self._lock:
            return self._namespace(namespace).model

    def expansion_pass(self, namespace: str, plan: ExpansionPlan) -> ExpansionPass:
        with self._lock:
            space = self._namespace(namespace)
            frequencies = space.content_document_frequencies(list(plan.expansion)) if plan.expansion else {}
            chunks = len(space.row_of)
            common = {term for term, holding in frequencies.items() if plan.is_common(holding, chunks)}
            return ExpansionPass(space.rank("content", plan.mixed(common), plan.filters, plan.limit))

    def similar_terms(
        self, namespace: str, terms: Sequence[str], rule: SpellingRule
    ) -> dict[str, list[tuple[str, int]]]:
        with self._lock:
            return self._namespace(namespace).similar_terms(terms, rule)

    def document_frequencies(self, namespace: str, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        with self._lock:
            space = self._namespace(namespace)
            holding = space.content_document_frequencies(terms)
            return len(space.row_of), dict(compress(holding.items(), holding.values()))  # the terms some chunk holds

    def count(self, namespace: str, filters: SearchFilters) -> int:
        with self._lock:
            return self._namespace(namespace).count(filters)

    def fetch(self, namespace: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        with self._lock:
            space = self._namespace(namespace)
            rows = [space.row_of.get(cid) for cid in chunk_ids]
            return [chunk for row in rows if row is not None and (chunk := space.rows[row]) is not None]

    def list_chunks(self, namespace: str, filters: SearchFilters, limit: int) -> list[Chunk]:
        with self._lock:
            allowed = self._namespace(namespace).live_allowed(filters)
        allowed.sort(key=lambda c: (c.source_file_name, c.document_id, c.ordinal))
        return allowed[:limit]
