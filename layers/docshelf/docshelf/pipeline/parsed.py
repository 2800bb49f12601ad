"""What becomes of one parsed file on a local writer: its failure settled, its unchanged record answered, or it
chunked and published; and the result of a file published as it is. A local writer has no S3 event sequencer:
its records keep none."""

from __future__ import annotations

import time

from docshelf.config import PipelineConfig
from docshelf.embeddings.cache import VectorCache
from docshelf.index.base import SearchBackend
from docshelf.model import Chunk
from docshelf.pipeline.chunk import chunk_stage
from docshelf.pipeline.failures import settle_failure
from docshelf.pipeline.outcomes import (
    INDEXED_STATUSES,
    TRUNCATED_CODE,
    DocumentRef,
    IngestResult,
    ParseOutcome,
    failure_status,
    indexed_status,
)
from docshelf.pipeline.parse import document_ref
from docshelf.pipeline.publish import publish_stage, published_with
from docshelf.registry import DocumentRecord, Registry
from docshelf.store.base import ObjectStore


def already_published(
    registry: Registry,
    index: SearchBackend,
    revision: str,
    *,
    namespace: str,
    source_key: str,
    config: PipelineConfig,
) -> IngestResult | None:
    """The result of ingesting a revision (the bytes' sha256) the registry shows published as it is, with these
    chunk settings into this index (nothing to redo, not even reading the parse cache); None when there is work
    to do."""
    started = time.perf_counter()
    ref = document_ref(namespace, source_key, revision)
    current = registry.get(namespace, ref.document_id)
    if current is None or not _is_published(current, ref, published_with(config, index)):
        return None
    return _unchanged(current, started)


def ingest_parsed(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    outcome: ParseOutcome,
    *,
    config: PipelineConfig,
    vectors: VectorCache | None = None,
) -> IngestResult:
    """Chunk and publish a parsed file, or settle its failure (the stages after `parse_stage`)."""
    started = time.perf_counter() - outcome.seconds
    answered = answer_without_publishing(store, registry, index, outcome, config=config, started=started)
    if answered is not None:
        return answered
    chunks, chunk_hit = chunk_stage(store, outcome, config=config)
    publication = published_with(config, index)
    publish_stage(index, registry, outcome.ref, chunks, published_with=publication, vectors=vectors)
    return published_result(outcome.ref, chunks, parse_hit=outcome.cache_hit, chunk_hit=chunk_hit, started=started)


def answer_without_publishing(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    outcome: ParseOutcome,
    *,
    config: PipelineConfig,
    started: float,
) -> IngestResult | None:
    """The result of a file that failed to parse (its failure settled), or that is published as it is; None for
    a file to chunk and publish. `started`: when the file's parse began (perf_counter)."""
    ref = outcome.ref
    current = registry.get(ref.namespace, ref.document_id)
    if outcome.document is None:
        if not (outcome.cache_hit and _failure_is_recorded(current, outcome)):
            settle_failure(store, registry, index, outcome, config=config)
        error = outcome.error
        return IngestResult(
            ref.namespace, ref.document_id, ref.source_key, failure_status(outcome),
            error_code=error.code if error else "", error_message=error.message if error else "",
            seconds=time.perf_counter() - started,
        )  # fmt: skip
    if outcome.cache_hit and _is_published(current, ref, published_with(config, index)):
        # The same bytes with the same settings are already indexed: nothing to redo.
        return _unchanged(current, started)
    return None


def published_result(
    ref: DocumentRef, chunks: list[Chunk], *, parse_hit: bool, chunk_hit: bool, started: float
) -> IngestResult:
    return IngestResult(
        ref.namespace, ref.document_id, ref.source_key, indexed_status(ref), chunks=len(chunks),
        error_code=TRUNCATED_CODE if ref.truncation else "", error_message=ref.truncation,
        parse_cache_hit=parse_hit, chunk_cache_hit=chunk_hit, seconds=time.perf_counter() - started,
    )  # fmt: skip


def _unchanged(current: DocumentRecord | None, started: float) -> IngestResult:
    """The result of a file published as it is: its record's status (`ok` or `partial`, with why) and chunks."""
    if current is None:
        raise ValueError("an unchanged document has a record")
    return IngestResult(
        current.namespace, current.document_id, current.source_key, current.status, chunks=current.chunk_count,
        error_code=current.error_code, error_message=current.error_message, parse_cache_hit=True,
        chunk_cache_hit=True, seconds=time.perf_counter() - started,
    )  # fmt: skip


def _is_published(current: DocumentRecord | None, ref: DocumentRef, publication: str) -> bool:
    return (
        current is not None
        and current.status in INDEXED_STATUSES
        and current.revision == ref.revision
        and current.published_with == publication
        and current.source_key == ref.source_key
        and not current.sequencer
    )


def _failure_is_recorded(current: DocumentRecord | None, outcome: ParseOutcome) -> bool:
    error = outcome.error
    return (
        current is not None
        and error is not None
        and current.status == error.status
        and current.error_code == error.code
        and current.revision == outcome.ref.revision
        and current.source_key == outcome.ref.source_key
        and not current.sequencer
    )
