"""`docshelf serve` over real HTTP on loopback: auth, tenant isolation, the cache, status and hostile input."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

from docshelf.ids import document_id
from tests.functional.api.helpers import SECRET, Served, token

DEMO = token("alice", ["demo"])
BOTH = token("root", ["demo", "secret"])
SECRET_ONLY = token("bob", ["secret"])


def raw_post(served: Served, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    parts = urlsplit(served.url)
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    try:
        connection.request("POST", "/search", body=body, headers={"Authorization": f"Bearer {DEMO}", **headers})
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def test_search_returns_cited_results_for_an_allowed_namespace(served: Served) -> None:
    status, body = served.search(DEMO, namespace="demo", query="pump seal replacement", top_k=1)
    assert status == 200, body
    first = body["results"][0]
    assert first["source_file_name"] == "pump.md" and first["pages"] == [1]
    assert first["section_path"][0] == "Pump guide" and "2000 operating hours" in first["text"]
    assert "pump.md" in body["evidence_text"] and body["answer_text"] == ""
    assert body["cache"] == "miss"


def test_missing_bad_and_foreign_tokens_are_refused(served: Served) -> None:
    status, body = served.request("POST", "/search", body={"namespace": "demo", "query": "pump"})
    assert status == 401 and "bearer" in body["message"].lower()
    forged = token("alice", ["demo", "secret"], secret="another-secret-that-is-also-long-enough")
    assert served.search(forged, namespace="secret", query="salary")[0] == 401
    expired = token("alice", ["demo"], exp=1)
    assert served.search(expired, namespace="demo", query="pump")[0] == 401
    status, body = served.search(DEMO, namespace="secret", query="salary")
    assert status == 403 and "secret" in body["message"]


def test_no_route_reaches_another_namespace(served: Served) -> None:
    payroll = document_id("secret", "payroll.md")
    # search: a filter naming the other tenant's document is unknown in one's own namespace
    status, body = served.search(DEMO, namespace="demo", query="salary", filters={"documents": [payroll]})
    assert status == 400 and body["message"].startswith(f"no document {payroll!r}") and "payroll.md" not in str(body)
    status, body = served.search(DEMO, namespace="demo", query="salary chief engineer confidential")
    assert status == 200 and all(r["namespace"] == "demo" for r in body["results"])
    assert "confidential" not in body["evidence_text"]
    # status: the other namespace is 403, its document is not found through one's own
    assert served.request("GET", "/documents?namespace=secret", bearer=DEMO)[0] == 403
    assert served.request("GET", f"/documents/{payroll}?namespace=secret", bearer=DEMO)[0] == 403
    assert served.request("GET", f"/documents/{payroll}?namespace=demo", bearer=DEMO)[0] == 404
    status, body = served.request("GET", "/documents?namespace=demo", bearer=DEMO)
    assert status == 200 and {d["source_key"] for d in body["documents"]} == {"manuals/pump.md", "valves.md"}


def test_the_cache_is_per_user_and_never_outlives_a_publish(served: Served) -> None:
    query = {"namespace": "demo", "query": "Pump   SEAL", "top_k": 2}
    assert served.search(DEMO, **query)[1]["cache"] == "miss"
    status, again = served.search(DEMO, **{**query, "query": "pump seal"})  # normalised to the same key
    assert status == 200 and again["cache"] == "hit"
    # another user with the same query and namespace never gets alice's entry
    assert served.search(BOTH, **query)[1]["cache"] == "miss"
    # a user who may not read the namespace gets 403 even though a cached answer exists
    assert served.search(SECRET_ONLY, **query)[0] == 403
    # a publish bumps the namespace version: the entry is not served again
    served.services.ingest(b"# Pump seals\n\nNew seal kit: part SK-9.\n", namespace="demo", source_key="seals.md")
    status, fresh = served.search(DEMO, **query)
    assert fresh["cache"] == "miss" and any(r["source_file_name"] == "seals.md" for r in fresh["results"])
    served.services.delete(namespace="demo", source_key="seals.md")
    status, after_delete = served.search(DEMO, **query)
    assert after_delete["cache"] == "miss"
    assert all(r["source_file_name"] != "seals.md" for r in after_delete["results"])


def test_hit_counts_are_recorded_per_chunk_and_document(served: Served) -> None:
    body = served.search(DEMO, namespace="demo", query="flange bolts torque", top_k=1)[1]
    served.search(DEMO, namespace="demo", query="flange bolts torque", top_k=1)
    first = body["results"][0]
    hits = served.backend.hits
    assert hits.hits("demo", first["document_id"], first["chunk_id"]) == 2
    assert hits.hits("demo", first["document_id"]) == 2
    # only the results the evidence cites count: a budget for one passage leaves the others out
    narrow = served.search(DEMO, namespace="demo", query="pump seal valve", top_k=3, max_tokens=30)[1]
    cited = [r for r in narrow["results"] if r["evidence_ref"] is not None]
    left_out = [r for r in narrow["results"] if r["evidence_ref"] is None]
    assert cited and left_out
    before = {first["chunk_id"]: 2}  # the counts before this search
    for result in cited:
        assert hits.hits("demo", result["document_id"], result["chunk_id"]) == before.get(result["chunk_id"], 0) + 1
    for result in left_out:
        assert hits.hits("demo", result["document_id"], result["chunk_id"]) == before.get(result["chunk_id"], 0)


def test_document_status_shows_revision_chunks_and_errors(served: Served) -> None:
    served.services.ingest(b"\x00\x01garbage%PDF", namespace="demo", source_key="broken.pdf")
    status, listing = served.request("GET", "/documents?namespace=demo", bearer=DEMO)
    records = {d["source_key"]: d for d in listing["documents"]}
    assert records["manuals/pump.md"]["status"] == "ok" and records["manuals/pump.md"]["chunk_count"] >= 1
    assert len(records["manuals/pump.md"]["revision"]) == 64
    assert records["broken.pdf"]["status"] == "failed" and records["broken.pdf"]["error_code"]
    pump = records["manuals/pump.md"]["document_id"]
    status, one = served.request("GET", f"/documents/{pump}?namespace=demo", bearer=DEMO)
    assert status == 200 and one == records["manuals/pump.md"]


def test_hostile_input_gets_a_4xx(served: Served) -> None:
    base = {"namespace": "demo", "query": "pump"}
    assert served.search(DEMO, **base, unknown=1)[0] == 400
    assert served.search(DEMO, **base, top_k=51)[0] == 400
    assert served.search(DEMO, **base, top_k="5")[0] == 400
    assert served.search(DEMO, **base, top_k=True)[0] == 400
    assert served.search(DEMO, **base, max_tokens=10**9)[0] == 400
    assert served.search(DEMO, namespace="demo", query="x" * 1001)[0] == 400
    assert served.search(DEMO, namespace="demo", query="   ")[0] == 400
    assert served.search(DEMO, namespace="demo", query="a\x00b")[0] == 400
    assert served.search(DEMO, namespace="Demo/../secret", query="pump")[0] == 400
    assert served.search(DEMO, **base, filters={"documents": ["d"] * 51})[0] == 400
    assert served.search(DEMO, **base, filters={"chunk_types": ["video"]})[0] == 400
    assert served.search(DEMO, **base, filters={"where": "1=1"})[0] == 400
    assert raw_post(served, b"\xff\xfe{}", {"Content-Type": "application/json"})[0] == 400
    assert raw_post(served, b'{"namespace": "demo", "query": ' + b"[" * 100 + b"]" * 100 + b"}", {})[0] == 400
    assert raw_post(served, b"{not json", {"Content-Type": "application/json"})[0] == 400
    assert raw_post(served, b'{"query": "x"}', {"Content-Type": "text/plain"})[0] == 400
    status, body = raw_post(served, b" " * 1_000_000, {"Content-Type": "application/json"})
    assert status == 413 and "larger" in body["message"]


def test_query_syntax_is_searched_as_text(served: Served) -> None:
    for query in ('title:pump AND (seal OR "valve")~2 *', "TX-100 || 1=1; --", '{"match_all": {}}', "seal\\*"):
        status, body = served.search(DEMO, namespace="demo", query=query)
        assert status == 200, (query, body)
        assert all(r["namespace"] == "demo" for r in body["results"])
    body = served.search(DEMO, namespace="demo", query="TX-100 OR *:*", top_k=1)[1]
    assert body["results"][0]["source_file_name"] == "valves.md"


def test_errors_are_json_without_internals(served: Served) -> None:
    status, body = served.request("GET", "/nowhere", bearer=DEMO)
    assert status == 404 and set(body) == {"message"}
    status, body = served.request("GET", "/documents", bearer=DEMO)
    assert status == 400 and "namespace" in body["message"] and "Traceback" not in json.dumps(body)


def test_openapi_and_docs_are_served_offline(served: Served) -> None:
    status, text, _ = served.text("/openapi.json")
    spec = json.loads(text)
    assert status == 200 and {"/search", "/documents", "/documents/{document_id}"} <= set(spec["paths"])
    assert spec["paths"]["/search"]["post"]["responses"].keys() >= {"200", "400", "401", "403", "413", "429"}
    status, html, headers = served.text("/docs")
    assert status == 200 and "SwaggerUIBundle" in html
    assert "<script src=" not in html and "<link rel='stylesheet'" not in html  # assets inline, no CDN
    assert "connect-src 'self'" in headers["Content-Security-Policy"]
    status, page, headers = served.text("/")
    assert status == 200 and "http" not in page and "<script>" not in page and "<style>" not in page
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy and "unsafe-inline" not in policy
    for asset, kind in (("/page.js", "text/javascript"), ("/page.css", "text/css")):
        status, text, headers = served.text(asset)
        assert status == 200 and headers["Content-Type"].startswith(kind) and "http://" not in text


def test_no_auth_serves_everything(tmp_path: object, served: Served) -> None:
    from docshelf.local.server import ServeConfig
    from tests.functional.api.helpers import serving

    with serving(served.backend, ServeConfig(jwt_secret=None, quiet=True)) as server:
        anonymous = Served(server.url, served.services, served.backend)
        status, body = anonymous.request("POST", "/search", body={"namespace": "secret", "query": "salary"})
        assert status == 200 and body["results"][0]["source_file_name"] == "payroll.md"
    assert SECRET  # the fixture's own server still requires tokens


def test_a_documents_graph_is_served_to_its_namespace_only(served: Served) -> None:
    pump = document_id("demo", "manuals/pump.md")
    status, graph = served.request("GET", f"/documents/{pump}/graph?namespace=demo", bearer=DEMO)
    assert status == 200 and graph["document_id"] == pump and graph["rule"]["min_overlap"] == 0.8
    assert {node["kind"] for node in graph["nodes"]} >= {"chunk"}
    payroll = document_id("secret", "payroll.md")
    assert served.request("GET", f"/documents/{payroll}/graph?namespace=secret", bearer=DEMO)[0] == 403
    assert served.request("GET", f"/documents/{payroll}/graph?namespace=demo", bearer=DEMO)[0] == 404
    served.services.delete(namespace="demo", source_key="manuals/pump.md")
    assert served.request("GET", f"/documents/{pump}/graph?namespace=demo", bearer=DEMO)[0] == 404


def test_results_and_evidence_cite_the_source_key(served: Served) -> None:
    status, body = served.search(DEMO, namespace="demo", query="pump seal replacement", top_k=1)
    assert status == 200 and body["results"][0]["source_key"] == "manuals/pump.md"
    assert body["evidence_text"].startswith("[1] manuals/pump.md › ")


def test_an_unknown_namespace_is_a_404_naming_the_readable_ones(served: Served) -> None:
    status, body = served.search(DEMO, namespace="dmeo", query="pump")  # the token's own list, before any look-up
    assert status == 403 and body["message"] == "the token does not allow namespace 'dmeo' (it allows: demo)"
    status, body = served.search(token("root", ["*"]), namespace="dmeo", query="pump")
    assert status == 404 and body["message"] == "no namespace 'dmeo' (namespaces: demo, secret)"
    status, body = served.search(token("ana", ["demo", "dmeo"]), namespace="dmeo", query="pump")
    assert status == 404 and body["message"] == "no namespace 'dmeo' (namespaces: demo)"  # not `secret`


def test_get_namespaces_lists_those_the_token_may_read(served: Served) -> None:
    assert served.request("GET", "/namespaces", bearer=DEMO) == (200, {"namespaces": ["demo"]})
    assert served.request("GET", "/namespaces", bearer=BOTH) == (200, {"namespaces": ["demo", "secret"]})
    assert served.request("GET", "/namespaces", bearer=token("eve", ["nothing"])) == (200, {"namespaces": []})
    assert served.request("GET", "/namespaces")[0] == 401


def test_unknown_filter_values_are_a_400_naming_them(served: Served) -> None:
    filters = {"documents": ["pump.md", "nope.md"], "exclude_documents": ["gone.md"]}
    status, body = served.search(DEMO, namespace="demo", query="pump", filters=filters)
    assert status == 400 and body["message"].startswith("no document 'nope.md'"), body
    status, body = served.search(DEMO, namespace="demo", query="pump", filters={"exclude_documents": ["gone.md"]})
    assert status == 400 and "no document to exclude 'gone.md'" in body["message"]
    status, body = served.search(DEMO, namespace="demo", query="seal", filters={"documents": ["manuals/pump.md"]})
    assert status == 200 and {r["source_key"] for r in body["results"]} == {"manuals/pump.md"}
