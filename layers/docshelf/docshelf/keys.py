"""Object keys, as pure functions of content hashes, versions and parameters (never of paths)."""

from __future__ import annotations

import hashlib

from docshelf.config import ChunkConfig
from docshelf.versions import PARSER_VERSION


def parse_cache_key(sha256: str) -> str:
    return f"cache/{sha256}_p{PARSER_VERSION}_ori.json"


def parse_failure_key(sha256: str) -> str:
    """Where a parse failure that depends only on the bytes (not on limits) is remembered."""
    return f"cache/{sha256}_p{PARSER_VERSION}_failed.json"


def chunk_cache_prefix(namespace: str, document_id: str) -> str:
    """Where all chunk caches of one document sit, so deleting the document can find them."""
    return f"cache/chunks/{namespace}/{document_id}/"


def chunk_cache_key(sha256: str, namespace: str, document_id: str, config: ChunkConfig) -> str:
    """Named `<revision>_<hash of the rest>.json`: a deleted document's revisions are read back from the names."""
    material = "\x00".join([sha256, PARSER_VERSION, config.cache_key(), namespace, document_id])
    return f"{chunk_cache_prefix(namespace, document_id)}{sha256}_{hashlib.sha256(material.encode()).hexdigest()}.json"


def revision_of_chunk_cache(key: str) -> str:
    return key.rsplit("/", 1)[-1].split("_", 1)[0]


def vector_cache_prefix(namespace: str, document_id: str) -> str:
    """Where all vector caches of one document sit (every model, every revision), so deleting it can find them."""
    return f"cache/vectors/{namespace}/{document_id}/"


def vector_cache_model_prefix(model_key: str, namespace: str, document_id: str) -> str:
    """Where one embedding model's vectors of a document sit (`EmbeddingModel.key`), one object a revision."""
    return f"{vector_cache_prefix(namespace, document_id)}{model_key}/"


def vector_cache_key(model_key: str, namespace: str, document_id: str, revision: str) -> str:
    """The vectors one embedding model made for the chunks of one document revision."""
    return f"{vector_cache_model_prefix(model_key, namespace, document_id)}{revision}.npz"


def document_prefix(namespace: str, document_id: str) -> str:
    return f"docs/{namespace}/{document_id}/"


def artifact_key(namespace: str, document_id: str, name: str) -> str:
    return document_prefix(namespace, document_id) + name


def shard_prefix(sha256: str) -> str:
    """Where the page-range parse of one revision keeps its plan and partial results (next to its `_ori`)."""
    return f"cache/{sha256}_p{PARSER_VERSION}_shards/"


def shard_plan_key(sha256: str) -> str:
    return f"{shard_prefix(sha256)}plan.json"


def shard_range_key(sha256: str, start: int, end: int) -> str:
    """Pages [start, end) (0-based page indexes) of the revision, read apart."""
    return f"{shard_prefix(sha256)}pages_{start:05d}-{end:05d}.json"


def parsed_asset_prefix(sha256: str) -> str:
    """Where the parse stage keeps the image assets of a revision, beside its parse cache and shared like it."""
    return f"cache/{sha256}_p{PARSER_VERSION}_assets/"


def asset_prefix(namespace: str, document_id: str) -> str:
    """A document's image assets, `assets/<sha256>.<ext>` next to its other artifacts."""
    return document_prefix(namespace, document_id) + "assets/"
