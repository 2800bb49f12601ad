"""The parse stage: bytes -> Document through the content-addressed `_ori` cache (failures cached too)."""

from __future__ import annotations

import logging
import time

from docshelf.assets.storage import write_parsed_assets
from docshelf.config import PipelineConfig
from docshelf.errors import (
    OCR_SKIPPED_WARNING,
    DocumentError,
    DocumentTooLargeError,
    ParserFailedError,
    document_error,
    is_cacheable_failure,
)
from docshelf.ids import document_id as make_document_id
from docshelf.ids import sha256_hex, validate_namespace
from docshelf.keys import parse_cache_key, parse_failure_key
from docshelf.model import Document
from docshelf.ocr.settings import ocr_settings, unavailable_reason
from docshelf.parsers import parse_with_assets
from docshelf.pipeline.content_only import anonymous_document, anonymous_text, named_document, named_text
from docshelf.pipeline.outcomes import DocumentRef, ParseOutcome
from docshelf.serde import document_from_dict, document_json, dumps, loads
from docshelf.store.base import ObjectStore

logger = logging.getLogger(__name__)


def document_ref(namespace: str, source_key: str, revision: str, *, truncation: str = "") -> DocumentRef:
    validate_namespace(namespace)
    return DocumentRef(namespace, make_document_id(namespace, source_key), source_key, revision, truncation)


def parsed(ref: DocumentRef, document: Document, *, cache_hit: bool = False, seconds: float = 0.0) -> ParseOutcome:
    """The outcome of a parsed document, its reference carrying what a parse limit cut."""
    ref = DocumentRef(
        ref.namespace, ref.document_id, ref.source_key, ref.revision, document.truncation, len(document.pages)
    )
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
    uri: str = "",
    fetched_at: str = "",
) -> ParseOutcome:
    """Bytes -> Document through the content-addressed `_ori` cache. `revision` is the bytes' sha256, when the
    caller has it already; `uri` where the bytes came from (default the source key) and `fetched_at` when, for a
    fetched web page (the parse cache keeps those of the first parse of these bytes)."""
    started = time.perf_counter()
    ref = document_ref(namespace, source_key, sha256_hex(data) if revision is None else revision)
    known = cached_outcome(store, ref, started=started, uri=uri, fetched_at=fetched_at)
    if known is not None:
        return known
    try:
        document, assets = parse_with_assets(
            data, source_key, uri=uri or source_key, media_type=media_type, limits=config.limits, fetched_at=fetched_at
        )
    except DocumentError as error:
        record_parse_failure(store, ref, error)
        return ParseOutcome(ref, error=error, seconds=time.perf_counter() - started)
    except Exception as error:  # outside a parser (detection, OCR of pictures), MemoryError included: this file's
        return ParseOutcome(ref, error=unexpected_failure(error, len(data)), seconds=time.perf_counter() - started)
    del data  # the caller's bytes are released, when it holds them no longer, before the JSON is written
    write_parsed_assets(store, ref.revision, assets)  # before the cache: a cache hit finds its assets
    del assets
    write_parse_cache(store, ref.revision, anonymous_document(document, ref.source_key))
    return parsed(ref, document, seconds=time.perf_counter() - started)


def write_parse_cache(store: ObjectStore, revision: str, document: Document) -> None:
    """The `_ori` of a revision: an `anonymous_document`, which holds no name of the document that parsed it."""
    store.put(parse_cache_key(revision), document_json(document), content_type="application/json")


def unexpected_failure(error: Exception, size: int) -> DocumentError:
    """The status of a file whose parse raised what no parser raises on purpose (not cached: it may not recur)."""
    if isinstance(error, MemoryError):
        return DocumentTooLargeError(f"ran out of memory parsing its {size} bytes")
    return ParserFailedError(f"parsing failed: {type(error).__name__}: {error}"[:500])


def cached_outcome(
    store: ObjectStore, ref: DocumentRef, *, started: float | None = None, uri: str = "", fetched_at: str = ""
) -> ParseOutcome | None:
    """The revision's parse as cached: its Document, or the failure that depends on its bytes only, named for the
    document `ref` is (pipeline/content_only.py), with `uri` and `fetched_at` as for `parse_stage`."""
    started = time.perf_counter() if started is None else started
    cached = store.get(parse_cache_key(ref.revision))
    if cached is not None:
        document = named_document(document_from_dict(loads(cached)), ref.source_key, uri=uri, fetched_at=fetched_at)
        if not _ocr_skipped(document) or unavailable_reason(ocr_settings()) is not None:
            return parsed(ref, document, cache_hit=True, seconds=time.perf_counter() - started)
    failed = store.get(parse_failure_key(ref.revision))
    if failed is not None:
        known = loads(failed)
        message = named_text(known["message"], ref.source_key)
        error = document_error(known["code"], message, known.get("page"))
        return ParseOutcome(ref, error=error, cache_hit=True, seconds=time.perf_counter() - started)
    return None


def record_parse_failure(store: ObjectStore, ref: DocumentRef, error: DocumentError) -> None:
    logger.info("document %s failed to parse: %s (%s)", ref.source_key, error.message, error.code)
    if is_cacheable_failure(error):
        record = {"code": error.code, "message": anonymous_text(error.message, ref.source_key), "page": error.page}
        store.put(parse_failure_key(ref.revision), dumps(record), content_type="application/json")


def _ocr_skipped(document: Document) -> bool:
    return any(warning.startswith(OCR_SKIPPED_WARNING) for warning in document.warnings)
