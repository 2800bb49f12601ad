"""The Powertools resolver for the search API, shared by the SearchFunction and `docshelf serve`.

POST /search                                   ranked, cited evidence (docs/architecture.md#search)
GET  /documents?namespace=NS                   every document of a namespace: status, revision, chunks, errors
GET  /documents/{document_id}?namespace=NS     one document
GET  /documents/{document_id}/source?namespace=NS  its source file (api/routes_source.py)
GET  /runs/{run_id}                            an agentic search's run record (api/routes_agentic.py)
GET  /namespaces                               the namespaces the token may read that hold documents

Requests and responses are validated against the JSON Schemas of `docshelf.api.schemas` (the OpenAPI document's
components); every error is JSON `{"message"}` with 400/401/403/404/413/429/500, and nothing about the server's
internals (no stack trace) leaves it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError as RouteNotFoundError

from docshelf.api.auth import Caller, ClaimNames, caller_from_claims
from docshelf.api.errors import ApiError, ThrottledError
from docshelf.api.guard import check_event, is_unicode_text
from docshelf.api.json_schema import Location, Problem, Schema, Validator
from docshelf.api.links import absolute_links
from docshelf.api.query_params import check_query_parameters
from docshelf.api.routes_agentic import register_agentic_routes
from docshelf.api.routes_assets import register_asset_route
from docshelf.api.routes_documents import register_document_routes
from docshelf.api.routes_graph import register_graph_route
from docshelf.api.routes_namespaces import register_namespace_route
from docshelf.api.routes_source import register_source_route
from docshelf.api.schemas import COMPONENTS, DOCUMENT_ID, LIST_QUERY, NAMESPACE, SEARCH_BODY, ref
from docshelf.api.service import ApiServices, get_document, list_documents, run_search
from docshelf.errors import InvalidNameError, InvalidQueryError
from docshelf.index.plan import SearchFilters
from docshelf.search.document_names import UnknownNamespaceError
from docshelf.search.request import DEFAULT_MAX_TOKENS, DEFAULT_TOP_K, SearchRequest

THROTTLING_CODES = frozenset(
    {"ThrottlingException", "ProvisionedThroughputExceededException", "RequestLimitExceeded", "TooManyRequests"}
)
SearchHook = Callable[[dict[str, Any], bool], None]
VALIDATOR = Validator(COMPONENTS)
_log = logging.getLogger(__name__)


class RequestValidationError(ApiError):
    status = 400

    def __init__(self, problems: list[Problem]) -> None:
        summary = "; ".join(f"{problem.as_dict()['loc']}: {problem.msg}" for problem in problems[:3])
        super().__init__(f"invalid request: {summary}")
        self.problems = problems


class ResponseValidationError(Exception):
    """A handler produced a body outside its documented schema: a server bug, answered with 500."""


def validated(value: Any, schema: Schema, loc: Location) -> Any:
    problems = VALIDATOR.problems(value, schema, loc)
    if problems:
        raise RequestValidationError(problems)
    return value


def json_response(payload: Any, schema: Schema, status: int = 200) -> Response[str]:
    body = VALIDATOR.declared(payload, schema)
    problems = VALIDATOR.problems(body, schema, ("response",))
    if problems:
        raise ResponseValidationError("; ".join(f"{p.as_dict()['loc']}: {p.msg}" for p in problems[:3]))
    return Response(status, "application/json", json.dumps(body, ensure_ascii=False, separators=(",", ":")))


def error_response(status: int, message: str, errors: list[dict[str, str]] | None = None) -> Response[str]:
    body: dict[str, Any] = {"message": message}
    if errors:
        body["errors"] = errors
    headers = {"Retry-After": "1"} if status == 429 else None
    return Response(status, "application/json", json.dumps(body, ensure_ascii=False), headers=headers)


def to_search_request(body: Mapping[str, Any]) -> SearchRequest:
    """A request body that passed `SEARCH_BODY`, with the schema's defaults filled in. `budget_tokens` is the
    agentic budget's old name: one budget, `max_tokens`, serves both modes, so giving both differently is refused."""
    if "budget_tokens" in body and body.get("max_tokens", body["budget_tokens"]) != body["budget_tokens"]:
        raise RequestValidationError(
            [Problem(("body", "budget_tokens"), "max_tokens is the one budget of both modes: leave out budget_tokens")]
        )
    filters = body.get("filters", {})
    return SearchRequest(
        namespace=body["namespace"],
        query=body["query"],
        top_k=body.get("top_k", DEFAULT_TOP_K),
        max_tokens=body.get("max_tokens", body.get("budget_tokens", DEFAULT_MAX_TOKENS)),
        min_score=body.get("min_score", 0.0),
        filters=SearchFilters(
            documents=tuple(filters.get("documents", ())),
            exclude_documents=tuple(filters.get("exclude_documents", ())),
            exclude_sections=tuple(filters.get("exclude_sections", ())),
            chunk_types=tuple(filters.get("chunk_types", ())),
        ),
    )


def build_resolver(
    services: Callable[[], ApiServices],
    claim_names: Callable[[], ClaimNames],
    *,
    on_search: SearchHook | None = None,
) -> APIGatewayHttpResolver:
    """`services` and `claim_names` are called per request, so nothing is built at import time."""
    app = APIGatewayHttpResolver()

    def caller() -> Caller:
        claims = app.current_event.request_context.authorizer.jwt_claim
        return caller_from_claims(claims, claim_names())

    def namespace_param() -> str:
        namespace = (app.current_event.query_string_parameters or {}).get("namespace")
        if namespace is None:
            raise RequestValidationError([Problem(("query", "namespace"), "field required")])
        value: str = validated(namespace, NAMESPACE, ("query", "namespace"))
        return value

    @app.post("/search")
    def search_route() -> Response[str]:
        body = validated(_json_body(app.current_event.decoded_body), SEARCH_BODY, ("body",))
        request = to_search_request(body)
        if body.get("mode") == "agentic":
            from docshelf.api.service_agentic import run_agentic_search  # not on a classic cold start

            payload, hit = run_agentic_search(services(), caller(), request)
        else:
            payload, hit = run_search(services(), caller(), request)
        if on_search is not None:
            on_search(payload, hit)
        return json_response(absolute_links(payload, app.current_event.headers), ref("SearchOut"))

    @app.get("/documents")
    def documents_route() -> Response[str]:
        query = app.current_event.query_string_parameters or {}
        page = {name: validated(query[name], LIST_QUERY[name], ("query", name)) for name in LIST_QUERY if name in query}
        if "limit" in page:
            page["limit"] = int(page["limit"])
        listed = list_documents(services(), caller(), namespace_param(), **page)
        return json_response(listed, ref("DocumentListOut"))

    @app.get("/documents/<document_id>")
    def document_route(document_id: str) -> Response[str]:
        validated(document_id, DOCUMENT_ID, ("path", "document_id"))
        document = get_document(services(), caller(), namespace_param(), document_id)
        return json_response(document, ref("DocumentOut"))

    register_source_route(app, services, caller, namespace_param, validated)
    register_asset_route(app, services, caller, namespace_param, validated)
    register_document_routes(app, services, caller, namespace_param)
    register_graph_route(app, services, caller, namespace_param)
    register_agentic_routes(app, services, caller)
    register_namespace_route(app, services, caller)
    _register_error_handlers(app)
    return app


def _json_body(text: str | None) -> Any:
    """The body as JSON; `check_event` has already bounded its size, encoding and depth."""
    if not text:
        raise RequestValidationError([Problem(("body",), "field required")])
    try:
        data = json.loads(text)
    except ValueError:
        raise RequestValidationError([Problem(("body",), "invalid JSON")]) from None
    problems = list(_non_unicode_text(data, ("body",)))
    if problems:
        raise RequestValidationError(problems)
    return data


def _non_unicode_text(value: Any, loc: Location) -> Iterator[Problem]:
    """Every key or string that JSON escapes made into text no UTF-8 can carry (`"\\ud800"`)."""
    if isinstance(value, str) and not is_unicode_text(value):
        yield Problem(loc, "text is not valid Unicode: it holds a lone surrogate")
    elif isinstance(value, dict):
        for key, item in value.items():
            if not is_unicode_text(key):
                yield Problem(loc, "a field name is not valid Unicode: it holds a lone surrogate")
            else:
                yield from _non_unicode_text(item, (*loc, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _non_unicode_text(item, (*loc, index))


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
