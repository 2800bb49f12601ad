"""The WSGI application of `docshelf serve`: API Gateway's part in front of the search API's resolver.

Each request becomes an API Gateway HTTP API (v2) event for the very resolver the SearchFunction runs. The app
verifies the bearer JWT (HS256 with the configured secret) and passes the verified claims on, or with no auth
passes claims that allow every namespace. It serves the OpenAPI document, offline API docs and a small search
page; every page is self-contained and loads nothing from the internet (the Content-Security-Policy forbids it).
Every answer, error or not, has a JSON body `{"message"}` unless it is a page or the resolver's own JSON.
"""

from __future__ import annotations

import base64
import json
import re
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote

from docshelf.api.auth import ALL_NAMESPACES, ClaimNames, caller_from_claims
from docshelf.api.errors import ApiError, PayloadTooLargeError, UnauthorizedError
from docshelf.api.limits import MAX_BODY_BYTES
from docshelf.api.resolver import handle
from docshelf.local.bearer import DEFAULT_LEEWAY_S, verify_hs256
from docshelf.local.link_signing import LinkSigner, is_signed
from docshelf.local.pages import PAGE_FILES
from docshelf.local.uploads_route import UPLOADS_PATH, UploadSink, upload
from docshelf.mcp.http import MCP_PATH, HttpAnswer
from docshelf.mcp.route import McpRoute

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler import APIGatewayHttpResolver

PAGE_POLICY = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
MAX_URL_BYTES = 8_192
MAX_HEADER_COUNT = 100
IMPLEMENTED_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
PUBLIC_PATHS = frozenset({"/", "/openapi.json", "/docs", *PAGE_FILES})
_DOCUMENT_PATH = re.compile(r"/documents/[^/]+(?:/source|/graph|/assets/[^/]+)?")
_RUN_PATH = re.compile(r"/runs/[^/]+")  # GET /runs/{run_id}: an agentic run's record
_SIGNED_PATH = re.compile(r"/documents/[^/]+/(?:source|assets/[^/]+)")  # what a signed link may open
StartResponse = Callable[[str, list[tuple[str, str]]], Any]
Headers = dict[str, str]


@dataclass(frozen=True, slots=True)
class ServeConfig:
    jwt_secret: str | None
    claim_names: ClaimNames = field(default_factory=ClaimNames)
    quiet: bool = False
    cors_origin: str | None = None  # None: no CORS headers; "*" or one origin such as http://localhost:3000
    jwt_leeway_s: int = DEFAULT_LEEWAY_S  # clock skew allowed on exp / nbf / iat

    @property
    def auth_enabled(self) -> bool:
        return self.jwt_secret is not None


@dataclass(frozen=True, slots=True)
class Reply:
    status: int
    body: bytes
    content_type: str = "application/json"
    headers: Headers = field(default_factory=dict)


def json_reply(status: int, message: str, headers: Headers | None = None) -> Reply:
    return Reply(status, json.dumps({"message": message}).encode(), headers=headers or {})


def allowed_methods(path: str) -> tuple[str, ...] | None:
    """The methods a route answers (HEAD wherever GET is), or None for no such route."""
    if path in PUBLIC_PATHS or _RUN_PATH.fullmatch(path) or path == "/namespaces":
        return ("GET", "HEAD", "OPTIONS")
    if path == "/documents":
        return ("GET", "HEAD", "POST", "OPTIONS")
    if _DOCUMENT_PATH.fullmatch(path):
        return ("GET", "HEAD", "DELETE", "OPTIONS")
    if path in ("/search", "/ingest"):
        return ("POST", "OPTIONS")
    if path == UPLOADS_PATH:
        return ("PUT", "OPTIONS")
    if path == MCP_PATH:
        return ("GET", "POST", "DELETE", "OPTIONS")
    return None


class SearchApiApp:
    def __init__(
        self,
        resolver: APIGatewayHttpResolver,
        config: ServeConfig,
        pages: dict[str, Reply],
        uploads: UploadSink | None = None,
        mcp: McpRoute | None = None,
        link_signer: LinkSigner | None = None,
    ) -> None:
        self.resolver = resolver
        self.config = config
        self.pages = pages
        self.uploads = uploads
        self.mcp = mcp
        self.link_signer = link_signer

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        method = str(environ.get("REQUEST_METHOD", "GET")).upper()
        try:
            reply = self.answer(method, environ)
        except ApiError as error:
            headers = {"WWW-Authenticate": "Bearer"} if isinstance(error, UnauthorizedError) else {}
            reply = json_reply(error.status, error.message, headers)
        headers = self._headers(reply, environ, method)
        start_response(f"{reply.status} {_reason(reply.status)}", list(headers.items()))
        self._log(environ, method, reply.status)
        return [] if method == "HEAD" else [reply.body]

    def answer(self, method: str, environ: dict[str, Any]) -> Reply:
        raw_uri = str(environ.get("REQUEST_URI") or "/")
        if method not in IMPLEMENTED_METHODS:
            return json_reply(501, f"method {method[:32]!r} is not implemented")
        if len(raw_uri) > MAX_URL_BYTES:
            return json_reply(414, f"the URL is longer than {MAX_URL_BYTES} bytes")
        if sum(1 for key in environ if key.startswith("HTTP_")) > MAX_HEADER_COUNT:
            return json_reply(431, f"the request has more than {MAX_HEADER_COUNT} header fields")
        raw_path, _, query = raw_uri.partition("?")
        path = unquote(raw_path) or "/"
        allowed = allowed_methods(path)
        if allowed is None:
            return json_reply(404, "no such route")
        if method == "OPTIONS":
            return Reply(204, b"", headers={"Allow": ", ".join(allowed)})
        if method not in allowed:
            return json_reply(405, f"{path} allows {', '.join(allowed)}", {"Allow": ", ".join(allowed)})
        if path == UPLOADS_PATH:
            return self._upload(query, environ)
        body = _read_body(environ)
        if path == MCP_PATH:
            return self._mcp(method, query, environ, body)
        if path in self.pages:
            return self.pages[path]
        return self._resolve(method, raw_path, path, query, environ, body, self._signed_claims(method, path, query))

    def _signed_claims(self, method: str, path: str, query: str) -> dict[str, Any] | None:
        """For a signed link (local/link_signing.py) to a source file or an asset: claims for its namespace alone."""
        if self.link_signer is None or method not in ("GET", "HEAD") or not _SIGNED_PATH.fullmatch(path):
            return None
        params = dict(parse_qsl(query, keep_blank_values=True))
        if not is_signed(params):
            return None
        self.link_signer.verify(path, params)
        names = self.config.claim_names
        return {names.user: "signed-link", names.namespaces: [params.get("namespace", "")]}

    def _resolve(
        self,
        method: str,
        raw_path: str,
        path: str,
        query: str,
        environ: dict[str, Any],
        body: bytes,
        claims: dict[str, Any] | None = None,
    ) -> Reply:
        headers = _request_headers(environ)
        event = http_event("GET" if method == "HEAD" else method, raw_path, path, query, headers, body)
        verified = claims if claims is not None else self._claims(headers)
        event["requestContext"]["authorizer"] = {"jwt": {"claims": verified, "scopes": None}}
        result = handle(self.resolver, event, None)
        data = result.get("body") or ""
        raw = base64.b64decode(data) if result.get("isBase64Encoded") else str(data).encode()
        extra = {str(k): str(v) for k, v in (result.get("headers") or {}).items()}
        return Reply(int(result["statusCode"]), raw, extra.pop("Content-Type", "application/json"), extra)

    def _upload(self, query: str, environ: dict[str, Any]) -> Reply:
        if self.uploads is None:
            return json_reply(501, "this server does not take uploads")
        headers = _request_headers(environ)
        caller = lambda: caller_from_claims(self._claims(headers), self.config.claim_names)  # noqa: E731
        status, body = upload(self.uploads, caller, query, environ)
        return Reply(status, body)

    def _mcp(self, method: str, query: str, environ: dict[str, Any], body: bytes) -> Reply:
        """The MCP endpoint (docshelf.mcp.http), for the caller the bearer token names, like every route."""
        if self.mcp is None:
            return json_reply(501, "this server has no MCP endpoint: install the SDK with pip install 'docshelf[mcp]'")
        headers = _request_headers(environ)
        caller = caller_from_claims(self._claims(headers), self.config.claim_names)
        answer: HttpAnswer = self.mcp(method, MCP_PATH, query, headers, body, caller)
        if answer.status >= 400 and not answer.content_type.startswith("application/json"):
            return json_reply(answer.status, answer.body.decode("utf-8", "replace")[:500])  # the SDK's text errors
        dropped = ("content-type", "content-length")
        kept = {name: value for name, value in answer.headers if name.lower() not in dropped}
        return Reply(answer.status, answer.body, answer.content_type or "application/json", kept)

    def _claims(self, headers: Headers) -> dict[str, Any]:
        config = self.config
        names = config.claim_names
        if config.jwt_secret is None:
            return {names.user: "anonymous", names.namespaces: ALL_NAMESPACES}
        claims = verify_hs256(headers.get("authorization"), config.jwt_secret, leeway_s=config.jwt_leeway_s)
        # API Gateway passes scalar claims as strings; lists stay lists, so nothing re-parses a flattened one.
        return {key: value if isinstance(value, list) else str(value) for key, value in claims.items()}

    def _headers(self, reply: Reply, environ: dict[str, Any], method: str) -> Headers:
        headers: Headers = {
            "Content-Type": reply.content_type,
            "Content-Length": str(len(reply.body)),
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        }
        if reply.status == 204:
            del headers["Content-Type"], headers["Content-Length"]
        if reply.content_type.startswith("text/html"):
            headers["Content-Security-Policy"] = PAGE_POLICY
        for name, value in reply.headers.items():
            if name.lower() not in ("content-length", "content-type"):
                headers[name] = value
        headers.update(self._cors(environ, method, reply))
        return headers

    def _cors(self, environ: dict[str, Any], method: str, reply: Reply) -> Headers:
        allowed_origin = self.config.cors_origin
        origin = environ.get("HTTP_ORIGIN")
        if allowed_origin is None or origin is None or allowed_origin not in ("*", origin):
            return {}
        headers = {"Access-Control-Allow-Origin": allowed_origin, "Vary": "Origin"}
        if method == "OPTIONS" and "Allow" in reply.headers:
            headers["Access-Control-Allow-Methods"] = reply.headers["Allow"]
            headers["Access-Control-Allow-Headers"] = "Authorization, Content-Type"
            headers["Access-Control-Max-Age"] = "600"
        return headers

    def _log(self, environ: dict[str, Any], method: str, status: int) -> None:
        if not self.config.quiet:
            stamp = time.strftime("%d/%b/%Y %H:%M:%S")
            uri = str(environ.get("REQUEST_URI", ""))[:200]
            print(f'{environ.get("REMOTE_ADDR", "-")} - - [{stamp}] "{method} {uri}" {status}', file=sys.stderr)


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def _read_body(environ: dict[str, Any]) -> bytes:
    """The server has buffered the whole body (bounded by its own larger limit); refuse one over the API's."""
    try:
        length = int(environ.get("CONTENT_LENGTH") or 0)
    except ValueError:
        raise ApiError("Content-Length is not a number") from None
    if length > MAX_BODY_BYTES:
        raise PayloadTooLargeError(f"the request body is larger than {MAX_BODY_BYTES} bytes")
    data: bytes = environ["wsgi.input"].read(length) if length > 0 else b""
    return data


def _request_headers(environ: dict[str, Any]) -> Headers:
    headers = {key[5:].replace("_", "-").lower(): str(value) for key, value in environ.items() if key[:5] == "HTTP_"}
    for key in ("CONTENT_TYPE", "CONTENT_LENGTH"):
        if environ.get(key):
            headers[key.replace("_", "-").lower()] = str(environ[key])
    return headers


def http_event(method: str, raw_path: str, path: str, query: str, headers: Headers, body: bytes) -> dict[str, Any]:
    """An API Gateway HTTP API payload v2 event, as API Gateway would build it for this request."""
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
        "headers": headers,
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
