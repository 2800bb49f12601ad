"""Structure-aware, token-bounded chunking of typed documents (DESIGN §4)."""

from docshelf.chunking.chunker import (
    CHUNKER_VERSION,
    DEFAULT_CHUNK_TOKENS,
    ChunkConfig,
    chunk_document,
    default_overlap,
)

__all__ = ["CHUNKER_VERSION", "DEFAULT_CHUNK_TOKENS", "ChunkConfig", "chunk_document", "default_overlap"]
