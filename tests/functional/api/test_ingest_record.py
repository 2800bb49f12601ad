"""POST /ingest names the document it queued, and its `processing` record is there before the fetch ends."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from docshelf.fetch import Fetcher
from docshelf.local.api_services import LocalApiServices
from docshelf.local.ingress import LocalIngress
from docshelf.local.server import ServeConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import SECRET, Served, ingest_tenants, offline_fetcher, serving, token

GATE = threading.Event()


def gated_fetcher() -> Fetcher:
    """The offline fetcher, once the test lets it go: until then the page is still being fetched."""
    GATE.wait(30)
    return offline_fetcher()


@pytest.fixture
def gated(tmp_path: Path) -> Iterator[Served]:
    ingest_tenants(tmp_path / "store")
    services = LocalServices.open(tmp_path / "store")
    ingress = LocalIngress(services, fetcher=gated_fetcher)
    backend = LocalApiServices(services, cache_ttl_s=0, ingress=ingress)
    GATE.clear()
    with serving(backend, ServeConfig(jwt_secret=SECRET, quiet=True)) as server:
        yield Served(server.url, services, backend, server)
    GATE.set()
    ingress.wait()


def test_the_queued_page_is_processing_until_its_fetch_ends(gated: Served) -> None:
    bearer = token("ana", ["demo"])
    url = "https://docs.example.com/chiller.html"
    status, answer = gated.request("POST", "/ingest", body={"namespace": "demo", "url": url}, bearer=bearer)
    assert status == 202 and answer["status"] == "processing"
    status, record = gated.request("GET", f"/documents/{answer['document_id']}?namespace=demo", bearer=bearer)
    assert (
        status == 200
        and record["status"] == "processing"
        and record["source_key"] == "web/docs.example.com/chiller.html"
    )
    GATE.set()
    assert isinstance(gated.backend.ingress, LocalIngress)
    gated.backend.ingress.wait()
    status, record = gated.request("GET", f"/documents/{answer['document_id']}?namespace=demo", bearer=bearer)
    assert status == 200 and record["status"] == "failed"  # the offline fetcher reaches no host
