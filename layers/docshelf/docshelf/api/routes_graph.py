"""GET /documents/{document_id}/graph?namespace=NS: the document's keyword graph (of its published revision, built
from its chunks when asked: docshelf/graph/source.py), authorised like every route; 404 for a document without one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.api.errors import NotFoundError
from docshelf.api.requests import RouteContext, namespace_param, new_router
from docshelf.api.responses import json_response, validated
from docshelf.api.schemas import DOCUMENT_ID, ref

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import Response
    from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter

    from docshelf.graph.source import GraphSource


def graph_router(context: RouteContext) -> APIGatewayHttpRouter:
    router = new_router()

    @router.get("/documents/<document_id>/graph")
    def graph_route(document_id: str) -> Response[str]:
        validated(document_id, DOCUMENT_ID, ("path", "document_id"))
        event = router.current_event
        namespace = context.caller(event).authorize(namespace_param(event))
        api = context.services()
        record = api.registry.get(namespace, document_id)
        source: GraphSource | None = getattr(api, "graph_source", None)
        published = record is not None and record.status in ("ok", "partial")  # pipeline.INDEXED_STATUSES
        graph = source.load(namespace, document_id, record.revision) if source and record and published else None
        if graph is None:
            raise NotFoundError(f"no graph of document {document_id} in namespace {namespace}")
        return json_response(dict(graph), ref("GraphOut"))

    return router
