"""The McpFunction behind API Gateway's JWT authorizer (moto), with the MCP SDK's own client over streamable HTTP:
every tool over documents the real pipeline published, a refused namespace, and the authorizer's refusals."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from urllib.parse import urlsplit

import pytest

from docshelf.local.wsgi import http_event
from tests.functional.api.helpers import PUMP, SECRET_DOC, VALVES
from tests.functional.aws.harness import Pipeline

pytest.importorskip("mcp", reason="the MCP SDK is a dev dependency")

from tests.functional.mcp.conftest import threads_left
from tests.functional.mcp.mcp_calls import check_every_tool, every_tool, over_http, text_of, tool_listing

TOKENS = {"alice-jwt": {"sub": "alice", "cognito:groups": "[demo]"}}


def api_gateway(pipeline: Pipeline, tokens: Mapping[str, Mapping[str, str]]) -> HTTPServer:
    """POST /mcp as API Gateway hands it to the function: the authorizer's claims or its own 401."""

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            headers = {name.lower(): value for name, value in self.headers.items()}
            scheme, _, bearer = headers.get("authorization", "").partition(" ")
            claims = tokens.get(bearer) if scheme.lower() == "bearer" else None
            if claims is None:
                self.answer(401, {"Content-Type": "application/json"}, b'{"message":"Unauthorized"}')
                return
            parts = urlsplit(self.path)
            event: dict[str, Any] = http_event("POST", parts.path, parts.path, parts.query, headers, body)
            event["requestContext"]["authorizer"] = {"jwt": {"claims": dict(claims), "scopes": None}}
            result = pipeline.invoke("mcp", event)
            self.answer(int(result["statusCode"]), result["headers"], str(result["body"]).encode())

        def answer(self, status: int, headers: Mapping[str, str], data: bytes) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: Any) -> None:
            pass

    return HTTPServer(("127.0.0.1", 0), Handler)


@pytest.fixture
def mcp_url(pipeline: Pipeline) -> Iterator[str]:
    pipeline.upload("demo/manuals/pump.md", PUMP)
    pipeline.upload("demo/valves.md", VALVES)
    pipeline.upload("secret/payroll.md", SECRET_DOC)
    pipeline.drain()
    server = api_gateway(pipeline, TOKENS)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    before = set(threading.enumerate())
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/mcp"
    finally:
        server.shutdown()
        server.server_close()
        pipeline.modules["mcp"].route.close()  # the warm endpoint a Lambda instance keeps
        thread.join(timeout=10)
        assert threads_left(before) == []


def test_every_tool_through_the_mcp_function(mcp_url: str) -> None:
    check_every_tool(over_http(mcp_url, "alice-jwt", every_tool))


def test_the_mcp_function_answers_what_the_authorizer_lets_through_only(mcp_url: str, pipeline: Pipeline) -> None:
    with pytest.raises(ExceptionGroup):
        over_http(mcp_url, "forged-jwt", tool_listing)
    no_claims = http_event("POST", "/mcp", "/mcp", "", {"content-type": "application/json"}, b"{}")
    no_claims["requestContext"]["authorizer"] = {"jwt": {"claims": {}, "scopes": None}}
    answer = pipeline.invoke("mcp", no_claims)
    assert answer["statusCode"] == 401 and "token" in json.loads(answer["body"])["message"]
    deep = http_event("POST", "/mcp", "/mcp", "", {"content-type": "application/json"}, b"[" * 100 + b"]" * 100)
    deep["requestContext"]["authorizer"] = {"jwt": {"claims": TOKENS["alice-jwt"], "scopes": None}}
    assert pipeline.invoke("mcp", deep)["statusCode"] == 400
    refused = over_http(mcp_url, "alice-jwt", lambda c: c.call_tool("list_documents", {"namespace": "secret"}))
    assert refused.is_error and "secret" in text_of(refused)
