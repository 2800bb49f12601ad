"""Chunking settings: light enough for any module (the search function) to import without the chunker."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from docshelf.errors import InvalidConfigError

CHUNKER_VERSION = "4"
DEFAULT_CHUNK_TOKENS = 500
DEFAULT_OVERLAP_TOKENS = 40


def default_overlap(chunk_tokens: int) -> int:
    """The default overlap, kept small relative to smaller chunks."""
    return min(DEFAULT_OVERLAP_TOKENS, chunk_tokens // 8)


@dataclass(frozen=True, slots=True)
class ChunkConfig:
    chunk_tokens: int = DEFAULT_CHUNK_TOKENS
    overlap_tokens: int = DEFAULT_OVERLAP_TOKENS
    whole_document_tokens: int = 0
    overlap_across_pages: bool = False
    # A new section starts a new chunk once the current one holds this share of the budget.
    section_break_fill: float = 0.3

    def __post_init__(self) -> None:
        if self.chunk_tokens < 16:
            raise InvalidConfigError("chunk_tokens must be at least 16")
        if not 0 <= self.overlap_tokens < self.chunk_tokens // 2:
            raise InvalidConfigError("overlap_tokens must be at least 0 and less than half of chunk_tokens")
        if self.whole_document_tokens < 0:
            raise InvalidConfigError("whole_document_tokens must not be negative")

    def cache_key(self) -> str:
        fields = ",".join(f"{k}={v}" for k, v in sorted(asdict(self).items()))
        return f"chunker{CHUNKER_VERSION}:{fields}"
