"""Two tenants' documents in a local store, tokens, and a client for `docshelf serve` on a loopback port."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt

from docshelf.fetch import Fetcher
from docshelf.local.api_services import LocalApiServices
from docshelf.local.server import SearchApiServer, ServeConfig
from docshelf.local.services import LocalServices

SECRET = "test-secret-that-is-long-enough-for-hs256"
PUMP = b"""# Pump guide

## Maintenance

The pump seal is replaced every 2000 operating hours. Check the impeller for wear.

## Safety

Lock out the motor before opening the casing.
"""
VALVES = b"# Valves\n\n## Torque\n\nFlange bolts of the TX-100 valve take 45 Nm.\n"
SECRET_DOC = (
    b"# Payroll\n\n## Salaries\n\nThe pump seal budget and the salary of the chief engineer are confidential.\n"
)


def ingest_tenants(root: Path) -> LocalServices:
    services = LocalServices.open(root)
    services.ingest(PUMP, namespace="demo", source_key="manuals/pump.md")
    services.ingest(VALVES, namespace="demo", source_key="valves.md")
    services.ingest(SECRET_DOC, namespace="secret", source_key="payroll.md")
    return services


def token(sub: str, namespaces: Any, *, secret: str = SECRET, **extra: Any) -> str:
    """A token valid for an hour unless `extra` sets `exp` (or drops it with exp=None)."""
    claims = {"sub": sub, "namespaces": namespaces, "exp": int(time.time()) + 3600, **extra}
    return jwt.encode({k: v for k, v in claims.items() if v is not None}, secret, algorithm="HS256")


@dataclass
class Served:
    url: str
    services: LocalServices
    backend: LocalApiServices
    server: SearchApiServer | None = None

    def request(
        self,
        method: str,
        path: str,
        *,
        body: bytes | dict[str, Any] | None = None,
        bearer: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, Any]]:
        data = json.dumps(body).encode() if isinstance(body, dict) else body
        sent = {"Content-Type": "application/json", **(headers or {})}
        if bearer is not None:
            sent["Authorization"] = f"Bearer {bearer}"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def search(self, bearer: str, **body: Any) -> tuple[int, dict[str, Any]]:
        return self.request("POST", "/search", body=body, bearer=bearer)

    def text(self, path: str) -> tuple[int, str, dict[str, str]]:
        with urllib.request.urlopen(self.url + path, timeout=30) as response:
            return response.status, response.read().decode(), dict(response.headers.items())


def offline_fetcher() -> Fetcher:
    """POST /ingest under test: every host resolves to nothing, so no fetch leaves the machine."""
    return Fetcher(resolver=lambda host, port: [], connector=_no_connection)


def _no_connection(address: str, port: int, timeout: float) -> socket.socket:
    raise ConnectionRefusedError(f"tests connect nowhere ({address}:{port})")


@contextmanager
def serving(backend: LocalApiServices, config: ServeConfig) -> Iterator[SearchApiServer]:
    """`docshelf serve`'s server on a free loopback port, in a thread, shut down and closed on exit."""
    server = SearchApiServer(("127.0.0.1", 0), backend, config)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
