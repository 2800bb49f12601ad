"""The typed client against the moto-backed API: the SearchFunction behind API Gateway's JWT authorizer, the
presigned S3 upload, the real pipeline, search, documents, runs, delete and URL ingestion."""

from __future__ import annotations

import requests

from docshelf.client import DocshelfApiError, DocshelfClient
from tests.functional.aws.api_gateway import API_URL, ApiGatewayTransport
from tests.functional.aws.harness import Pipeline, announce_delete_marker

NOTE = b"# Boiler note\n\n## Descaling\n\nDescale the boiler heat exchanger every 90 days with citric acid.\n"
TOKENS = {"alice-jwt": {"sub": "alice", "cognito:groups": "[demo]"}, "bob-jwt": {"sub": "bob", "cognito:groups": "[x]"}}


def client(pipeline: Pipeline, token: str = "alice-jwt") -> DocshelfClient:
    return DocshelfClient(API_URL, token=token, transport=ApiGatewayTransport(pipeline, TOKENS))


def test_the_client_uploads_searches_and_deletes_on_aws(pipeline: Pipeline) -> None:
    alice = client(pipeline)
    uploaded = alice.upload("demo", "notes/boiler.md", NOTE, content_type="text/markdown")
    assert uploaded.document_key == "demo/notes/boiler.md" and uploaded.status is None  # S3 answers the PUT
    assert (
        pipeline.stack.s3.get_object(Bucket=pipeline.source_bucket, Key="demo/notes/boiler.md")["Body"].read() == NOTE
    )
    pipeline.drain()

    document = alice.document_by_key("demo", "notes/boiler.md")
    assert document is not None and document.status == "ok" and document.chunk_count >= 1
    assert [d.source_key for d in alice.list_documents("demo", status="ok")] == ["notes/boiler.md"]
    link = alice.source_link("demo", document.document_id)
    assert link.expires_in == 300 and requests.get(link.url, timeout=30).content == NOTE  # a presigned S3 GET
    result = alice.search("descale the boiler heat exchanger", namespace="demo", max_tokens=80)
    assert result.results[0].source_file_name == "boiler.md" and result.evidence_tokens <= 80
    assert result.results[0].section_path == ["Boiler note"] and result.results[0].pages == [1]

    agentic = alice.agentic_search("How often is the boiler descaled, and with what?", namespace="demo")
    assert agentic.run_id is not None and alice.run(agentic.run_id).user == "alice"

    assert alice.delete_document("demo", document.document_id).deleted
    announce_delete_marker(pipeline, "demo/notes/boiler.md")  # the event S3 sends; moto does not
    pipeline.drain()
    assert alice.document("demo", document.document_id).status == "deleted"


def test_the_authorizers_and_the_functions_refusals_reach_the_client(pipeline: Pipeline) -> None:
    for call, status in (
        (lambda: client(pipeline, "bob-jwt").search("boiler", namespace="demo"), 403),
        (lambda: client(pipeline, "forged").list_documents("demo"), 401),
        (lambda: client(pipeline).upload("demo", "../x.md", NOTE), 400),
        (lambda: client(pipeline).document("demo", "nope"), 404),
    ):
        try:
            call()
        except DocshelfApiError as error:
            assert error.status == status, error.message
        else:
            raise AssertionError(f"no {status}")


def test_a_url_is_queued_for_the_parse_function(pipeline: Pipeline) -> None:
    alice = client(pipeline)
    queued = alice.ingest_url("demo", "https://docs.example.com/chiller.html")
    assert queued.document_key.startswith("demo/") and queued.url == "https://docs.example.com/chiller.html"
    assert queued.status == "processing"
    assert alice.document("demo", queued.document_id).status == "processing"  # before any fetch ran
    assert pipeline.receive("parse")  # the fetch waits in the ParseQueue
