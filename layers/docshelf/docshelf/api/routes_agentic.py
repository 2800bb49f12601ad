"""GET /runs/{run_id}: an agentic search's run record, to its own user (issue #24)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.api.requests import RouteContext, new_router
from docshelf.api.responses import json_response, validated
from docshelf.api.schemas import ref
from docshelf.api.schemas_agentic import RUN_ID

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import Response
    from aws_lambda_powertools.event_handler.router import APIGatewayHttpRouter


def agentic_router(context: RouteContext) -> APIGatewayHttpRouter:
    router = new_router()

    @router.get("/runs/<run_id>")
    def run_route(run_id: str) -> Response[str]:
        from docshelf.api.service_agentic import get_run  # the agentic package loads only when used

        validated(run_id, RUN_ID, ("path", "run_id"))
        return json_response(get_run(context.services(), context.caller(router.current_event), run_id), ref("RunOut"))

    return router
