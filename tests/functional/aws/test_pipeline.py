"""Upload -> EventBridge -> ParseQueue -> parse -> chunk -> publish -> search, on moto, through the real handlers,
with the embedded index (`OpenSearchMode=embedded`) and with a real OpenSearch node (`existing`)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from docshelf.ids import document_id, sha256_hex
from docshelf.keys import artifact_key, chunk_cache_prefix, parse_cache_key
from tests.functional.aws.harness import Pipeline
from tests.functional.aws.template_resources import TemplateStack

if TYPE_CHECKING:
    import pytest

PUMP_GUIDE = b"""# Pump guide

## Maintenance

Inspect the impeller of the TX-100 pump every 500 operating hours and replace the seal kit SK-7.

## Safety

Always isolate the motor before opening the casing.
"""

VALVES = b"""# Valve handbook

## Valve sizing

Gate valves are sized by the nominal pipe diameter. The DN50 valve suits most cooling loops.

## Storage

Store valves dry, with the end caps fitted, away from direct sunlight.
"""

FILLER = b"""# Site notes

## Parking

Visitors park in lot C next to the loading dock.

## Canteen

The canteen opens at seven and closes after the late shift.
"""


def doc_id(source_key: str) -> str:
    return document_id("demo", source_key)


def test_upload_flows_through_every_stage_to_cited_search_hits(pipeline: Pipeline) -> None:
    pipeline.upload("demo/manuals/pump guide.md", PUMP_GUIDE)
    pipeline.upload("demo/valves.md", VALVES)
    pipeline.upload("demo/site.md", FILLER)
    pump = doc_id("manuals/pump guide.md")

    messages = pipeline.receive("parse")
    assert len(messages) == 3  # the template's EventBridge rule delivered each upload to the ParseQueue
    event = json.loads(messages[0]["Body"])
    assert event["source"] == "aws.s3" and event["detail-type"] == "Object Created"
    assert pipeline.run("parse", messages) == {"batchItemFailures": []}

    record = pipeline.registry().get("demo", pump)
    assert record.status == "processing" and record.revision == sha256_hex(PUMP_GUIDE)
    assert pipeline.artifact(parse_cache_key(sha256_hex(PUMP_GUIDE))) is not None

    assert pipeline.run("chunk") == {"batchItemFailures": []}
    manifest = json.loads(pipeline.artifact(artifact_key("demo", pump, "manifest.json")) or b"{}")
    assert manifest["document_id"] == pump and manifest["schema_version"]
    assert json.loads(pipeline.artifact(artifact_key("demo", pump, "chunks.json")) or b"{}")["chunks"]
    assert pipeline.artifact(artifact_key("demo", pump, "doc_nav.json")) is not None
    status, _ = pipeline.http(
        "document_status.json", query={"namespace": "demo"}, path_document=pump, path_rest="/graph"
    )
    assert status == 404  # chunked, not published

    assert pipeline.run("publish") == {"batchItemFailures": []}
    status, graph = pipeline.http(
        "document_status.json", query={"namespace": "demo"}, path_document=pump, path_rest="/graph"
    )
    # built by the search function from chunks.json and the index, as its role allows; nothing written at ingest
    assert status == 200 and graph["revision"] == sha256_hex(PUMP_GUIDE) and graph["nodes"]
    assert pipeline.artifact(artifact_key("demo", pump, "graph.json")) is None
    record = pipeline.registry().get("demo", pump)
    assert record.status == "ok" and record.chunk_count >= 1 and record.source_file_name == "pump guide.md"
    assert record.pages == 1  # from the manifest the chunk stage wrote

    body = pipeline.search("how often is the impeller inspected?", top_k=2)
    top = body["results"][0]
    assert top["document_id"] == pump
    assert top["source_file_name"] == "pump guide.md"
    assert top["section_path"][0] == "Pump guide" and top["pages"] == [1]
    assert "500 operating hours" in top["text"]
    assert top["source_key"] == "manuals/pump guide.md"  # the key in the namespace, as cited
    assert body["evidence_text"].startswith("[1] manuals/pump guide.md\n")  # the section is the file's title
    assert top["evidence_ref"] == 1 and "500 operating hours" in top["evidence_excerpt"]
    assert body["cache"] == "miss" and body["total_chunks"] >= 3

    again = pipeline.search("How often is the  IMPELLER inspected?", top_k=2)
    assert again["cache"] == "hit" and again["results"] == body["results"]

    status, listing = pipeline.http("documents_list.json", query={"namespace": "demo"})
    assert status == 200
    assert {d["source_key"]: d["status"] for d in listing["documents"]} == {
        "manuals/pump guide.md": "ok",
        "site.md": "ok",
        "valves.md": "ok",
    }
    status, one = pipeline.http("document_status.json", query={"namespace": "demo"}, path_document=pump)
    assert status == 200 and one["status"] == "ok" and one["revision"] == sha256_hex(PUMP_GUIDE)


def test_publish_writes_the_embedded_snapshot_and_search_never_does(
    stack: TemplateStack, monkeypatch: pytest.MonkeyPatch
) -> None:
    from docshelf.index.embedded import EmbeddedIndex
    from docshelf.index.embedded.namespace_snapshot import decode

    pipeline = Pipeline(stack)
    monkeypatch.setattr(EmbeddedIndex, "SNAPSHOT_AFTER_CHUNKS", 1)  # these few chunks are worth a snapshot
    pipeline.upload("demo/manuals/pump guide.md", PUMP_GUIDE)
    pipeline.upload("demo/valves.md", VALVES)
    pipeline.drain()
    snapshot = pipeline.artifact("index/demo.snapshot")
    assert snapshot is not None
    assert {d.document_id for d in decode(snapshot).documents} == {doc_id("manuals/pump guide.md"), doc_id("valves.md")}

    pipeline.services["publish"].store.delete("index/demo.snapshot")
    body = pipeline.search("how often is the impeller inspected?", top_k=1)  # a load that analyzes every chunk
    assert body["results"][0]["document_id"] == doc_id("manuals/pump guide.md")
    assert pipeline.artifact("index/demo.snapshot") is None  # the search role only reads the bucket


def test_deleting_the_object_removes_its_chunks(pipeline: Pipeline) -> None:
    pipeline.upload("demo/manuals/pump guide.md", PUMP_GUIDE)
    pipeline.upload("demo/valves.md", VALVES)
    pipeline.drain()
    assert pipeline.search("impeller seal kit")["results"]

    pipeline.remove("demo/manuals/pump guide.md")
    pipeline.drain()

    pump = doc_id("manuals/pump guide.md")
    assert pipeline.registry().get("demo", pump).status == "deleted"
    assert pipeline.artifact(artifact_key("demo", pump, "chunks.json")) is None
    status, _ = pipeline.http(
        "document_status.json", query={"namespace": "demo"}, path_document=pump, path_rest="/graph"
    )
    assert status == 404
    body = pipeline.search("impeller seal kit")
    assert all(r["document_id"] != pump for r in body["results"])
    assert body["cache"] == "miss"  # the delete bumped the namespace version


def test_deleting_the_object_forgets_its_cached_text_once_no_document_shares_it(pipeline: Pipeline) -> None:
    pipeline.upload("demo/pump.md", PUMP_GUIDE)
    pipeline.upload("demo/copy of pump.md", PUMP_GUIDE)
    pipeline.drain()
    parse_cache = parse_cache_key(sha256_hex(PUMP_GUIDE))
    store = pipeline.services["publish"].store
    assert list(store.list(chunk_cache_prefix("demo", doc_id("pump.md"))))

    pipeline.remove("demo/pump.md")
    pipeline.drain()
    assert not list(store.list(chunk_cache_prefix("demo", doc_id("pump.md"))))
    assert pipeline.artifact(parse_cache) is not None  # the copy still has these bytes
    assert list(store.list(chunk_cache_prefix("demo", doc_id("copy of pump.md"))))

    pipeline.remove("demo/copy of pump.md")
    pipeline.drain()
    assert pipeline.artifact(parse_cache) is None
    assert not list(store.list("cache/chunks/demo/"))
    assert not [key for key in store.list("") if b"impeller" in (store.get(key) or b"")]


def test_reupload_of_changed_bytes_replaces_the_old_revision(pipeline: Pipeline) -> None:
    pipeline.upload("demo/valves.md", VALVES)
    pipeline.drain()
    assert "DN50" in pipeline.search("DN50 valve")["evidence_text"]

    changed = VALVES.replace(b"DN50", b"DN80")
    pipeline.upload("demo/valves.md", changed)
    pipeline.drain()

    record = pipeline.registry().get("demo", doc_id("valves.md"))
    assert record.status == "ok" and record.revision == sha256_hex(changed)
    body = pipeline.search("DN80 valve")
    assert "DN80" in body["evidence_text"] and "DN50" not in body["evidence_text"]
    assert all(r["revision"] == sha256_hex(changed) for r in body["results"])


def test_duplicate_deliveries_change_nothing(pipeline: Pipeline) -> None:
    pipeline.upload("demo/valves.md", VALVES)
    parse_messages = pipeline.receive("parse")
    pipeline.run("parse", parse_messages)
    chunk_messages = pipeline.receive("chunk")
    pipeline.run("chunk", chunk_messages)
    publish_messages = pipeline.receive("publish")
    pipeline.run("publish", publish_messages)
    registry = pipeline.registry()
    version = registry.namespace_version("demo")
    before = registry.get("demo", doc_id("valves.md"))

    for stage, messages in (("parse", parse_messages), ("chunk", chunk_messages), ("publish", publish_messages)):
        assert pipeline.run(stage, messages) == {"batchItemFailures": []}  # redelivered as-is
    assert pipeline.receive("chunk") == [] and pipeline.receive("publish") == []
    after = registry.get("demo", doc_id("valves.md"))
    assert (after.status, after.revision, after.sequencer, after.updated_at) == (
        before.status, before.revision, before.sequencer, before.updated_at
    )  # fmt: skip
    assert registry.namespace_version("demo") == version


def test_a_stale_create_after_the_delete_does_not_resurrect_the_document(pipeline: Pipeline) -> None:
    pipeline.upload("demo/valves.md", VALVES)
    create = pipeline.receive("parse")
    pipeline.run("parse", create)
    late_chunk = pipeline.receive("chunk")  # the chunk message is still in flight when the object is deleted

    pipeline.remove("demo/valves.md")
    pipeline.drain()
    valves = doc_id("valves.md")
    assert pipeline.registry().get("demo", valves).status == "deleted"

    # Out of order: the old create event and the old chunk message arrive after the delete.
    assert pipeline.run("parse", create) == {"batchItemFailures": []}
    assert pipeline.run("chunk", late_chunk) == {"batchItemFailures": []}
    pipeline.drain()
    assert pipeline.registry().get("demo", valves).status == "deleted"
    assert pipeline.search("DN50 valve")["results"] == []


def test_a_late_publish_of_an_older_revision_loses_to_the_newer_one(pipeline: Pipeline) -> None:
    pipeline.upload("demo/valves.md", VALVES)
    pipeline.run("parse")
    pipeline.run("chunk")
    old_publish = pipeline.receive("publish")

    changed = VALVES.replace(b"DN50", b"DN80")
    pipeline.upload("demo/valves.md", changed)
    pipeline.drain()
    assert pipeline.run("publish", old_publish) == {"batchItemFailures": []}

    record = pipeline.registry().get("demo", doc_id("valves.md"))
    assert record.revision == sha256_hex(changed)
    assert "DN80" in pipeline.search("valve")["evidence_text"]


def test_one_corrupt_file_in_a_batch_fails_only_that_document(pipeline: Pipeline) -> None:
    pipeline.upload("demo/valves.md", VALVES)
    pipeline.upload("demo/broken.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\nthis is not a pdf")
    pipeline.upload("demo/site.md", FILLER)
    messages = pipeline.receive("parse")
    assert len(messages) == 3

    assert pipeline.run("parse", messages) == {"batchItemFailures": []}  # bad input is acknowledged, not retried
    pipeline.drain()

    registry = pipeline.registry()
    broken = registry.get("demo", doc_id("broken.pdf"))
    assert broken.status == "failed" and broken.error_code == "corrupt" and broken.error_message
    manifest = json.loads(pipeline.artifact(artifact_key("demo", doc_id("broken.pdf"), "manifest.json")) or b"{}")
    assert manifest["status"] == "failed" and manifest["errors"][0]["code"] == "corrupt"
    assert registry.get("demo", doc_id("valves.md")).status == "ok"
    assert registry.get("demo", doc_id("site.md")).status == "ok"


def test_namespaces_stay_apart(pipeline: Pipeline) -> None:
    """The first path segment is the namespace; on OpenSearch each namespace is an index of its own."""
    pipeline.upload("demo/valves.md", VALVES)
    pipeline.upload("other/valves.md", VALVES.replace(b"DN50", b"DN65"))
    pipeline.drain()
    body = pipeline.search("DN50 DN65 valve")
    assert {r["namespace"] for r in body["results"]} == {"demo"}
    assert "DN65" not in body["evidence_text"]
    status, _ = pipeline.http("search_request.json", body={"namespace": "other", "query": "valve"})
    assert status == 403  # the caller's token names only "demo"
    if pipeline.uses_opensearch:
        index: Any = pipeline.services["publish"].index()
        assert sorted(index.client.indices.get(index=f"{index.index}.*")) == [
            f"{index.index}.demo.v1",
            f"{index.index}.other.v1",
        ]


def test_a_csv_cut_by_the_cell_limit_is_published_as_partial(pipeline: Pipeline) -> None:
    from tests.functional.test_partial_documents import CELL_LIMIT, REASON, parts_csv

    parse = pipeline.services["parse"]
    limits = replace(parse.settings.pipeline.limits, max_sheet_cells=CELL_LIMIT)
    parse.settings = replace(parse.settings, pipeline=replace(parse.settings.pipeline, limits=limits))
    pipeline.upload("demo/parts.csv", parts_csv().encode())
    pipeline.drain()

    parts = doc_id("parts.csv")
    record = pipeline.registry().get("demo", parts)
    assert (record.status, record.error_code, record.error_message) == ("partial", "truncated", REASON)
    manifest = json.loads(pipeline.artifact(artifact_key("demo", parts, "manifest.json")) or b"{}")
    assert manifest["status"] == "partial" and manifest["truncation"] == REASON
    status, listing = pipeline.http("documents_list.json", query={"namespace": "demo"})
    assert status == 200 and {d["source_key"]: d["status"] for d in listing["documents"]} == {"parts.csv": "partial"}
    assert any(result["document_id"] == parts for result in pipeline.search("P-012", top_k=3)["results"])


def graph_of(pipeline: Pipeline, document_id: str) -> tuple[int, dict[str, Any]]:
    """GET /documents/{id}/graph through the search function."""
    return pipeline.http(
        "document_status.json", query={"namespace": "demo"}, path_document=document_id, path_rest="/graph"
    )
