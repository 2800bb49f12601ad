"""GET /documents/{id}/assets/{name} under `docshelf serve`: an image chunk's `asset` is an absolute signed link
there that opens without a token for an hour (as a presigned S3 URL does on AWS); without a signature the route
answers the picture's bytes to a token allowed the namespace only."""

from __future__ import annotations

import io
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from docshelf.local.api_services import LocalApiServices
from docshelf.local.server import ServeConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import SECRET, Served, serving, token
from tests.functional.api.test_source_route import get


def report_with_a_picture() -> bytes:
    import docx

    picture = Image.new("RGB", (320, 200), "white")
    ImageDraw.Draw(picture).rectangle((40, 40, 280, 160), outline="black", width=6)
    body = io.BytesIO()
    picture.save(body, "PNG")
    body.seek(0)
    word = docx.Document()
    word.add_paragraph("The cross-section diagram below shows the pump housing.")
    shape = word.add_picture(body)
    shape._inline.docPr.set("descr", "Pump cross-section diagram")  # its alt text: an image chunk of its own
    saved = io.BytesIO()
    word.save(saved)
    return saved.getvalue()


@pytest.fixture
def pictured(tmp_path: Path) -> Iterator[Served]:
    services = LocalServices.open(tmp_path / "store")
    services.ingest(report_with_a_picture(), namespace="demo", source_key="report.docx")
    services.ingest(report_with_a_picture(), namespace="secret", source_key="report.docx")
    with serving(LocalApiServices(services, cache_ttl_s=0), ServeConfig(jwt_secret=SECRET, quiet=True)) as server:
        yield Served(server.url, services, LocalApiServices(services), server)


def _image_asset(served: Served, bearer: str, namespace: str) -> str:
    status, found = served.search(bearer, namespace=namespace, query="pump cross-section diagram",
                                  filters={"chunk_types": ["image"]})  # fmt: skip
    assert status == 200 and found["results"], found
    asset: str = found["results"][0]["asset"]
    return asset


def test_an_image_chunk_links_to_its_picture(pictured: Served) -> None:
    bearer = token("alice", ["demo"])
    asset = _image_asset(pictured, bearer, "demo")
    assert asset.startswith(f"{pictured.url}/documents/") and "/assets/" in asset and "?namespace=demo&" in asset
    assert "&expires=" in asset and "&signature=" in asset
    with urllib.request.urlopen(asset, timeout=30) as response:  # no token
        assert response.status == 200 and response.headers["Content-Type"] == "image/png"
        assert Image.open(io.BytesIO(response.read())).size == (320, 200)
    unsigned = asset[len(pictured.url) :].split("&")[0]
    status, _, headers = get(pictured, unsigned, bearer)
    assert status == 200 and headers["Content-Type"] == "image/png"


def test_another_namespace_and_unknown_assets_are_refused(pictured: Served) -> None:
    signed = _image_asset(pictured, token("bob", ["secret"]), "secret")
    secret = signed[len(pictured.url) :].split("&")[0]  # the route without the signature
    status, body, _ = get(pictured, secret, token("alice", ["demo"]))
    assert status == 403 and not body.startswith(b"\x89PNG")
    moved = signed.replace("namespace=secret", "namespace=demo")[len(pictured.url) :]
    status, body, _ = get(pictured, moved, token("alice", ["demo"]))
    assert status == 403 and b"signature" in body  # a signed link opens its own namespace's asset only
    document = secret.split("/")[2]
    status, _, _ = get(pictured, secret.replace("namespace=secret", "namespace=demo"), token("alice", ["demo"]))
    assert status == 404  # that document is not in demo
    status, _, _ = get(pictured, f"/documents/{document}/assets/..%2Fsource.json?namespace=secret",
                       token("bob", ["secret"]))  # fmt: skip
    assert status == 404
