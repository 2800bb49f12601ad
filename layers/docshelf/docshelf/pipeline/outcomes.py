"""What the stages hand each other: a document reference, a parse outcome, an ingest result, and the statuses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from docshelf.errors import DocumentError
from docshelf.model import Document
from docshelf.registry import DocumentStatus

# Statuses in which the index must hold none of the document's chunks.
EMPTY_STATUSES: frozenset[str] = frozenset({"failed", "needs_ocr", "deleted"})
# Statuses of an indexed document: `partial` when a parse limit cut its content (the record says what was kept).
INDEXED_STATUSES: frozenset[str] = frozenset({"ok", "partial"})
# Statuses that end an event's processing: a redelivery of the same event finds nothing left to do.
FINAL_STATUSES: frozenset[str] = frozenset({*INDEXED_STATUSES, *EMPTY_STATUSES})
TRUNCATED_CODE = "truncated"


@dataclass(frozen=True, slots=True)
class DocumentRef:
    """One revision of one document, as the stages after parsing need it: they have its chunks or its error,
    not its content. `truncation` is what a parse limit cut (Document.truncation), for the record and status."""

    namespace: str
    document_id: str
    source_key: str
    revision: str
    truncation: str = ""
    pages: int = 0  # of the parsed document, for its record (0 before it is parsed)

    @property
    def source_file_name(self) -> str:
        return self.source_key.rsplit("/", 1)[-1]


@dataclass(frozen=True, slots=True)
class ParseOutcome:
    """The parse stage's answer for a document: its parsed Document, or the error that is its status."""

    ref: DocumentRef
    document: Document | None = None
    error: DocumentError | None = None
    cache_hit: bool = False
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class IngestResult:
    namespace: str
    document_id: str
    source_key: str
    status: str
    chunks: int = 0
    error_code: str = ""
    error_message: str = ""
    parse_cache_hit: bool = False
    chunk_cache_hit: bool = False
    seconds: float = 0.0


def indexed_status(ref: DocumentRef) -> Literal["ok", "partial"]:
    """`partial` for a document a parse limit cut (indexed all the same), else `ok`."""
    return "partial" if ref.truncation else "ok"


def failure_status(outcome: ParseOutcome) -> DocumentStatus:
    """The status of a document that failed to parse (`failed`, `needs_ocr`)."""
    return cast("DocumentStatus", outcome.error.status) if outcome.error is not None else "failed"
