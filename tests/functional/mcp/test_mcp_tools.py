"""The MCP server with the SDK's own client: in process, over stdio (`docshelf mcp`) and over streamable HTTP
(`docshelf serve`), every tool, a refused namespace, and the isolation probes that hold for the HTTP API."""

from __future__ import annotations

import http.client
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from docshelf.api.auth import Caller
from docshelf.local.api_services import LocalApiServices
from docshelf.mcp.server import build_mcp_server, fixed_caller
from tests.functional.api.helpers import Served, ingest_tenants, token
from tests.functional.mcp.mcp_calls import (
    EXPECTED_TOOLS,
    check_every_tool,
    every_tool,
    over,
    over_http,
    text_of,
    tool_listing,
)

DEMO = token("alice", ["demo"])


def test_every_tool_in_process(tmp_path: Path) -> None:
    backend = LocalApiServices(ingest_tenants(tmp_path / "store"), cache_ttl_s=0)
    server = build_mcp_server(lambda: backend, fixed_caller(Caller("alice", frozenset({"demo"}))))
    check_every_tool(over(server, every_tool))


def test_tools_publish_json_schemas_an_llm_can_act_on(tmp_path: Path) -> None:
    backend = LocalApiServices(ingest_tenants(tmp_path / "store"), cache_ttl_s=0)
    server = build_mcp_server(lambda: backend, fixed_caller(Caller("alice", frozenset({"demo"}))))
    tools = over(server, tool_listing)
    assert set(tools) == EXPECTED_TOOLS
    for name, tool in tools.items():
        schema = tool["schema"]
        assert schema["type"] == "object" and len(tool["description"]) > 80, name
        for field, spec in schema["properties"].items():
            assert spec.get("description"), (name, field)
    search = tools["search"]["schema"]
    assert search["required"] == ["query"]
    assert search["properties"]["top_k"]["anyOf"][0]["maximum"] == 50
    assert tools["read_section"]["schema"]["required"] == ["document_id", "section_path"]


def test_bad_arguments_are_tool_errors_that_say_what_to_fix(tmp_path: Path) -> None:
    backend = LocalApiServices(ingest_tenants(tmp_path / "store"), cache_ttl_s=0)
    server = build_mcp_server(lambda: backend, fixed_caller(Caller("alice", frozenset({"demo", "secret"}))))

    async def calls(client: Client) -> list[Any]:
        return [
            await client.call_tool("search", {"query": "pump", "top_k": 99, "namespace": "demo"}),
            await client.call_tool("search", {"query": "pump"}),  # two namespaces allowed, none named
            await client.call_tool("document_outline", {"document_id": "nope", "namespace": "demo"}),
            await client.call_tool("read_section", {"document_id": "nope", "section_path": [], "namespace": "demo"}),
        ]

    too_many, unnamed, no_document, no_section_document = over(server, calls)
    assert too_many.is_error and "top_k" in text_of(too_many)
    assert unnamed.is_error and "name the namespace" in text_of(unnamed) and "demo, secret" in text_of(unnamed)
    assert no_document.is_error and "list_documents" in text_of(no_document)
    assert no_section_document.is_error


def test_every_tool_over_stdio(tmp_path: Path) -> None:
    ingest_tenants(tmp_path / "store")
    command = [
        sys.executable,
        "-m",
        "docshelf.local.cli",
        "mcp",
        "--store",
        str(tmp_path / "store"),
        "--namespace",
        "demo",
    ]
    params = StdioServerParameters(command=command[0], args=command[1:])
    check_every_tool(over(params, every_tool))
    default = over(params, lambda client: client.call_tool("search", {"query": "TX-100 torque"}))
    assert not default.is_error and "45 Nm" in text_of(default)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_every_tool_over_streamable_http_on_serve(served: Served, mode: str) -> None:
    check_every_tool(over_http(served.url + "/mcp", DEMO, every_tool, mode=mode))


def raw_mcp(
    served: Served, headers: dict[str, str], body: dict[str, Any] | None = None
) -> tuple[int, Any, dict[str, str]]:
    parts = urlsplit(served.url)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    message = body or {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
    sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers}
    try:
        connection.request("POST", "/mcp", body=json.dumps(message), headers=sent)
        response = connection.getresponse()
        data = response.read()
        return response.status, json.loads(data) if data else None, dict(response.headers.items())
    finally:
        connection.close()


def test_isolation_probes_hold_for_mcp_over_http(served: Served) -> None:
    status, body, headers = raw_mcp(served, {})
    assert status == 401 and "bearer" in body["message"].lower()
    assert {name.lower(): value for name, value in headers.items()}["www-authenticate"] == "Bearer"
    forged = token("alice", ["demo", "secret"], secret="another-secret-that-is-also-long-enough")
    assert raw_mcp(served, {"Authorization": f"Bearer {forged}"})[0] == 401
    expired = token("alice", ["demo"], exp=1)
    assert raw_mcp(served, {"Authorization": f"Bearer {expired}"})[0] == 401
    with pytest.raises(ExceptionGroup) as failed:  # the SDK's own client cannot even list the tools
        over_http(served.url + "/mcp", None, tool_listing)
    assert failed.group_contains(MCPError)
    # a token for demo reaches no document of secret, by any tool
    payroll = next(r for r in served.services.registry.list("secret")).document_id

    async def probes(client: Client) -> list[Any]:
        return [
            await client.call_tool("list_documents", {"namespace": "secret"}),
            await client.call_tool("document_outline", {"document_id": payroll, "namespace": "secret"}),
            await client.call_tool("document_outline", {"document_id": payroll, "namespace": "demo"}),
            await client.call_tool("read_section", {"document_id": payroll, "section_path": [], "namespace": "demo"}),
            await client.call_tool("search", {"query": "salary chief engineer confidential"}),
        ]

    *refused, found = over_http(served.url + "/mcp", DEMO, probes)
    assert all(result.is_error for result in refused)
    assert "confidential" not in "".join(text_of(result) for result in refused)
    assert not found.is_error and "confidential" not in text_of(found)
    assert all(r["source_file_name"] != "payroll.md" for r in (found.structured_content or {})["results"])


def test_no_user_is_served_from_another_users_cache(served: Served) -> None:
    def cache_of(bearer: str) -> str:
        result = over_http(served.url + "/mcp", bearer, lambda c: c.call_tool("search", {"query": "impeller wear"}))
        return str(result.structured_content["cache"])

    assert cache_of(DEMO) == "miss"
    assert cache_of(DEMO) == "hit"
    assert cache_of(token("carol", ["demo"])) == "miss"


def test_a_rebinding_host_is_refused_on_a_loopback_server(served: Served) -> None:
    status, _body, _headers = raw_mcp(served, {"Authorization": f"Bearer {DEMO}", "Host": "attacker.example"})
    assert status in (400, 403, 421)
    assert raw_mcp(served, {"Authorization": f"Bearer {DEMO}"})[0] == 200
