"""MCP's streamable HTTP transport for hosts that hand over one buffered request at a time (`docshelf serve`'s WSGI
app, the McpFunction behind API Gateway).

The SDK's session manager runs stateless with JSON responses: each POST is one self-contained exchange, no session
is kept between requests, so any Lambda instance can answer any request. It runs on one event loop in a daemon
thread, started on first use; a request is handed to it as an ASGI call with the verified caller in the scope
(`CALLER_SCOPE_KEY`) and the host waits for the buffered answer. The host has verified the token first: a request
without one never reaches the SDK.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docshelf.api.auth import Caller

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

MCP_PATH = "/mcp"
CALLER_SCOPE_KEY = "docshelf.caller"  # where the verified caller rides in the ASGI scope
REQUEST_TIMEOUT_S = 60.0


@dataclass(frozen=True, slots=True)
class HttpAnswer:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    @property
    def content_type(self) -> str:
        return next((value for name, value in self.headers if name.lower() == "content-type"), "")


class McpHttpEndpoint:
    """`handle` answers one HTTP request to the MCP endpoint; thread-safe (WSGI worker threads call it at once)."""

    def __init__(self, server: MCPServer[Any], *, allowed_hosts: list[str] | None = None) -> None:
        from mcp.server.transport_security import TransportSecuritySettings

        # With allowed hosts (a loopback server), the SDK refuses other Host and Origin headers: a web page that
        # rebinds its DNS name to 127.0.0.1 cannot reach a server run without auth.
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=allowed_hosts is not None,
            allowed_hosts=allowed_hosts or [],
            allowed_origins=[f"http://{host}" for host in allowed_hosts or []],
        )
        server.streamable_http_app(
            streamable_http_path=MCP_PATH, stateless_http=True, json_response=True, transport_security=security
        )
        self._manager: StreamableHTTPSessionManager = server.session_manager
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        self._started = threading.Lock()

    def handle(
        self, method: str, path: str, query: str, headers: Mapping[str, str], body: bytes, caller: Caller
    ) -> HttpAnswer:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()],
            "client": ("127.0.0.1", 0),
            "server": ("127.0.0.1", 0),
            "state": {},
            CALLER_SCOPE_KEY: caller,
        }
        future = asyncio.run_coroutine_threadsafe(self._call(scope, body), self._running_loop())
        return future.result(timeout=REQUEST_TIMEOUT_S)

    async def _call(self, scope: dict[str, Any], body: bytes) -> HttpAnswer:
        answered = asyncio.Event()
        sent = False
        status = 500
        headers: list[tuple[str, str]] = []
        parts: list[bytes] = []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await answered.wait()
            return {"type": "http.disconnect"}

        async def send(message: MutableMapping[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers.extend((bytes(k).decode("latin-1"), bytes(v).decode("latin-1")) for k, v in message["headers"])
            elif message["type"] == "http.response.body":
                parts.append(bytes(message.get("body", b"")))
                if not message.get("more_body", False):
                    answered.set()

        await self._manager.handle_request(scope, receive, send)
        answered.set()
        return HttpAnswer(status, headers, b"".join(parts))

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._started:
            if self._loop is None:
                ready = threading.Event()
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=self._run, args=(loop, ready), name="docshelf-mcp", daemon=True)
                thread.start()
                ready.wait()
                if not thread.is_alive():
                    raise RuntimeError("the MCP session manager did not start")
                self._loop, self._thread = loop, thread
            return self._loop

    def close(self, timeout_s: float = 10.0) -> None:
        """Stop the session manager and its loop, and wait for their threads (a server's shutdown; tests, so that no
        thread outlives them: docshelf.forked forks only a single-threaded process)."""
        with self._started:
            loop, thread, stop = self._loop, self._thread, self._stop
            self._loop = self._thread = None
        if loop is None or thread is None or stop is None:
            return
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout_s)
        for worker in threading.enumerate():  # anyio's workers stop once the loop's root task has ended
            if worker.name.startswith("AnyIO worker thread") and worker is not threading.current_thread():
                worker.join(timeout_s)

    def _run(self, loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        asyncio.set_event_loop(loop)

        async def serve() -> None:
            self._stop = asyncio.Event()
            async with self._manager.run():
                ready.set()
                await self._stop.wait()  # until close(), or the process ends: the thread is a daemon

        try:
            loop.run_until_complete(serve())
        finally:
            ready.set()
            loop.close()
