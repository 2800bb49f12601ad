"""Deleting a document forgets its text: the caches that hold it go too, unless another document still uses them.

The parse cache, its image assets, a parse failure marker and a long PDF's page-range parse are keyed by the bytes
alone (shared by every document with those bytes, in any namespace), so they stay while a live document (any status
but deleted) has that revision. A document's own copy of its assets goes with its artifacts
(`artifact_writing.delete_artifacts`). The chunk caches and vector caches are the document's own (keyed by namespace and
document id) and go with it, for every revision.
"""

from __future__ import annotations

from docshelf.assets.storage import delete_parsed_assets
from docshelf.keys import (
    chunk_cache_prefix,
    parse_cache_key,
    parse_failure_key,
    revision_of_chunk_cache,
    shard_prefix,
    vector_cache_prefix,
)
from docshelf.registry import Registry
from docshelf.store.base import ObjectStore


def purge_document_caches(
    store: ObjectStore, registry: Registry, *, namespace: str, document_id: str, revision: str
) -> list[str]:
    """Remove the deleted document's chunk caches, and the parse caches of its revisions (`revision`: the one
    it was recorded with) no live document shares. Call once the document is recorded deleted. Returns the keys
    removed."""
    removed = list(store.list(chunk_cache_prefix(namespace, document_id)))
    revisions = {revision_of_chunk_cache(key) for key in removed} | ({revision} if revision else set())
    for key in removed:
        store.delete(key)
    for key in list(store.list(vector_cache_prefix(namespace, document_id))):  # every model's, every revision's
        store.delete(key)
        removed.append(key)
    for unused in sorted(revisions):
        if not registry.revision_in_use(unused, besides=(namespace, document_id)):
            for key in (parse_cache_key(unused), parse_failure_key(unused)):
                if store.get(key) is not None:
                    store.delete(key)
                    removed.append(key)
            for key in list(store.list(shard_prefix(unused))):  # a long PDF's page-range parse, if one was left
                store.delete(key)
                removed.append(key)
            removed.extend(delete_parsed_assets(store, unused))
    return removed
