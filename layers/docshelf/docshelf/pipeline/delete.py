"""The delete stage: a document's chunks, artifacts and cached text removed, its record marked deleted."""

from __future__ import annotations

from docshelf.ids import document_id as make_document_id
from docshelf.index.base import SearchBackend
from docshelf.pipeline.artifact_writing import delete_artifacts
from docshelf.pipeline.events import document_record
from docshelf.pipeline.outcomes import DocumentRef
from docshelf.purge import purge_document_caches
from docshelf.registry import Registry
from docshelf.store.base import ObjectStore


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
    ref = DocumentRef(namespace, make_document_id(namespace, source_key), source_key, revision="")
    previous = registry.get(namespace, ref.document_id)
    if not registry.put(document_record(ref, "deleted", sequencer=sequencer)):
        return False
    index.delete(namespace, ref.document_id)
    delete_artifacts(store, namespace, ref.document_id)
    revision = previous.revision if previous is not None else ""
    purge_document_caches(store, registry, namespace=namespace, document_id=ref.document_id, revision=revision)
    registry.bump_namespace_version(namespace)
    return True
