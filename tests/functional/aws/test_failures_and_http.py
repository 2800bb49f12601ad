"""Transient faults retry (then dead-letter), HTTP errors, the sample events, and the search function's imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from botocore.exceptions import ClientError

from docshelf.aws.events import StageMessage, decode_object_event
from docshelf.ids import document_id
from tests.functional.aws.harness import Pipeline, sample_event
from tests.functional.aws.template_resources import load_template

ROOT = Path(__file__).resolve().parents[3]
DOC = b"# Notes\n\nThe backup generator is tested every Friday at noon.\n"
PARSER_LIBRARIES = (
    "pypdf",
    "pypdfium2",
    "docx",
    "pptx",
    "openpyxl",
    "xlrd",
    "lxml",
    "defusedxml",
    "charset_normalizer",
)
# Each alone costs a large share of the search function's cold-start budget, or more: the X-Ray SDK (Powertools'
# Tracer), pydantic (Powertools' OpenAPI validation), and numpy (about 140 ms; only the embedded index needs it).
COLD_START_HEAVY = ("aws_xray_sdk", "pydantic", "pydantic_core", "numpy")


def throttled(operation: str) -> Any:
    def raise_throttling(*args: Any, **kwargs: Any) -> Any:
        raise ClientError({"Error": {"Code": "ThrottlingException", "Message": "Rate exceeded"}}, operation)

    return raise_throttling


def test_a_throttling_error_makes_the_message_retry_then_succeed(
    pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipeline.upload("demo/notes.md", DOC)
    pipeline.run("parse")
    messages = pipeline.receive("chunk")
    registry_client = pipeline.services["chunk"].dynamodb
    with monkeypatch.context() as patch:
        patch.setattr(registry_client, "get_item", throttled("GetItem"))
        response = pipeline.run("chunk", messages)
    assert response == {"batchItemFailures": [{"itemIdentifier": messages[0]["MessageId"]}]}

    # The failed message was not deleted: once its visibility timeout passes, SQS delivers it again.
    url = pipeline.stack.queue_urls["ChunkQueue"]
    pipeline.stack.sqs.change_message_visibility(
        QueueUrl=url, ReceiptHandle=messages[0]["ReceiptHandle"], VisibilityTimeout=0
    )
    pipeline.drain()
    assert pipeline.registry().get("demo", document_id("demo", "notes.md")).status == "ok"


def test_a_message_that_keeps_failing_lands_in_the_dead_letter_queue(
    pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipeline.upload("demo/notes.md", DOC)
    url = pipeline.stack.queue_urls["ParseQueue"]
    max_receives = load_template()["Resources"]["ParseQueue"]["Properties"]["RedrivePolicy"]["maxReceiveCount"]
    monkeypatch.setattr(pipeline.services["parse"].s3, "get_object", throttled("GetObject"))
    for _ in range(max_receives):
        messages = pipeline.receive("parse")
        assert len(messages) == 1
        assert pipeline.run("parse", messages)["batchItemFailures"]
        pipeline.stack.sqs.change_message_visibility(
            QueueUrl=url, ReceiptHandle=messages[0]["ReceiptHandle"], VisibilityTimeout=0
        )
    assert pipeline.receive("parse") == []
    dead = pipeline.stack.sqs.receive_message(QueueUrl=pipeline.stack.queue_urls["ParseDeadLetterQueue"])
    assert json.loads(dead["Messages"][0]["Body"])["detail"]["object"]["key"] == "demo/notes.md"


def test_an_object_outside_any_namespace_is_acknowledged_and_logged(
    pipeline: Pipeline, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    pipeline.upload("README.txt", b"no namespace folder")
    assert pipeline.run("parse") == {"batchItemFailures": []}
    logged = capsys.readouterr().out + caplog.text
    assert "invalid message acknowledged" in logged and "InvalidMessages" in logged


def test_http_errors_are_readable(pipeline: Pipeline) -> None:
    status, body = pipeline.http("search_request.json", body={"namespace": "other", "query": "x"})
    assert status == 403 and "other" in body["message"]
    status, body = pipeline.http("search_request.json", body={"namespace": "demo", "query": "x", "top_k": 500})
    assert status == 400 and "top_k" in body["message"]
    status, body = pipeline.http("search_request.json", body={"namespace": "demo", "query": "x", "filters": {"x": 1}})
    assert status == 400
    status, body = pipeline.http("documents_list.json", query={"namespace": "Bad Name!"}, groups="[*]")
    assert status == 400
    status, body = pipeline.http("document_status.json", query={"namespace": "demo"}, path_document="dmissing")
    assert status == 404


def test_every_sample_event_decodes() -> None:
    created = decode_object_event(sample_event("parse_object_created.json")["Records"][0]["body"])
    assert (created.action, created.namespace, created.source_key) == ("created", "demo", "manuals/pump guide.md")
    deleted = decode_object_event(sample_event("parse_object_deleted.json")["Records"][0]["body"])
    assert deleted.action == "deleted" and deleted.document_id == created.document_id
    for name in ("chunk_message.json", "publish_message.json"):
        message = StageMessage.from_json(sample_event(name)["Records"][0]["body"])
        assert message.document_id == created.document_id
    for name in ("search_request.json", "documents_list.json", "document_status.json"):
        event = sample_event(name)
        assert event["version"] == "2.0" and event["requestContext"]["authorizer"]["jwt"]["claims"]["sub"]


def test_the_search_function_imports_no_parser_tracing_sdk_pydantic_or_numpy() -> None:
    code = (
        "import sys, json; import functions.search.app; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{PARSER_LIBRARIES + COLD_START_HEAVY!r} or m.split('.')[:2] == ['docshelf', 'parsers'])))"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}  # tracing enabled, as on Lambda
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []  # nor the parser registry


# -- the search API on AWS: isolation, the DynamoDB cache, hostile input (issue 8)
SECRET_DOC = b"# Payroll\n\nThe backup generator budget and every salary are confidential.\n"


def api_event(sample: str, *, body: bytes | str | None = None, sub: str = "alice", groups: str = "[demo]",
              query: dict[str, str] | None = None, base64_body: bool = False) -> dict[str, Any]:  # fmt: skip
    import base64

    event = sample_event(sample)
    claims = event["requestContext"]["authorizer"]["jwt"]["claims"]
    claims.update({"sub": sub, "cognito:groups": groups})
    if body is not None:
        raw = body.encode() if isinstance(body, str) else body
        event["body"] = base64.b64encode(raw).decode() if base64_body else raw.decode()
        event["isBase64Encoded"] = base64_body
    if query is not None:
        event["queryStringParameters"] = query
        event["rawQueryString"] = "&".join(f"{k}={v}" for k, v in query.items())
    return event


def call(pipeline: Pipeline, event: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    response = pipeline.invoke("search", event)
    return int(response["statusCode"]), json.loads(response["body"])


def two_tenants(pipeline: Pipeline) -> None:
    pipeline.upload("demo/notes.md", DOC)
    pipeline.upload("secret/payroll.md", SECRET_DOC)
    pipeline.drain()


def test_a_token_reaches_only_its_namespaces(pipeline: Pipeline) -> None:
    two_tenants(pipeline)
    payroll = document_id("secret", "payroll.md")
    search = json.dumps({"namespace": "secret", "query": "backup generator"})
    assert call(pipeline, api_event("search_request.json", body=search))[0] == 403
    filtered = json.dumps({"namespace": "demo", "query": "budget salary", "filters": {"documents": [payroll]}})
    status, body = call(pipeline, api_event("search_request.json", body=filtered))
    assert status == 400 and body["message"].startswith(f"no document {payroll!r}")  # unknown in demo
    status, body = call(pipeline, api_event("search_request.json", body=json.dumps(
        {"namespace": "demo", "query": "backup generator budget salary confidential"})))  # fmt: skip
    assert status == 200 and {r["namespace"] for r in body["results"]} == {"demo"}
    assert call(pipeline, api_event("documents_list.json", query={"namespace": "secret"}))[0] == 403
    assert call(pipeline, api_event("documents_list.json", query={"namespace": "secret"}, groups="[*]"))[0] == 200
    event = api_event("document_status.json", query={"namespace": "demo"})
    event["rawPath"] = event["requestContext"]["http"]["path"] = f"/documents/{payroll}"
    event["pathParameters"] = {"document_id": payroll}
    assert call(pipeline, event)[0] == 404
    no_claims = api_event("search_request.json")
    del no_claims["requestContext"]["authorizer"]
    assert call(pipeline, no_claims)[0] == 401


def test_the_dynamodb_cache_is_per_user_and_invalidated_by_a_publish(pipeline: Pipeline) -> None:
    two_tenants(pipeline)
    body = json.dumps({"namespace": "demo", "query": "Backup  GENERATOR", "top_k": 3})
    assert call(pipeline, api_event("search_request.json", body=body))[1]["cache"] == "miss"
    status, hit = call(
        pipeline, api_event("search_request.json", body=body.replace("Backup  GENERATOR", "backup generator"))
    )
    assert status == 200 and hit["cache"] == "hit"
    assert call(pipeline, api_event("search_request.json", body=body, sub="mallory"))[1]["cache"] == "miss"
    assert call(pipeline, api_event("search_request.json", body=body, sub="mallory", groups="[secret]"))[0] == 403
    pipeline.upload("demo/more.md", b"# More\n\nThe backup generator has a new fuel filter.\n")
    pipeline.drain()
    status, fresh = call(pipeline, api_event("search_request.json", body=body))
    assert fresh["cache"] == "miss" and any(r["source_file_name"] == "more.md" for r in fresh["results"])
    # hit counts: ids and numbers in the cache table, no content
    cache = pipeline.stack.refs["SearchCacheTable"]
    item = pipeline.stack.dynamodb.get_item(
        TableName=cache, Key={"cache_key": {"S": f"hits#demo#{document_id('demo', 'notes.md')}"}}
    )["Item"]
    assert int(item["hits"]["N"]) >= 4 and all(key.startswith(("cache_key", "hits", "chunk#")) for key in item)


def test_hostile_events_get_a_4xx(pipeline: Pipeline) -> None:
    ok = {"namespace": "demo", "query": "x"}
    cases = [
        (api_event("search_request.json", body=b'{"query": "\xff"}', base64_body=True), 400),
        (api_event("search_request.json", body="{" + '"a": [' * 50 + "]" * 50 + "}"), 400),
        (api_event("search_request.json", body=json.dumps({**ok, "query": "x" * 20_000})), 413),
        (api_event("search_request.json", body=json.dumps({**ok, "extra": True})), 400),
        (api_event("search_request.json", body=json.dumps({**ok, "filters": {"documents": ["d"] * 60}})), 400),
        (api_event("search_request.json", body="not json"), 400),
    ]
    for event, expected in cases:
        status, body = call(pipeline, event)
        assert status == expected, body
        assert set(body) <= {"message", "errors"} and "Traceback" not in body["message"]


def test_throttling_is_a_429(pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline.services["search"].dynamodb, "get_item", throttled("GetItem"))
    status, body = call(
        pipeline, api_event("search_request.json", body=json.dumps({"namespace": "demo", "query": "x"}))
    )
    assert status == 429 and "retry" in body["message"]


def test_large_cache_entries_are_compressed_and_oversized_ones_skipped(pipeline: Pipeline) -> None:
    import os

    from docshelf.aws.search_cache import DynamoDBSearchCache

    cache = DynamoDBSearchCache(
        pipeline.stack.refs["SearchCacheTable"], client=pipeline.stack.dynamodb, ttl_s=60, clock=lambda: 1000.0
    )
    large = {"results": [], "evidence_text": "generator maintenance " * 40_000}
    assert cache.put("k-large", "demo", 3, large)
    assert cache.get("k-large", 3) == large
    assert cache.get("k-large", 4) is None  # a newer namespace version
    expired = DynamoDBSearchCache(cache.table, client=cache.client, ttl_s=60, clock=lambda: 1061.0)
    assert expired.get("k-large", 3) is None
    incompressible = {"results": [], "evidence_text": os.urandom(400_000).hex()}
    assert not cache.put("k-huge", "demo", 3, incompressible)
    assert cache.get("k-huge", 3) is None


def test_the_openapi_document_describes_the_routes(pipeline: Pipeline) -> None:
    from docshelf.api.openapi import openapi_json

    spec = json.loads(openapi_json())
    body = spec["paths"]["/search"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["$ref"].endswith("SearchBody")
    assert spec["components"]["schemas"]["SearchBody"]["additionalProperties"] is False
    # Every documented route answers on the Lambda (a refusal, not "no such route").
    for sample, query, document in (
        ("search_request.json", None, None),
        ("documents_list.json", {"namespace": "demo"}, None),
        ("document_status.json", {"namespace": "demo"}, "dmissing"),
    ):
        status, answer = pipeline.http(sample, query=query, path_document=document, groups="[other]")
        assert status == 403, answer


def test_the_source_route_presigns_a_short_get_of_the_cited_file(pipeline: Pipeline) -> None:
    two_tenants(pipeline)
    notes = document_id("demo", "notes.md")
    event = api_event("document_status.json", query={"namespace": "demo"})
    event["rawPath"] = event["requestContext"]["http"]["path"] = f"/documents/{notes}/source"
    event["pathParameters"] = {"document_id": notes}
    status, body = call(pipeline, event)
    assert status == 200 and body["expires_in"] == 300
    import time
    from urllib.parse import parse_qs, urlsplit

    url = urlsplit(body["url"])
    assert str(url.hostname).startswith("docshelf-sourcebucket") and url.path == "/demo/notes.md"
    expires = parse_qs(url.query).get("Expires") or parse_qs(url.query)["X-Amz-Expires"]
    assert 0 < int(expires[0]) - time.time() <= 300 or int(expires[0]) == 300
    payroll = document_id("secret", "payroll.md")
    event["queryStringParameters"] = {"namespace": "secret"}
    event["rawPath"] = event["requestContext"]["http"]["path"] = f"/documents/{payroll}/source"
    event["pathParameters"] = {"document_id": payroll}
    assert call(pipeline, event)[0] == 403


def test_hits_in_dynamodb_count_evidence_and_feed_the_boost(pipeline: Pipeline) -> None:
    from docshelf.aws.hits_dynamodb import DynamoDBHits
    from docshelf.search.hits import DAY_S, LANDMARK

    two_tenants(pipeline)
    table, client = pipeline.stack.refs["SearchCacheTable"], pipeline.stack.dynamodb
    clock = [LANDMARK + 100 * DAY_S]
    hits = DynamoDBHits(table, client=client, clock=lambda: clock[0])
    hits.record("demo", [("d1", "c1"), ("d1", "c2")])
    hits.record("demo", [("d1", "c1")])
    hits.record("other", [("d9", "c1")])
    hits.record("demo", [])  # a response whose evidence cites nothing
    assert hits.hits("demo", "d1") == 3 and hits.hits("demo", "d1", "c1") == 2 and hits.hits("other", "d9") == 1
    assert hits.chunk_hits("demo", ["c1", "c2", "c3"]) == pytest.approx({"c1": 2.0, "c2": 1.0})
    many = [f"x{i}" for i in range(150)] + ["c1"]  # more than one BatchGetItem's worth of keys
    assert hits.chunk_hits("demo", many) == pytest.approx({"c1": 2.0})
    clock[0] += 30 * DAY_S  # a half-life later
    assert hits.chunk_hits("demo", ["c1"]) == pytest.approx({"c1": 1.0})
    # the search function counts the chunks its evidence cites, and only those
    pipeline.upload("demo/more.md", b"# More\n\nThe backup generator has a new fuel filter and a backup battery.\n")
    pipeline.drain()
    body = json.dumps({"namespace": "demo", "query": "backup generator", "top_k": 3, "max_tokens": 30})
    status, found = call(pipeline, api_event("search_request.json", body=body))
    cited = [r for r in found["results"] if r["evidence_ref"] is not None]
    left_out = [r for r in found["results"] if r["evidence_ref"] is None]
    assert status == 200 and cited and left_out  # a budget for one passage leaves results out of the evidence
    served = DynamoDBHits(table, client=client)
    assert all(served.hits("demo", r["document_id"], r["chunk_id"]) == 1 for r in cited)
    assert all(served.hits("demo", r["document_id"], r["chunk_id"]) == 0 for r in left_out)
