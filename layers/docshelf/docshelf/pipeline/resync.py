"""Re-sync: publish a namespace again from its stored artifacts and the registry, after a change of embedding model,
engine or index (its name, hence its template) — through the publish stage, nothing parsed or chunked again.

Which documents are due is read off the registry: a published document whose record names other publishing settings
(`DocumentRecord.published_with`: the chunk settings, the index, the embedding model) than the current ones. Each
batch of `publish_many` records the new settings on its documents, so the registry is the progress: a run that
stops midway is finished by the next, and a run with nothing due writes nothing. A record a newer S3 event changed
meanwhile is left to that event (the registry's sequencer condition).

Vectors of two models never share a namespace (index/vector_model.py), so when the namespace's vectors are of
another model than the current one, its documents are written in one `publish_many` (the index takes a write that
replaces every chunk at once): searches see the old vectors until that write, the new ones after it, never a mix.
Their vectors come from the vector cache, saved as they are made, so a re-run after a crash embeds only the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from docshelf.config import PipelineConfig
from docshelf.embeddings.cache import VectorCache
from docshelf.index.base import SearchBackend
from docshelf.index.plan import SearchFilters
from docshelf.index.vector_model import VectorModel
from docshelf.model import Chunk
from docshelf.pipeline.caches import stored_chunks
from docshelf.pipeline.outcomes import INDEXED_STATUSES, DocumentRef
from docshelf.pipeline.publish import publish_many, published_with
from docshelf.registry import DocumentRecord, Registry
from docshelf.store.base import ObjectStore

DEFAULT_BATCH_DOCUMENTS = 25
READERS = 8


@dataclass(frozen=True, slots=True)
class ResyncPlan:
    """What a re-sync of a namespace has to do, read from the registry and the index before anything is written."""

    namespace: str
    target: str  # the `published_with` every published document gets
    published: tuple[DocumentRecord, ...]  # the namespace's documents in an indexed status
    due: tuple[DocumentRecord, ...]  # those published with other settings; every one of them when `whole`
    processing: tuple[str, ...]  # documents an ingest is carrying through now (their own publish takes the settings)
    whole: bool  # the namespace's vectors are of another model: every published document goes in one write

    @property
    def done(self) -> bool:
        return not self.due


@dataclass(frozen=True, slots=True)
class Resynced:
    plan: ResyncPlan
    published: tuple[str, ...] = ()  # document ids written with the new settings
    superseded: tuple[str, ...] = ()  # a newer event for the document won: its own publish takes the settings
    refused: dict[str, str] = field(default_factory=dict)  # document id -> the index's reason; the record stays
    missing: dict[str, str] = field(default_factory=dict)  # document id -> why its chunks could not be read


def plan_resync(
    index: SearchBackend, registry: Registry, namespace: str, *, config: PipelineConfig, vectors: VectorCache | None
) -> ResyncPlan:
    """The published documents of `namespace` and which of them the current settings would publish differently."""
    target = published_with(config, index)
    records = registry.list(namespace)
    published = tuple(r for r in records if r.status in INDEXED_STATUSES)
    due = tuple(r for r in published if r.published_with != target)
    processing = tuple(r.document_id for r in records if r.status == "processing")
    wanted = None if vectors is None else VectorModel.of(vectors.provider.model)
    whole = bool(due) and index.vector_model(namespace) != wanted and index.count(namespace, SearchFilters()) > 0
    return ResyncPlan(namespace, target, published, published if whole else due, processing, whole)


def resync_namespace(
    store: ObjectStore,
    index: SearchBackend,
    registry: Registry,
    namespace: str,
    *,
    config: PipelineConfig,
    vectors: VectorCache | None,
    batch_documents: int = DEFAULT_BATCH_DOCUMENTS,
    on_batch: Callable[[Resynced], None] | None = None,
) -> Resynced:
    """Publish the due documents of `namespace` (`plan_resync`) from their chunk caches: `batch_documents` a
    `publish_many`, each batch committed to the index before the next (or all at once when the model changes).
    `on_batch` is told the running totals after each batch (progress)."""
    if batch_documents < 1:
        raise ValueError(f"batch_documents must be at least 1, not {batch_documents}")
    plan = plan_resync(index, registry, namespace, config=config, vectors=vectors)
    done = Resynced(plan)
    size = len(plan.due) if plan.whole else batch_documents
    for start in range(0, len(plan.due), size):
        done = _publish_batch(store, index, registry, plan.due[start : start + size], done, config, vectors)
        if on_batch is not None:
            on_batch(done)
    return done


def _publish_batch(
    store: ObjectStore,
    index: SearchBackend,
    registry: Registry,
    records: Sequence[DocumentRecord],
    done: Resynced,
    config: PipelineConfig,
    vectors: VectorCache | None,
) -> Resynced:
    batch: list[tuple[DocumentRef, list[Chunk], str]] = []
    missing = dict(done.missing)
    with ThreadPoolExecutor(READERS) as readers:  # two GETs a document (manifest, chunk cache), each a round trip
        stored = list(readers.map(lambda record: stored_chunks(store, record, config=config), records))
    for record, (ref, chunks) in zip(records, stored, strict=True):
        if chunks is None:
            missing[record.document_id] = f"the chunk cache of revision {record.revision} is missing"
        else:
            batch.append((ref, chunks, record.sequencer))
    if not batch:
        return replace(done, missing=missing)
    outcome = publish_many(
        index,
        registry,
        [(ref, chunks) for ref, chunks, _ in batch],
        sequencers=[sequencer for *_, sequencer in batch],
        published_with=done.plan.target,
        vectors=vectors,
    )
    index.commit()
    ids = [ref.document_id for ref, _, _ in batch]
    written = [i for i in ids if i not in outcome.refused and i not in outcome.superseded]
    return replace(
        done,
        published=done.published + tuple(written),
        superseded=done.superseded + tuple(i for i in ids if i in outcome.superseded),
        refused={**done.refused, **outcome.refused},
        missing=missing,
    )


@dataclass(frozen=True, slots=True)
class EmbeddedAhead:
    documents: int  # published documents whose vectors of the model are now in the vector cache
    chunks: int
    missing: dict[str, str] = field(default_factory=dict)  # document id -> why its chunks could not be read


def embed_ahead(
    store: ObjectStore,
    registry: Registry,
    namespace: str,
    *,
    config: PipelineConfig,
    vectors: VectorCache,
    workers: int = 1,
    on_document: Callable[[int], None] | None = None,
) -> EmbeddedAhead:
    """Put the vectors of `vectors`' model of every published document of `namespace` in the vector cache, writing
    nothing else: run before a deploy changes the embedding model, it leaves the re-sync after it only reading
    vectors, so publishes are refused (and the semantic channel off) for less time. Resumable like the cache.
    `workers` documents are embedded at a time (Bedrock answers one chunk a request: its latency, not the CPU, is
    the limit); `on_document` is told how many documents are done after each."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    published = [r for r in registry.list(namespace) if r.status in INDEXED_STATUSES]

    def embed(record: DocumentRecord) -> int | None:
        ref, stored = stored_chunks(store, record, config=config)
        if stored is None:
            return None
        vectors.vectors(namespace, ref.document_id, ref.revision, [(c.chunk_id, c.text) for c in stored])
        return len(stored)

    done, chunks, missing = 0, 0, {}
    with ThreadPoolExecutor(workers) as pool:
        for record, embedded in zip(published, pool.map(embed, published), strict=True):
            if embedded is None:
                missing[record.document_id] = f"the chunk cache of revision {record.revision} is missing"
            else:
                done, chunks = done + 1, chunks + embedded
            if on_document is not None:
                on_document(done + len(missing))
    return EmbeddedAhead(done, chunks, missing)
