"""The parse stage: bytes -> Document through the content-addressed `_ori` cache (failures cached too)."""

from __future__ import annotations

import logging
import time

from docshelf.config import PipelineConfig
from docshelf.errors import OCR_SKIPPED_WARNING, DocumentError, document_error, is_cacheable_failure
from docshelf.ids import document_id as make_document_id
from docshelf.ids import sha256_hex, validate_namespace
from docshelf.keys import parse_cache_key, parse_failure_key
from docshelf.model import Document
from docshelf.ocr.settings import ocr_settings, unavailable_reason
from docshelf.parsers import parse_bytes
from docshelf.pipeline.outcomes import DocumentRef, ParseOutcome
from docshelf.serde import document_from_dict, document_json, dumps, loads
from docshelf.store.base import ObjectStore

logger = logging.getLogger(__name__)


def document_ref(namespace: str, source_key: str, revision: str, *, truncation: str = "") -> DocumentRef:
    validate_namespace(namespace)
    return DocumentRef(namespace, make_document_id(namespace, source_key), source_key, revision, truncation)


def parsed(ref: DocumentRef, document: Document, *, cache_hit: bool = False, seconds: float = 0.0) -> ParseOutcome:
    """The outcome of a parsed document, its reference carrying what a parse limit cut."""
    ref = DocumentRef(ref.namespace, ref.document_id, ref.source_key, ref.revision, document.truncation)
    return ParseOutcome(ref, document, cache_hit=cache_hit, seconds=seconds)


def parse_stage(
    store: ObjectStore,
    data: bytes,
    *,
    namespace: str,
    source_key: str,
    config: PipelineConfig,
    media_type: str | None = None,
    revision: str | None = None,
) -> ParseOutcome:
    """Bytes -> Document through the content-addressed `_ori` cache. `revision` is the bytes' sha256, when the
    caller has it already."""
    started = time.perf_counter()
    ref = document_ref(namespace, source_key, sha256_hex(data) if revision is None else revision)
    cache_key = parse_cache_key(ref.revision)
    cached = store.get(cache_key)
    if cached is not None:
        document = document_from_dict(loads(cached))
        if not _ocr_skipped(document) or unavailable_reason(ocr_settings()) is not None:
            return parsed(ref, document, cache_hit=True, seconds=time.perf_counter() - started)
    failed = store.get(parse_failure_key(ref.revision))
    if failed is not None:
        known = loads(failed)
        error = document_error(known["code"], known["message"], known.get("page"))
        return ParseOutcome(ref, error=error, cache_hit=True, seconds=time.perf_counter() - started)
    try:
        document = parse_bytes(data, source_key, uri=source_key, media_type=media_type, limits=config.limits)
    except DocumentError as error:
        logger.info("document %s failed to parse: %s (%s)", source_key, error.message, error.code)
        if is_cacheable_failure(error):
            record = {"code": error.code, "message": error.message, "page": error.page}
            store.put(parse_failure_key(ref.revision), dumps(record), content_type="application/json")
        return ParseOutcome(ref, error=error, seconds=time.perf_counter() - started)
    del data  # the caller's bytes are released, when it holds them no longer, before the JSON is written
    store.put(cache_key, document_json(document), content_type="application/json")
    return parsed(ref, document, seconds=time.perf_counter() - started)


def _ocr_skipped(document: Document) -> bool:
    return any(warning.startswith(OCR_SKIPPED_WARNING) for warning in document.warnings)
