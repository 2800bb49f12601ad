"""Re-embedding a namespace: every published chunk given a vector of another model (or its first), in one write.

A namespace holds vectors of one model (index/vector_model.py), so a model change must replace every document's
vectors together: the chunks are read back from the index (what is published, nothing parsed or chunked again),
embedded through the vector cache (a chunk embedded before by that model is read, not embedded), and written as one
batch, which the index takes because it replaces every chunk of the namespace.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from docshelf.embeddings.cache import VectorCache
from docshelf.index.base import SearchBackend
from docshelf.index.plan import SearchFilters
from docshelf.model import Chunk
from docshelf.pipeline.outcomes import DocumentRef
from docshelf.pipeline.publish import document_chunks
from docshelf.registry import Registry

_PUBLISHED = ("ok", "partial")
_EVERY_CHUNK = 2**62
_EMBEDDINGS_PART = ";embeddings="


@dataclass(frozen=True, slots=True)
class Reembedded:
    documents: int
    chunks: int
    refused: dict[str, str]  # document id -> the index's reason; those documents keep their vectors


def with_embeddings(published_with: str, embeddings: str) -> str:
    """A record's `published_with` (pipeline.publish.published_with) naming other embeddings ("provider:model")."""
    return published_with.split(_EMBEDDINGS_PART, 1)[0] + _EMBEDDINGS_PART + embeddings


def reembed_namespace(
    index: SearchBackend, registry: Registry, namespace: str, vectors: VectorCache, *, embeddings: str
) -> Reembedded:
    """Embed every chunk of `namespace` with `vectors`' model and write them all at once (a failed document whose
    previous revision is still published included); the records of published documents then name `embeddings`
    ("provider:model"), so the next ingest with those settings skips them."""
    records = {r.document_id: r for r in registry.list(namespace)}
    by_document: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in index.list_chunks(namespace, SearchFilters(), _EVERY_CHUNK):
        by_document[chunk.document_id].append(chunk)
    documents = []
    for document_id, chunks in sorted(by_document.items()):
        found = records.get(document_id)
        source_key = found.source_key if found is not None else chunks[0].source_file_name
        ref = DocumentRef(namespace, document_id, source_key, chunks[0].revision)
        documents.append(document_chunks(ref, sorted(chunks, key=lambda c: c.ordinal), vectors))
    refused = dict(index.write(namespace, documents)) if documents else {}
    for document in documents:
        found = records.get(document.document_id)
        if document.document_id not in refused and found is not None and found.status in _PUBLISHED:
            registry.put(replace(found, published_with=with_embeddings(found.published_with, embeddings), updated_at=0))
    index.commit()
    registry.bump_namespace_version(namespace)
    written = [d for d in documents if d.document_id not in refused]
    return Reembedded(len(written), sum(len(d.chunks) for d in written), refused)
