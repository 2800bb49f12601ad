"""Uploads through the API, deletes and URL ingestion on AWS (moto): the routes, then the real pipeline."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from docshelf.aws import web_fetch
from docshelf.fetch import Fetcher, FetchLimits
from docshelf.ids import document_id
from tests.functional.aws.harness import Pipeline, announce_delete_marker
from tests.unit.fetch.recording import RecordingConnector, RecordingResolver

NOTE = b"# Boiler note\n\n## Descaling\n\nDescale the boiler heat exchanger every 90 days with citric acid.\n"
PAGE = b"<!doctype html><html><body><h1>Chiller</h1><p>The chiller condenser coil is brushed monthly.</p></body></html>"


def ask_upload(pipeline: Pipeline, namespace: str, filename: str, size: int, groups: str = "[demo]") -> Any:
    body = {"namespace": namespace, "filename": filename, "content_type": "text/markdown", "size": size}
    return pipeline.http("document_upload.json", body=body, groups=groups)


def test_an_upload_through_the_api_is_parsed_and_searchable(pipeline: Pipeline) -> None:
    status, answer = ask_upload(pipeline, "demo", "notes/boiler.md", len(NOTE))
    assert status == 201, answer
    assert answer["document_key"] == "demo/notes/boiler.md" and answer["expires_in"] == 900
    url = answer["upload"]["url"]
    signed = parse_qs(urlsplit(url).query)["X-Amz-SignedHeaders"][0].split(";")
    assert {"content-length", "content-type", "host"} <= set(signed)  # size and type are in the signature
    put = requests.put(url, data=NOTE, headers=answer["upload"]["headers"], timeout=30)
    assert put.status_code == 200

    pipeline.drain()
    record = pipeline.registry().get("demo", document_id("demo", "notes/boiler.md"))
    assert record is not None and record.status == "ok"
    top = pipeline.search("descale the boiler heat exchanger")["results"][0]
    assert top["source_file_name"] == "boiler.md"


def test_another_namespaces_upload_is_refused_and_nothing_is_signed(pipeline: Pipeline) -> None:
    status, answer = ask_upload(pipeline, "secret", "x.md", len(NOTE))
    assert status == 403 and "secret" in answer["message"]
    status, answer = ask_upload(pipeline, "demo", "../secret/x.md", len(NOTE))
    assert status == 400
    status, answer = ask_upload(pipeline, "demo", "huge.md", 10**12)
    assert status == 413


def test_delete_through_the_api_removes_the_document(pipeline: Pipeline) -> None:
    pipeline.upload("demo/notes/boiler.md", NOTE)
    pipeline.drain()
    doc = document_id("demo", "notes/boiler.md")
    status, answer = pipeline.http("document_delete.json", query={"namespace": "demo"}, path_document=doc)
    assert (status, answer) == (200, {"document_id": doc, "deleted": True})
    announce_delete_marker(pipeline, "demo/notes/boiler.md")  # the event S3 sends; moto does not
    pipeline.drain()
    record = pipeline.registry().get("demo", doc)
    assert record is not None and record.status == "deleted"
    assert all(r["document_id"] != doc for r in pipeline.search("boiler descale")["results"])
    status, _ = pipeline.http("document_delete.json", query={"namespace": "secret"}, path_document=doc)
    assert status == 403


@pytest.fixture
def page_server() -> Iterator[int]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.headers.get("If-None-Match") == '"c1"':
                self.send_response(304)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("ETag", '"c1"')
            self.send_header("Content-Length", str(len(PAGE)))
            self.end_headers()
            self.wfile.write(PAGE)

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_a_url_is_queued_fetched_into_the_bucket_and_published_once(
    pipeline: Pipeline, page_server: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    resolver = RecordingResolver({"pages.test": ["127.0.0.1"]})
    limits = FetchLimits(allow_loopback_for_tests=True)  # the page server is on loopback
    monkeypatch.setattr(
        web_fetch, "make_fetcher", lambda: Fetcher(resolver=resolver, connector=RecordingConnector(True), limits=limits)
    )
    url = f"http://pages.test:{page_server}/chiller"
    status, answer = pipeline.http("ingest_url.json", body={"namespace": "demo", "url": url})
    assert status == 202 and answer["document_key"] == f"demo/web/pages.test_{page_server}/chiller"
    pipeline.drain()
    key = f"web/pages.test_{page_server}/chiller"
    record = pipeline.registry().get("demo", document_id("demo", key))
    assert record is not None and record.status == "ok"
    manifest = json.loads(pipeline.artifact(f"docs/demo/{record.document_id}/manifest.json") or b"{}")
    assert manifest["source"]["uri"] == url and manifest["source"]["fetched_at"]
    assert pipeline.search("chiller condenser coil")["results"][0]["document_id"] == record.document_id
    version = pipeline.registry().namespace_version("demo")

    status, _ = pipeline.http("ingest_url.json", body={"namespace": "demo", "url": url})
    assert status == 202
    pipeline.drain()  # 304 to the stored ETag: nothing written, nothing published
    versions = pipeline.stack.s3.list_object_versions(Bucket=pipeline.source_bucket, Prefix=f"demo/{key}")
    assert len(versions["Versions"]) == 1
    assert pipeline.registry().namespace_version("demo") == version


def test_refused_urls_are_400_or_the_documents_status(pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    connector = RecordingConnector()
    monkeypatch.setattr(
        web_fetch,
        "make_fetcher",
        lambda: Fetcher(resolver=RecordingResolver({"intranet.test": ["10.0.0.7"]}), connector=connector),
    )
    status, answer = pipeline.http("ingest_url.json", body={"namespace": "demo", "url": "http://[fd00:ec2::254]/"})
    assert status == 400 and "metadata" in answer["message"]
    status, _ = pipeline.http("ingest_url.json", body={"namespace": "other", "url": "http://intranet.test/"})
    assert status == 403
    status, _ = pipeline.http("ingest_url.json", body={"namespace": "demo", "url": "http://intranet.test/"})
    assert status == 202
    pipeline.drain()
    record = pipeline.registry().get("demo", document_id("demo", "web/intranet.test/index"))
    assert record is not None and (record.status, record.error_code) == ("failed", "fetch_refused")
    assert "10.0.0.7" in record.error_message and connector.attempts == []
