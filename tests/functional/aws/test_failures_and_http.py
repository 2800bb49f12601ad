"""Transient faults retry (then dead-letter), HTTP errors, the sample events, and the search function's imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from botocore.exceptions import ClientError

from docshelf.aws.events import StageMessage, decode_object_event
from docshelf.ids import document_id
from tests.functional.aws.harness import Pipeline, sample_event
from tests.functional.aws.template_resources import load_template

if TYPE_CHECKING:
    import pytest

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


def test_the_search_function_imports_no_parser_library() -> None:
    code = (
        "import sys, json; import functions.search.app; "
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
        f"{PARSER_LIBRARIES!r} or m.startswith('docshelf.parsers.'))))"
    )
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "POWERTOOLS_TRACE_DISABLED": "true"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert [
        m for m in loaded if m not in ("docshelf.parsers.base", "docshelf.parsers.deadline", "docshelf.parsers.detect")
    ] == []
