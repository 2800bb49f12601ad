"""Web pages through the fetcher and the pipeline, served by a local HTTP server that only the explicit test
setting `allow_loopback_for_tests` lets the fetcher reach (its host name resolves to 127.0.0.1 by a recording
resolver: the server still sees the host name in `Host`)."""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from docshelf.errors import FetchFailedError, FetchRefusedError
from docshelf.fetch import Fetcher, FetchLimits
from docshelf.local.cli import main
from docshelf.local.services import LocalServices
from docshelf.pipeline.web_ingest import fetch_record_key, web_source_key
from docshelf.serde import loads
from tests.unit.fetch.recording import RecordingConnector, RecordingResolver

PAGE = b"""<!doctype html><html><head><title>Pump care</title></head><body>
<h1>Pump care</h1><p>Replace the impeller seal every 500 hours of operation.</p>
<h2>Valves</h2><p>Check the relief valve weekly.</p></body></html>"""


@dataclass
class Site:
    """Routes: path -> (status, headers, body). Records each request's path and headers."""

    routes: dict[str, tuple[int, dict[str, str], bytes]] = field(default_factory=dict)
    seen: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    port: int = 0
    delay: float = 0.0  # before answering, for time limits
    drip: int = 0  # bytes of body sent one at a time, 0.1 s apart (no Content-Length)


@pytest.fixture
def site() -> Iterator[Site]:
    state = Site()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.seen.append((self.path, dict(self.headers.items())))
            time.sleep(state.delay)
            status, headers, body = state.routes.get(self.path, (404, {}, b"missing"))
            if state.drip:
                self._drip(state.drip)
                return
            etag = headers.get("ETag")
            if etag and self.headers.get("If-None-Match") == etag:
                status, body = 304, b""
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _drip(self, count: int) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            try:
                for _ in range(count):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass
            self.close_connection = True

        def log_message(self, *_args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


def fetcher(**limits: object) -> tuple[Fetcher, RecordingResolver, RecordingConnector]:
    resolver = RecordingResolver({"pages.test": ["127.0.0.1"], "metadata.test": ["169.254.169.254"]})
    connector = RecordingConnector(live=True)
    settings = FetchLimits(allow_loopback_for_tests=True, **limits)  # type: ignore[arg-type]
    return Fetcher(resolver=resolver, connector=connector, limits=settings), resolver, connector


def test_the_connection_goes_to_the_checked_address_with_the_host_name_kept(site: Site) -> None:
    site.routes["/pump"] = (200, {"Content-Type": "text/html; charset=utf-8"}, PAGE)
    fetch, resolver, connector = fetcher()
    page = fetch.fetch(f"http://pages.test:{site.port}/pump")
    assert not isinstance(page, type(None))
    assert getattr(page, "body", b"") == PAGE
    assert resolver.asked == [("pages.test", site.port)]  # resolved once
    assert connector.attempts == [("127.0.0.1", site.port)]
    assert site.seen[0][1]["Host"] == f"pages.test:{site.port}"


def test_without_the_test_setting_the_local_server_is_refused_unconnected(site: Site) -> None:
    connector = RecordingConnector(live=True)
    with pytest.raises(FetchRefusedError, match="loopback"):
        Fetcher(connector=connector).fetch(f"http://127.0.0.1:{site.port}/")
    assert connector.attempts == [] and site.seen == []


def test_a_redirect_to_a_metadata_address_is_refused_after_the_first_hop_only(site: Site) -> None:
    site.routes["/go"] = (302, {"Location": "http://metadata.test/latest/meta-data/"}, b"")
    fetch, resolver, connector = fetcher()
    with pytest.raises(FetchRefusedError, match=r"169\.254\.169\.254"):
        fetch.fetch(f"http://pages.test:{site.port}/go")
    assert connector.attempts == [("127.0.0.1", site.port)]
    assert resolver.asked[-1] == ("metadata.test", 80)


def test_redirects_are_bounded(site: Site) -> None:
    site.routes["/loop"] = (302, {"Location": "/loop"}, b"")
    fetch, _, connector = fetcher(max_redirects=3)
    with pytest.raises(FetchFailedError, match="more than 3 redirects"):
        fetch.fetch(f"http://pages.test:{site.port}/loop")
    assert len(connector.attempts) == 4


def test_size_and_decompression_are_bounded(site: Site) -> None:
    site.routes["/big"] = (200, {"Content-Type": "text/plain"}, b"x" * 5000)
    bomb = gzip.compress(b"\0" * 10_000_000)
    site.routes["/bomb"] = (200, {"Content-Type": "text/plain", "Content-Encoding": "gzip"}, bomb)
    fetch, _, _ = fetcher(max_bytes=4096)
    with pytest.raises(FetchFailedError, match="over the limit of 4096"):
        fetch.fetch(f"http://pages.test:{site.port}/big")
    fetch, _, _ = fetcher(max_bytes=1_000_000)
    assert len(bomb) < 1_000_000
    with pytest.raises(FetchFailedError, match="decompresses to over the limit"):
        fetch.fetch(f"http://pages.test:{site.port}/bomb")


def test_the_whole_fetch_is_bounded_in_time(site: Site) -> None:
    site.routes["/slow"] = (200, {"Content-Type": "text/plain"}, b"late")
    site.delay = 1.5
    fetch, _, _ = fetcher(timeout_seconds=0.3)
    started = time.monotonic()
    with pytest.raises(FetchFailedError, match=r"timed out|time limit|broke"):
        fetch.fetch(f"http://pages.test:{site.port}/slow")
    assert time.monotonic() - started < 1.5


def test_a_server_dripping_its_body_is_cut_off_at_the_time_limit(site: Site) -> None:
    site.routes["/drip"] = (200, {"Content-Type": "text/plain"}, b"")
    site.drip = 40  # bytes, one every 0.1 s: each read is quick, the whole is not
    fetch, _, _ = fetcher(timeout_seconds=1.0)
    started = time.monotonic()
    with pytest.raises(FetchFailedError, match=r"time limit|broke"):
        fetch.fetch(f"http://pages.test:{site.port}/drip")
    assert time.monotonic() - started < 2.5


def test_gzip_pages_are_decompressed(site: Site) -> None:
    site.routes["/z"] = (200, {"Content-Type": "text/html", "Content-Encoding": "gzip"}, gzip.compress(PAGE))
    fetch, _, _ = fetcher()
    assert getattr(fetch.fetch(f"http://pages.test:{site.port}/z"), "body", b"") == PAGE


def test_a_page_is_ingested_with_its_url_and_fetch_time_and_an_unchanged_refetch_publishes_nothing(
    site: Site, tmp_path: Path
) -> None:
    site.routes["/manual/"] = (200, {"Content-Type": "text/html", "ETag": '"v1"'}, PAGE)
    services = LocalServices.open(tmp_path / "store")
    url = f"http://pages.test:{site.port}/manual/"
    fetch, _, _ = fetcher()
    first = services.ingest_url(url, namespace="web", fetcher=fetch)
    assert (first.status, first.source_key) == ("ok", f"web/pages.test_{site.port}/manual/index")
    manifest = loads(services.store.get(f"docs/web/{first.document_id}/manifest.json") or b"{}")
    assert manifest["source"]["uri"] == url and manifest["source"]["fetched_at"].endswith("+00:00")
    assert manifest["source"]["media_type"] == "text/html"
    version = services.registry.namespace_version("web")

    second = services.ingest_url(url, namespace="web", fetcher=fetch)
    assert site.seen[-1][1].get("If-None-Match") == '"v1"'
    assert (second.status, second.chunks, second.parse_cache_hit) == ("ok", first.chunks, True)
    assert services.registry.namespace_version("web") == version

    site.routes["/manual/"] = (200, {"Content-Type": "text/html"}, PAGE)  # no validators: same bytes
    third = services.ingest_url(url, namespace="web", fetcher=fetch)
    assert third.status == "ok" and services.registry.namespace_version("web") == version
    assert services.store.get(fetch_record_key("web", first.source_key)) is not None


def test_a_failed_fetch_is_the_documents_status(site: Site, tmp_path: Path) -> None:
    services = LocalServices.open(tmp_path / "store")
    fetch, _, _ = fetcher()
    result = services.ingest_url(f"http://pages.test:{site.port}/absent", namespace="web", fetcher=fetch)
    assert (result.status, result.error_code) == ("failed", "fetch_failed")
    assert "HTTP 404" in result.error_message
    record = services.registry.get("web", result.document_id)
    assert record is not None and record.error_code == "fetch_failed"


def test_cli_ingest_of_a_refused_url_reports_it_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["ingest", "--store", str(tmp_path / "s"), "--namespace", "web", "--quiet", "http://169.254.169.254/"])
    assert code == 1
    out = capsys.readouterr().out
    assert "web/169.254.169.254/index: failed [fetch_refused]" in out and "metadata address" in out


def test_source_keys_come_from_the_url_alone() -> None:
    assert web_source_key("https://Example.com/docs/") == "web/example.com/docs/index"
    assert web_source_key("http://example.com:8080/a.pdf") == "web/example.com_8080/a.pdf"
    assert web_source_key("https://example.com/s?q=1").startswith("web/example.com/s_q")
