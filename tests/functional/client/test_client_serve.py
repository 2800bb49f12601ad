"""The typed client against a live `docshelf serve`: every method, its typed results and its errors."""

from __future__ import annotations

import urllib.error
import urllib.request

from docshelf.client import DocshelfApiError, DocshelfClient, Document, SearchHit, SearchResult
from tests.functional.api.helpers import Served, token

DEMO = token("alice", ["demo"])
KETTLE = b"# Kettle\n\nThe kettle element is rated 2.2 kW.\n"


def test_search_answers_typed_cited_results_within_the_budget(served: Served) -> None:
    with DocshelfClient(served.url, token=DEMO) as client:
        result = client.search("pump seal replacement hours", namespace="demo", top_k=3, max_tokens=60)
        assert isinstance(result, SearchResult) and isinstance(result.results[0], SearchHit)
        first = result.results[0]
        assert first.source_file_name == "pump.md" and first.pages == [1] and first.section_path == ["Pump guide"]
        assert first.citation.startswith("manuals/pump.md | Pump guide | p. 1 | ")
        assert 0 < result.evidence_tokens <= 60 and result.evidence_text.startswith("[1] manuals/pump.md")
        assert result.cache == "miss" and client.search("pump seal replacement hours", namespace="demo",
                                                        top_k=3, max_tokens=60).cache == "hit"  # fmt: skip
        only_valves = client.search("torque", namespace="demo", documents=["valves.md"], chunk_types=["text"])
        assert {hit.source_file_name for hit in only_valves.results} == {"valves.md"}


def test_agentic_search_and_its_run_record(served: Served) -> None:
    client = DocshelfClient(served.url, token=DEMO)
    result = client.agentic_search(
        "How often is the pump seal replaced, and what torque do TX-100 flange bolts take?",
        namespace="demo",
        budget_tokens=500,
    )
    assert result.mode == "agentic" and result.plan is not None and len(result.plan.steps) >= 2
    assert "45 Nm" in result.evidence_text and result.tokens_used is not None and result.tokens_used <= 500
    assert result.run_id is not None
    run = client.run(result.run_id)
    assert run.run_id == result.run_id and run.user == "alice" and run.steps
    other = DocshelfClient(served.url, token=token("mallory", ["demo"]))
    try:
        other.run(result.run_id)
    except DocshelfApiError as error:
        assert error.status == 404
    else:
        raise AssertionError("another user read the run")


def test_documents_list_get_by_key_upload_and_delete(served: Served) -> None:
    client = DocshelfClient(served.url, token=DEMO)
    listed = client.list_documents("demo")
    assert all(isinstance(d, Document) for d in listed)
    assert sorted(d.source_key for d in listed) == ["boiler.md", "manuals/pump.md", "valves.md"]
    pump = client.document_by_key("demo", "manuals/pump.md")
    assert pump is not None and pump.status == "ok" and pump.chunk_count >= 1
    assert client.document("demo", pump.document_id) == pump
    assert client.list_documents("demo", status="failed") == []

    uploaded = client.upload("demo", "notes/kettle.md", KETTLE)
    assert uploaded.document_key == "demo/notes/kettle.md" and uploaded.status == "ok"
    assert uploaded.document_id is not None
    assert "2.2 kW" in client.search("kettle element rating", namespace="demo").evidence_text
    assert client.wait("demo", "notes/kettle.md", timeout_s=5).status == "ok"
    link = client.source_link("demo", uploaded.document_id)
    assert link.url.startswith(f"{served.url}/documents/{uploaded.document_id}/source?") and link.expires_in == 3600
    with urllib.request.urlopen(link.url, timeout=30) as opened:  # no token: a chat UI can open it
        assert opened.read() == KETTLE
    try:
        urllib.request.urlopen(link.url.replace("namespace=demo", "namespace=secret"), timeout=30)
    except urllib.error.HTTPError as refused:
        assert refused.code == 403
    else:
        raise AssertionError("a link moved to another namespace opened")

    deleted = client.delete_document("demo", uploaded.document_id)
    assert deleted.deleted and deleted.document_id == uploaded.document_id
    assert client.document("demo", uploaded.document_id).status == "deleted"
    assert "2.2 kW" not in client.search("kettle element rating", namespace="demo").evidence_text


def test_ingest_url_is_queued(served: Served) -> None:
    client = DocshelfClient(served.url, token=DEMO)
    queued = client.ingest_url("demo", "https://docs.example.com/guide.html")
    assert queued.namespace == "demo" and queued.document_key.startswith("demo/") and queued.document_id
    try:
        client.ingest_url("demo", "http://127.0.0.1/admin")
    except DocshelfApiError as error:
        assert error.status == 400 and "127.0.0.1" in error.message
    else:
        raise AssertionError("a loopback URL was queued")


def test_errors_carry_the_apis_status_message_and_fields(served: Served) -> None:
    client = DocshelfClient(served.url, token=DEMO)
    for call, status in (
        (lambda: client.search("salary", namespace="secret"), 403),
        (lambda: client.search("pump", namespace="demo", top_k=99), 400),
        (lambda: client.document("demo", "nope"), 404),
        (lambda: DocshelfClient(served.url, token="not-a-jwt").list_documents("demo"), 401),
        (lambda: DocshelfClient(served.url).list_documents("demo"), 401),
    ):
        try:
            call()
        except DocshelfApiError as error:
            assert error.status == status, (error.status, error.message)
            assert error.message
            if status == 400:
                assert any("top_k" in problem["loc"] for problem in error.errors)
        else:
            raise AssertionError(f"no {status}")
