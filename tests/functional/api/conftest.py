"""`docshelf serve`'s server on a free loopback port, over a store with two tenants' documents."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.api.auth import ClaimNames
from docshelf.local.api_services import LocalApiServices
from docshelf.local.ingress import LocalIngress
from docshelf.local.server import ServeConfig
from tests.functional.api.helpers import SECRET, Served, ingest_tenants, offline_fetcher, serving


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    services = ingest_tenants(tmp_path / "store")
    backend = LocalApiServices(services, cache_ttl_s=300, ingress=LocalIngress(services, fetcher=offline_fetcher))
    with serving(backend, ServeConfig(jwt_secret=SECRET, claim_names=ClaimNames(), quiet=True)) as server:
        yield Served(server.url, services, backend, server)
