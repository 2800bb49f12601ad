"""Object keys, as pure functions of content hashes, versions and parameters (never of paths)."""

from __future__ import annotations

import hashlib

from docshelf.chunking import ChunkConfig
from docshelf.parsers import PARSER_VERSION


def parse_cache_key(sha256: str) -> str:
    return f"cache/{sha256}_p{PARSER_VERSION}_ori.json"


def parse_failure_key(sha256: str) -> str:
    """Where a parse failure that depends only on the bytes (not on limits) is remembered."""
    return f"cache/{sha256}_p{PARSER_VERSION}_failed.json"


def chunk_cache_key(sha256: str, namespace: str, document_id: str, config: ChunkConfig) -> str:
    material = "\x00".join([sha256, PARSER_VERSION, config.cache_key(), namespace, document_id])
    return f"cache/chunks/{hashlib.sha256(material.encode()).hexdigest()}.json"


def document_prefix(namespace: str, document_id: str) -> str:
    return f"docs/{namespace}/{document_id}/"


def artifact_key(namespace: str, document_id: str, name: str) -> str:
    return document_prefix(namespace, document_id) + name
