"""ParseFunction: S3 object events (EventBridge -> ParseQueue) -> typed Document in the parse cache -> ChunkQueue.

Deleted objects are removed from the index here too, so create and delete share one ordered path. A long PDF's
page ranges come back through the ParseQueue, one message a range, and the last one in merges the document. A web
page queued by POST /ingest is fetched here into the source bucket, whose event then parses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import process_partial_response

from docshelf.aws.events import FetchMessage, ObjectEvent, RangeMessage, decode_parse_message
from docshelf.aws.observe import make_logger, run_record, sqs_batch_processor
from docshelf.aws.services import get_services
from docshelf.aws.stages import StageResult, handle_object_event, handle_range_message

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
    from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
    from aws_lambda_powertools.utilities.typing import LambdaContext

logger = make_logger()
tracer = Tracer()
metrics = Metrics()
processor = sqs_batch_processor()


@tracer.capture_method
def record_handler(record: SQSRecord) -> None:
    result = run_record(
        (logger, metrics, tracer),
        "parse",
        record.message_id,
        lambda: decode_parse_message(record.body),
        lambda message: handle_parse_message(message, int(record.attributes.approximate_receive_count or 1)),
    )
    if result is not None and result.outcome == "queued":
        metrics.add_metric(name="DocumentsParsed", unit=MetricUnit.Count, value=1)


def handle_parse_message(message: ObjectEvent | RangeMessage | FetchMessage, receive_count: int) -> StageResult:
    if isinstance(message, FetchMessage):
        from docshelf.aws.web_fetch import handle_fetch_message

        return handle_fetch_message(get_services(), message)
    if isinstance(message, RangeMessage):
        return handle_range_message(get_services(), message, receive_count=receive_count)
    return handle_object_event(get_services(), message)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
