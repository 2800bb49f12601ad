"""The HTTP contract as pydantic models: Powertools validates requests and responses against them and builds
the OpenAPI document from them. Only the HTTP edge imports this module (pydantic stays out of the core)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from docshelf.api.limits import (
    MAX_EVIDENCE_TOKENS,
    MAX_FILTER_VALUE_CHARS,
    MAX_FILTER_VALUES,
    MAX_QUERY_CHARS,
    TOP_K_LIMIT,
)
from docshelf.search.service import DEFAULT_MAX_TOKENS, DEFAULT_TOP_K

NAMESPACE_REGEX = r"^[a-z0-9][a-z0-9_-]{0,63}$"
DOCUMENT_ID_REGEX = r"^[A-Za-z0-9_-]{1,128}$"

Namespace = Annotated[str, StringConstraints(pattern=NAMESPACE_REGEX, max_length=64)]
FilterValue = Annotated[str, StringConstraints(min_length=1, max_length=MAX_FILTER_VALUE_CHARS)]
ChunkType = Literal["text", "table", "image"]
DocumentStatus = Literal["processing", "ok", "failed", "needs_ocr", "deleted"]


def _no_control_characters(value: str) -> str:
    if any((ord(char) < 32 and char not in "\t\n\r") or ord(char) == 127 for char in value):
        raise ValueError("control characters are not allowed")
    return value


class SearchFiltersBody(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    documents: list[FilterValue] = Field(default_factory=list, max_length=MAX_FILTER_VALUES)
    exclude_documents: list[FilterValue] = Field(default_factory=list, max_length=MAX_FILTER_VALUES)
    exclude_sections: list[FilterValue] = Field(default_factory=list, max_length=MAX_FILTER_VALUES)
    chunk_types: list[ChunkType] = Field(default_factory=list, max_length=3)

    @field_validator("documents", "exclude_documents", "exclude_sections")
    @classmethod
    def _plain_values(cls, values: list[str]) -> list[str]:
        return [_no_control_characters(value) for value in values]


class SearchBody(BaseModel):
    """DESIGN §5. The query is plain text: it is analysed into terms and never parsed as query syntax."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    namespace: Namespace
    query: Annotated[str, StringConstraints(min_length=1, max_length=MAX_QUERY_CHARS)]
    top_k: int = Field(DEFAULT_TOP_K, ge=1, le=TOP_K_LIMIT, strict=True)
    max_tokens: int = Field(DEFAULT_MAX_TOKENS, ge=1, le=MAX_EVIDENCE_TOKENS, strict=True)
    filters: SearchFiltersBody = Field(default_factory=SearchFiltersBody)

    @field_validator("query")
    @classmethod
    def _query_has_text(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the query is empty")
        return _no_control_characters(value)


class LinkOut(BaseModel):
    target: str
    relation: str
    ref: str
    position: int


class SearchResultOut(BaseModel):
    chunk_id: str
    document_id: str
    namespace: str
    chunk_type: ChunkType
    type: ChunkType
    text: str
    section_path: list[str]
    pages: list[int]
    token_count: int
    ordinal: int
    source_file_name: str
    revision: str
    connect_to: list[LinkOut]
    overlap_chars: int
    score: float
    channel_ranks: dict[str, int]


class SearchOut(BaseModel):
    evidence_text: str = Field(description="The ranked chunks with citation headers, as many as fit max_tokens")
    answer_text: str = Field(description="Always empty (kept for compatibility)")
    results: list[SearchResultOut] = Field(description="The top_k ranked chunks, not cut by the budget")
    total_chunks: int
    evidence_chunks: int
    cache: Literal["hit", "miss"]
    took_ms: float


class DocumentOut(BaseModel):
    namespace: str
    document_id: str
    source_key: str
    source_file_name: str
    status: DocumentStatus
    revision: str
    chunk_count: int
    error_code: str
    error_message: str
    sequencer: str
    updated_at: float


class DocumentListOut(BaseModel):
    namespace: str
    documents: list[DocumentOut]


class ErrorOut(BaseModel):
    message: str
    errors: list[dict[str, str]] = Field(default_factory=list)
