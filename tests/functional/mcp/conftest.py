"""The MCP server under test: two tenants' documents, served in process, over stdio and by `docshelf serve`."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.api.auth import ClaimNames
from docshelf.local.api_services import LocalApiServices
from docshelf.local.server import ServeConfig
from tests.functional.api.helpers import SECRET, Served, ingest_tenants, serving

pytest.importorskip("mcp", reason="the MCP SDK is a dev dependency (pip install -e '.[dev]')")


def threads_left(before: set[threading.Thread], wait_s: float = 10.0) -> list[str]:
    """The threads started since `before` still alive after up to `wait_s` (anyio's workers end just after)."""
    deadline = time.monotonic() + wait_s
    while True:
        left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
        if not left or time.monotonic() > deadline:
            return [t.name for t in left]
        time.sleep(0.05)


@pytest.fixture(autouse=True)
def no_thread_outlives_a_test() -> Iterator[None]:
    """docshelf.forked forks only a single-threaded process: an MCP endpoint left running would stop every later
    test's (and a long-lived process's) parallel parsing."""
    before = set(threading.enumerate())
    yield
    assert threads_left(before) == []


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    services = ingest_tenants(tmp_path / "store")
    backend = LocalApiServices(services, cache_ttl_s=300)
    with serving(backend, ServeConfig(jwt_secret=SECRET, claim_names=ClaimNames(), quiet=True)) as server:
        yield Served(server.url, services, backend, server)
