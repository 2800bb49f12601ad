"""The stages parse -> chunk -> publish (and delete), shared by the CLI and the Lambdas.

Each stage takes its store, registry and index as arguments and is idempotent: running it again with the same
input changes nothing. Bad input becomes the document's status, never an exception. Modules: `outcomes` (what
the stages hand each other), `events` (event ordering), `parse`, `chunk`, `publish`, `failures`, `delete`,
`artifact_writing`, `caches` (what a later Lambda reads back), `local_ingest` (the local ingest's orchestrator),
`parsed` (one parsed file on the local writer), `file_reading` (a source file within its size limit), `batched`
(the local writer's bulk publishing), `web_ingest` (a web page as a document) and `resync` (a namespace published
again after a change of settings).
"""

from docshelf.pipeline.artifact_writing import write_failure_artifacts
from docshelf.pipeline.batched import BatchedPublishing, ChunkedFile, chunk_where_parsed
from docshelf.pipeline.caches import load_chunks, load_parsed, recorded_parse, stored_chunks
from docshelf.pipeline.chunk import Chunked, chunk_stage, chunk_without_writing
from docshelf.pipeline.delete import delete_document
from docshelf.pipeline.events import EventStanding, document_record, event_standing, mark_processing
from docshelf.pipeline.failures import record_failure, settle_failure
from docshelf.pipeline.local_ingest import ingest, ingest_files, parse_in_workers
from docshelf.pipeline.outcomes import (
    EMPTY_STATUSES,
    FINAL_STATUSES,
    INDEXED_STATUSES,
    TRUNCATED_CODE,
    DocumentRef,
    IngestResult,
    ParseOutcome,
    indexed_status,
)
from docshelf.pipeline.parse import document_ref, parse_stage
from docshelf.pipeline.parsed import already_published, answer_without_publishing, ingest_parsed
from docshelf.pipeline.publish import BulkPublished, publish_many, publish_stage, published_with
from docshelf.pipeline.shards import merge_when_complete, plan_fan_out, read_range

__all__ = [
    "EMPTY_STATUSES",
    "FINAL_STATUSES",
    "INDEXED_STATUSES",
    "TRUNCATED_CODE",
    "BatchedPublishing",
    "BulkPublished",
    "Chunked",
    "ChunkedFile",
    "DocumentRef",
    "EventStanding",
    "IngestResult",
    "ParseOutcome",
    "already_published",
    "answer_without_publishing",
    "chunk_stage",
    "chunk_where_parsed",
    "chunk_without_writing",
    "delete_document",
    "document_record",
    "document_ref",
    "event_standing",
    "indexed_status",
    "ingest",
    "ingest_files",
    "ingest_parsed",
    "load_chunks",
    "load_parsed",
    "mark_processing",
    "merge_when_complete",
    "parse_in_workers",
    "parse_stage",
    "plan_fan_out",
    "publish_many",
    "publish_stage",
    "published_with",
    "read_range",
    "record_failure",
    "recorded_parse",
    "settle_failure",
    "stored_chunks",
    "write_failure_artifacts",
]
