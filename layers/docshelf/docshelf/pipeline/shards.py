"""The parse stage of a long PDF in page ranges, as the Lambdas run it (one invocation a range): the shard plan,
each range's partial parse object, and the merge into the `_ori` parse cache once every range is in.

Everything is keyed by revision (the bytes' sha256) under `keys.shard_prefix`, so each step is idempotent: a
range already read is not read again, a merge already written is not written again, and two uploads of the same
bytes share the work. The merge removes the plan and the partial objects; a message arriving after it finds the
`_ori`. Which upload of a key is current is not decided here but by the registry's sequencer, as
for every stage. The PDF parser is imported only when a range is planned, read or merged (ParseFunction only).
"""

from __future__ import annotations

from collections.abc import Callable

from docshelf.assets.storage import write_parsed_assets
from docshelf.config import PipelineConfig
from docshelf.errors import DocumentError, StorageError
from docshelf.keys import shard_plan_key, shard_prefix, shard_range_key
from docshelf.pipeline.content_only import anonymous_document, named_document
from docshelf.pipeline.outcomes import DocumentRef, ParseOutcome
from docshelf.pipeline.parse import cached_outcome, parsed, record_parse_failure, write_parse_cache
from docshelf.serde import dumps, loads
from docshelf.store.base import ObjectStore

PageSpan = tuple[int, int]
JSON = "application/json"


def plan_fan_out(store: ObjectStore, data: bytes, ref: DocumentRef, *, config: PipelineConfig) -> list[PageSpan]:
    """The page ranges of a revision to parse apart, its plan stored; [] when it is parsed whole: not a PDF,
    within one range's work, already parsed, or a PDF that cannot be opened (the whole parse gives its status)."""
    from docshelf.parsers.detect import detect_format

    if cached_outcome(store, ref) is not None or not data.strip():
        return []
    if detect_format(data, ref.source_key, None, limits=config.limits) != "pdf":
        return []
    from docshelf.parsers.pdf.pdf_ranges import plan_pdf

    try:
        plan = plan_pdf(data, ref.source_key, limits=config.limits, uri=ref.source_key)
    except DocumentError:
        return []
    if len(plan.ranges) < 2:
        return []
    store.put(shard_plan_key(ref.revision), dumps(plan.to_dict()), content_type=JSON)
    return plan.ranges


def read_range(
    store: ObjectStore,
    ref: DocumentRef,
    span: PageSpan,
    source: Callable[[], bytes | None],
    *,
    config: PipelineConfig,
) -> bool:
    """Pages [start, end) of the revision into their partial object, unless it is there already; `source` reads
    the bytes only when needed. False when the source is gone (or is no longer this revision)."""
    from docshelf.ids import sha256_hex

    key = shard_range_key(ref.revision, *span)
    if cached_outcome(store, ref) is not None or key in set(store.list(shard_prefix(ref.revision))):
        return True  # merged already (a late or repeated message), or this range read already
    data = source()
    if data is None or sha256_hex(data) != ref.revision:
        return False
    from docshelf.parsers.pdf.pdf_ranges import read_pdf_range

    pages = read_pdf_range(data, ref.source_key, span, limits=config.limits)
    store.put(key, dumps(pages), content_type=JSON)
    return True


def merge_when_complete(store: ObjectStore, ref: DocumentRef, *, config: PipelineConfig) -> ParseOutcome | None:
    """The revision's parse outcome once every range of its plan is in (merged now, or earlier: then from the
    cache); None while a range is missing. A merge that fails for the document (a scan without OCR, no text) is
    its outcome, cached like any parse failure."""
    known = cached_outcome(store, ref)
    if known is not None:
        return known
    from docshelf.parsers.pdf.pdf_ranges import PdfPlan, merge_pdf_ranges

    plan = PdfPlan.from_dict(loads(_required(store, shard_plan_key(ref.revision))))
    present = set(store.list(shard_prefix(ref.revision)))
    keys = [shard_range_key(ref.revision, *span) for span in plan.ranges]
    if any(key not in present for key in keys):
        return None
    pages = [loads(_required(store, key)) for key in keys]
    try:
        document, assets = merge_pdf_ranges(plan, pages, limits=config.limits)
    except DocumentError as error:
        record_parse_failure(store, ref, error)
        _drop_shards(store, ref.revision)
        return ParseOutcome(ref, error=error)
    write_parsed_assets(store, ref.revision, assets)  # before the cache: a cache hit finds its assets
    cached = anonymous_document(document, plan.filename)  # the plan is the first upload's: it names that one
    write_parse_cache(store, ref.revision, cached)
    _drop_shards(store, ref.revision)
    return parsed(ref, named_document(cached, ref.source_key))


def _drop_shards(store: ObjectStore, revision: str) -> None:
    """Once merged, the partial objects are of no more use (a later message finds the `_ori`), and they hold the
    document's text, which a delete must be able to forget."""
    for key in list(store.list(shard_prefix(revision))):
        store.delete(key)


def _required(store: ObjectStore, key: str) -> bytes:
    data = store.get(key)
    if data is None:
        raise StorageError(f"the shard object {key} is missing")
    return data
