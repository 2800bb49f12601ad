"""Each ingest Lambda's work on decoded messages (per record; PublishFunction per batch); the handlers only adapt
and observe.

Every function is safe to run twice for the same message and ends right when messages arrive out of order:
the registry's per-document S3 sequencer decides which event is the newest, with conditional writes.
Bad input returns a result (the message is acknowledged); anything else raises, so SQS retries it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from docshelf import pipeline
from docshelf.aws.events import ObjectEvent, RangeMessage, StageMessage
from docshelf.aws.services import AwsServices
from docshelf.errors import DocumentError, DocumentTooLargeError, IndexBackendError, ParserFailedError, StorageError
from docshelf.ids import sha256_hex
from docshelf.model import Chunk

Outcome = Literal[
    "queued", "ok", "partial", "failed", "needs_ocr", "deleted", "stale", "duplicate", "gone", "superseded",
    "fanned_out", "range_parsed", "unchanged",
]  # fmt: skip
_MISSING_OBJECT = ("NoSuchKey", "NoSuchVersion", "404", "NotFound")


@dataclass(frozen=True, slots=True)
class StageResult:
    outcome: Outcome
    detail: str = ""
    chunks: int = 0
    cache_hit: bool = False


def handle_object_event(services: AwsServices, event: ObjectEvent) -> StageResult:
    """ParseFunction: an S3 object was created or deleted."""
    if event.action == "deleted":
        return _delete(services, event)
    registry, config = services.registry, services.settings.pipeline
    if pipeline.event_standing(registry, event.namespace, event.document_id, event.sequencer) != "open":
        return StageResult("duplicate", "a newer or the same event was already processed")
    try:
        data = _read_object(services, event, max_bytes=config.limits.max_bytes)
    except DocumentTooLargeError as error:
        unread = pipeline.DocumentRef(event.namespace, event.document_id, event.source_key, revision="")
        return settle_parse_failure(services, pipeline.ParseOutcome(unread, error=error), event.sequencer)
    if data is None:
        return StageResult("gone", "the object (version) no longer exists; its delete event decides")
    revision = sha256_hex(data)
    claimed = pipeline.DocumentRef(event.namespace, event.document_id, event.source_key, revision)
    if not pipeline.mark_processing(registry, claimed, sequencer=event.sequencer):
        return StageResult("stale", "a newer event for this document won")
    ranges = pipeline.plan_fan_out(services.store, data, claimed, config=config)
    if ranges:
        del data
        return _fan_out(services, event, revision, ranges)
    uri, fetched_at = _web_source(services, event)
    outcome = pipeline.parse_stage(
        services.store, data, namespace=event.namespace, source_key=event.source_key, config=config,
        revision=revision, uri=uri, fetched_at=fetched_at,
    )  # fmt: skip
    return _parsed(services, outcome, event.sequencer)


def _web_source(services: AwsServices, event: ObjectEvent) -> tuple[str, str]:
    """(URL, fetch time) of a web page the ParseFunction fetched (`aws/web_fetch.py`); empty for other objects."""
    from docshelf.pipeline.web_ingest import WEB_PREFIX

    if not event.source_key.startswith(WEB_PREFIX):
        return "", ""
    from docshelf.aws.web_sources import web_source

    return web_source(services, event)


def _parsed(services: AwsServices, outcome: pipeline.ParseOutcome, sequencer: str) -> StageResult:
    """The parse outcome carried on: the document to the ChunkQueue, or its failure settled."""
    if outcome.document is None:
        return settle_parse_failure(services, outcome, sequencer)
    ref = outcome.ref
    message = StageMessage(ref.namespace, ref.document_id, ref.source_key, ref.revision, sequencer)
    services.send(services.settings.chunk_queue_url, message.to_json())
    return StageResult("queued", f"revision {ref.revision}", cache_hit=outcome.cache_hit)


def _fan_out(services: AwsServices, event: ObjectEvent, revision: str, ranges: list[tuple[int, int]]) -> StageResult:
    """One ParseQueue message a page range of the plan, each read by its own invocation."""
    for start, end in ranges:
        message = RangeMessage(
            event.namespace, event.document_id, event.source_key, revision, event.sequencer,
            event.bucket, event.key, event.version_id, start, end,
        )  # fmt: skip
        services.send(services.settings.parse_queue_url, message.to_json())
    return StageResult("fanned_out", f"revision {revision} in {len(ranges)} page ranges")


def handle_range_message(services: AwsServices, message: RangeMessage, *, receive_count: int = 1) -> StageResult:
    """ParseFunction: one page range of a long PDF, then the merge once every range is in.

    A range of an upload a newer one overtook is dropped. A failing range raises, so SQS delivers that message
    alone again; on its last delivery (ParseQueue's maxReceiveCount) the document ends failed, naming the range.
    """
    standing = pipeline.event_standing(services.registry, message.namespace, message.document_id, message.sequencer)
    if standing == "superseded":
        return StageResult("superseded", f"{message.pages}: a newer event for this document won; range dropped")
    if standing == "finished":
        return StageResult("duplicate", f"{message.pages}: the document was already carried through")
    ref = _ref(message)
    config = services.settings.pipeline
    try:
        read = pipeline.read_range(
            services.store,
            ref,
            (message.start, message.end),
            lambda: _read_object(services, message.object_event(), max_bytes=config.limits.max_bytes),
            config=config,
        )
        if not read:
            return StageResult("gone", f"{message.pages}: the object is gone or holds other bytes; its events decide")
        outcome = pipeline.merge_when_complete(services.store, ref, config=config)
    except DocumentError as error:
        failed = type(error)(f"{message.pages}: {error.message}", page=error.page)
        return settle_parse_failure(services, pipeline.ParseOutcome(ref, error=failed), message.sequencer)
    except Exception as error:
        if receive_count < services.settings.parse_max_receives:
            raise
        reason = f"{message.pages} failed on each of {receive_count} tries: {type(error).__name__}: {error}"
        return settle_parse_failure(
            services, pipeline.ParseOutcome(ref, error=ParserFailedError(reason[:500])), message.sequencer
        )
    if outcome is None:
        return StageResult("range_parsed", f"{message.pages} read; other ranges are still due")
    return _parsed(services, outcome, message.sequencer)


def handle_chunk_message(services: AwsServices, message: StageMessage) -> StageResult:
    """ChunkFunction: the parsed revision -> chunks and the per-document artifacts."""
    stale = _stale(services, message)
    if stale is not None:
        return stale
    from docshelf.aws.web_sources import recorded_web_source

    uri, fetched_at = recorded_web_source(services, message.namespace, message.source_key, message.revision)
    outcome = pipeline.load_parsed(services.store, _ref(message), uri=uri, fetched_at=fetched_at)
    if outcome is None:
        raise StorageError(f"the parse cache of revision {message.revision} is missing")
    chunks, hit = pipeline.chunk_stage(services.store, outcome, config=services.settings.pipeline)
    services.send(services.settings.publish_queue_url, message.to_json())
    return StageResult("queued", f"{len(chunks)} chunks", chunks=len(chunks), cache_hit=hit)


def handle_publish_message(services: AwsServices, message: StageMessage) -> StageResult:
    """PublishFunction: the revision's chunks -> the search index, and the document marked ok."""
    stale = _stale(services, message)
    if stale is not None:
        return stale
    ref, chunks = _chunks_to_publish(services, message)
    index = services.index()
    publication = pipeline.published_with(services.settings.pipeline, index)
    try:
        published = pipeline.publish_stage(
            index,
            services.registry,
            ref,
            chunks,
            sequencer=message.sequencer,
            published_with=publication,
            vectors=services.vector_cache(),
        )
    except IndexBackendError:
        services.forget_index()  # the retry reads the namespace again (a re-sync may have changed its model)
        raise
    if not published:
        return StageResult("stale", "a newer event for this document won while publishing")
    index.commit()
    return _published(ref, chunks)


def handle_publish_messages(services: AwsServices, messages: Sequence[StageMessage]) -> list[StageResult | Exception]:
    """PublishFunction over one SQS batch: each message's result, or the exception that sends it back to the
    queue. The messages of a namespace go to the index in one bulk write (`pipeline.publish_many`); a second
    message for a document already in the batch is handled on its own afterwards, in arrival order."""
    results: list[StageResult | Exception | None] = [None] * len(messages)
    due: dict[str, list[tuple[int, pipeline.DocumentRef, list[Chunk], str]]] = {}
    taken: set[tuple[str, str]] = set()
    for at, message in enumerate(messages):
        if (message.namespace, message.document_id) in taken:
            continue
        taken.add((message.namespace, message.document_id))
        try:
            stale = _stale(services, message)
            if stale is None:
                ref, chunks = _chunks_to_publish(services, message)
                due.setdefault(message.namespace, []).append((at, ref, chunks, message.sequencer))
            results[at] = stale
        except Exception as error:  # this message's fault (a missing cache, a throttled read): it alone retries
            results[at] = error
    for items in due.values():
        for at, result in zip((at for at, *_ in items), _publish_together(services, items), strict=True):
            results[at] = result
    if due:
        services.index().commit()
        if any(isinstance(result, IndexBackendError) for result in results):
            services.forget_index()  # the retries read the namespace again (a re-sync may have changed its model)
    for at, message in enumerate(messages):
        if results[at] is None:
            try:
                results[at] = handle_publish_message(services, message)
            except Exception as error:
                results[at] = error
    return [result for result in results if result is not None]


def _publish_together(
    services: AwsServices, items: Sequence[tuple[int, pipeline.DocumentRef, list[Chunk], str]]
) -> list[StageResult | Exception]:
    """One namespace's documents in one `publish_many`; a failed call fails them all, a refused document itself."""
    try:
        index = services.index()
        published = pipeline.publish_many(
            index,
            services.registry,
            [(ref, chunks) for _, ref, chunks, _ in items],
            sequencers=[sequencer for *_, sequencer in items],
            published_with=pipeline.published_with(services.settings.pipeline, index),
            vectors=services.vector_cache(),
        )
    except Exception as error:
        return [error] * len(items)
    results: list[StageResult | Exception] = []
    for _, ref, chunks, _ in items:
        if ref.document_id in published.refused:
            reason = published.refused[ref.document_id]
            results.append(IndexBackendError(f"the index refused document {ref.document_id}: {reason}"))
        elif ref.document_id in published.superseded:
            results.append(StageResult("stale", "a newer event for this document won while publishing"))
        else:
            results.append(_published(ref, chunks))
    return results


def _ref(message: StageMessage | RangeMessage) -> pipeline.DocumentRef:
    return pipeline.DocumentRef(message.namespace, message.document_id, message.source_key, message.revision)


def _chunks_to_publish(services: AwsServices, message: StageMessage) -> tuple[pipeline.DocumentRef, list[Chunk]]:
    ref, chunks = pipeline.stored_chunks(services.store, _ref(message), config=services.settings.pipeline)
    if chunks is None:
        raise StorageError(f"the chunk cache of revision {message.revision} is missing")
    return ref, chunks


def _published(ref: pipeline.DocumentRef, chunks: Sequence[Chunk]) -> StageResult:
    if ref.truncation:
        return StageResult("partial", f"{len(chunks)} chunks published; {ref.truncation}", chunks=len(chunks))
    return StageResult("ok", f"{len(chunks)} chunks published", chunks=len(chunks))


def _stale(services: AwsServices, message: StageMessage) -> StageResult | None:
    """A redelivered message, or one a newer event overtook (the registry keeps the newest sequencer): nothing to
    do, the message is acknowledged."""
    standing = pipeline.event_standing(services.registry, message.namespace, message.document_id, message.sequencer)
    return None if standing == "open" else StageResult("duplicate", "a newer or the same event was already processed")


def settle_parse_failure(services: AwsServices, outcome: pipeline.ParseOutcome, sequencer: str) -> StageResult:
    settled = pipeline.settle_failure(
        services.store,
        services.registry,
        services.index(),
        outcome,
        config=services.settings.pipeline,
        sequencer=sequencer,
    )
    if not settled:
        return StageResult("stale", "a newer event for this document won")
    error = outcome.error
    status: Outcome = "needs_ocr" if error is not None and error.status == "needs_ocr" else "failed"
    return StageResult(status, f"{error.code}: {error.message}" if error else "")


def _delete(services: AwsServices, event: ObjectEvent) -> StageResult:
    if _object_exists(services, event):
        # Deleting an old version, or the key was written again since: the current object stays indexed.
        return StageResult("superseded", "the key still has a current object")
    deleted = pipeline.delete_document(
        services.store,
        services.registry,
        services.index(),
        namespace=event.namespace,
        source_key=event.source_key,
        sequencer=event.sequencer,
    )
    if not deleted:
        return StageResult("stale", "a newer event for this document won")
    services.index().commit()  # the embedded snapshot is written again without the document's text
    return StageResult("deleted")


def _read_object(services: AwsServices, event: ObjectEvent, *, max_bytes: int) -> bytes | None:
    """The event's exact object version (so the revision matches the sequencer), or None when it is gone."""
    from botocore.exceptions import ClientError

    if event.size > max_bytes:
        raise DocumentTooLargeError(f"{event.size} bytes is over the limit of {max_bytes}")
    try:
        if event.version_id:
            response = services.s3.get_object(Bucket=event.bucket, Key=event.key, VersionId=event.version_id)
        else:
            response = services.s3.get_object(Bucket=event.bucket, Key=event.key)
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") in _MISSING_OBJECT:
            return None
        raise
    if response.get("ContentLength", 0) > max_bytes:
        raise DocumentTooLargeError(f"{response['ContentLength']} bytes is over the limit of {max_bytes}")
    data: bytes = response["Body"].read(max_bytes + 1)  # bounded even if the length was not told
    if len(data) > max_bytes:
        raise DocumentTooLargeError(f"over the limit of {max_bytes} bytes")
    return data


def _object_exists(services: AwsServices, event: ObjectEvent) -> bool:
    from botocore.exceptions import ClientError

    try:
        services.s3.head_object(Bucket=event.bucket, Key=event.key)
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") in _MISSING_OBJECT:
            return False
        raise
    return True
