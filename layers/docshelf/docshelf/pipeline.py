"""The stage functions parse -> chunk -> publish (and delete), shared by the CLI and the Lambdas.

Each stage takes its store, registry and index as arguments and is idempotent: running it again
with the same input changes nothing. Bad input becomes the document's status, never an exception.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from docshelf import artifacts
from docshelf.chunking import chunk_document
from docshelf.config import PipelineConfig
from docshelf.errors import DocumentError, IndexBackendError, document_error, is_cacheable_failure
from docshelf.ids import document_id as make_document_id
from docshelf.ids import sha256_hex, validate_namespace
from docshelf.index.base import DocumentChunks, SearchBackend
from docshelf.keys import artifact_key, chunk_cache_key, parse_cache_key, parse_failure_key
from docshelf.model import Chunk, Document
from docshelf.parsers import parse_bytes
from docshelf.purge import purge_document_caches
from docshelf.registry import DocumentRecord, Registry, sequencer_is_newer
from docshelf.serde import chunks_from_dict, chunks_json, document_from_dict, document_json, dumps, loads
from docshelf.store.base import ObjectStore

logger = logging.getLogger(__name__)

# Statuses in which the index must hold none of the document's chunks.
EMPTY_STATUSES: frozenset[str] = frozenset({"failed", "needs_ocr", "deleted"})
# Statuses that end an event's processing: a redelivery of the same event finds nothing left to do.
# Statuses of an indexed document: `partial` when a parse limit cut its content (the record says what was kept).
INDEXED_STATUSES: frozenset[str] = frozenset({"ok", "partial"})
SETTLED_STATUSES: frozenset[str] = frozenset({*INDEXED_STATUSES, *EMPTY_STATUSES})
TRUNCATED_CODE = "truncated"


@dataclass(frozen=True, slots=True)
class ParseOutcome:
    namespace: str
    document_id: str
    source_key: str
    revision: str
    document: Document | None
    error: DocumentError | None = None
    cache_hit: bool = False
    seconds: float = 0.0
    # What a parse limit cut (Document.truncation), for a publisher that has the chunks but not the document.
    known_truncation: str = ""

    @property
    def truncation(self) -> str:
        return self.document.truncation if self.document is not None else self.known_truncation


@dataclass(frozen=True, slots=True)
class IngestResult:
    namespace: str
    document_id: str
    source_key: str
    status: str
    chunks: int = 0
    error_code: str = ""
    error_message: str = ""
    parse_cache_hit: bool = False
    chunk_cache_hit: bool = False
    seconds: float = 0.0


def parse_stage(
    store: ObjectStore,
    data: bytes,
    *,
    namespace: str,
    source_key: str,
    config: PipelineConfig,
    media_type: str | None = None,
    revision: str | None = None,
) -> ParseOutcome:
    """Bytes -> Document through the content-addressed `_ori` cache. `revision` is the bytes' sha256, when the
    caller has it already."""
    started = time.perf_counter()
    validate_namespace(namespace)
    doc_id = make_document_id(namespace, source_key)
    revision = sha256_hex(data) if revision is None else revision
    cache_key = parse_cache_key(revision)
    cached = store.get(cache_key)
    if cached is not None:
        document = document_from_dict(loads(cached))
        return ParseOutcome(namespace, doc_id, source_key, revision, document, cache_hit=True,
                            seconds=time.perf_counter() - started)  # fmt: skip
    failed = store.get(parse_failure_key(revision))
    if failed is not None:
        known = loads(failed)
        error = document_error(known["code"], known["message"], known.get("page"))
        return ParseOutcome(namespace, doc_id, source_key, revision, None, error=error, cache_hit=True,
                            seconds=time.perf_counter() - started)  # fmt: skip
    try:
        document = parse_bytes(data, source_key, uri=source_key, media_type=media_type, limits=config.limits)
    except DocumentError as error:
        logger.info("document %s failed to parse: %s (%s)", source_key, error.message, error.code)
        if is_cacheable_failure(error):
            record = {"code": error.code, "message": error.message, "page": error.page}
            store.put(parse_failure_key(revision), dumps(record), content_type="application/json")
        return ParseOutcome(namespace, doc_id, source_key, revision, None, error=error,
                            seconds=time.perf_counter() - started)  # fmt: skip
    del data  # the caller's bytes are released, when it holds them no longer, before the JSON is written
    store.put(cache_key, document_json(document), content_type="application/json")
    return ParseOutcome(namespace, doc_id, source_key, revision, document, seconds=time.perf_counter() - started)


def chunk_stage(store: ObjectStore, outcome: ParseOutcome, *, config: PipelineConfig) -> tuple[list[Chunk], bool]:
    """Document -> chunks (through the chunk cache) and the per-document artifacts. Returns (chunks, cache hit)."""
    chunked = chunk_without_writing(store, outcome, config=config)
    chunked.write(store)
    return chunked.chunks, chunked.cache_hit


@dataclass(frozen=True, slots=True)
class Chunked:
    """A document's chunks with what the chunk stage writes of them, made while the document was at hand: the
    chunk cache (on a miss) and the artifacts. Written by `write`, which needs the document no longer, so a
    caller can let go of a large one first."""

    chunks: list[Chunk]
    cache_hit: bool
    cache_key: str
    namespace: str
    document_id: str
    manifest: dict[str, Any]
    doc_nav: dict[str, Any]

    def write(self, store: ObjectStore) -> None:
        if not self.cache_hit:
            store.put(self.cache_key, chunks_json(self.chunks), content_type="application/json")
        _write_artifact_objects(store, self.namespace, self.document_id, self.manifest, self.chunks, self.doc_nav)


def chunk_without_writing(store: ObjectStore, outcome: ParseOutcome, *, config: PipelineConfig) -> Chunked:
    """`chunk_stage` up to its writes (`Chunked.write`)."""
    if outcome.document is None:
        raise ValueError("chunk_stage needs a parsed document")
    key = chunk_cache_key(outcome.revision, outcome.namespace, outcome.document_id, config.chunking)
    cached = store.get(key)
    if cached is not None:
        chunks = chunks_from_dict(loads(cached))
    else:
        chunks = chunk_document(
            outcome.document,
            document_id=outcome.document_id,
            namespace=outcome.namespace,
            config=config.chunking,
            revision=outcome.revision,
        )
    manifest = _manifest(outcome, chunks, status=indexed_status(outcome), config=config)
    nav = artifacts.doc_nav(outcome.document_id, outcome.document, chunks)
    return Chunked(chunks, cached is not None, key, outcome.namespace, outcome.document_id, manifest, nav)


def indexed_status(outcome: ParseOutcome) -> str:
    """`partial` for a document a parse limit cut (indexed all the same), else `ok`."""
    return "partial" if outcome.truncation else "ok"


def write_artifacts(
    store: ObjectStore,
    outcome: ParseOutcome,
    chunks: list[Chunk],
    *,
    status: str,
    config: PipelineConfig,
) -> None:
    manifest = _manifest(outcome, chunks, status=status, config=config)
    nav = artifacts.doc_nav(outcome.document_id, outcome.document, chunks)
    _write_artifact_objects(store, outcome.namespace, outcome.document_id, manifest, chunks, nav)


def _manifest(outcome: ParseOutcome, chunks: list[Chunk], *, status: str, config: PipelineConfig) -> dict[str, Any]:
    document = outcome.document
    errors: list[dict[str, Any]] = []
    if outcome.error is not None:
        errors.append({"stage": "parse", "code": outcome.error.code, "message": outcome.error.message,
                       "page": outcome.error.page})  # fmt: skip
    manifest = artifacts.manifest(
        namespace=outcome.namespace,
        document_id=outcome.document_id,
        source_key=outcome.source_key,
        source=document.source if document else None,
        status=status,
        document=document,
        chunks=chunks,
        chunker=config.chunking.cache_key(),
        errors=errors,
    )
    if document is None:
        manifest["revision"] = outcome.revision
    return manifest


def _write_artifact_objects(
    store: ObjectStore, namespace: str, document_id: str, manifest: dict[str, Any], chunks: list[Chunk],
    doc_nav: dict[str, Any],
) -> None:  # fmt: skip
    store.put(artifact_key(namespace, document_id, "manifest.json"), dumps(manifest), content_type="application/json")
    store.put(artifact_key(namespace, document_id, "chunks.json"), chunks_json(chunks, document_id=document_id))
    store.put(artifact_key(namespace, document_id, "doc_nav.json"), dumps(doc_nav))


def publish_stage(
    index: SearchBackend,
    registry: Registry,
    outcome: ParseOutcome,
    chunks: list[Chunk],
    *,
    sequencer: str = "",
    chunker: str = "",
) -> bool:
    """Index the revision's chunks and mark the document ok. False when a newer event already won.

    `chunker` names the chunk settings the chunks were made with (kept in the registry)."""
    if not _newer_than_recorded(registry, outcome, sequencer):
        return False
    index.upsert(outcome.namespace, outcome.document_id, outcome.revision, chunks)
    written = _record_published(index, registry, outcome, len(chunks), sequencer=sequencer, chunker=chunker)
    registry.bump_namespace_version(outcome.namespace)
    return written


@dataclass(frozen=True, slots=True)
class BulkPublished:
    """What `publish_many` did not record as ok: the documents of its batch a newer event won, and those the index
    refused."""

    superseded: frozenset[str]  # a newer event for the document won, before or while publishing
    refused: dict[str, str]  # document id -> the index's reason; the previous revision and record stay

    def raise_for_refused(self) -> None:
        if self.refused:
            reasons = "; ".join(f"{document_id}: {reason}" for document_id, reason in sorted(self.refused.items()))
            raise IndexBackendError(f"the index refused {len(self.refused)} document(s): {reasons}")


def publish_many(
    index: SearchBackend,
    registry: Registry,
    batch: Sequence[tuple[ParseOutcome, list[Chunk]]],
    *,
    sequencers: Sequence[str] | None = None,
    chunker: str = "",
) -> BulkPublished:
    """`publish_stage` for documents of one namespace, each at most once, with one bulk write. `sequencers` are
    the documents' S3 event sequencers (none for a local writer). The namespace version is bumped once."""
    namespaces = {outcome.namespace for outcome, _ in batch}
    if len(namespaces) > 1:
        raise ValueError(f"publish_many takes one namespace, not {sorted(namespaces)}")
    if len({outcome.document_id for outcome, _ in batch}) < len(batch):
        raise ValueError("publish_many takes each document once")
    events = sequencers if sequencers is not None else [""] * len(batch)
    due, superseded = [], set()
    for (outcome, chunks), sequencer in zip(batch, events, strict=True):
        if _newer_than_recorded(registry, outcome, sequencer):
            due.append((outcome, chunks, sequencer))
        else:
            superseded.add(outcome.document_id)
    if not due:
        return BulkPublished(frozenset(superseded), {})
    namespace = due[0][0].namespace
    refused = index.write(
        namespace, [DocumentChunks(outcome.document_id, outcome.revision, chunks) for outcome, chunks, _ in due]
    )
    for outcome, chunks, sequencer in due:
        if outcome.document_id not in refused and not _record_published(
            index, registry, outcome, len(chunks), sequencer=sequencer, chunker=chunker
        ):
            superseded.add(outcome.document_id)
    registry.bump_namespace_version(namespace)
    return BulkPublished(frozenset(superseded), dict(refused))


def _newer_than_recorded(registry: Registry, outcome: ParseOutcome, sequencer: str) -> bool:
    current = registry.get(outcome.namespace, outcome.document_id)
    return current is None or sequencer_is_newer(sequencer, current.sequencer)


def _record_published(
    index: SearchBackend, registry: Registry, outcome: ParseOutcome, chunks: int, *, sequencer: str, chunker: str
) -> bool:
    """Mark an indexed revision ok; False when a newer event landed meanwhile (its chunks are then undone if that
    event emptied the document)."""
    record = _record(outcome, indexed_status(outcome), chunks=chunks, sequencer=sequencer, chunker=chunker)
    if outcome.truncation:
        record = replace(record, error_code=TRUNCATED_CODE, error_message=outcome.truncation)
    written = registry.put(record)
    if not written:
        winner = registry.get(outcome.namespace, outcome.document_id)
        if winner is not None and winner.status in EMPTY_STATUSES:
            index.delete(outcome.namespace, outcome.document_id)
    return written


def settle_failure(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    outcome: ParseOutcome,
    *,
    config: PipelineConfig,
    sequencer: str = "",
) -> bool:
    """Bad input: record the status and reason, drop any older revision's chunks. False when a newer event won."""
    if not record_failure(registry, outcome, sequencer=sequencer):
        return False
    status = outcome.error.status if outcome.error is not None else "failed"
    write_artifacts(store, outcome, [], status=status, config=config)
    index.delete(outcome.namespace, outcome.document_id)
    registry.bump_namespace_version(outcome.namespace)
    return True


def record_failure(registry: Registry, outcome: ParseOutcome, *, sequencer: str = "") -> bool:
    error = outcome.error
    status = error.status if error is not None else "failed"
    record = _record(outcome, status, sequencer=sequencer)
    if error is not None:
        record = replace(record, error_code=error.code, error_message=error.message)
    return registry.put(record)


def _record(
    outcome: ParseOutcome, status: Any, *, chunks: int = 0, sequencer: str = "", chunker: str = ""
) -> DocumentRecord:
    return DocumentRecord(
        namespace=outcome.namespace,
        document_id=outcome.document_id,
        source_key=outcome.source_key,
        source_file_name=outcome.source_key.rsplit("/", 1)[-1],
        status=status,
        revision=outcome.revision,
        chunk_count=chunks,
        sequencer=sequencer,
        chunker=chunker,
    )


def ingest(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    data: bytes,
    *,
    namespace: str,
    source_key: str,
    config: PipelineConfig | None = None,
    sequencer: str = "",
) -> IngestResult:
    """All three stages for one file, as the local CLI runs them."""
    config = config or PipelineConfig()
    revision = sha256_hex(data)
    unchanged = already_published(
        registry, index, revision, namespace=namespace, source_key=source_key, config=config, sequencer=sequencer
    )
    if unchanged is not None:
        return unchanged
    outcome = parse_stage(store, data, namespace=namespace, source_key=source_key, config=config, revision=revision)
    return ingest_parsed(store, registry, index, outcome, config=config, sequencer=sequencer)


def already_published(
    registry: Registry,
    index: SearchBackend,
    revision: str,
    *,
    namespace: str,
    source_key: str,
    config: PipelineConfig,
    sequencer: str = "",
) -> IngestResult | None:
    """The result of ingesting a revision (the bytes' sha256) the registry shows published as it is, with these
    chunk settings into this index (nothing to redo, not even reading the parse cache); None when there is work
    to do."""
    started = time.perf_counter()
    validate_namespace(namespace)
    doc_id = make_document_id(namespace, source_key)
    current = registry.get(namespace, doc_id)
    outcome = ParseOutcome(namespace, doc_id, source_key, revision, None)
    if current is None or not _already_published(current, outcome, published_with(config, index), sequencer):
        return None
    return _unchanged(current, started)


def ingest_parsed(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    outcome: ParseOutcome,
    *,
    config: PipelineConfig,
    sequencer: str = "",
) -> IngestResult:
    """Chunk and publish a parsed file, or settle its failure (the stages after `parse_stage`)."""
    started = time.perf_counter() - outcome.seconds
    settled = _settled_without_publishing(
        store, registry, index, outcome, config=config, sequencer=sequencer, started=started
    )
    if settled is not None:
        return settled
    chunks, chunk_hit = chunk_stage(store, outcome, config=config)
    publish_stage(index, registry, outcome, chunks, sequencer=sequencer, chunker=published_with(config, index))
    return _published(outcome, chunks, chunk_hit, started)


def _settled_without_publishing(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    outcome: ParseOutcome,
    *,
    config: PipelineConfig,
    sequencer: str,
    started: float,
) -> IngestResult | None:
    """The result of a file that failed to parse (its failure settled), or that is published as it is; None for
    a file to chunk and publish. `started`: when the file's parse began (perf_counter)."""
    namespace, source_key = outcome.namespace, outcome.source_key
    if outcome.document is None:
        current = registry.get(namespace, outcome.document_id)
        if not (outcome.cache_hit and _already_settled(current, outcome, sequencer)):
            settle_failure(store, registry, index, outcome, config=config, sequencer=sequencer)
        error = outcome.error
        return IngestResult(
            namespace, outcome.document_id, source_key, error.status if error else "failed",
            error_code=error.code if error else "", error_message=error.message if error else "",
            seconds=time.perf_counter() - started,
        )  # fmt: skip
    current = registry.get(namespace, outcome.document_id)
    if outcome.cache_hit and _already_published(current, outcome, published_with(config, index), sequencer):
        # The same bytes with the same settings are already indexed: nothing to redo.
        return _unchanged(current, started)
    return None


def _unchanged(current: DocumentRecord | None, started: float) -> IngestResult:
    """The result of a file published as it is: its record's status (`ok` or `partial`, with why) and chunks."""
    if current is None:
        raise ValueError("an unchanged document has a record")
    return IngestResult(
        current.namespace, current.document_id, current.source_key, current.status, chunks=current.chunk_count,
        error_code=current.error_code, error_message=current.error_message, parse_cache_hit=True,
        chunk_cache_hit=True, seconds=time.perf_counter() - started,
    )  # fmt: skip


def _published(outcome: ParseOutcome, chunks: list[Chunk], chunk_hit: bool, started: float) -> IngestResult:
    truncation = outcome.truncation
    return IngestResult(
        outcome.namespace, outcome.document_id, outcome.source_key, indexed_status(outcome), chunks=len(chunks),
        error_code=TRUNCATED_CODE if truncation else "", error_message=truncation,
        parse_cache_hit=outcome.cache_hit, chunk_cache_hit=chunk_hit, seconds=time.perf_counter() - started,
    )  # fmt: skip


class BatchedPublishing:
    """`ingest_parsed` over the parsed files of one writer (`docshelf ingest`), publishing their chunks together:
    one bulk write per PUBLISH_CHUNKS chunks or PUBLISH_DOCUMENTS documents. One write per small document cost
    the embedded index about 4x its share of a bulk one. A file's result comes once it is published; failed and
    unchanged files come at once. Files still waiting when the command stops have no record, so the next ingest
    publishes them (from its parse and chunk caches)."""

    PUBLISH_CHUNKS = 4096
    PUBLISH_DOCUMENTS = 256

    def __init__(self, store: ObjectStore, registry: Registry, index: SearchBackend, *, config: PipelineConfig) -> None:
        self.store, self.registry, self.index, self.config = store, registry, index, config
        self._pending: list[tuple[ParseOutcome, list[Chunk], bool, float]] = []
        self._pending_chunks = 0

    def add(self, outcome: ParseOutcome) -> list[IngestResult]:
        """Results ready after this file: its own, or those of the batch it completed (or none yet)."""
        return self.add_next(iter((outcome,))) or []

    def add_next(self, outcomes: Iterator[ParseOutcome]) -> list[IngestResult] | None:
        """`add` of the next parsed file from `outcomes`; None when there is none. Taken from the iterator here,
        so that this frame holds the only reference to its document and can let go of it once it is chunked."""
        outcome = next(outcomes, None)
        if outcome is None:
            return None
        started = time.perf_counter() - outcome.seconds
        settled = _settled_without_publishing(
            self.store, self.registry, self.index, outcome, config=self.config, sequencer="", started=started
        )
        if settled is not None:
            return [settled]
        # A batch holds one namespace and each document once (the same file named twice publishes twice).
        waiting = self._pending and (
            self._pending[0][0].namespace != outcome.namespace
            or any(pending.document_id == outcome.document_id for pending, _, _, _ in self._pending)
        )
        ready = self.flush() if waiting else []
        chunked = chunk_without_writing(self.store, outcome, config=self.config)
        # Chunked: the document is not needed to write the chunks or publish them, and may be as large as its
        # chunks (a 200 MB text), so it goes before their JSON is written.
        outcome = replace(outcome, document=None, known_truncation=outcome.truncation)
        chunked.write(self.store)
        chunks, chunk_hit = chunked.chunks, chunked.cache_hit
        self._pending.append((outcome, chunks, chunk_hit, started))
        self._pending_chunks += len(chunks)
        if self._pending_chunks >= self.PUBLISH_CHUNKS or len(self._pending) >= self.PUBLISH_DOCUMENTS:
            ready += self.flush()
        return ready

    def flush(self) -> list[IngestResult]:
        """Publish the files waiting and return their results."""
        pending, self._pending, self._pending_chunks = self._pending, [], 0
        if not pending:
            return []
        batch = [(outcome, chunks) for outcome, chunks, _, _ in pending]
        chunker = published_with(self.config, self.index)
        publish_many(self.index, self.registry, batch, chunker=chunker).raise_for_refused()
        return [_published(outcome, chunks, hit, started) for outcome, chunks, hit, started in pending]


def published_with(config: PipelineConfig, index: SearchBackend) -> str:
    """What a document's record keeps of how it was published (its `chunker` field): the chunk settings and the
    index. The same file ingested again is skipped only when both match, so a store's documents are published
    again into another index (`--backend opensearch` after the embedded one) rather than reported unchanged."""
    return f"{config.chunking.cache_key()};index={index.identity}"


def _already_published(current: DocumentRecord | None, outcome: ParseOutcome, chunker: str, sequencer: str) -> bool:
    return (
        current is not None
        and current.status in INDEXED_STATUSES
        and current.revision == outcome.revision
        and current.chunker == chunker
        and current.source_key == outcome.source_key
        and current.sequencer == sequencer
    )


def _already_settled(current: DocumentRecord | None, outcome: ParseOutcome, sequencer: str) -> bool:
    error = outcome.error
    return (
        current is not None
        and error is not None
        and current.status == error.status
        and current.error_code == error.code
        and current.revision == outcome.revision
        and current.source_key == outcome.source_key
        and current.sequencer == sequencer
    )


def delete_document(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    *,
    namespace: str,
    source_key: str,
    sequencer: str = "",
) -> bool:
    """Remove a document's chunks, artifacts and the caches holding its text (`purge`), and mark it deleted.
    False when a newer event already won."""
    doc_id = make_document_id(namespace, source_key)
    previous = registry.get(namespace, doc_id)
    record = DocumentRecord(
        namespace=namespace,
        document_id=doc_id,
        source_key=source_key,
        source_file_name=source_key.rsplit("/", 1)[-1],
        status="deleted",
        sequencer=sequencer,
    )
    if not registry.put(record):
        return False
    index.delete(namespace, doc_id)
    for name in ("chunks.json", "manifest.json", "doc_nav.json"):
        store.delete(artifact_key(namespace, doc_id, name))
    revision = previous.revision if previous is not None else ""
    purge_document_caches(store, registry, namespace=namespace, document_id=doc_id, revision=revision)
    registry.bump_namespace_version(namespace)
    return True


def event_is_current(registry: Registry, namespace: str, document_id: str, sequencer: str) -> bool:
    """False when the registry already holds a newer event for the document (a stale or reordered delivery)."""
    current = registry.get(namespace, document_id)
    return current is None or sequencer_is_newer(sequencer, current.sequencer)


def event_is_settled(registry: Registry, namespace: str, document_id: str, sequencer: str) -> bool:
    """True when this very event (or a newer one) has already been carried through to a final status."""
    current = registry.get(namespace, document_id)
    if current is None or (not current.sequencer and not sequencer):
        return False
    if current.sequencer != sequencer:
        return not sequencer_is_newer(sequencer, current.sequencer)
    return current.status in SETTLED_STATUSES


def mark_processing(registry: Registry, *, namespace: str, source_key: str, revision: str, sequencer: str) -> bool:
    """Claim the document for this event's revision; False when a newer event already won."""
    outcome = ParseOutcome(namespace, make_document_id(namespace, source_key), source_key, revision, None)
    return registry.put(_record(outcome, "processing", sequencer=sequencer))


def load_parsed(store: ObjectStore, *, namespace: str, source_key: str, revision: str) -> ParseOutcome | None:
    """The parse stage's result for a revision, from the `_ori` cache; None when it is not there."""
    cached = store.get(parse_cache_key(revision))
    if cached is None:
        return None
    document = document_from_dict(loads(cached))
    return ParseOutcome(
        namespace, make_document_id(namespace, source_key), source_key, revision, document, cache_hit=True
    )


def recorded_truncation(store: ObjectStore, *, namespace: str, document_id: str, revision: str) -> str:
    """What the chunk stage's manifest of this revision says a parse limit cut ("" when nothing, or no manifest)."""
    raw = store.get(artifact_key(namespace, document_id, "manifest.json"))
    manifest = loads(raw) if raw is not None else {}
    return str(manifest.get("truncation", "")) if manifest.get("revision") == revision else ""


def load_chunks(store: ObjectStore, outcome: ParseOutcome, *, config: PipelineConfig) -> list[Chunk] | None:
    """The chunk stage's result for a revision and chunking configuration; None when it is not there."""
    cached = store.get(chunk_cache_key(outcome.revision, outcome.namespace, outcome.document_id, config.chunking))
    return None if cached is None else chunks_from_dict(loads(cached))
