"""The MCP endpoint as a host mounts it (`docshelf serve`'s /mcp, the McpFunction): made on the first request over
the host's API services, each tool call's caller taken from its request's scope (`docshelf.mcp.http`)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Protocol

from docshelf.api.auth import Caller
from docshelf.api.service import ApiServices
from docshelf.mcp.http import HttpAnswer, McpHttpEndpoint

LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]


def http_endpoint(services: Callable[[], ApiServices], *, loopback: bool) -> McpHttpEndpoint:
    """The endpoint over an API's services, each tool call's caller taken from its request's scope."""
    from docshelf.mcp.server import build_mcp_server, scope_caller

    server = build_mcp_server(services, scope_caller)
    return McpHttpEndpoint(server, allowed_hosts=LOOPBACK_HOSTS if loopback else None)


class McpRoute(Protocol):
    def __call__(
        self, method: str, path: str, query: str, headers: Mapping[str, str], body: bytes, caller: Caller
    ) -> HttpAnswer: ...


class LazyMcpRoute:
    """The endpoint made on the first MCP request, so a server that never serves one never imports the SDK."""

    def __init__(self, services: Callable[[], ApiServices], *, loopback: bool) -> None:
        self._services = services
        self._loopback = loopback
        self._endpoint: McpHttpEndpoint | None = None
        self._lock = threading.Lock()

    def __call__(
        self, method: str, path: str, query: str, headers: Mapping[str, str], body: bytes, caller: Caller
    ) -> HttpAnswer:
        with self._lock:
            if self._endpoint is None:
                self._endpoint = http_endpoint(self._services, loopback=self._loopback)
        return self._endpoint.handle(method, path, query, headers, body, caller)

    def close(self) -> None:
        """Stop the endpoint, if one was made; the next request makes another."""
        with self._lock:
            endpoint, self._endpoint = self._endpoint, None
        if endpoint is not None:
            endpoint.close()


def mcp_available() -> bool:
    """Whether the MCP SDK is installed (`pip install 'docshelf[mcp]'`)."""
    import importlib.util

    return importlib.util.find_spec("mcp") is not None
