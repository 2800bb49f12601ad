"""GET /namespaces: the namespaces the caller's token may read that hold (or held) documents, so a client can offer
them and tell a misspelt one from an empty one (a search of an unknown namespace answers 404 naming them too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from docshelf.api.schemas import ref

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response

    from docshelf.api.auth import Caller
    from docshelf.api.service import ApiServices


def register_namespace_route(
    app: APIGatewayHttpResolver, services: Callable[[], ApiServices], caller: Callable[[], Caller]
) -> None:
    from docshelf.api.resolver import json_response

    @app.get("/namespaces")
    def namespaces_route() -> Response[str]:
        who = caller()
        readable = [namespace for namespace in services().registry.namespaces() if who.may_read(namespace)]
        return json_response({"namespaces": readable}, ref("NamespaceListOut"))
