"""The API's responses as frozen dataclasses, one per published response schema (`docshelf.api.schemas`).

Each type names the schema it reads (`SCHEMA`); a test holds every field to that schema's properties, so the
client and the server's contract cannot drift apart. A field the server adds later lands in `extra` rather than
breaking an older client.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="Record")


@dataclass(frozen=True, slots=True)
class Record:
    SCHEMA: ClassVar[str] = ""
    NESTED: ClassVar[Mapping[str, type[Record]]] = {}  # list or object fields read as another record type

    @classmethod
    def from_json(cls: type[T], data: Mapping[str, Any]) -> T:
        known = {f.name for f in fields(cls) if f.init and f.name != "extra"}
        values: dict[str, Any] = {}
        for name in known & set(data):
            values[name] = _nested(cls.NESTED.get(name), data[name])
        extra = {name: value for name, value in data.items() if name not in known}
        return cls(**values, extra=extra)  # type: ignore[call-arg]


def _nested(kind: type[Record] | None, value: Any) -> Any:
    if kind is None or value is None:
        return value
    if isinstance(value, list):
        return [kind.from_json(item) for item in value]
    return kind.from_json(value)


@dataclass(frozen=True, slots=True)
class Link(Record):
    SCHEMA: ClassVar[str] = "LinkOut"
    target: str = ""
    relation: str = ""
    ref: str = ""
    position: int = 0
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class TableCells(Record):
    SCHEMA: ClassVar[str] = "TableCellsOut"
    caption: str = ""
    header_rows: int = 0
    rows: list[list[str]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class SearchHit(Record):
    """One ranked chunk with its citation: document, chunk, file, section path, pages."""

    SCHEMA: ClassVar[str] = "SearchResultOut"
    NESTED: ClassVar[Mapping[str, type[Record]]] = {"connect_to": Link, "table": TableCells}
    chunk_id: str = ""
    document_id: str = ""
    namespace: str = ""
    chunk_type: str = "text"
    text: str = ""
    section_path: list[str] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)
    token_count: int = 0
    ordinal: int = 0
    source_file_name: str = ""
    source_key: str = ""
    revision: str = ""
    connect_to: list[Link] = field(default_factory=list)
    overlap_chars: int = 0
    citation_tokens: int = 0
    score: float = 0.0
    lexical_score: float = 0.0
    confidence: float = 0.0
    evidence_ref: int | None = None  # its [n] in evidence_text, None when the budget left it out
    evidence_excerpt: str | None = None  # the part of its text that went into the evidence
    channel_ranks: dict[str, int] = field(default_factory=dict)
    asset: str | None = None
    highlights: list[list[int]] = field(default_factory=list)
    table: TableCells | None = None
    step_id: str | None = None
    agent_score: float | None = None
    discovery_score: float | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def citation(self) -> str:
        """source key | section path | pages | document_id#chunk_id: the whole citation (the evidence's compact
        `[n]` headers leave the ids to the results)."""
        parts = [self.source_key or self.source_file_name]
        if self.section_path:
            parts.append(" > ".join(self.section_path))
        if self.pages:
            first, last = self.pages[0], self.pages[-1]
            parts.append(f"p. {first}" if len(self.pages) == 1 else f"pp. {first}-{last}")
        parts.append(f"{self.document_id}#{self.chunk_id}")
        return " | ".join(parts)


@dataclass(frozen=True, slots=True)
class PlanStep(Record):
    SCHEMA: ClassVar[str] = "AgenticPlanStepOut"
    id: str = ""
    action: str = ""
    query: str = ""
    depends_on: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class Plan(Record):
    SCHEMA: ClassVar[str] = "AgenticPlanOut"
    NESTED: ClassVar[Mapping[str, type[Record]]] = {"steps": PlanStep}
    planner: str = ""
    fallback_reason: str | None = None
    steps: list[PlanStep] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class StepOutcome(Record):
    SCHEMA: ClassVar[str] = "AgenticStepOut"
    id: str = ""
    action: str = ""
    query: str = ""
    status: str = ""
    result_ids: list[str] = field(default_factory=list)
    tokens: int = 0
    latency_ms: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class SearchResult(Record):
    """A search's answer: `evidence_text` (cited, within max_tokens) and the ranked `results`."""

    SCHEMA: ClassVar[str] = "SearchOut"
    NESTED: ClassVar[Mapping[str, type[Record]]] = {"results": SearchHit, "plan": Plan, "steps": StepOutcome}
    evidence_text: str = ""
    answer_text: str = ""
    results: list[SearchHit] = field(default_factory=list)
    total_chunks: int = 0
    evidence_chunks: int = 0
    evidence_tokens: int = 0
    corrections: dict[str, str] = field(default_factory=dict)
    empty_reason: str = ""
    good_match: bool = False
    passage_model: str | None = None
    cache: str = "miss"
    took_ms: float = 0.0
    mode: str | None = None
    run_id: str | None = None
    truncated: bool | None = None
    tokens_used: int | None = None
    budget_tokens: int | None = None
    plan: Plan | None = None
    steps: list[StepOutcome] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class Document(Record):
    """A document's status: ok, partial, processing, failed, needs_ocr or deleted, with its counts and error."""

    SCHEMA: ClassVar[str] = "DocumentOut"
    namespace: str = ""
    document_id: str = ""
    source_key: str = ""
    source_file_name: str = ""
    status: str = ""
    revision: str = ""
    chunk_count: int = 0
    pages: int = 0
    error_code: str = ""
    error_message: str = ""
    sequencer: str = ""
    updated_at: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class DocumentList(Record):
    SCHEMA: ClassVar[str] = "DocumentListOut"
    NESTED: ClassVar[Mapping[str, type[Record]]] = {"documents": Document}
    namespace: str = ""
    documents: list[Document] = field(default_factory=list)
    next_cursor: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class UploadRequest(Record):
    SCHEMA: ClassVar[str] = ""  # the `upload` object of UploadOut
    url: str = ""
    method: str = "PUT"
    headers: dict[str, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class UploadTarget(Record):
    """Where to PUT a file's bytes: a presigned S3 URL on AWS, `PUT /uploads` under `docshelf serve`."""

    SCHEMA: ClassVar[str] = "UploadOut"
    NESTED: ClassVar[Mapping[str, type[Record]]] = {"upload": UploadRequest}
    document_key: str = ""
    upload: UploadRequest = field(default_factory=UploadRequest)
    expires_in: int = 0
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class Uploaded:
    """An upload's outcome: the key it was stored under, and the document's status when the host ingested it
    before answering (`docshelf serve`; on AWS ingestion follows the S3 event, see `DocshelfClient.wait`)."""

    document_key: str
    document_id: str | None = None
    status: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Ingested(Record):
    SCHEMA: ClassVar[str] = "IngestOut"
    namespace: str = ""
    url: str = ""
    document_key: str = ""
    document_id: str = ""
    status: str = ""
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class Deleted(Record):
    SCHEMA: ClassVar[str] = "DeleteOut"
    document_id: str = ""
    deleted: bool = False
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class SourceLink(Record):
    """A short-lived link that opens a document's file without a token: a presigned S3 GET on AWS, a signed link
    under `docshelf serve`."""

    SCHEMA: ClassVar[str] = "SourceUrlOut"
    url: str = ""
    expires_in: int = 0
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class RunStep(Record):
    SCHEMA: ClassVar[str] = "RunStepOut"
    run_id: str = ""
    step_id: str = ""
    action: str = ""
    query: str = ""
    depends_on: list[str] = field(default_factory=list)
    status: str = ""
    result_ids: list[str] = field(default_factory=list)
    tokens: int = 0
    latency_ms: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


@dataclass(frozen=True, slots=True)
class Run(Record):
    """An agentic search's record, with its steps (GET /runs/{run_id})."""

    SCHEMA: ClassVar[str] = "RunOut"
    NESTED: ClassVar[Mapping[str, type[Record]]] = {"plan": Plan, "steps": RunStep}
    run_id: str = ""
    user: str = ""
    namespace: str = ""
    query: str = ""
    planner: str = ""
    fallback_reason: str | None = None
    plan: Plan | None = None
    budget_tokens: int = 0
    tokens_used: int = 0
    truncated: bool = False
    latency_ms: float = 0.0
    outcome: str = ""
    created_at: float = 0.0
    steps: list[RunStep] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict, repr=False)


SCHEMA_TYPES: tuple[type[Record], ...] = (
    Link, TableCells, SearchHit, PlanStep, Plan, StepOutcome, SearchResult, Document, DocumentList, UploadTarget,
    Ingested, Deleted, SourceLink, RunStep, Run,
)  # fmt: skip
