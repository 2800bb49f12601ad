"""The search page over the example documents in headless chromium: tables, highlights, citations that open the
source, the documents view, no escape sequences on screen, and an axe-core audit.

The page is served by `docshelf serve`'s own server behind `page_probe.ProbeApp`, which adds axe-core and a probe
script to the page; one site answers upload, delete and the agentic plan with recorded responses of the shared
API contracts (exact figures to assert), the other leaves them to the server's own routes.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

from docshelf.local.api_services import LocalApiServices
from docshelf.local.server import ServeConfig
from docshelf.local.services import LocalServices
from tests.functional.api.helpers import SECRET, serving, token
from tests.functional.api.page_probe import ProbeApp
from tests.functional.api.test_asset_route import report_with_a_picture
from tests.functional.api.test_browser import dump_dom

ROOT = Path(__file__).resolve().parents[3]
AXE_JS = ROOT / ".browser" / "axe-core-4.14.1.min.js"
# What a string escape looks like when it reaches the screen instead of the character it stands for.
ESCAPE = re.compile(r"\\u[0-9a-f]{4}|\bu00[0-9a-f]{2}\b|\\x[0-9a-f]{2}|\\[nt]|&(?:#x?[0-9a-f]+|[a-z]+);", re.I)
BROKEN_PDF = b"%PDF-1.7\nthis is not a PDF body\n"


@dataclass
class Site:
    url: str
    docs: Path
    probe: ProbeApp
    bearer: str


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    yield from _site(tmp_path_factory, recorded=True)


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The same site with no recorded responses: agentic search, upload and delete are the server's own."""
    yield from _site(tmp_path_factory, recorded=False)


def _site(tmp_path_factory: pytest.TempPathFactory, *, recorded: bool) -> Iterator[Site]:
    root = tmp_path_factory.mktemp("page")
    docs = root / "docs"
    spec = importlib.util.spec_from_file_location("make_examples", ROOT / "examples" / "make_examples.py")
    assert spec is not None and spec.loader is not None
    examples = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(examples)
    examples.main(docs)
    (docs / "broken.pdf").write_bytes(BROKEN_PDF)
    (docs / "leave-zh.md").write_text("# 年假\n\n员工的年假按工龄计算，病假另计。\n", encoding="utf-8")
    (docs / "report.docx").write_bytes(report_with_a_picture())
    services = LocalServices.open(root / "store")
    for path in sorted(docs.iterdir()):
        services.ingest(path.read_bytes(), namespace="demo", source_key=path.name)
    backend = LocalApiServices(services, cache_ttl_s=0, sources=docs)
    with serving(backend, ServeConfig(jwt_secret=SECRET, quiet=True)) as server:
        probe = ProbeApp(server._server.application, AXE_JS, recorded=recorded)
        server._server.application = probe
        yield Site(server.url, docs, probe, token("alice", ["demo"]))


def page(site: Site, profile: Path, *flags: str, **params: str) -> str:
    query = "&".join(f"{name}={quote(value)}" for name, value in {"namespace": "demo", **params}.items())
    return dump_dom(f"{site.url}/__probe/?{query}#token={site.bearer}", profile, *flags)


def probed(dom: str, name: str) -> object:
    found = re.search(rf'<pre id="probe-{name}">(.*?)</pre>', dom, re.S)
    assert found, dom[-3000:]
    return json.loads(html.unescape(found.group(1)))


def needs_axe() -> None:
    if not AXE_JS.is_file():
        pytest.skip("axe-core is not fetched: run infra/fetch-axe.sh")


def test_results_show_tables_marks_and_citations_that_open_the_source(site: Site, tmp_path: Path) -> None:
    needs_axe()
    dom = page(site, tmp_path / "profile", q="replacing seals 年假", top_k="20")
    assert 'data-state="done"' in dom and 'data-probe="done"' in dom, dom[-3000:]
    tickets = re.search(r'<table class="chunk-table">.*?</table>', dom[dom.index(">support-tickets.csv<") :], re.S)
    assert tickets is not None
    head = re.findall(r'<th scope="col">(.*?)</th>', tickets.group())
    assert head == ["ticket", "product", "issue", "resolution"]
    assert "<td>T-1002</td><td>TX-200</td><td>Handle stiff in cold weather</td>" in tickets.group()
    assert "<mark>Replaced</mark> <mark>seal</mark> kit SK-100-B" in tickets.group()  # marks inside cells
    assert "<mark>Replace</mark> the stem <mark>seal</mark>" in dom  # "replacing" met its stem in the manual
    assert "<mark>年假</mark>" in dom  # the query's bigram in the Chinese documents
    links = [html.unescape(href) for href in re.findall(r'<a class="source" href="([^"]+)"', dom)]
    assert len(links) >= 8
    for link in links:
        path, _, fragment = link.partition("#")
        name = re.search(rf'href="{re.escape(html.escape(link))}">([^<]+)</a>', dom)
        assert name is not None
        request = urllib.request.Request(site.url + path, headers={"Authorization": f"Bearer {site.bearer}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 200 and response.read() == (site.docs / name.group(1)).read_bytes()
        assert fragment.startswith("page=") == name.group(1).endswith(".pdf"), link
    assert "#page=3" in " ".join(links)  # the manual's maintenance page


def test_every_view_is_free_of_escape_sequences_and_serious_accessibility_faults(site: Site, tmp_path: Path) -> None:
    needs_axe()
    for number, params in enumerate(
        [{"q": "stem seal replacement"}, {"q": "年假", "view": "evidence"}, {"view": "documents"}]
    ):
        dom = page(site, tmp_path / f"profile{number}", **params)
        assert 'data-probe="done"' in dom, dom[-3000:]
        visible = probed(dom, "visible")
        assert isinstance(visible, list)
        assert "view" in params or any("\u00b7" in text for text in visible)  # the citation separator is shown
        assert not [text for text in visible if ESCAPE.search(text)], params
        faults = [v for v in probed(dom, "axe") if v["impact"] in ("serious", "critical")]  # type: ignore[attr-defined]
        assert faults == [], (params, faults)


def test_the_views_are_reached_by_keyboard_and_the_evidence_tab_counts_tokens(site: Site, tmp_path: Path) -> None:
    needs_axe()
    dom = page(site, tmp_path / "profile", q="stem seal", max_tokens="300", probe="keys")
    assert probed(dom, "keys") == [
        "tab-evidence", "tab-documents", "tab-results", "tab-documents", "tab-results", "tab-documents",
    ]  # fmt: skip
    meta = re.search(r'<p id="evidence-meta">(\d+) of 300 tokens, (\d+) of (\d+) results</p>', dom)
    assert meta is not None and 0 < int(meta.group(1)) <= 300 and int(meta.group(2)) <= int(meta.group(3))
    evidence = html.unescape(re.search(r'<pre id="evidence-text">(.*?)</pre>', dom, re.S).group(1))  # type: ignore[union-attr]
    assert evidence.startswith("[1] tx-100-manual.pdf › 3 Maintenance, p. 3\n")


def test_the_escape_check_would_have_caught_the_old_separator() -> None:
    assert ESCAPE.search('" u00b7 "') and ESCAPE.search("a \\u00b7 b") and not ESCAPE.search("tx-100 · p. 3")


def test_the_documents_view_lists_a_failed_file_with_its_code(site: Site, tmp_path: Path) -> None:
    needs_axe()
    dom = page(site, tmp_path / "profile", view="documents")
    row = re.search(r'<tr class="document"><td>broken\.pdf</td>(.*?)</tr>', dom)
    assert row is not None, dom[-4000:]
    assert '<td class="status-failed">failed</td>' in row.group(1) and "<code>corrupt</code>" in row.group(1)
    assert re.search(r'<li class="status-failed"><strong>1</strong> failed</li>', dom)
    assert re.search(r'<li class="status-ok"><strong>9</strong> ok</li>', dom)


def test_agentic_plan_upload_and_delete_against_recorded_responses(site: Site, tmp_path: Path) -> None:
    needs_axe()
    site.probe.requests.clear()
    dom = page(site, tmp_path / "profile", q="stem seal", mode="agentic")
    plan = dom[dom.index('<div id="plan">') : dom.index('<ol id="results">')]
    assert "planner rules" in plan and "420 of 2000 tokens" in plan
    assert re.search(r"<strong>search </strong>stem seal<span[^>]*> \[done, 300 tokens\]", plan)
    assert re.search(r"<strong>navigate </strong>3 Maintenance<span[^>]*> \[done, 120 tokens, after s1\]", plan)
    assert len(re.findall(r'<a href="#result-\d">', plan)) == 3  # per-step evidence links to the results
    assert json.loads(site.probe.requests[0][2])["mode"] == "agentic"

    site.probe.requests.clear()
    dom = page(site, tmp_path / "profile2", view="documents", probe="upload delete")
    assert probed(dom, "status").startswith("deleted ")  # type: ignore[attr-defined]
    calls = [(method, path) for method, path, _ in site.probe.requests]
    assert calls[:2] == [("POST", "/documents?"), ("PUT", "/uploads?namespace=demo&filename=dropped.txt")]
    assert json.loads(site.probe.requests[0][2]) == {
        "namespace": "demo", "filename": "dropped.txt", "content_type": "text/plain", "size": 18,
    }  # fmt: skip
    assert site.probe.requests[1][2] == b"probe upload bytes"
    assert calls[2][0] == "DELETE" and calls[2][1].endswith("?namespace=demo")


def test_agentic_plan_upload_and_delete_through_the_real_routes(real_site: Site, tmp_path: Path) -> None:
    needs_axe()
    query = "What is the stem seal kit part number, and what changed in version 2.3.1?"
    dom = page(real_site, tmp_path / "profile", q=query, mode="agentic")
    plan = dom[dom.index('<div id="plan">') : dom.index('<ol id="results">')]
    assert "planner rules" in plan and len(re.findall(r"<strong>search </strong>", plan)) == 2
    assert "SK-100-B" in dom and "2.3.1" in dom
    searches = [body for method, path, body in real_site.probe.requests if (method, path) == ("POST", "/search?")]
    assert searches and json.loads(searches[-1])["mode"] == "agentic"

    real_site.probe.requests.clear()
    dom = page(real_site, tmp_path / "profile2", view="documents", probe="upload delete")
    assert probed(dom, "status").startswith("deleted ")  # type: ignore[attr-defined]
    calls = [(method, path.split("?")[0]) for method, path, _ in real_site.probe.requests]
    deletes = [path for method, path in calls if method == "DELETE"]  # a refresh may come before or after it
    assert ("POST", "/documents") in calls and ("PUT", "/uploads") in calls and len(deletes) == 1, calls
    listed = urllib.request.Request(
        f"{real_site.url}/documents?namespace=demo", headers={"Authorization": f"Bearer {real_site.bearer}"}
    )
    with urllib.request.urlopen(listed) as reply:
        documents = {d["source_key"]: d for d in json.loads(reply.read())["documents"]}
    deleted = deletes[0].rsplit("/", 1)[-1]
    assert documents["dropped.txt"]["status"] == "ok"  # uploaded, stored and ingested by the server
    assert [d["status"] for d in documents.values() if d["document_id"] == deleted] in ([], ["deleted"])


def test_an_image_result_shows_its_picture(site: Site, tmp_path: Path) -> None:
    needs_axe()
    dom = page(site, tmp_path / "profile", q="pump cross-section diagram")
    signed = rf"{re.escape(site.url)}/documents/[^\"]+/assets/[^\"]+signature=[0-9a-f]{{64}}"
    found = re.search(rf'<img class="thumbnail" alt="([^"]*)" src="({signed})"', dom) or re.search(
        rf'<img class="thumbnail" src="({signed})" alt="([^"]*)"', dom
    )
    assert found, dom[dom.index('<ol id="results">') :][:3000]  # a signed link: an <img> opens it without a token


def test_the_documents_view_fits_1280_px_and_a_deleted_row_offers_no_delete(site: Site, tmp_path: Path) -> None:
    needs_axe()
    services = LocalServices.open(site.docs.parent / "store")
    key = "very/long/folder/names/" * 8 + "a-file-name-without-any-place-to-break-" * 4 + ".md"
    services.ingest(b"# Long\n\nA document with a long key.\n", namespace="demo", source_key=key)
    services.ingest(b"\x00\x01" + b"x" * 50, namespace="demo", source_key="no-format-" + "y" * 150 + ".bin")
    services.ingest(b"# Gone\n\nSoon deleted.\n", namespace="demo", source_key="gone.md")
    services.delete(namespace="demo", source_key="gone.md")
    services.index.commit()
    try:
        dom = page(site, tmp_path / "profile", "--window-size=1280,900", view="documents", probe="layout")
        layout = probed(dom, "layout")
        assert isinstance(layout, dict) and layout["page"] <= layout["window"] == 1280, layout
        assert layout["table"] <= 1280 and "deleted" not in layout["deletable"] and "ok" in layout["deletable"]
        assert probed(dom, "location") == "?namespace=demo&view=documents&probe=layout"
    finally:
        for gone in (key, "no-format-" + "y" * 150 + ".bin", "gone.md"):
            services.delete(namespace="demo", source_key=gone)
        services.index.commit()


def test_the_address_bar_follows_a_search(site: Site, tmp_path: Path) -> None:
    needs_axe()
    dom = page(site, tmp_path / "profile", q="stem seal", top_k="3")
    assert 'data-state="done"' in dom
    assert probed(dom, "location") == "?namespace=demo&q=stem+seal&top_k=3&max_tokens=2000"
