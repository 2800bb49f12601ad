"""GET /runs/{run_id}: an agentic search's run record, to its own user (issue #24)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response

    from docshelf.api.auth import Caller
    from docshelf.api.service import ApiServices


def register_agentic_routes(
    app: APIGatewayHttpResolver, services: Callable[[], ApiServices], caller: Callable[[], Caller]
) -> None:
    from docshelf.api.resolver import json_response, validated  # the resolver imports this module
    from docshelf.api.schemas import ref
    from docshelf.api.schemas_agentic import RUN_ID

    @app.get("/runs/<run_id>")
    def run_route(run_id: str) -> Response[str]:
        from docshelf.api.service_agentic import get_run  # the agentic package loads only when used

        validated(run_id, RUN_ID, ("path", "run_id"))
        return json_response(get_run(services(), caller(), run_id), ref("RunOut"))
