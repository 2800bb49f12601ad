"""What every ingest handler does around its stage: log keys, metrics per outcome, and one SQS batch processor.

Powertools is imported here, in `logs` and in the handlers only, never by the core package.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol, TypeVar

from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType

from docshelf.aws.events import InvalidEventError
from docshelf.aws.logs import make_logger as make_logger  # the ingest handlers take it from here
from docshelf.errors import InvalidNameError

if TYPE_CHECKING:
    from aws_lambda_powertools import Logger, Metrics, Tracer

    from docshelf.aws.stages import StageResult

# Metric name per stage outcome; outcomes without one are still logged.
OUTCOME_METRICS = {
    "failed": "DocumentsFailed",
    "partial": "DocumentsPartial",
    "needs_ocr": "DocumentsNeedOcr",
    "deleted": "DocumentsDeleted",
    "stale": "StaleEvents",
    "duplicate": "DuplicateEvents",
    "gone": "StaleEvents",
    "superseded": "StaleEvents",
}


def sqs_batch_processor() -> BatchProcessor:
    """Partial batch responses: only the failed records go back to the queue (ReportBatchItemFailures)."""
    return BatchProcessor(event_type=EventType.SQS, raise_on_entire_batch_failure=False)


@contextmanager
def document_context(logger: Logger, namespace: str = "", document_id: str = "") -> Iterator[None]:
    logger.append_keys(namespace=namespace, document_id=document_id)
    try:
        yield
    finally:
        logger.append_keys(namespace="", document_id="")


def record_result(logger: Logger, metrics: Metrics, stage: str, result: StageResult) -> None:
    name = OUTCOME_METRICS.get(result.outcome)
    if name is not None:
        metrics.add_metric(name=name, unit=MetricUnit.Count, value=1)
    if result.cache_hit:
        metrics.add_metric(name=f"{stage.capitalize()}CacheHits", unit=MetricUnit.Count, value=1)
    log = logger.warning if result.outcome in ("failed", "needs_ocr") else logger.info
    log(f"{stage}: {result.outcome}", extra={"outcome": result.outcome, "detail": result.detail})


def record_invalid(logger: Logger, metrics: Metrics, stage: str, message_id: str, error: Exception) -> None:
    """A message no retry can fix: acknowledged, but counted and logged at error level, never dropped silently."""
    metrics.add_metric(name="InvalidMessages", unit=MetricUnit.Count, value=1)
    logger.error(f"{stage}: invalid message acknowledged: {error}", extra={"message_id": message_id})


class AboutADocument(Protocol):
    @property
    def namespace(self) -> str: ...

    @property
    def document_id(self) -> str: ...


M = TypeVar("M", bound=AboutADocument)


def run_record(
    observers: tuple[Logger, Metrics, Tracer],
    stage: str,
    message_id: str,
    decode: Callable[[], M],
    handle: Callable[[M], StageResult],
) -> StageResult | None:
    """One SQS record through a stage: decode, run with the document's log keys, record the outcome.

    An undecodable message is acknowledged and counted (None); anything `handle` raises propagates,
    so the batch processor returns the record for a retry.
    """
    logger, metrics, tracer = observers
    try:
        message = decode()
    except (InvalidEventError, InvalidNameError) as error:
        record_invalid(logger, metrics, stage, message_id, error)
        return None
    with document_context(logger, message.namespace, message.document_id):
        tracer.put_annotation("document_id", message.document_id)
        result = handle(message)
        record_result(logger, metrics, stage, result)
        return result
