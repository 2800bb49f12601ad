"""The Powertools resolver for the search API, shared by the SearchFunction and `docshelf serve`.

POST /search                                   ranked, cited evidence (docs/architecture.md#search)
GET  /documents?namespace=NS                   every document of a namespace: status, revision, chunks, errors
GET  /documents/{document_id}?namespace=NS     one document
GET  /documents/{document_id}/source?namespace=NS  its source file (api/routes_source.py)
GET  /documents/{document_id}/assets/{name}?namespace=NS  an image asset (api/routes_assets.py)
GET  /documents/{document_id}/graph?namespace=NS   its keyword graph (api/routes_graph.py)
POST /documents, DELETE /documents/{document_id}, POST /ingest   uploads and deletions (api/routes_documents.py)
GET  /runs/{run_id}                            an agentic search's run record (api/routes_agentic.py)
GET  /namespaces                               the namespaces the token may read that hold documents

Each route module is a Powertools router, joined here. Requests and responses are validated against the JSON
Schemas of `docshelf.api.schemas` (the OpenAPI document's components; api/responses.py); every error is JSON
`{"message"}` with 400/401/403/404/413/429/500, and nothing about the server's internals (no stack trace) leaves it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError as RouteNotFoundError

from docshelf.api.auth import ClaimNames
from docshelf.api.errors import ApiError, ThrottledError
from docshelf.api.guard import check_event
from docshelf.api.query_params import check_query_parameters
from docshelf.api.requests import RouteContext
from docshelf.api.responses import RequestValidationError, error_response
from docshelf.api.routes_agentic import agentic_router
from docshelf.api.routes_assets import asset_router
from docshelf.api.routes_documents import documents_router
from docshelf.api.routes_graph import graph_router
from docshelf.api.routes_namespaces import namespace_router
from docshelf.api.routes_search import SearchHook, search_router
from docshelf.api.routes_source import source_router
from docshelf.api.service import ApiServices
from docshelf.errors import InvalidNameError, InvalidQueryError
from docshelf.search.document_names import UnknownNamespaceError

THROTTLING_CODES = frozenset(
    {"ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded", "TooManyRequests"}
)
_log = logging.getLogger(__name__)


def build_resolver(
    services: Callable[[], ApiServices],
    claim_names: Callable[[], ClaimNames],
    *,
    on_search: SearchHook | None = None,
) -> APIGatewayHttpResolver:
    """`services` and `claim_names` are called per request, so nothing is built at import time."""
    app = APIGatewayHttpResolver()
    context = RouteContext(services, claim_names)
    app.include_router(search_router(context, on_search))
    app.include_router(documents_router(context))
    app.include_router(source_router(context))
    app.include_router(asset_router(context))
    app.include_router(graph_router(context))
    app.include_router(agentic_router(context))
    app.include_router(namespace_router(context))
    _register_error_handlers(app)
    return app


def _register_error_handlers(app: APIGatewayHttpResolver) -> None:
    app.exception_handler(RequestValidationError)(_invalid_request)
    app.exception_handler(ApiError)(_api_error)
    app.exception_handler(UnknownNamespaceError)(_unknown_namespace)
    app.exception_handler([InvalidQueryError, InvalidNameError])(_invalid_query)
    app.exception_handler(RouteNotFoundError)(_no_route)
    app.exception_handler(Exception)(_internal)


def _invalid_request(error: RequestValidationError) -> Response[str]:
    return error_response(400, error.message, [problem.as_dict() for problem in error.problems])


def _api_error(error: ApiError) -> Response[str]:
    return error_response(error.status, error.message)


def _unknown_namespace(error: UnknownNamespaceError) -> Response[str]:
    return error_response(404, str(error))


def _invalid_query(error: Exception) -> Response[str]:
    return error_response(400, str(error))


def _no_route(error: RouteNotFoundError) -> Response[str]:
    return error_response(404, "no such route")


def _internal(error: Exception) -> Response[str]:
    if _is_throttling(error):
        return error_response(ThrottledError.status, "the service is busy; retry shortly")
    _log.exception("unhandled error in the search API")
    return error_response(500, "internal error")


def _is_throttling(error: Exception) -> bool:
    response = getattr(error, "response", None)
    code = response.get("Error", {}).get("Code") if isinstance(response, dict) else None
    return code in THROTTLING_CODES


def handle(app: APIGatewayHttpResolver, event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Refuse hostile bodies before anything parses them, then resolve the route."""
    try:
        check_event(event)
        check_query_parameters(event)
    except ApiError as error:
        return _raw(error)
    result: dict[str, Any] = app.resolve(event, context)
    return result


def _raw(error: ApiError) -> dict[str, Any]:
    headers = {"Content-Type": "application/json"}
    return {
        "statusCode": error.status,
        "headers": headers,
        "body": json.dumps({"message": error.message}),
        "isBase64Encoded": False,
        "cookies": [],
    }
