"""Failure settling: a document whose input is bad gets its status and reason, and no chunks in the index."""

from __future__ import annotations

from dataclasses import replace

from docshelf.config import PipelineConfig
from docshelf.index.base import SearchBackend
from docshelf.pipeline.artifact_writing import write_failure_artifacts
from docshelf.pipeline.events import document_record
from docshelf.pipeline.outcomes import ParseOutcome, failure_status
from docshelf.registry import Registry
from docshelf.store.base import ObjectStore


def settle_failure(
    store: ObjectStore,
    registry: Registry,
    index: SearchBackend,
    outcome: ParseOutcome,
    *,
    config: PipelineConfig,
    sequencer: str = "",
) -> bool:
    """Bad input: record the status and reason, drop any older revision's chunks. False when a newer event won."""
    if not record_failure(registry, outcome, sequencer=sequencer):
        return False
    write_failure_artifacts(store, outcome.ref, outcome.error, status=failure_status(outcome), config=config)
    index.delete(outcome.ref.namespace, outcome.ref.document_id)
    registry.bump_namespace_version(outcome.ref.namespace)
    return True


def record_failure(registry: Registry, outcome: ParseOutcome, *, sequencer: str = "") -> bool:
    error = outcome.error
    record = document_record(outcome.ref, failure_status(outcome), sequencer=sequencer)
    if error is not None:
        record = replace(record, error_code=error.code, error_message=error.message)
    return registry.put(record)
