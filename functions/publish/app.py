"""PublishFunction: chunked revisions (PublishQueue) -> the search index, the registry marked ok.

The batch's messages are published together first (one bulk upsert per namespace); the batch processor then
reports each record's own result, so a failed record alone goes back to the queue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import process_partial_response

from docshelf.aws.events import StageMessage
from docshelf.aws.observe import make_logger, run_record, sqs_batch_processor
from docshelf.aws.services import get_services
from docshelf.aws.stages import StageResult, handle_publish_messages

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.batch.types import PartialItemFailureResponse
    from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
    from aws_lambda_powertools.utilities.typing import LambdaContext

logger = make_logger()
tracer = Tracer()
metrics = Metrics()
processor = sqs_batch_processor()


def publish_batch(records: list[dict[str, Any]]) -> dict[str, StageResult | Exception]:
    """Each decodable record's result by message id (undecodable ones are left to `run_record`)."""
    messages: dict[str, StageMessage] = {}
    for record in records:
        try:
            messages[record["messageId"]] = StageMessage.from_json(record["body"])
        except Exception:  # `run_record` decodes it again, and acknowledges or fails that record alone
            continue
    results = handle_publish_messages(get_services(), list(messages.values()))
    return dict(zip(messages, results, strict=True))


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    published = publish_batch(event.get("Records", []))

    def outcome(message_id: str) -> StageResult:
        result = published[message_id]
        if isinstance(result, Exception):
            raise result
        return result

    @tracer.capture_method
    def record_handler(record: SQSRecord) -> None:
        result = run_record(
            (logger, metrics, tracer),
            "publish",
            record.message_id,
            lambda: StageMessage.from_json(record.body),
            lambda _: outcome(record.message_id),
        )
        if result is not None and result.outcome == "ok":
            metrics.add_metric(name="DocumentsPublished", unit=MetricUnit.Count, value=1)
            metrics.add_metric(name="ChunksPublished", unit=MetricUnit.Count, value=result.chunks)

    return process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
