"""A web page fetched safely: http(s) only, every address public, connections pinned to the checked address.

Each hop (the URL, then every redirect) resolves its host once; every address the answer holds must pass
`address_refusal`, or the fetch is refused before any connection. The connection then goes to one of those
checked addresses (no second DNS lookup, which a rebinding DNS server could answer differently), keeping the
host name for the `Host` header and for TLS (SNI and certificate check). Redirects, bytes, decompressed bytes and
the time of the whole fetch are bounded. Resolver and connector are injected: tests record what they were asked.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import urljoin, urlsplit

from docshelf.errors import FetchFailedError, FetchRefusedError
from docshelf.fetch.addresses import IPAddress, address_refusal, internal_refusal
from docshelf.fetch.shown_urls import shown_url

Resolver = Callable[[str, int], list[str]]
Connector = Callable[[str, int, float], socket.socket]
REDIRECTS = frozenset({301, 302, 303, 307, 308})
USER_AGENT = "docshelf-fetch/1"


@dataclass(frozen=True, slots=True)
class FetchLimits:
    max_bytes: int = 25 * 1024 * 1024  # of the body as sent, and again after decompression
    max_redirects: int = 5
    timeout_seconds: float = 20.0  # the whole fetch, every hop included
    # Test-only: loopback addresses allowed, for a local test server. Never set from configuration or the CLI.
    allow_loopback_for_tests: bool = False
    # Host names (or IP literals) named by the operator (`--allow-host`, FETCH_ALLOWED_HOSTS on AWS) whose internal
    # addresses may be fetched from: an intranet wiki. Only those exact hosts, each hop checked again (a redirect
    # elsewhere is refused as usual), and never an instance metadata, unspecified or multicast address.
    allowed_hosts: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Validators:
    """What the previous fetch of a URL returned, sent back so an unchanged page answers 304."""

    etag: str = ""
    last_modified: str = ""


@dataclass(frozen=True, slots=True)
class FetchedPage:
    url: str
    final_url: str
    body: bytes
    content_type: str
    fetched_at: str  # ISO 8601, UTC
    validators: Validators = field(default_factory=Validators)


@dataclass(frozen=True, slots=True)
class NotModified:
    url: str
    fetched_at: str


def system_resolver(host: str, port: int) -> list[str]:
    try:
        answers = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise FetchFailedError(f"cannot resolve {host!r}: {error}") from None
    return list(dict.fromkeys(str(answer[4][0]) for answer in answers))


def system_connector(address: str, port: int, timeout: float) -> socket.socket:
    return socket.create_connection((address, port), timeout=timeout)


class Fetcher:
    def __init__(
        self,
        *,
        resolver: Resolver = system_resolver,
        connector: Connector = system_connector,
        limits: FetchLimits | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self._resolve = resolver
        self._connect = connector
        self.limits = limits or FetchLimits()
        self._tls = tls

    def fetch(self, url: str, validators: Validators | None = None) -> FetchedPage | NotModified:
        """The page at `url` (following redirects), or NotModified when `validators` still hold."""
        deadline = time.monotonic() + self.limits.timeout_seconds
        current = url
        for _hop in range(self.limits.max_redirects + 1):
            target = self.checked_target(current)
            response, connection = self._request(target, validators, deadline)
            try:
                if response.status in REDIRECTS:
                    current = self._redirect(current, response)
                    continue
                return self._page(url, current, response, deadline)
            finally:
                connection.close()
        raise FetchFailedError(f"more than {self.limits.max_redirects} redirects from {shown_url(url)}")

    def checked_target(self, url: str) -> _Target:
        """The URL's scheme, host, port and the addresses to connect to (in the resolver's order), every one
        checked."""
        scheme, host, port, path = split_url(url)
        literal = ip_literal(host)
        addresses = [literal] if literal is not None else [_parse_answer(host, a) for a in self._resolve(host, port)]
        if not addresses:
            raise FetchRefusedError(f"{host!r} resolved to no address")
        allowed = host_key(host) in self.limits.allowed_hosts
        for address in addresses:
            if self._allowed_for_tests(address):
                continue
            reason = internal_refusal(address) if allowed else address_refusal(address)
            if reason is not None:
                raise FetchRefusedError(f"refused {shown_url(url)}: {host} is {address}, {reason}")
        return _Target(scheme, host, port, path, tuple(str(address) for address in addresses))

    def _allowed_for_tests(self, address: IPAddress) -> bool:
        return self.limits.allow_loopback_for_tests and address.is_loopback

    def _request(
        self, target: _Target, validators: Validators | None, deadline: float
    ) -> tuple[http.client.HTTPResponse, http.client.HTTPConnection]:
        timeout = _remaining(deadline)
        connection: _PinnedHTTP | _PinnedHTTPS
        if target.scheme == "https":
            connection = _PinnedHTTPS(target, self._connect, timeout, self._tls or ssl.create_default_context())
        else:
            connection = _PinnedHTTP(target, self._connect, timeout)
        connection.watchdog.arm(timeout)
        headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip, deflate", "Accept": "*/*"}
        if validators is not None and validators.etag:
            headers["If-None-Match"] = validators.etag
        if validators is not None and validators.last_modified:
            headers["If-Modified-Since"] = validators.last_modified
        try:
            connection.request("GET", target.path, headers=headers)
            return connection.getresponse(), connection
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            _remaining(deadline)  # a connection the watchdog cut: say so
            raise FetchFailedError(f"{target.host}: {type(error).__name__}: {error}") from None

    def _redirect(self, current: str, response: http.client.HTTPResponse) -> str:
        location = response.getheader("Location")
        if not location:
            raise FetchFailedError(f"{current}: redirect {response.status} without a Location")
        return urljoin(current, location.strip())

    def _page(
        self, url: str, final_url: str, response: http.client.HTTPResponse, deadline: float
    ) -> FetchedPage | NotModified:
        fetched_at = datetime.now(UTC).isoformat(timespec="seconds")
        if response.status == 304:
            return NotModified(url, fetched_at)
        if response.status != 200:
            raise FetchFailedError(f"{shown_url(final_url)}: HTTP {response.status} {response.reason}")
        raw = read_bounded(response, self.limits.max_bytes, deadline)
        if time.monotonic() >= deadline:  # the watchdog may have cut the body short
            raise FetchFailedError("the fetch took longer than its time limit")
        body = decoded(raw, response.getheader("Content-Encoding") or "", self.limits.max_bytes)
        validators = Validators(response.getheader("ETag") or "", response.getheader("Last-Modified") or "")
        content_type = (response.getheader("Content-Type") or "").split(";")[0].strip().lower()
        return FetchedPage(url, final_url, body, content_type, fetched_at, validators)


@dataclass(frozen=True, slots=True)
class _Target:
    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]


def host_key(host: str) -> str:
    """A host as `allowed_hosts` holds it: lower case, without a trailing dot or IPv6 brackets."""
    return host.strip().strip("[]").rstrip(".").lower()


def split_url(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path with query) of an http(s) URL, or FetchRefusedError."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise FetchRefusedError(f"not a valid URL {shown_url(url)!r}: {error}") from None
    if parts.scheme not in ("http", "https"):
        raise FetchRefusedError(f"refused {shown_url(url)!r}: only http and https URLs are fetched")
    if parts.username is not None or parts.password is not None:
        raise FetchRefusedError(f"refused {shown_url(url)!r}: credentials in a URL are not sent")
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise FetchRefusedError(f"refused {shown_url(url)!r}: no host")
    if any(char.isspace() or ord(char) < 0x21 for char in url):
        raise FetchRefusedError(f"refused {shown_url(url)!r}: control characters or spaces in the URL")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path


def ip_literal(host: str) -> IPAddress | None:
    """The address a host names by itself: standard literals, and the forms `inet_aton` accepts (`2130706433`,
    `0x7f.1`, `127.1`), which a resolver would turn into that address without asking DNS."""
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        pass
    if all(part and (part.isdigit() or part.lower().startswith("0x")) for part in host.split(".")):
        try:
            return ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            raise FetchRefusedError(f"refused {host!r}: not a valid IPv4 address") from None
    return None


def _parse_answer(host: str, answer: str) -> IPAddress:
    try:
        return ipaddress.ip_address(answer.split("%")[0])
    except ValueError:
        raise FetchRefusedError(f"{host!r} resolved to {answer!r}, not an IP address") from None


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise FetchFailedError("the fetch took longer than its time limit")
    return left


def read_bounded(response: http.client.HTTPResponse, limit: int, deadline: float) -> bytes:
    declared = response.getheader("Content-Length")
    if declared and declared.isdigit() and int(declared) > limit:
        raise FetchFailedError(f"the page is {int(declared)} bytes, over the limit of {limit}")
    parts: list[bytes] = []
    size = 0
    while True:
        _remaining(deadline)
        try:
            part = response.read1(65536)
        except (OSError, http.client.HTTPException) as error:
            _remaining(deadline)
            raise FetchFailedError(f"the connection broke: {type(error).__name__}: {error}") from None
        if not part:
            return b"".join(parts)
        size += len(part)
        if size > limit:
            raise FetchFailedError(f"the page is over the limit of {limit} bytes")
        parts.append(part)


def decoded(raw: bytes, encoding: str, limit: int) -> bytes:
    """The body decompressed, at most `limit` bytes of it (a gzip bomb stops there)."""
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return raw
    if encoding not in ("gzip", "x-gzip", "deflate"):
        raise FetchFailedError(f"unsupported Content-Encoding {encoding!r}")
    wbits = 16 + zlib.MAX_WBITS if "gzip" in encoding else zlib.MAX_WBITS
    try:
        inflater = zlib.decompressobj(wbits)
        body = inflater.decompress(raw, limit + 1)
    except zlib.error as error:
        if encoding != "deflate":
            raise FetchFailedError(f"a broken {encoding} body: {error}") from None
        return decoded_raw_deflate(raw, limit)
    if len(body) > limit or inflater.unconsumed_tail:
        raise FetchFailedError(f"the page decompresses to over the limit of {limit} bytes")
    return body


def decoded_raw_deflate(raw: bytes, limit: int) -> bytes:
    """`deflate` bodies sent without the zlib header, as some servers do."""
    try:
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        body = inflater.decompress(raw, limit + 1)
    except zlib.error as error:
        raise FetchFailedError(f"a broken deflate body: {error}") from None
    if len(body) > limit or inflater.unconsumed_tail:
        raise FetchFailedError(f"the page decompresses to over the limit of {limit} bytes")
    return body


def _connect_any(connector: Connector, addresses: tuple[str, ...], port: int, timeout: float) -> socket.socket:
    """The first checked address that accepts the connection (an IPv6 answer first, on a network without IPv6,
    must not fail the fetch)."""
    failure: OSError = ConnectionError("no address to connect to")
    for address in addresses:
        try:
            return connector(address, port, timeout)
        except OSError as error:
            failure = error
    raise failure


class _Watchdog:
    """Shuts a connection's socket down once the fetch's time is up: a socket timeout bounds each read, not a
    server that sends a byte just before every timeout."""

    def __init__(self, connection: http.client.HTTPConnection) -> None:
        self._connection = connection
        self._timer: threading.Timer | None = None

    def arm(self, seconds: float) -> None:
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def _cut(self) -> None:
        sock = self._connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


class _PinnedHTTP(http.client.HTTPConnection):
    """Host header from the host name; the TCP connection to the checked address only."""

    def __init__(self, target: _Target, connector: Connector, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._addresses = target.addresses
        self._connector = connector
        self.watchdog = _Watchdog(self)

    def connect(self) -> None:
        self.sock = _connect_any(self._connector, self._addresses, self.port, float(self.timeout or 0) or 20.0)

    def close(self) -> None:
        self.watchdog.disarm()
        super().close()


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, target: _Target, connector: Connector, timeout: float, context: ssl.SSLContext) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=context)
        self._addresses = target.addresses
        self._connector = connector
        self._tls_context = context
        self.watchdog = _Watchdog(self)

    def connect(self) -> None:
        raw = _connect_any(self._connector, self._addresses, self.port, float(self.timeout or 0) or 20.0)
        self.sock = raw  # the watchdog can cut the handshake too
        self.sock = self._tls_context.wrap_socket(raw, server_hostname=self.host)

    def close(self) -> None:
        self.watchdog.disarm()
        super().close()
