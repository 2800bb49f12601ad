"""`docshelf serve`: the search API's WSGI app (`docshelf.local.wsgi`) on waitress.

waitress parses HTTP/1.1 (keep-alive, pipelining, chunked bodies), buffers each request completely before a
worker thread sees it, sets TCP_NODELAY on accepted sockets, listens with a deep backlog and closes idle
connections; the errors it raises itself (an oversized header block or body, a malformed request) are answered
here as JSON `{"message"}` like every other error.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer, create_server
from waitress.task import ErrorTask

from docshelf.api.openapi import openapi_json
from docshelf.api.resolver import build_resolver
from docshelf.api.service import ApiServices
from docshelf.local.docs_page import docs_page
from docshelf.local.pages import SEARCH_PAGE_POLICY, search_page_files
from docshelf.local.wsgi import Reply, SearchApiApp, ServeConfig, json_reply
from docshelf.mcp.route import LazyMcpRoute, McpRoute, mcp_available

__all__ = ["SearchApiServer", "ServeConfig", "run_server"]

REQUEST_TIMEOUT_S = 30  # an idle or stalled connection is closed after this long
LISTEN_BACKLOG = 1024  # waitress sets TCP_NODELAY on every accepted socket by default (socket_options)
WORKER_THREADS = 8
CONNECTION_LIMIT = 512
MAX_HEADER_BYTES = 256 * 1024  # request line and headers; the app itself refuses a URL over 8 KB with 414
DRAIN_LIMIT_BYTES = 4 * 1024 * 1024  # a body up to this is read and answered 413; beyond it waitress cuts it off


class JsonErrorTask(ErrorTask):  # type: ignore[misc]
    """waitress's own error responses (400, 413, 431, 500) with a JSON body instead of text."""

    def execute(self) -> None:
        error = self.request.error
        body = json_reply(error.code, f"{error.reason}: {error.body}").body
        self.status = f"{error.code} {error.reason}"
        self.response_headers.extend([("Content-Type", "application/json"), ("Cache-Control", "no-store")])
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class JsonErrorChannel(HTTPChannel):  # type: ignore[misc]
    error_task_class = JsonErrorTask


class SearchApiServer:
    """Bound and listening once constructed; `serve_forever` runs it until `shutdown` from another thread."""

    def __init__(self, address: tuple[str, int], services: ApiServices, config: ServeConfig) -> None:
        self.config = config
        openapi = openapi_json()
        policy = {"Content-Security-Policy": SEARCH_PAGE_POLICY}
        pages = {
            **{route: Reply(200, body, kind, policy) for route, (body, kind) in search_page_files().items()},
            "/docs": Reply(200, docs_page(openapi).encode(), "text/html; charset=utf-8"),
            "/openapi.json": Reply(200, openapi.encode()),
        }
        uploads = getattr(services, "ingress", None)
        resolver = build_resolver(lambda: services, lambda: config.claim_names)
        signer = getattr(services, "link_signer", None)
        self.app = SearchApiApp(resolver, config, pages, uploads, _mcp_route(services, address[0]), signer)
        self._server: TcpWSGIServer = create_server(
            self.app,
            host=address[0],
            port=address[1],
            ipv4=":" not in address[0],
            ipv6=":" in address[0],
            threads=WORKER_THREADS,
            backlog=LISTEN_BACKLOG,
            connection_limit=CONNECTION_LIMIT,
            channel_timeout=REQUEST_TIMEOUT_S,
            max_request_header_size=MAX_HEADER_BYTES,
            max_request_body_size=max(DRAIN_LIMIT_BYTES, uploads.max_upload_bytes if uploads else 0),
            asyncore_use_poll=True,
            ident="docshelf",
            clear_untrusted_proxy_headers=True,
        )
        self._server.channel_class = JsonErrorChannel
        self._stop = threading.Event()
        self._stopped = threading.Event()

    @property
    def server_address(self) -> tuple[str, int]:
        host, port = self._server.socket.getsockname()[:2]
        return str(host), int(port)

    @property
    def url(self) -> str:
        host, port = self.server_address
        return f"http://{f'[{host}]' if ':' in host else host}:{port}"

    def serve_forever(self, poll_interval: float = 0.5) -> None:
        try:
            while not self._stop.is_set():
                self._server.asyncore.loop(timeout=poll_interval, map=self._server._map, use_poll=True, count=1)
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        self._stop.set()
        self._server.pull_trigger()
        self._stopped.wait(timeout=30)

    def server_close(self) -> None:
        self._server.task_dispatcher.shutdown(timeout=5)
        if isinstance(self.app.mcp, LazyMcpRoute):
            self.app.mcp.close()
        for channel in list(self._server._map.values()):
            channel.close()
        self._server.close()


def _mcp_route(services: ApiServices, host: str) -> McpRoute | None:
    """MCP at /mcp when the SDK is installed; on a loopback address only loopback Host and Origin headers pass."""
    if not mcp_available():
        return None
    loopback = host in ("127.0.0.1", "localhost", "::1")
    return LazyMcpRoute(lambda: services, loopback=loopback)


def run_server(
    services: ApiServices,
    config: ServeConfig,
    *,
    host: str,
    port: int,
    announce: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
) -> None:
    server = SearchApiServer((host, port), services, config)
    if not config.auth_enabled:
        announce(
            "!!! docshelf serve: AUTHENTICATION IS OFF (--no-auth): anyone who can reach "
            f"{server.url} can read every namespace !!!"
        )
    announce(f"docshelf serve: {server.url}/ (search page), {server.url}/docs (API docs), {server.url}/openapi.json")
    if server.app.mcp is not None:
        announce(f"docshelf serve: {server.url}/mcp (MCP, streamable HTTP, the same bearer token)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
