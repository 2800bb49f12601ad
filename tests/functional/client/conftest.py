"""`docshelf serve` on a loopback port for the client and the retrievers: the two tenants and one more manual."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.api.auth import ClaimNames
from docshelf.local.api_services import LocalApiServices
from docshelf.local.ingress import LocalIngress
from docshelf.local.server import ServeConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import SECRET, Served, ingest_tenants, offline_fetcher, serving

BOILER = b"""# Boiler handbook

## Descaling

Descale the boiler heat exchanger every 6 months with a citric acid solution.

## Pressure

The boiler safety valve opens at 3 bar; the pump seal of the feed pump is checked yearly.
"""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    written = ingest_tenants(tmp_path / "store")
    written.ingest(BOILER, namespace="demo", source_key="boiler.md")
    written.index.commit()
    services = LocalServices.open(tmp_path / "store")  # as `docshelf serve` opens it: a reader of what is stored
    backend = LocalApiServices(services, cache_ttl_s=300, ingress=LocalIngress(services, fetcher=offline_fetcher))
    with serving(backend, ServeConfig(jwt_secret=SECRET, claim_names=ClaimNames(), quiet=True)) as server:
        yield Served(server.url, services, backend, server)
