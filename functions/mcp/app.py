"""McpFunction: the MCP tools (search, agentic_search, list_documents, document_outline, read_section) over
streamable HTTP at `/mcp` on the HTTP API, behind the same JWT authorizer as the search routes.

Stateless: each POST is one JSON-RPC exchange answered as JSON, so any instance answers any request and nothing
is kept between invocations but the warm SDK objects. The tools run the same service functions as the
SearchFunction (`docshelf.mcp.tools`), against the same registry, index and cache.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.logging import correlation_paths

from docshelf.api.auth import ClaimNames
from docshelf.aws.logs import make_logger
from docshelf.aws.mcp_api import mcp_event_answer
from docshelf.aws.search_api import current_api_services
from docshelf.mcp.route import LazyMcpRoute

if TYPE_CHECKING:
    from aws_lambda_powertools.utilities.typing import LambdaContext

logger = make_logger()
_api_services = current_api_services


route = LazyMcpRoute(_api_services, loopback=False)  # API Gateway names the host; the token is what is checked


@logger.inject_lambda_context(correlation_id_path=correlation_paths.API_GATEWAY_HTTP)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    names: ClaimNames = _api_services().claim_names()
    return mcp_event_answer(event, route, names)
