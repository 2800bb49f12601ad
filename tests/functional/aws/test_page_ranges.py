"""A long PDF parsed in page ranges through the real handlers on moto: the upload's event plans the ranges, each
range is a ParseQueue message read by its own invocation into a partial object, and the last one in merges the
document, which then goes on to chunk and publish. Ranges here are 20 text pages (SHARD_TEXT_PAGES)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from docshelf.ids import document_id, sha256_hex
from docshelf.keys import parse_cache_key, shard_plan_key, shard_prefix
from docshelf.parsers import parse_bytes
from docshelf.parsers.pdf import pdf_ranges
from docshelf.pipeline.content_only import named_document
from docshelf.serde import document_from_dict, loads
from tests.functional.aws.harness import Pipeline
from tests.functional.aws.template_resources import TemplateStack, load_template
from tests.pdf_fixtures import long_pdf

SHARDS = {"SHARD_TEXT_PAGES": "20", "SHARD_SCANNED_PAGES": "2"}
KEY = "demo/manual.pdf"
MANUAL = document_id("demo", "manual.pdf")


@pytest.fixture
def ranged(stack: TemplateStack) -> Pipeline:
    return Pipeline(stack, SHARDS)


def range_bodies(pipeline: Pipeline) -> list[dict[str, Any]]:
    messages = pipeline.receive("parse")
    return [message for message in messages if json.loads(message["Body"]).get("kind") == "page_range"]


def make_visible(pipeline: Pipeline, messages: list[dict[str, Any]]) -> None:
    for message in messages:
        pipeline.stack.sqs.change_message_visibility(
            QueueUrl=pipeline.stack.queue_urls["ParseQueue"],
            ReceiptHandle=message["ReceiptHandle"],
            VisibilityTimeout=0,
        )


def failing_range(monkeypatch: pytest.MonkeyPatch, start: int, times: int) -> list[tuple[int, int]]:
    """Reading the range starting at `start` raises `times` times (a transient fault); returns every read."""
    real = pdf_ranges.read_pdf_range
    reads: list[tuple[int, int]] = []

    def flaky(data: bytes, filename: str, span: tuple[int, int], **kwargs: Any) -> dict[str, Any]:
        reads.append(span)
        if span[0] == start and reads.count(span) <= times:
            raise ConnectionError(f"injected fault reading pages from {start}")
        return real(data, filename, span, **kwargs)

    monkeypatch.setattr(pdf_ranges, "read_pdf_range", flaky)
    return reads


def test_a_long_pdf_is_read_in_ranges_and_merged_into_the_whole_parse(ranged: Pipeline) -> None:
    data = long_pdf(70)
    revision = sha256_hex(data)
    ranged.upload(KEY, data)
    assert ranged.run("parse") == {"batchItemFailures": []}
    assert ranged.registry().get("demo", MANUAL).status == "processing"
    assert loads(ranged.artifact(shard_plan_key(revision)) or b"{}")["ranges"] == [
        [0, 20],
        [20, 40],
        [40, 60],
        [60, 70],
    ]
    assert ranged.artifact(parse_cache_key(revision)) is None  # nothing merged before every range is in

    ranges = range_bodies(ranged)
    assert [json.loads(m["Body"])["start"] for m in ranges] == [0, 20, 40, 60]
    assert ranged.run("parse", ranges[:3]) == {"batchItemFailures": []}
    assert ranged.artifact(parse_cache_key(revision)) is None
    assert len(list(ranged.services["parse"].store.list(shard_prefix(revision)))) == 4  # the plan and 3 ranges
    assert ranged.run("parse", ranges[3:]) == {"batchItemFailures": []}
    merged = document_from_dict(loads(ranged.artifact(parse_cache_key(revision)) or b"{}"))
    assert merged.source.filename == ""  # the cache holds no name (pipeline/content_only.py)
    assert named_document(merged, "manual.pdf") == parse_bytes(data, "manual.pdf", uri="manual.pdf")
    assert list(ranged.services["parse"].store.list(shard_prefix(revision))) == []  # plan and ranges dropped

    ranged.drain()
    record = ranged.registry().get("demo", MANUAL)
    assert record.status == "ok" and record.revision == revision
    hit = ranged.search("Step 3 of page 57 column 320")["results"][0]
    assert hit["document_id"] == MANUAL and 57 in hit["pages"]

    # A late duplicate of a range changes nothing.
    ranged.stack.sqs.send_message(QueueUrl=ranged.stack.queue_urls["ParseQueue"], MessageBody=ranges[1]["Body"])
    ranged.drain()
    assert ranged.registry().get("demo", MANUAL) == record


def test_a_failed_range_is_retried_alone(ranged: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = failing_range(monkeypatch, start=20, times=1)
    ranged.upload(KEY, long_pdf(70))
    ranged.run("parse")
    ranges = range_bodies(ranged)
    response = ranged.run("parse", ranges)
    failed = [item["itemIdentifier"] for item in response["batchItemFailures"]]
    assert failed == [m["MessageId"] for m in ranges if json.loads(m["Body"])["start"] == 20]
    assert ranged.registry().get("demo", MANUAL).status == "processing"

    make_visible(ranged, [m for m in ranges if m["MessageId"] in failed])
    ranged.drain()
    assert ranged.registry().get("demo", MANUAL).status == "ok"
    assert sorted(reads) == [(0, 20), (20, 40), (20, 40), (40, 60), (60, 70)]  # only the failed range again


def test_a_range_failing_on_every_try_fails_the_document_naming_the_range(
    ranged: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    max_receives = load_template()["Resources"]["ParseQueue"]["Properties"]["RedrivePolicy"]["maxReceiveCount"]
    assert ranged.services["parse"].settings.parse_max_receives == max_receives
    failing_range(monkeypatch, start=40, times=max_receives)
    ranged.upload(KEY, long_pdf(70))
    ranged.run("parse")
    for _ in range(max_receives):
        messages = ranged.receive("parse")
        failed = {item["itemIdentifier"] for item in ranged.run("parse", messages)["batchItemFailures"]}
        make_visible(ranged, [message for message in messages if message["MessageId"] in failed])
    assert ranged.receive("parse") == []
    record = ranged.registry().get("demo", MANUAL)
    assert record.status == "failed" and record.error_code == "parser_error"
    assert "pages 41-60" in record.error_message and "injected fault" in record.error_message
    dead = ranged.stack.sqs.receive_message(QueueUrl=ranged.stack.queue_urls["ParseDeadLetterQueue"])
    assert "Messages" not in dead  # the document's status says it: nothing left to redrive


def test_a_newer_upload_supersedes_an_in_flight_plan(ranged: Pipeline) -> None:
    first, second = long_pdf(70), long_pdf(70, title="Revised")
    ranged.upload(KEY, first)
    ranged.run("parse")
    ranged.upload(KEY, second)
    messages = ranged.receive("parse")
    older = [m for m in messages if json.loads(m["Body"]).get("kind") == "page_range"]
    newer = [m for m in messages if m not in older]
    assert len(older) == 4 and len(newer) == 1
    ranged.run("parse", newer)  # the newer upload is claimed while the first plan's ranges are still queued
    assert ranged.run("parse", older) == {"batchItemFailures": []}
    assert list(ranged.services["parse"].store.list(shard_prefix(sha256_hex(first)))) == [
        shard_plan_key(sha256_hex(first))
    ]

    ranged.drain()
    record = ranged.registry().get("demo", MANUAL)
    assert record.status == "ok" and record.revision == sha256_hex(second)
    assert ranged.artifact(parse_cache_key(sha256_hex(first))) is None
    assert "Revised" in ranged.search("Revised")["evidence_text"]


def test_a_short_pdf_is_parsed_in_one_invocation(ranged: Pipeline) -> None:
    data = long_pdf(15)
    ranged.upload(KEY, data)
    ranged.run("parse")
    assert ranged.artifact(shard_plan_key(sha256_hex(data))) is None
    assert ranged.artifact(parse_cache_key(sha256_hex(data))) is not None
    ranged.drain()
    assert ranged.registry().get("demo", MANUAL).status == "ok"


def test_a_delete_while_ranges_are_in_flight_forgets_the_partial_parses(ranged: Pipeline) -> None:
    data = long_pdf(70)
    ranged.upload(KEY, data)
    ranged.run("parse")
    ranges = range_bodies(ranged)
    ranged.run("parse", ranges[:2])
    store = ranged.services["parse"].store
    assert len(list(store.list(shard_prefix(sha256_hex(data))))) == 3  # the plan and 2 ranges

    ranged.remove(KEY)
    make_visible(ranged, ranges[2:])
    ranged.drain()  # the delete event and the two ranges still queued, in whichever order
    assert ranged.registry().get("demo", MANUAL).status == "deleted"
    assert list(store.list(shard_prefix(sha256_hex(data)))) == []
    assert ranged.artifact(parse_cache_key(sha256_hex(data))) is None


def test_a_malformed_range_message_is_refused_readably() -> None:
    from docshelf.aws.events import InvalidEventError, RangeMessage, decode_parse_message

    good = RangeMessage("demo", MANUAL, "manual.pdf", "ab" * 32, "1", "bucket", KEY, "", 20, 40)
    assert decode_parse_message(good.to_json()) == good and good.pages == "pages 21-40"
    for change in ({"start": 40}, {"document_id": "dother"}, {"end": "x"}):
        body = json.dumps({**json.loads(good.to_json()), **change})
        with pytest.raises(InvalidEventError):
            decode_parse_message(body)
