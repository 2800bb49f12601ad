"""The publish stage: a revision's chunks into the index, and the document's record marked indexed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from docshelf.config import PipelineConfig
from docshelf.embeddings.cache import VectorCache
from docshelf.errors import IndexBackendError
from docshelf.index.base import DocumentChunks, SearchBackend
from docshelf.model import Chunk
from docshelf.pipeline.events import document_record, event_standing
from docshelf.pipeline.outcomes import EMPTY_STATUSES, TRUNCATED_CODE, DocumentRef, indexed_status
from docshelf.registry import Registry


def published_with(config: PipelineConfig, index: SearchBackend) -> str:
    """What a document's record keeps of how it was published (`DocumentRecord.published_with`): the chunk
    settings and the index. The same file ingested again is skipped only when both match, so a store's documents
    are published again into another index (`--backend opensearch` after the embedded one) rather than reported
    unchanged. With an embedding provider, its name and model count too (with none, the string stays as it was)."""
    published = f"{config.chunking.cache_key()};index={index.identity}"
    if config.embedding_provider != "none":
        published += f";embeddings={config.embedding_provider}:{config.embedding_model_id}"
    return published


def document_chunks(ref: DocumentRef, chunks: Sequence[Chunk], vectors: VectorCache | None) -> DocumentChunks:
    """The revision's chunks, with their vectors from `vectors` (cached by model and chunk, made once) if given."""
    if vectors is None:
        return DocumentChunks(ref.document_id, ref.revision, chunks)
    pairs = [(chunk.chunk_id, chunk.text) for chunk in chunks]
    matrix = vectors.vectors(ref.namespace, ref.document_id, ref.revision, pairs)
    return DocumentChunks(ref.document_id, ref.revision, chunks, matrix, vectors.provider.model)


def publish_stage(
    index: SearchBackend,
    registry: Registry,
    ref: DocumentRef,
    chunks: list[Chunk],
    *,
    sequencer: str = "",
    published_with: str = "",
    vectors: VectorCache | None = None,
) -> bool:
    """Index the revision's chunks (with their vectors when `vectors` is given) and mark the document ok. False
    when a newer event already won.

    `published_with` names the chunk settings and the index (kept in the registry, see `published_with`)."""
    if _superseded(registry, ref, sequencer):
        return False
    document = document_chunks(ref, chunks, vectors)
    index.upsert(ref.namespace, ref.document_id, ref.revision, chunks, document.vectors, document.model)
    written = _record_published(index, registry, ref, len(chunks), sequencer=sequencer, published_with=published_with)
    registry.bump_namespace_version(ref.namespace)
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
    batch: Sequence[tuple[DocumentRef, list[Chunk]]],
    *,
    sequencers: Sequence[str] | None = None,
    published_with: str = "",
    vectors: VectorCache | None = None,
) -> BulkPublished:
    """`publish_stage` for documents of one namespace, each at most once, with one bulk write. `sequencers` are
    the documents' S3 event sequencers (none for a local writer). The namespace version is bumped once."""
    namespaces = {ref.namespace for ref, _ in batch}
    if len(namespaces) > 1:
        raise ValueError(f"publish_many takes one namespace, not {sorted(namespaces)}")
    if len({ref.document_id for ref, _ in batch}) < len(batch):
        raise ValueError("publish_many takes each document once")
    events = sequencers if sequencers is not None else [""] * len(batch)
    due, superseded = [], set()
    for (ref, chunks), sequencer in zip(batch, events, strict=True):
        if _superseded(registry, ref, sequencer):
            superseded.add(ref.document_id)
        else:
            due.append((ref, chunks, sequencer))
    if not due:
        return BulkPublished(frozenset(superseded), {})
    namespace = due[0][0].namespace
    refused = index.write(namespace, [document_chunks(ref, chunks, vectors) for ref, chunks, _ in due])
    for ref, chunks, sequencer in due:
        if ref.document_id not in refused and not _record_published(
            index, registry, ref, len(chunks), sequencer=sequencer, published_with=published_with
        ):
            superseded.add(ref.document_id)
    registry.bump_namespace_version(namespace)
    return BulkPublished(frozenset(superseded), dict(refused))


def _superseded(registry: Registry, ref: DocumentRef, sequencer: str) -> bool:
    return event_standing(registry, ref.namespace, ref.document_id, sequencer) == "superseded"


def _record_published(
    index: SearchBackend, registry: Registry, ref: DocumentRef, chunks: int, *, sequencer: str, published_with: str
) -> bool:
    """Mark an indexed revision ok; False when a newer event landed meanwhile (its chunks are then undone if that
    event emptied the document)."""
    record = document_record(
        ref, indexed_status(ref), chunks=chunks, sequencer=sequencer, published_with=published_with
    )
    if ref.truncation:
        record = replace(record, error_code=TRUNCATED_CODE, error_message=ref.truncation)
    written = registry.put(record)
    if not written:
        winner = registry.get(ref.namespace, ref.document_id)
        if winner is not None and winner.status in EMPTY_STATUSES:
            index.delete(ref.namespace, ref.document_id)
    return written
