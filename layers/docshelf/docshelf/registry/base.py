from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias

DocumentStatus: TypeAlias = Literal["processing", "ok", "partial", "failed", "needs_ocr", "deleted"]


@dataclass(frozen=True, slots=True)
class DocumentRecord:
    namespace: str
    document_id: str
    source_key: str
    source_file_name: str
    status: DocumentStatus
    revision: str = ""
    chunk_count: int = 0
    error_code: str = ""
    error_message: str = ""
    sequencer: str = ""
    updated_at: float = 0.0
    # The chunk settings and the index of the published chunks (pipeline.published_with).
    published_with: str = ""
    pages: int = 0  # of the parsed revision (0 until one is parsed)


# Fields stored under another name: SQLite columns and DynamoDB attributes keep the name existing stores have.
STORED_NAMES: dict[str, str] = {"published_with": "chunker"}


def stored_name(field_name: str) -> str:
    """The column or attribute a DocumentRecord field is stored in."""
    return STORED_NAMES.get(field_name, field_name)


def sequencer_is_newer(incoming: str, stored: str) -> bool:
    """S3 sequencers are hex strings comparable once padded to the same length; '' is oldest."""
    if not stored:
        return True
    if not incoming:
        return False
    width = max(len(incoming), len(stored))
    return incoming.rjust(width, "0") >= stored.rjust(width, "0")


class Registry(Protocol):
    def get(self, namespace: str, document_id: str) -> DocumentRecord | None: ...

    def list(self, namespace: str) -> list[DocumentRecord]: ...

    def put(self, record: DocumentRecord) -> bool:
        """Write unless the stored record has a newer sequencer; True when written."""
        ...

    def revision_in_use(self, revision: str, *, besides: tuple[str, str] | None = None) -> bool:
        """True when a document of any namespace, in any status but deleted, has this revision (content sha256);
        `besides` (namespace, document_id) is left out (the document being deleted)."""
        ...

    def namespace_version(self, namespace: str) -> int: ...

    def namespaces(self) -> tuple[str, ...]:
        """Every namespace that has held a document (sorted): those with a record or a version."""
        ...

    def bump_namespace_version(self, namespace: str) -> int: ...
