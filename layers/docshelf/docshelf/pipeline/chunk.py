"""The chunk stage: Document -> chunks through the chunk cache, and the per-document artifacts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docshelf import artifacts
from docshelf.assets.storage import place_document_assets
from docshelf.chunking import chunk_document
from docshelf.config import PipelineConfig
from docshelf.keys import chunk_cache_key
from docshelf.model import Chunk, Document, is_asset_ref
from docshelf.pipeline.artifact_writing import manifest, write_artifact_objects
from docshelf.pipeline.outcomes import DocumentRef, ParseOutcome, indexed_status
from docshelf.serde import chunks_from_dict, chunks_json, loads
from docshelf.store.base import ObjectStore


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

    ref: DocumentRef
    chunks: list[Chunk]
    cache_hit: bool
    cache_key: str
    manifest: dict[str, Any]
    doc_nav: dict[str, Any]
    asset_names: tuple[str, ...] = ()  # the image assets the document names, placed in its folder

    def write(self, store: ObjectStore) -> None:
        """On a miss the chunk cache first, then the artifacts. The cache holds chunks.json's bytes (the chunk
        reader takes them as they are), so chunks.json is put as a second name of the cache's object where the
        store can (a hard link on a local store: one file, not two). That way round a cache object always holds
        its own revision's chunks, whatever another writer does to chunks.json meanwhile."""
        ref = self.ref
        chunks_data = chunks_json(self.chunks, document_id=ref.document_id)
        if not self.cache_hit:
            store.put(self.cache_key, chunks_data, content_type="application/json")
        place_document_assets(
            store, namespace=ref.namespace, document_id=ref.document_id, revision=ref.revision, names=self.asset_names
        )
        write_artifact_objects(
            store, ref, self.manifest, self.chunks, self.doc_nav, chunks_data=chunks_data,
            same_as=None if self.cache_hit else self.cache_key,
        )  # fmt: skip


def chunk_without_writing(store: ObjectStore, outcome: ParseOutcome, *, config: PipelineConfig) -> Chunked:
    """`chunk_stage` up to its writes (`Chunked.write`)."""
    ref, document = outcome.ref, outcome.document
    if document is None:
        raise ValueError("chunk_stage needs a parsed document")
    key = chunk_cache_key(ref.revision, ref.namespace, ref.document_id, config.chunking)
    cached = store.get(key)
    if cached is not None:
        chunks = chunks_from_dict(loads(cached))
    else:
        chunks = chunk_document(
            document, document_id=ref.document_id, namespace=ref.namespace, config=config.chunking,
            revision=ref.revision, source_key=ref.source_key,
        )  # fmt: skip
    sections = artifacts.section_dicts(document, chunks)  # once: the manifest and doc_nav hold the same tree
    built = manifest(ref, document, chunks, status=indexed_status(ref), config=config, sections=sections)
    nav = artifacts.doc_nav(ref.document_id, document, chunks, sections=sections)
    return Chunked(ref, chunks, cached is not None, key, built, nav, document_assets(document))


def document_assets(document: Document) -> tuple[str, ...]:
    """The stored image assets a document's Image blocks name, each once, in reading order."""
    names = (block.asset_ref for block in document.blocks() if block.kind == "image" and is_asset_ref(block.asset_ref))
    return tuple(dict.fromkeys(names))
