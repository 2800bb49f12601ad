"""`docshelf serve`: the search API's resolver behind a local HTTP server.

Each request becomes an API Gateway HTTP API (v2) event for the very resolver the SearchFunction runs. The
server plays API Gateway's part: it verifies the bearer JWT (HS256 with the configured secret) and passes the
verified claims on, or with no auth passes claims that allow every namespace. It also serves the OpenAPI
document, offline API docs and a small search page; every page is self-contained and loads nothing from the
internet (the Content-Security-Policy forbids it).
"""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from docshelf.api.auth import ALL_NAMESPACES, ClaimNames, verify_hs256
from docshelf.api.docs_page import docs_page
from docshelf.api.errors import ApiError, PayloadTooLargeError, UnauthorizedError
from docshelf.api.limits import MAX_BODY_BYTES
from docshelf.api.openapi import openapi_json
from docshelf.api.pages import SEARCH_PAGE
from docshelf.api.resolver import build_resolver, handle
from docshelf.api.service import ApiBackend

PUBLIC_PATHS = frozenset({"/", "/openapi.json", "/docs"})
PAGE_POLICY = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
REQUEST_TIMEOUT_S = 30
DRAIN_LIMIT_BYTES = 4 * 1024 * 1024  # an oversized body is read and dropped up to this much before the 413


@dataclass(frozen=True, slots=True)
class ServeConfig:
    jwt_secret: str | None
    claim_names: ClaimNames = field(default_factory=ClaimNames)
    quiet: bool = False

    @property
    def auth_enabled(self) -> bool:
        return self.jwt_secret is not None


class SearchApiServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], backend: ApiBackend, config: ServeConfig) -> None:
        self.config = config
        self.app = build_resolver(lambda: backend, lambda: config.claim_names)
        self.openapi = openapi_json()
        self.docs = docs_page(self.openapi)
        super().__init__(address, _RequestHandler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class _RequestHandler(BaseHTTPRequestHandler):
    server: SearchApiServer
    protocol_version = "HTTP/1.1"
    timeout = REQUEST_TIMEOUT_S
    server_version = "docshelf"

    def do_GET(self) -> None:
        self._serve()

    def do_POST(self) -> None:
        self._serve()

    def do_PUT(self) -> None:
        self._serve()

    def do_DELETE(self) -> None:
        self._serve()

    def do_PATCH(self) -> None:
        self._serve()

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.config.quiet:
            super().log_message(format, *args)

    def _serve(self) -> None:
        parts = urlsplit(self.path)
        path = unquote(parts.path) or "/"
        try:
            body = self._read_body()
            if path == "/" and self.command == "GET":
                return self._send(200, "text/html; charset=utf-8", SEARCH_PAGE.encode())
            if path == "/openapi.json" and self.command == "GET":
                return self._send(200, "application/json", self.server.openapi.encode())
            if path == "/docs" and self.command == "GET":
                return self._send(200, "text/html; charset=utf-8", self.server.docs.encode())
            claims = self._claims() if path not in PUBLIC_PATHS else {}
        except ApiError as error:
            return self._send_error(error)
        event = _http_event(self.command, parts.path or "/", path, parts.query, dict(self.headers.items()), body)
        if claims:
            event["requestContext"]["authorizer"] = {"jwt": {"claims": claims, "scopes": None}}
        result = handle(self.server.app, event, None)
        data = result.get("body") or ""
        raw = base64.b64decode(data) if result.get("isBase64Encoded") else str(data).encode()
        headers = {str(k): str(v) for k, v in (result.get("headers") or {}).items()}
        self._send(int(result["statusCode"]), headers.pop("Content-Type", "application/json"), raw, headers)

    def _read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding"):
            self.close_connection = True
            raise ApiError("send the body with a Content-Length")
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            self.close_connection = True
            raise ApiError("Content-Length is not a number") from None
        if length > MAX_BODY_BYTES:
            self.close_connection = True
            self._discard(min(length, DRAIN_LIMIT_BYTES))
            raise PayloadTooLargeError(f"the request body is larger than {MAX_BODY_BYTES} bytes")
        return self.rfile.read(length) if length > 0 else b""

    def _discard(self, length: int) -> None:
        """Read and drop a refused body (bounded), so a client still sending it reads our 413 instead of
        a reset connection; a body beyond the bound is cut off by closing the connection."""
        while length > 0:
            chunk = self.rfile.read(min(length, 64 * 1024))
            if not chunk:
                return
            length -= len(chunk)

    def _claims(self) -> dict[str, Any]:
        config = self.server.config
        names = config.claim_names
        if config.jwt_secret is None:
            return {names.user: "anonymous", names.namespaces: ALL_NAMESPACES}
        claims = verify_hs256(self.headers.get("Authorization"), config.jwt_secret)
        # API Gateway passes claims as strings, lists flattened to "[a b]"; do the same.
        return {key: _claim_string(value) for key, value in claims.items()}

    def _send_error(self, error: ApiError) -> None:
        headers = {"WWW-Authenticate": "Bearer"} if isinstance(error, UnauthorizedError) else {}
        body = json.dumps({"message": error.message}).encode()
        self._send(error.status, "application/json", body, headers)

    def _send(self, status: int, content_type: str, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-store")
        if content_type.startswith("text/html"):
            self.send_header("Content-Security-Policy", PAGE_POLICY)
        for name, value in (headers or {}).items():
            if name.lower() not in ("content-length", "content-type"):
                self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


def _claim_string(value: Any) -> str:
    if isinstance(value, list):
        return "[" + " ".join(str(item) for item in value) + "]"
    return str(value)


def _http_event(
    method: str, raw_path: str, path: str, query: str, headers: dict[str, str], body: bytes
) -> dict[str, Any]:
    """An API Gateway HTTP API payload v2 event, as API Gateway would build it for this request."""
    lowered: dict[str, str] = {}
    for name, value in headers.items():
        key = name.lower()
        lowered[key] = f"{lowered[key]},{value}" if key in lowered else value
    parameters: dict[str, str] = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        parameters[name] = f"{parameters[name]},{value}" if name in parameters else value
    try:
        text, encoded = body.decode("utf-8"), False
    except UnicodeDecodeError:
        text, encoded = base64.b64encode(body).decode(), True
    return {
        "version": "2.0",
        "routeKey": "$default",
        "rawPath": raw_path,
        "rawQueryString": query,
        "headers": lowered,
        "queryStringParameters": parameters or None,
        "requestContext": {
            "http": {"method": method, "path": path, "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1"},
            "requestId": "local",
            "routeKey": "$default",
            "stage": "$default",
        },
        "body": text if body else None,
        "isBase64Encoded": encoded,
    }


def run_server(
    backend: ApiBackend,
    config: ServeConfig,
    *,
    host: str,
    port: int,
    announce: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
) -> None:
    server = SearchApiServer((host, port), backend, config)
    if not config.auth_enabled:
        announce(
            "!!! docshelf serve: AUTHENTICATION IS OFF (--no-auth): anyone who can reach "
            f"{server.url} can read every namespace !!!"
        )
    announce(f"docshelf serve: {server.url}/ (search page), {server.url}/docs (API docs), {server.url}/openapi.json")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
