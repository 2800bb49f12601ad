"""The search function keeps an embedded namespace in memory; after a publish or a delete it reads only the
changed documents' index objects (the change log), not the namespace again."""

from __future__ import annotations

from typing import Any

from docshelf.ids import document_id
from tests.functional.aws.harness import Pipeline
from tests.functional.aws.template_resources import TemplateStack


def _document(topic: str) -> bytes:
    return f"# {topic.title()} notes\n\n## Care\n\nThe {topic} is checked every week for wear.\n".encode()


def _index_reads(pipeline: Pipeline) -> list[str]:
    """The index objects the search function reads from now on."""
    keys: list[str] = []

    def record(params: dict[str, Any], **_: Any) -> None:
        if params["Key"].startswith("index/demo/"):
            keys.append(params["Key"].removeprefix("index/demo/").removesuffix(".json"))

    pipeline.services["search"].s3.meta.events.register("before-parameter-build.s3.GetObject", record)
    return keys


def test_a_warm_search_function_reads_only_what_a_publish_or_delete_changed(stack: TemplateStack) -> None:
    pipeline = Pipeline(stack)
    for topic in ("impeller", "gasket", "bearing"):
        pipeline.upload(f"demo/{topic}.md", _document(topic))
    pipeline.drain()
    assert pipeline.search("impeller wear")["results"]  # the namespace loaded whole, once
    reads = _index_reads(pipeline)

    pipeline.upload("demo/flange.md", _document("flange"))
    pipeline.drain()
    found = pipeline.search("flange wear")["results"]
    assert found[0]["document_id"] == document_id("demo", "flange.md")
    assert reads == [document_id("demo", "flange.md")]

    reads.clear()
    pipeline.remove("demo/gasket.md")
    pipeline.drain()
    body = pipeline.search("gasket wear")
    assert document_id("demo", "gasket.md") not in {result["document_id"] for result in body["results"]}
    assert reads == [document_id("demo", "gasket.md")]
