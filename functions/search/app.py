"""SearchFunction: the HTTP API (JWT-authorised) for search and document status.

The routes, validation and error mapping are `docshelf.api.resolver`, the same code `docshelf serve` runs;
this adapter adds the AWS services, logging and metrics.

Tracing is Lambda's own active tracing (`Tracing: Active` in the template): the invocation, its cold-start
initialisation and its duration are traced without the X-Ray SDK. Powertools' Tracer would import the SDK and
botocore's session machinery, which costs more than the whole cold-start budget of this user-facing function;
the SQS-driven ingest functions, where a cold start delays nobody, keep it for per-record subsegments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools import Metrics
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit

from docshelf.api.auth import ClaimNames
from docshelf.api.resolver import build_resolver, handle
from docshelf.aws.logs import make_logger
from docshelf.aws.search_api import current_api_services

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.typing import LambdaContext

logger = make_logger()
metrics = Metrics()
_api_services = current_api_services


def _claim_names() -> ClaimNames:
    return _api_services().claim_names()


def _observe_search(payload: dict[str, Any], hit: bool) -> None:
    metrics.add_metric(name="CacheHits" if hit else "CacheMisses", unit=MetricUnit.Count, value=1)
    metrics.add_metric(name="SearchLatency", unit=MetricUnit.Milliseconds, value=payload["took_ms"])
    logger.info(
        "search", extra={"cache": payload["cache"], "took_ms": payload["took_ms"], "hits": len(payload["results"])}
    )


app = build_resolver(_api_services, _claim_names, on_search=_observe_search)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return handle(app, event, context)
