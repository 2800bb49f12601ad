"""Structure-aware, token-bounded chunking of typed documents (docs/architecture.md#chunks-and-artifacts).

The chunker itself is imported on first use of `chunk_document`, so importing the settings stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docshelf.config import DEFAULT_CHUNK_TOKENS, ChunkConfig, default_overlap

if TYPE_CHECKING:
    from docshelf.chunking.chunker import chunk_document

__all__ = ["DEFAULT_CHUNK_TOKENS", "ChunkConfig", "chunk_document", "default_overlap"]


def __getattr__(name: str) -> Any:
    if name == "chunk_document":
        from docshelf.chunking.chunker import chunk_document

        return chunk_document
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
