"""ChunkFunction: a parsed revision (ChunkQueue) -> token-bounded chunks and artifacts -> PublishQueue."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.utilities.batch import process_partial_response

from docshelf.aws.events import StageMessage
from docshelf.aws.observe import make_logger, run_record, sqs_batch_processor
from docshelf.aws.services import get_services
from docshelf.aws.stages import handle_chunk_message

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
        "chunk",
        record.message_id,
        lambda: StageMessage.from_json(record.body),
        lambda message: handle_chunk_message(get_services(), message),
    )
    if result is not None and result.outcome == "queued":
        metrics.add_metric(name="ChunksCreated", unit=MetricUnit.Count, value=result.chunks)


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> PartialItemFailureResponse:
    return process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
