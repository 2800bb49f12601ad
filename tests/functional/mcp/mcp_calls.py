"""The MCP SDK's own client, driven synchronously: connect over a transport, list the tools, call them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

if TYPE_CHECKING:
    from mcp_types import CallToolResult

EXPECTED_TOOLS = {"search", "agentic_search", "list_documents", "document_outline", "read_section"}
Session = Callable[[Client], Awaitable[Any]]


def over(server: Any, session: Session, *, mode: str = "auto") -> Any:
    """`session(client)` with a client connected to `server` (an MCPServer, StdioServerParameters)."""

    async def run() -> Any:
        async with Client(server, mode=mode) as client:
            return await session(client)

    return asyncio.run(run())


def over_http(url: str, bearer: str | None, session: Session, *, mode: str = "auto") -> Any:
    """`session(client)` over streamable HTTP with `Authorization: Bearer <bearer>` on every request."""

    async def run() -> Any:
        headers = {"Authorization": f"Bearer {bearer}"} if bearer is not None else {}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            Client(streamable_http_client(url, http_client=http), mode=mode) as client,
        ):
            return await session(client)

    return asyncio.run(run())


async def every_tool(client: Client) -> dict[str, CallToolResult]:
    """Each tool called once over the `demo` tenant's documents, and one call naming the other tenant."""
    calls: dict[str, CallToolResult] = {}
    calls["search"] = await client.call_tool("search", {"query": "pump seal hours", "namespace": "demo"})
    calls["agentic_search"] = await client.call_tool(
        "agentic_search",
        {"query": "How often is the pump seal replaced, and what torque do TX-100 flange bolts take?",
         "namespace": "demo", "max_tokens": 600},
    )  # fmt: skip
    calls["list_documents"] = await client.call_tool("list_documents", {"namespace": "demo"})
    documents = (calls["list_documents"].structured_content or {})["documents"]
    pump = next(d for d in documents if d["source_key"] == "manuals/pump.md")
    calls["document_outline"] = await client.call_tool(
        "document_outline", {"document_id": pump["document_id"], "namespace": "demo"}
    )
    calls["read_section"] = await client.call_tool(
        "read_section",
        {"document_id": pump["document_id"], "section_path": ["Pump guide", "Maintenance"], "namespace": "demo",
         "max_tokens": 200},
    )  # fmt: skip
    calls["refused"] = await client.call_tool("search", {"query": "salary", "namespace": "secret"})
    return calls


async def tool_listing(client: Client) -> dict[str, dict[str, Any]]:
    listed = await client.list_tools()
    return {tool.name: {"description": tool.description, "schema": tool.input_schema} for tool in listed.tools}


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


def check_every_tool(calls: dict[str, CallToolResult]) -> None:
    """What each call must answer: cited evidence, the tenant's documents only, the outline, the section."""
    for name in ("search", "agentic_search", "list_documents", "document_outline", "read_section"):
        assert not calls[name].is_error, (name, text_of(calls[name]))
    search = calls["search"]
    assert text_of(search).startswith("[1] manuals/pump.md › Pump guide")
    assert "2000 operating hours" in text_of(search)
    first = (search.structured_content or {})["results"][0]
    assert first["source_file_name"] == "pump.md" and first["pages"] == [1] and first["rank"] == 1
    assert {"document_id", "chunk_id", "section_path", "score"} <= set(first)
    agentic = calls["agentic_search"]
    assert "2000 operating hours" in text_of(agentic) and "45 Nm" in text_of(agentic)
    assert (agentic.structured_content or {})["evidence_tokens"] <= 600
    keys = sorted(d["source_key"] for d in (calls["list_documents"].structured_content or {})["documents"])
    assert keys == ["manuals/pump.md", "valves.md"]
    outline = calls["document_outline"].structured_content or {}
    assert outline["sections"][0]["title"] == "Pump guide"
    assert [child["title"] for child in outline["sections"][0]["children"]] == ["Maintenance", "Safety"]
    assert "Maintenance" in text_of(calls["document_outline"])
    section = calls["read_section"]
    assert "2000 operating hours" in text_of(section) and "[1] manuals/pump.md" in text_of(section)
    assert (section.structured_content or {})["evidence_tokens"] <= 200
    refused = calls["refused"]
    assert refused.is_error and "does not allow namespace 'secret'" in text_of(refused)
    assert "confidential" not in text_of(refused)
