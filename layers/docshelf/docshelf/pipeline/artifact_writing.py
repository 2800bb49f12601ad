"""The per-document artifacts in the store: manifest.json, chunks.json and doc_nav.json (the document graph is
built from chunks.json when asked for: docshelf/graph/source.py)."""

from __future__ import annotations

from typing import Any

from docshelf import artifacts
from docshelf.assets.storage import delete_document_assets
from docshelf.config import PipelineConfig
from docshelf.errors import DocumentError
from docshelf.keys import artifact_key
from docshelf.model import Chunk, Document
from docshelf.pipeline.outcomes import DocumentRef
from docshelf.serde import chunks_json, dumps
from docshelf.store.base import ObjectStore, put_again


def manifest(
    ref: DocumentRef,
    document: Document | None,
    chunks: list[Chunk],
    *,
    status: str,
    config: PipelineConfig,
    error: DocumentError | None = None,
    sections: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    errors: list[dict[str, Any]] = []
    if error is not None:
        errors.append({"stage": "parse", "code": error.code, "message": error.message, "page": error.page})
    built = artifacts.manifest(
        namespace=ref.namespace,
        document_id=ref.document_id,
        source_key=ref.source_key,
        source=document.source if document else None,
        status=status,
        document=document,
        chunks=chunks,
        chunker=config.chunking.cache_key(),
        errors=errors,
        sections=sections,
    )
    if document is None:
        built["revision"] = ref.revision
    return built


def write_artifact_objects(
    store: ObjectStore,
    ref: DocumentRef,
    manifest: dict[str, Any],
    chunks: list[Chunk],
    doc_nav: dict[str, Any],
    *,
    chunks_data: bytes | None = None,
    same_as: str | None = None,
) -> None:
    """The three objects. `chunks_data`: chunks.json's bytes if made already; `same_as`: an object holding just
    those bytes, which chunks.json may become a second name of (`put_again`)."""
    namespace, document_id = ref.namespace, ref.document_id
    store.put(artifact_key(namespace, document_id, "manifest.json"), dumps(manifest), content_type="application/json")
    if chunks_data is None:
        chunks_data = chunks_json(chunks, document_id=document_id)
    chunks_key = artifact_key(namespace, document_id, "chunks.json")
    if same_as is None:
        store.put(chunks_key, chunks_data)
    else:
        put_again(store, chunks_key, chunks_data, same_as=same_as, content_type="application/octet-stream")
    store.put(artifact_key(namespace, document_id, "doc_nav.json"), dumps(doc_nav))


def write_failure_artifacts(
    store: ObjectStore, ref: DocumentRef, error: DocumentError | None, *, status: str, config: PipelineConfig
) -> None:
    """The artifacts of a document without content: its manifest says why, and it has no chunks."""
    failed = manifest(ref, None, [], status=status, config=config, error=error)
    write_artifact_objects(store, ref, failed, [], artifacts.doc_nav(ref.document_id, None, []))
    delete_document_assets(store, namespace=ref.namespace, document_id=ref.document_id)


def delete_artifacts(store: ObjectStore, namespace: str, document_id: str) -> None:
    for name in ("chunks.json", "manifest.json", "doc_nav.json"):
        store.delete(artifact_key(namespace, document_id, name))
    delete_document_assets(store, namespace=namespace, document_id=document_id)
