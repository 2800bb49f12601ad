"""The MCP server under test: two tenants' documents, served in process, over stdio and by `docshelf serve`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.api.auth import ClaimNames
from docshelf.api.local import LocalApiBackend
from docshelf.api.server import ServeConfig
from tests.functional.api.helpers import SECRET, Served, ingest_tenants, serving

pytest.importorskip("mcp", reason="the MCP SDK is a dev dependency (pip install -e '.[dev]')")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    services = ingest_tenants(tmp_path / "store")
    backend = LocalApiBackend(services, cache_ttl_s=300)
    with serving(backend, ServeConfig(jwt_secret=SECRET, claim_names=ClaimNames(), quiet=True)) as server:
        yield Served(server.url, services, backend, server)
