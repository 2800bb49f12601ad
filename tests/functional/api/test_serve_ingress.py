"""`docshelf serve`: POST /documents then PUT to the upload URL, DELETE /documents/{id}, POST /ingest."""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from docshelf.api.auth import ClaimNames
from docshelf.fetch import Fetcher, FetchLimits
from docshelf.ids import document_id
from docshelf.local.api_services import LocalApiServices
from docshelf.local.ingress import LocalIngress
from docshelf.local.server import ServeConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import Served, ingest_tenants, serving, token
from tests.unit.fetch.recording import RecordingConnector, RecordingResolver

NOTE = b"# Boiler note\n\n## Descaling\n\nDescale the boiler heat exchanger every 90 days with citric acid.\n"
PAGE = b"<!doctype html><html><body><h1>Chiller</h1><p>The chiller condenser coil is brushed monthly.</p></body></html>"


@dataclass
class Web:
    port: int


@pytest.fixture
def web() -> Iterator[Web]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield Web(server.server_address[1])
    server.shutdown()
    server.server_close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    ingest_tenants(tmp_path / "store")
    services = LocalServices.open(tmp_path / "store")  # a fresh process's view, as `docshelf serve` opens it
    resolver = RecordingResolver({"pages.test": ["127.0.0.1"]})

    def fetcher() -> Fetcher:  # the test-only setting: the local page server is on loopback
        return Fetcher(resolver=resolver, connector=RecordingConnector(live=True), limits=_TEST_LIMITS)

    backend = LocalApiServices(services, cache_ttl_s=300, ingress=LocalIngress(services, fetcher=fetcher))
    with serving(backend, ServeConfig(jwt_secret=_SECRET, claim_names=ClaimNames(), quiet=True)) as server:
        yield Served(server.url, services, backend, server)


_TEST_LIMITS = FetchLimits(allow_loopback_for_tests=True)
_SECRET = "test-secret-that-is-long-enough-for-hs256"


def upload(served: Served, bearer: str, namespace: str, filename: str, data: bytes) -> tuple[int, dict[str, object]]:
    body = {"namespace": namespace, "filename": filename, "content_type": "text/markdown", "size": len(data)}
    status, answer = served.request("POST", "/documents", body=body, bearer=bearer)
    if status != 201:
        return status, answer
    target = answer["upload"]
    assert isinstance(target, dict) and target["method"] == "PUT"
    assert answer["document_key"] == f"{namespace}/{filename}"
    assert str(target["url"]).startswith(f"{served.url}/uploads?")  # absolute, as a presigned S3 URL is
    path = str(target["url"])[len(served.url) :]
    return served.request("PUT", path, body=data, bearer=bearer, headers=dict(target["headers"]))


def test_an_upload_through_the_api_is_stored_ingested_and_searchable(served: Served) -> None:
    bearer = token("ana", ["demo"])
    status, result = upload(served, bearer, "demo", "notes/boiler.md", NOTE)
    assert status == 201 and result["status"] == "ok" and int(str(result["chunk_count"])) >= 1
    stored = Path(served.services.store.root) / "uploads" / "demo" / "notes" / "boiler.md"
    assert stored.read_bytes() == NOTE
    status, found = served.search(bearer, namespace="demo", query="descale boiler heat exchanger")
    assert status == 200 and found["results"][0]["source_file_name"] == "boiler.md"
    status, listing = served.request("GET", "/documents?namespace=demo", bearer=bearer)
    assert {d["source_key"]: d["status"] for d in listing["documents"]}["notes/boiler.md"] == "ok"
    document = {d["source_key"]: d["document_id"] for d in listing["documents"]}["notes/boiler.md"]
    source = f"{served.url}/documents/{document}/source?namespace=demo"
    with urllib.request.urlopen(urllib.request.Request(source, headers={"Authorization": f"Bearer {bearer}"})) as got:
        assert got.read() == NOTE  # the citation link of an uploaded file opens it


def test_another_namespace_is_refused_at_both_steps(served: Served) -> None:
    bearer = token("ana", ["demo"])
    status, _ = upload(served, bearer, "secret", "x.md", NOTE)
    assert status == 403
    status, _ = served.request(
        "PUT",
        "/uploads?namespace=secret&filename=x.md",
        body=NOTE,
        bearer=bearer,
        headers={"Content-Type": "text/markdown"},
    )
    assert status == 403
    assert not (Path(served.services.store.root) / "uploads" / "secret").exists()
    status, _ = served.request("PUT", "/uploads?namespace=demo&filename=x.md", body=NOTE)
    assert status == 401


@pytest.mark.parametrize(
    ("filename", "content_type", "size", "expected"),
    [
        ("../escape.md", "text/markdown", 10, 400),
        ("/abs.md", "text/markdown", 10, 400),
        ("a//b.md", "text/markdown", 10, 400),
        ("ok.md", "application/x-msdownload", 10, 400),
        ("ok.md", "text/markdown", 10**12, 413),
        ("ok.md", "text/markdown", 0, 400),
    ],
)
def test_upload_requests_outside_the_limits_are_refused(
    served: Served, filename: str, content_type: str, size: int, expected: int
) -> None:
    body = {"namespace": "demo", "filename": filename, "content_type": content_type, "size": size}
    status, answer = served.request("POST", "/documents", body=body, bearer=token("ana", ["demo"]))
    assert status == expected, answer
    assert "message" in answer


def test_a_put_with_a_traversing_filename_is_refused(served: Served) -> None:
    status, _ = served.request(
        "PUT", "/uploads?namespace=demo&filename=..%2F..%2Fevil.md", body=NOTE, bearer=token("ana", ["demo"])
    )
    assert status == 400


def test_delete_removes_the_document_from_search_and_is_namespace_bound(served: Served) -> None:
    bearer = token("ana", ["demo"])
    _, listing = served.request("GET", "/documents?namespace=demo", bearer=bearer)
    valves = next(d["document_id"] for d in listing["documents"] if d["source_key"] == "valves.md")
    status, _ = served.request("DELETE", f"/documents/{valves}?namespace=secret", bearer=bearer)
    assert status == 403
    status, answer = served.request("DELETE", f"/documents/{valves}?namespace=demo", bearer=bearer)
    assert (status, answer) == (200, {"document_id": valves, "deleted": True})
    _, found = served.search(bearer, namespace="demo", query="TX-100 flange bolts")
    assert all(result["document_id"] != valves for result in found["results"])
    status, _ = served.request("DELETE", "/documents/dnothere?namespace=demo", bearer=bearer)
    assert status == 404


def test_ingest_queues_a_fetch_whose_status_tells_the_outcome(served: Served, web: Web) -> None:
    bearer = token("ana", ["demo"])
    url = f"http://pages.test:{web.port}/chiller"
    status, answer = served.request("POST", "/ingest", body={"namespace": "demo", "url": url}, bearer=bearer)
    assert status == 202 and answer == {
        "namespace": "demo",
        "url": url,
        "document_key": f"demo/web/pages.test_{web.port}/chiller",
        "document_id": document_id("demo", f"web/pages.test_{web.port}/chiller"),
        "status": "processing",
    }
    status, refused = served.request(
        "POST", "/ingest", body={"namespace": "demo", "url": "http://169.254.169.254/latest"}, bearer=bearer
    )
    assert status == 400 and "metadata" in refused["message"]
    status, _ = served.request("POST", "/ingest", body={"namespace": "secret", "url": url}, bearer=bearer)
    assert status == 403
    status, _ = served.request(
        "POST", "/ingest", body={"namespace": "demo", "url": "file:///etc/passwd"}, bearer=bearer
    )
    assert status == 400
    served.backend.ingress.wait()
    _, listing = served.request("GET", "/documents?namespace=demo", bearer=bearer)
    page = {d["source_key"]: d for d in listing["documents"]}[f"web/pages.test_{web.port}/chiller"]
    assert page["status"] == "ok"
    _, found = served.search(bearer, namespace="demo", query="chiller condenser coil")
    assert found["results"][0]["document_id"] == page["document_id"]


def test_a_queued_fetch_to_a_refused_address_ends_failed(served: Served) -> None:
    bearer = token("ana", ["demo"])
    url = "http://intranet.test/"  # the test resolver gives no public address for it
    status, _ = served.request("POST", "/ingest", body={"namespace": "demo", "url": url}, bearer=bearer)
    assert status == 202
    served.backend.ingress.wait()
    _, listing = served.request("GET", "/documents?namespace=demo", bearer=bearer)
    page = {d["source_key"]: d for d in listing["documents"]}["web/intranet.test/index"]
    assert (page["status"], page["error_code"]) == ("failed", "fetch_refused")


def test_the_same_bytes_uploaded_under_two_names_are_reported_under_each_its_own(served: Served) -> None:
    """The parse and failure caches hold content only: a demo-only token learns nothing of the first upload."""
    bytes_of_no_format = b"\x00\x01\x02\x03 acquisition terms"
    assert upload(served, token("ana", ["*"]), "secret", "acme-acquisition-DRAFT.bin", bytes_of_no_format)[0] == 201
    demo = token("bob", ["demo"])
    status, result = upload(served, demo, "demo", "harmless.bin", bytes_of_no_format)
    assert status == 201 and result["status"] == "failed"
    assert "harmless.bin" in str(result["error_message"]) and "acme" not in str(result["error_message"])
    status, listing = served.request("GET", "/documents?namespace=demo", bearer=demo)
    messages = [d["error_message"] for d in listing["documents"] if d["source_key"] == "harmless.bin"]
    assert messages and "acme" not in messages[0] and "harmless.bin" in messages[0]

    assert upload(served, demo, "demo", "first/alpha-notes.md", NOTE)[0] == 201
    assert upload(served, demo, "demo", "second/beta-notes.md", NOTE)[0] == 201
    status, found = served.search(
        demo, namespace="demo", query="descale boiler", filters={"documents": ["beta-notes.md"]}
    )
    assert status == 200 and [r["source_file_name"] for r in found["results"]] == ["beta-notes.md"]


@pytest.mark.parametrize("filename", ["a\nb.md", "a\rb.md", "tab\there.md", "c1\x85.md", "esc\x1b[31m.md"])
def test_a_file_name_with_control_characters_is_refused_at_both_steps(served: Served, filename: str) -> None:
    from urllib.parse import quote

    bearer = token("ana", ["demo"])
    body = {"namespace": "demo", "filename": filename, "content_type": "text/markdown", "size": len(NOTE)}
    assert served.request("POST", "/documents", body=body, bearer=bearer)[0] == 400
    put = f"/uploads?namespace=demo&filename={quote(filename, safe='')}"
    status, answer = served.request("PUT", put, body=NOTE, bearer=bearer, headers={"Content-Type": "text/markdown"})
    assert status == 400 and "control characters" in str(answer["message"])
