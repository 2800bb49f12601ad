"""GET /documents/{document_id}/graph?namespace=NS: the document's keyword graph (graph.json of its published
revision; docshelf/graph/), authorised like every route; 404 for a document without one."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from docshelf.api.errors import NotFoundError
from docshelf.api.schemas import DOCUMENT_ID, NAMESPACE, ref

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response

    from docshelf.api.auth import Caller
    from docshelf.api.service import ApiServices
    from docshelf.graph.source import GraphSource


def register_graph_route(
    app: APIGatewayHttpResolver,
    services: Callable[[], ApiServices],
    caller: Callable[[], Caller],
    namespace_param: Callable[[], str],
) -> None:
    from docshelf.api.resolver import json_response, validated

    @app.get("/documents/<document_id>/graph")
    def graph_route(document_id: str) -> Response[str]:
        validated(document_id, DOCUMENT_ID, ("path", "document_id"))
        namespace = caller().authorize(namespace_param())
        api = services()
        record = api.registry.get(namespace, document_id)
        source: GraphSource | None = getattr(api, "graph_source", None)
        graph = source.load(namespace, document_id) if source is not None and record is not None else None
        if graph is None or record is None or record.status == "deleted":
            raise NotFoundError(f"no graph of document {document_id} in namespace {namespace}")
        return json_response(dict(graph), ref("GraphOut"))


def add_graph_path(paths: dict[str, Any]) -> None:
    errors = {"404": "no such document, or none with a graph", "400": "invalid request", "401": "no valid token",
              "403": "namespace not allowed", "429": "throttled", "500": "internal error"}  # fmt: skip
    responses: dict[str, Any] = {
        "200": {"description": "OK", "content": {"application/json": {"schema": ref("GraphOut")}}}
    }
    for status, description in errors.items():
        responses[status] = {"description": description, "content": {"application/json": {"schema": ref("ErrorOut")}}}
    paths["/documents/{document_id}/graph"] = {
        "get": {
            "summary": "A document's keyword graph: its sections and chunks, joined where they share keywords",
            "operationId": "get_document_graph",
            "parameters": [
                {"name": "document_id", "in": "path", "required": True, "schema": DOCUMENT_ID},
                {"name": "namespace", "in": "query", "required": True, "schema": NAMESPACE},
            ],
            "responses": responses,
        }
    }
