"""SearchFunction: the HTTP API (JWT-authorised) for search and document status.

POST /search                      {"namespace", "query", "top_k", "max_tokens", "filters"}
GET  /documents?namespace=NS      the namespace's documents with their status
GET  /documents/{document_id}?namespace=NS
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Any, ParamSpec

from aws_lambda_powertools import Metrics, Tracer
from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.metrics import MetricUnit

from docshelf.aws.observe import document_context, make_logger
from docshelf.aws.search_api import (
    Caller,
    ForbiddenError,
    caller_from_claims,
    get_document,
    list_documents,
    parse_search_request,
    run_search,
)
from docshelf.aws.services import get_services
from docshelf.errors import InvalidNameError, InvalidQueryError

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.typing import LambdaContext

P = ParamSpec("P")

logger = make_logger()
tracer = Tracer()
metrics = Metrics()
app = APIGatewayHttpResolver()


def _caller() -> Caller:
    claims = app.current_event.request_context.authorizer.jwt_claim or {}
    return caller_from_claims(claims, get_services().settings.namespaces_claim)


def _json(status: int, body: dict[str, Any]) -> Response[str]:
    return Response(status, "application/json", json.dumps(body, ensure_ascii=False))


def client_errors(route: Callable[P, Response[str]]) -> Callable[P, Response[str]]:
    """The caller's mistakes as 400/403 responses with a readable message; anything else is a 500."""

    @wraps(route)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> Response[str]:
        try:
            return route(*args, **kwargs)
        except ForbiddenError as error:
            return _json(403, {"message": str(error)})
        except (InvalidQueryError, InvalidNameError) as error:
            return _json(400, {"message": str(error)})

    return wrapper


@app.post("/search")
@tracer.capture_method
@client_errors
def search_route() -> Response[str]:
    try:
        body = app.current_event.json_body
    except ValueError:
        return _json(400, {"message": "the request body is not JSON"})
    request = parse_search_request(body)
    with document_context(logger, request.namespace):
        payload, hit = run_search(get_services(), _caller(), request)
        metrics.add_metric(name="CacheHits" if hit else "CacheMisses", unit=MetricUnit.Count, value=1)
        metrics.add_metric(name="SearchLatency", unit=MetricUnit.Milliseconds, value=payload["took_ms"])
        logger.info(
            "search", extra={"cache": payload["cache"], "took_ms": payload["took_ms"], "hits": len(payload["results"])}
        )
    return _json(200, payload)


@app.get("/documents")
@tracer.capture_method
@client_errors
def documents_route() -> Response[str]:
    namespace = app.current_event.get_query_string_value("namespace", "") or ""
    with document_context(logger, namespace):
        return _json(200, list_documents(get_services(), _caller(), namespace))


@app.get("/documents/<document_id>")
@tracer.capture_method
@client_errors
def document_route(document_id: str) -> Response[str]:
    namespace = app.current_event.get_query_string_value("namespace", "") or ""
    with document_context(logger, namespace, document_id):
        record = get_document(get_services(), _caller(), namespace, document_id)
    if record is None:
        return _json(404, {"message": f"no document {document_id} in namespace {namespace}"})
    return _json(200, record)


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return app.resolve(event, context)
