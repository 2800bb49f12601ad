"""What a later stage (a Lambda of its own) reads back of an earlier one: the parse and chunk caches and the
manifest's truncation."""

from __future__ import annotations

from docshelf.config import PipelineConfig
from docshelf.keys import artifact_key, chunk_cache_key, parse_cache_key
from docshelf.model import Chunk
from docshelf.pipeline.content_only import named_document
from docshelf.pipeline.outcomes import DocumentRef, ParseOutcome
from docshelf.pipeline.parse import parsed
from docshelf.registry import DocumentRecord
from docshelf.serde import chunks_from_dict, document_from_dict, loads
from docshelf.store.base import ObjectStore


def load_parsed(store: ObjectStore, ref: DocumentRef, *, uri: str = "", fetched_at: str = "") -> ParseOutcome | None:
    """The parse stage's result for a revision, from the `_ori` cache, named for `ref`'s document (its uri `uri`,
    default its key, and a web page's `fetched_at`); None when it is not there."""
    cached = store.get(parse_cache_key(ref.revision))
    if cached is None:
        return None
    document = named_document(document_from_dict(loads(cached)), ref.source_key, uri=uri, fetched_at=fetched_at)
    return parsed(ref, document, cache_hit=True)


def recorded_parse(store: ObjectStore, *, namespace: str, document_id: str, revision: str) -> tuple[str, int]:
    """What the chunk stage's manifest of this revision says a parse limit cut ("" when nothing) and the
    document's page count; ("", 0) without a manifest of that revision."""
    raw = store.get(artifact_key(namespace, document_id, "manifest.json"))
    manifest = loads(raw) if raw is not None else {}
    if manifest.get("revision") != revision:
        return "", 0
    return str(manifest.get("truncation", "")), int(manifest.get("stats", {}).get("pages", 0))


def load_chunks(store: ObjectStore, ref: DocumentRef, *, config: PipelineConfig) -> list[Chunk] | None:
    """The chunk stage's result for a revision and chunking configuration; None when it is not there."""
    cached = store.get(chunk_cache_key(ref.revision, ref.namespace, ref.document_id, config.chunking))
    return None if cached is None else chunks_from_dict(loads(cached))


def stored_chunks(
    store: ObjectStore, document: DocumentRef | DocumentRecord, *, config: PipelineConfig
) -> tuple[DocumentRef, list[Chunk] | None]:
    """A chunked revision as the publish stage takes it (what a parse limit cut, its pages, from its manifest) with
    its chunks from the chunk cache of `config`'s chunk settings (None when they are not there)."""
    truncation, pages = recorded_parse(
        store, namespace=document.namespace, document_id=document.document_id, revision=document.revision
    )
    ref = DocumentRef(
        document.namespace, document.document_id, document.source_key, document.revision, truncation, pages
    )
    return ref, load_chunks(store, ref, config=config)
