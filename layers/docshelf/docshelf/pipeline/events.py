"""Event ordering: where an S3 event stands against the document's record, so that every stage is idempotent
and a stale or reordered delivery ends without effect."""

from __future__ import annotations

from typing import Literal, TypeAlias

from docshelf.pipeline.outcomes import FINAL_STATUSES, DocumentRef
from docshelf.registry import DocumentRecord, DocumentStatus, Registry, sequencer_is_newer

EventStanding: TypeAlias = Literal["open", "finished", "superseded"]


def event_standing(registry: Registry, namespace: str, document_id: str, sequencer: str) -> EventStanding:
    """`superseded`: the registry holds a newer event for the document; `finished`: this very event was already
    carried through to a final status (a redelivery); `open`: the event has work left. A local writer (no
    sequencer) never finishes an event: its next run may bring other settings."""
    current = registry.get(namespace, document_id)
    if current is None:
        return "open"
    if not sequencer_is_newer(sequencer, current.sequencer):
        return "superseded"
    if sequencer and current.sequencer == sequencer and current.status in FINAL_STATUSES:
        return "finished"
    return "open"


def document_record(
    ref: DocumentRef, status: DocumentStatus, *, chunks: int = 0, sequencer: str = "", published_with: str = ""
) -> DocumentRecord:
    return DocumentRecord(
        namespace=ref.namespace,
        document_id=ref.document_id,
        source_key=ref.source_key,
        source_file_name=ref.source_file_name,
        status=status,
        revision=ref.revision,
        chunk_count=chunks,
        sequencer=sequencer,
        published_with=published_with,
        pages=ref.pages,
    )


def mark_processing(registry: Registry, ref: DocumentRef, *, sequencer: str) -> bool:
    """Claim the document for this event's revision; False when a newer event already won."""
    return registry.put(document_record(ref, "processing", sequencer=sequencer))
