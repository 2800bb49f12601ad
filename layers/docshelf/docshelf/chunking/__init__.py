"""Structure-aware, token-bounded chunking of typed documents (DESIGN §4)."""

from docshelf.chunking.chunker import CHUNKER_VERSION, ChunkConfig, chunk_document

__all__ = ["CHUNKER_VERSION", "ChunkConfig", "chunk_document"]
