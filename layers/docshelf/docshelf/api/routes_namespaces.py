"""GET /namespaces: the namespaces the caller's token may read that hold (or held) documents, so a client can offer
them and tell a misspelt one from an empty one (a search of an unknown namespace answers 404 naming them too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.api.requests import RouteContext, new_router
from docshelf.api.responses import json_response
from docshelf.api.schemas import ref

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import Response
    from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter


def namespace_router(context: RouteContext) -> APIGatewayHttpRouter:
    router = new_router()

    @router.get("/namespaces")
    def namespaces_route() -> Response[str]:
        who = context.caller(router.current_event)
        readable = [namespace for namespace in context.services().registry.namespaces() if who.may_read(namespace)]
        return json_response({"namespaces": readable}, ref("NamespaceListOut"))

    return router
