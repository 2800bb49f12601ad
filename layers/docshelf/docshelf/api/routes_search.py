"""POST /search: ranked, cited evidence (docs/architecture.md#search), classic or agentic."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from docshelf.api.links import absolute_links
from docshelf.api.requests import RouteContext, json_body, new_router
from docshelf.api.responses import RequestValidationError, json_response, validated
from docshelf.api.schemas import SEARCH_BODY, ref
from docshelf.api.service import run_search
from docshelf.index.plan import SearchFilters
from docshelf.json_schema import Problem
from docshelf.search.request import DEFAULT_MAX_TOKENS, DEFAULT_TOP_K, SearchRequest

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import Response
    from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

# Called with each search's payload and whether the search cache answered it (the SearchFunction's metrics).
SearchHook = Callable[[dict[str, Any], bool], None]


def search_router(context: RouteContext, on_search: SearchHook | None = None) -> APIGatewayHttpRouter:
    router = new_router()

    @router.post("/search")
    def search_route() -> Response[str]:
        event = router.current_event
        body = validated(json_body(event.decoded_body), SEARCH_BODY, ("body",))
        request = to_search_request(body)
        if body.get("mode") == "agentic":
            from docshelf.api.service_agentic import run_agentic_search  # not on a classic cold start

            payload, hit = run_agentic_search(context.services(), context.caller(event), request)
        else:
            payload, hit = run_search(context.services(), context.caller(event), request)
        if on_search is not None:
            on_search(payload, hit)
        return json_response(absolute_links(payload, event.headers), ref("SearchOut"))

    return router


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
