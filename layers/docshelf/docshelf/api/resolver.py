"""The Powertools resolver for the search API, shared by the SearchFunction and `docshelf serve`.

POST /search                                   DESIGN §5 request and response
GET  /documents?namespace=NS                   every document of a namespace: status, revision, chunks, errors
GET  /documents/{document_id}?namespace=NS     one document

Requests and responses are validated against `docshelf.api.models`; every error is JSON `{"message"}` with
400/401/403/404/413/429/500, and nothing about the server's internals (no stack trace) leaves it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError as RouteNotFoundError
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from docshelf.api.auth import Caller, ClaimNames, caller_from_claims
from docshelf.api.errors import ApiError, ThrottledError
from docshelf.api.guard import check_event
from docshelf.api.models import (
    DOCUMENT_ID_REGEX,
    NAMESPACE_REGEX,
    DocumentListOut,
    DocumentOut,
    ErrorOut,
    SearchBody,
    SearchOut,
)
from docshelf.api.service import ApiBackend, get_document, list_documents, run_search
from docshelf.errors import InvalidNameError, InvalidQueryError
from docshelf.search.filters import SearchFilters
from docshelf.search.service import SearchRequest

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

API_TITLE = "docshelf search API"
API_VERSION = "1.0.0"
THROTTLING_CODES = frozenset(
    {"ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded", "TooManyRequests"}
)
SearchHook = Callable[[dict[str, Any], bool], None]
_log = logging.getLogger(__name__)


def _error_responses(*statuses: int) -> dict[int, OpenAPIResponse]:
    described = {
        400: "invalid request",
        401: "no valid token",
        403: "namespace not allowed",
        404: "not found",
        413: "body too large",
        429: "throttled",
        500: "internal error",
    }
    return {
        status: {"description": described[status], "content": {"application/json": {"model": ErrorOut}}}
        for status in statuses
    }


def error_response(status: int, message: str, errors: list[dict[str, str]] | None = None) -> Response[str]:
    body: dict[str, Any] = {"message": message}
    if errors:
        body["errors"] = errors
    headers = {"Retry-After": "1"} if status == 429 else None
    return Response(status, "application/json", json.dumps(body, ensure_ascii=False), headers=headers)


def to_search_request(body: SearchBody) -> SearchRequest:
    filters = body.filters
    return SearchRequest(
        namespace=body.namespace,
        query=body.query,
        top_k=body.top_k,
        max_tokens=body.max_tokens,
        filters=SearchFilters(
            documents=tuple(filters.documents),
            exclude_documents=tuple(filters.exclude_documents),
            exclude_sections=tuple(filters.exclude_sections),
            chunk_types=tuple(filters.chunk_types),
        ),
    )


def build_resolver(
    backend: Callable[[], ApiBackend],
    claim_names: Callable[[], ClaimNames],
    *,
    on_search: SearchHook | None = None,
) -> APIGatewayHttpResolver:
    """`backend` and `claim_names` are called per request, so nothing is built at import time."""
    app = APIGatewayHttpResolver(enable_validation=True)
    common = _error_responses(400, 401, 403, 413, 429, 500)

    def caller() -> Caller:
        claims = app.current_event.request_context.authorizer.jwt_claim
        return caller_from_claims(claims, claim_names())

    @app.post("/search", summary="Search a namespace", responses={200: _ok(SearchOut), **common})
    def search_route(body: Annotated[SearchBody, Body()]) -> SearchOut:
        payload, hit = run_search(backend(), caller(), to_search_request(body))
        if on_search is not None:
            on_search(payload, hit)
        return SearchOut.model_validate(payload)

    @app.get("/documents", summary="List a namespace's documents", responses={200: _ok(DocumentListOut), **common})
    def documents_route(
        namespace: Annotated[str, Query(pattern=NAMESPACE_REGEX, max_length=64)],
    ) -> DocumentListOut:
        return DocumentListOut.model_validate(list_documents(backend(), caller(), namespace))

    @app.get(
        "/documents/<document_id>",
        summary="One document's status",
        responses={200: _ok(DocumentOut), 404: _error_responses(404)[404], **common},
    )
    def document_route(
        document_id: Annotated[str, Path(pattern=DOCUMENT_ID_REGEX, max_length=128)],
        namespace: Annotated[str, Query(pattern=NAMESPACE_REGEX, max_length=64)],
    ) -> DocumentOut:
        return DocumentOut.model_validate(get_document(backend(), caller(), namespace, document_id))

    _register_error_handlers(app)
    return app


def _ok(model: type[Any]) -> OpenAPIResponse:
    return {"description": "OK", "content": {"application/json": {"model": model}}}


def _register_error_handlers(app: APIGatewayHttpResolver) -> None:
    app.exception_handler(RequestValidationError)(_invalid_request)
    app.exception_handler(ApiError)(_api_error)
    app.exception_handler([InvalidQueryError, InvalidNameError])(_invalid_query)
    app.exception_handler(RouteNotFoundError)(_no_route)
    app.exception_handler(Exception)(_internal)


def _invalid_request(error: RequestValidationError) -> Response[str]:
    problems = [
        {"loc": ".".join(str(part)[:64] for part in problem.get("loc", ())), "msg": str(problem.get("msg", ""))}
        for problem in error.errors()
    ]
    summary = "; ".join(f"{problem['loc']}: {problem['msg']}" for problem in problems[:3])
    return error_response(400, f"invalid request: {summary}", problems)


def _api_error(error: ApiError) -> Response[str]:
    return error_response(error.status, error.message)


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


def openapi_json(app: APIGatewayHttpResolver) -> str:
    from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer

    return app.get_openapi_json_schema(
        title=API_TITLE,
        version=API_VERSION,
        description="Cited, token-budgeted search over the namespaces a JWT allows.",
        security_schemes={"bearerAuth": HTTPBearer(bearerFormat="JWT")},
        security=[{"bearerAuth": []}],
    )


def handle(app: APIGatewayHttpResolver, event: dict[str, Any], context: Any) -> dict[str, Any]:
    """Refuse hostile bodies before Powertools parses them, then resolve the route."""
    try:
        check_event(event)
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
