"""PublishFunction with an embedding provider on a long document: vectors are saved batch by batch, so an invocation
that runs out of time leaves its finished batches, and the retry embeds only the rest (issue #35, item 6)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from docshelf.aws.services import AwsServices
from docshelf.embeddings.cache import DEFAULT_BATCH_SIZE
from docshelf.ids import document_id
from docshelf.keys import vector_cache_key
from tests.embedding_fakes import ConceptEmbedder
from tests.functional.aws.harness import Pipeline
from tests.functional.aws.template_resources import TemplateStack

TOPICS = ["pump", "valve", "seal", "bearing", "motor", "gasket", "filter", "sensor"]


def long_document(sections: int) -> bytes:
    """`sections` sections, each a chunk of its own at CHUNK_TOKENS=40."""
    parts = ["# Maintenance manual"]
    for n in range(sections):
        topic = TOPICS[n % len(TOPICS)]
        parts.append(f"## Section {n}\n\nProcedure {n} inspects the {topic} of unit {n} and records reading {n * 7}.")
    return "\n\n".join(parts).encode()


class Interrupted(Exception):
    """Stands for the Lambda timeout: the invocation ends between two model calls."""


class CountingEmbedder(ConceptEmbedder):
    """ConceptEmbedder that counts the passages it embeds and, with `calls_before_timeout`, stops on the next call."""

    def __init__(self, calls_before_timeout: int | None = None) -> None:
        super().__init__()
        self.calls_before_timeout = calls_before_timeout
        self.calls = 0
        self.passages = 0

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if self.calls == self.calls_before_timeout:
            raise Interrupted("Task timed out after 600.00 seconds")
        self.calls += 1
        self.passages += len(texts)
        return super().embed_passages(texts)


def saved_vectors(pipeline: Pipeline, key: str) -> int:
    """How many chunks' vectors the cache object holds."""
    data = pipeline.artifact(key)
    if data is None:
        return 0
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return len(archive["ids"])


def with_provider(pipeline: Pipeline, provider: CountingEmbedder, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(AwsServices, "embedding_provider", lambda self: provider)


@pytest.fixture
def local_pipeline(stack: TemplateStack) -> Pipeline:
    return Pipeline(stack, {"EMBEDDING_PROVIDER": "local", "CHUNK_TOKENS": "40", "OVERLAP_TOKENS": "0"})


def test_a_long_document_that_times_out_is_finished_by_its_retry_embedding_only_the_rest(
    local_pipeline: Pipeline, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipeline = local_pipeline
    pipeline.upload("demo/manual.md", long_document(300))
    pipeline.run("parse")
    pipeline.run("chunk")
    messages = pipeline.receive("publish")
    dying = CountingEmbedder(calls_before_timeout=3)
    with_provider(pipeline, dying, monkeypatch)
    assert len(pipeline.run("publish", messages)["batchItemFailures"]) == 1  # back to the queue
    services = pipeline.services["publish"]
    doc = document_id("demo", "manual.md")
    record = services.registry.get("demo", doc)
    assert record is not None and record.status == "processing"
    key = vector_cache_key(dying.model.key, "demo", doc, record.revision)
    assert saved_vectors(pipeline, key) == 3 * DEFAULT_BATCH_SIZE  # every finished batch was saved before the timeout

    retry = CountingEmbedder()
    with_provider(pipeline, retry, monkeypatch)
    assert pipeline.run("publish", messages) == {"batchItemFailures": []}
    record = services.registry.get("demo", doc)
    assert record is not None and record.status == "ok"
    assert record.chunk_count > 3 * DEFAULT_BATCH_SIZE
    assert retry.passages == record.chunk_count - 3 * DEFAULT_BATCH_SIZE  # only the rest was embedded
    assert saved_vectors(pipeline, key) == record.chunk_count
    hits: Any = pipeline.search("procedure 251 inspects", top_k=3)["results"]
    assert hits and hits[0]["document_id"] == doc
