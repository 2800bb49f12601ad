"""PublishFunction takes its SQS batch together: one bulk upsert per namespace, while each record keeps its own
result (a record that fails goes back to the queue alone) and its order against the other events for its document."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from docshelf.ids import document_id, sha256_hex
from docshelf.index.base import DocumentChunks
from docshelf.pipeline import caches
from tests.functional.aws.harness import Pipeline
from tests.functional.aws.test_pipeline import FILLER, PUMP_GUIDE, VALVES


def upto_publish(pipeline: Pipeline, uploads: dict[str, bytes]) -> list[dict[str, Any]]:
    """Upload, parse and chunk; the publish messages, not yet run."""
    for key, data in uploads.items():
        pipeline.upload(key, data)
    pipeline.run("parse")
    pipeline.run("chunk")
    return pipeline.receive("publish")


def failed_keys(pipeline: Pipeline, response: dict[str, Any], messages: list[dict[str, Any]]) -> list[str]:
    keys = {m["MessageId"]: json.loads(m["Body"])["source_key"] for m in messages}
    return sorted(keys[item["itemIdentifier"]] for item in response["batchItemFailures"])


def index_class(pipeline: Pipeline) -> Any:
    return type(pipeline.services["publish"].index())


def test_a_batch_goes_to_the_index_in_one_bulk_upsert_per_namespace(
    pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    messages = upto_publish(
        pipeline,
        {"demo/valves.md": VALVES, "demo/site.md": FILLER, "demo/pump.md": PUMP_GUIDE, "other/site.md": FILLER},
    )
    assert len(messages) == 4
    calls: list[tuple[str, int]] = []
    cls = index_class(pipeline)
    write = cls.write

    def counting(self: Any, namespace: str, documents: Sequence[DocumentChunks]) -> dict[str, str]:
        calls.append((namespace, len(documents)))
        result: dict[str, str] = write(self, namespace, documents)
        return result

    def single(*args: object) -> None:
        raise AssertionError("a document was upserted on its own")

    monkeypatch.setattr(cls, "write", counting)
    monkeypatch.setattr(cls, "upsert", single)
    assert pipeline.run("publish", messages) == {"batchItemFailures": []}
    assert sorted(calls) == [("demo", 3), ("other", 1)]
    registry = pipeline.registry()
    assert {r.source_key: r.status for r in registry.list("demo")} == {
        "valves.md": "ok",
        "site.md": "ok",
        "pump.md": "ok",
    }
    assert registry.get("other", document_id("other", "site.md")).status == "ok"
    assert pipeline.search("impeller inspection")["results"][0]["source_file_name"] == "pump.md"


def test_a_record_whose_chunks_are_missing_fails_alone(pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    messages = upto_publish(pipeline, {"demo/valves.md": VALVES, "demo/site.md": FILLER, "demo/pump.md": PUMP_GUIDE})
    load_chunks = caches.load_chunks
    lost = sha256_hex(VALVES)
    monkeypatch.setattr(
        caches,  # where the publish stage's `stored_chunks` reads the chunk cache
        "load_chunks",
        lambda store, outcome, **kw: None if outcome.revision == lost else load_chunks(store, outcome, **kw),
    )
    response = pipeline.run("publish", messages)
    assert failed_keys(pipeline, response, messages) == ["valves.md"]
    statuses = {r.source_key: r.status for r in pipeline.registry().list("demo")}
    assert statuses == {"valves.md": "processing", "site.md": "ok", "pump.md": "ok"}


def test_a_document_the_index_refuses_fails_alone(pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch) -> None:
    messages = upto_publish(pipeline, {"demo/valves.md": VALVES, "demo/site.md": FILLER})
    refused = document_id("demo", "valves.md")
    cls = index_class(pipeline)
    write = cls.write

    def refusing(self: Any, namespace: str, documents: Sequence[DocumentChunks]) -> dict[str, str]:
        result: dict[str, str] = write(self, namespace, [d for d in documents if d.document_id != refused])
        return {**result, refused: "mapper_parsing_exception: failed to parse"}

    monkeypatch.setattr(cls, "write", refusing)
    response = pipeline.run("publish", messages)
    assert failed_keys(pipeline, response, messages) == ["valves.md"]
    assert pipeline.registry().get("demo", refused).status == "processing"
    assert pipeline.registry().get("demo", document_id("demo", "site.md")).status == "ok"

    monkeypatch.setattr(cls, "write", write)
    redelivered = [m for m in messages if json.loads(m["Body"])["source_key"] == "valves.md"]
    assert pipeline.run("publish", redelivered) == {"batchItemFailures": []}
    assert pipeline.registry().get("demo", refused).status == "ok"


@pytest.mark.parametrize("order", ["older first", "newer first"])
def test_two_revisions_of_one_document_in_a_batch_end_in_the_newer(pipeline: Pipeline, order: str) -> None:
    older = upto_publish(pipeline, {"demo/valves.md": VALVES})
    changed = VALVES.replace(b"DN50", b"DN80")
    newer = upto_publish(pipeline, {"demo/valves.md": changed})
    batch = older + newer if order == "older first" else newer + older
    assert pipeline.run("publish", batch) == {"batchItemFailures": []}
    record = pipeline.registry().get("demo", document_id("demo", "valves.md"))
    assert record.status == "ok" and record.revision == sha256_hex(changed)
    body = pipeline.search("DN80 DN50 valve")
    assert "DN80" in body["evidence_text"] and "DN50" not in body["evidence_text"]
