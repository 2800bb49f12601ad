"""The McpFunction's work: one API Gateway HTTP API event to `/mcp` answered by the stateless MCP endpoint.

API Gateway's JWT authorizer has verified the token, as for the search routes; the caller (user and namespaces)
comes from its claims only, and every tool authorizes the namespace it reads, so the tenant rules are the API's.
Hostile bodies are refused before the SDK parses them (`docshelf.api.guard`), like every other route.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from typing import Any

from docshelf.api.auth import ClaimNames, caller_from_claims
from docshelf.api.errors import ApiError
from docshelf.api.guard import check_event, raw_body
from docshelf.mcp.http import MCP_PATH, HttpAnswer
from docshelf.mcp.route import McpRoute

_KEPT_HEADERS = ("content-type", "mcp-session-id", "mcp-protocol-version", "allow")


def mcp_event_answer(event: Mapping[str, Any], route: McpRoute, claim_names: ClaimNames) -> dict[str, Any]:
    """The HTTP API (payload v2) response to `event`; errors are JSON `{"message"}` like the search API's."""
    try:
        check_event(event)
        claims = ((event.get("requestContext") or {}).get("authorizer") or {}).get("jwt", {}).get("claims")
        caller = caller_from_claims(claims, claim_names)
        http = event["requestContext"]["http"]
        headers = {str(name).lower(): str(value) for name, value in (event.get("headers") or {}).items()}
        query = str(event.get("rawQueryString") or "")
        answer = route(str(http["method"]).upper(), MCP_PATH, query, headers, raw_body(event), caller)
    except ApiError as error:
        return _response(error.status, json.dumps({"message": error.message}).encode(), "application/json")
    if answer.status >= 400 and not answer.content_type.startswith("application/json"):
        message = answer.body.decode("utf-8", "replace")[:500]
        return _response(answer.status, json.dumps({"message": message}).encode(), "application/json")
    return _response(answer.status, answer.body, answer.content_type or "application/json", answer)


def _response(status: int, body: bytes, content_type: str, answer: HttpAnswer | None = None) -> dict[str, Any]:
    headers = {"Content-Type": content_type, "Cache-Control": "no-store"}
    for name, value in answer.headers if answer is not None else []:
        if name.lower() in _KEPT_HEADERS and name.lower() != "content-type":
            headers[name] = value
    try:
        text, encoded = body.decode("utf-8"), False
    except UnicodeDecodeError:
        text, encoded = base64.b64encode(body).decode(), True
    return {"statusCode": status, "headers": headers, "body": text, "isBase64Encoded": encoded, "cookies": []}
