"""Creating a namespace's index on its first publish: once per process, tolerant of a concurrent creator, retried
on transient faults (the real node's behaviour is in tests/integration/test_index_contract.py)."""

from __future__ import annotations

from typing import Any

import pytest
from opensearchpy.exceptions import RequestError, TransportError

from docshelf.errors import IndexBackendError
from docshelf.index.opensearch import OpenSearchIndex
from docshelf.index.opensearch.bulk import Backoff


class FakeIndices:
    def __init__(self, failures: list[Exception]) -> None:
        self.failures = failures
        self.created: list[tuple[str, dict[str, Any]]] = []
        self.exists_calls = 0
        self.refreshed: list[str] = []

    def refresh(self, index: str, allow_no_indices: bool) -> None:
        self.refreshed.append(index)

    def exists_alias(self, name: str) -> bool:
        self.exists_calls += 1
        return False

    def create(self, index: str, body: dict[str, Any]) -> None:
        if self.failures:
            raise self.failures.pop(0)
        self.created.append((index, body))


class FakeClient:
    def __init__(self, failures: list[Exception]) -> None:
        self.indices = FakeIndices(failures)


def backend(failures: list[Exception]) -> tuple[OpenSearchIndex, FakeIndices, list[float]]:
    waits: list[float] = []
    client = FakeClient(failures)
    index = OpenSearchIndex(client, index="docs", backoff=Backoff(max_attempts=3, sleep=waits.append))
    return index, client.indices, waits


def test_the_index_is_created_once_with_the_mapping_and_the_write_alias() -> None:
    index, indices, _ = backend([])
    index._ensure_namespace("acme")
    index._ensure_namespace("acme")
    assert [name for name, _ in indices.created] == ["docs.acme.v1"] and indices.exists_calls == 1
    body = indices.created[0][1]
    assert body["aliases"] == {"docs.acme": {"is_write_index": True}}
    assert body["mappings"]["dynamic"] == "strict" and body["settings"]["index"]["number_of_shards"] == 1
    assert body["settings"]["index"]["knn"] is True


def test_another_writer_creating_it_first_is_fine() -> None:
    index, indices, waits = backend([RequestError(400, "resource_already_exists_exception", {})])
    index._ensure_namespace("acme")
    assert indices.created == [] and waits == []
    index._ensure_namespace("acme")
    assert indices.exists_calls == 1


def test_a_transient_fault_is_retried_and_a_refusal_is_not() -> None:
    index, indices, waits = backend([TransportError(503, "unavailable", {})])
    index._ensure_namespace("acme")
    assert [name for name, _ in indices.created] == ["docs.acme.v1"] and len(waits) == 1

    index, indices, waits = backend([RequestError(400, "invalid_index_name_exception", {})])
    with pytest.raises(IndexBackendError, match="invalid_index_name_exception"):
        index._ensure_namespace("acme")
    assert waits == []
    index._ensure_namespace("acme")  # not remembered as made: the next publish tries again
    assert [name for name, _ in indices.created] == ["docs.acme.v1"]


@pytest.mark.parametrize(("service", "refreshes"), [("es", ["docs.*"]), ("aoss", [])])
def test_commit_refreshes_unless_serverless_refreshes_on_its_own(service: str, refreshes: list[str]) -> None:
    client = FakeClient([])
    OpenSearchIndex(client, index="docs", commit_refreshes=service != "aoss").commit()
    assert client.indices.refreshed == refreshes


def test_an_engine_refusing_the_scripted_similarity_gets_lucenes_bm25() -> None:
    refusal = RequestError(400, "illegal_argument_exception", {"error": {"reason": "scripted similarity not allowed"}})
    index, indices, waits = backend([refusal])
    index._ensure_namespace("acme")
    [(name, body)] = indices.created
    assert name == "docs.acme.v1" and waits == []
    assert body["settings"]["index"]["similarity"]["docshelf_bm25"] == {"type": "BM25", "k1": 1.5, "b": 0.75}
    assert body["mappings"]["properties"]["content_terms"]["similarity"] == "docshelf_bm25"
    assert body["settings"]["index"]["knn"] is True


def test_an_engine_without_the_knn_plugin_gets_the_index_without_its_setting() -> None:
    unknown = RequestError(400, "illegal_argument_exception", {"error": {"reason": "unknown setting [index.knn]"}})
    scripts = RequestError(400, "illegal_argument_exception", {"error": {"reason": "scripted similarity not allowed"}})
    index, indices, _ = backend([unknown, scripts])
    index._ensure_namespace("acme")
    [(_, body)] = indices.created
    assert "knn" not in body["settings"]["index"]
    assert body["settings"]["index"]["similarity"]["docshelf_bm25"]["type"] == "BM25"


def test_a_second_refusal_of_the_same_kind_is_raised() -> None:
    scripts = RequestError(400, "illegal_argument_exception", {"error": {"reason": "scripted similarity not allowed"}})
    index, indices, _ = backend([scripts, scripts])
    with pytest.raises(IndexBackendError, match="illegal_argument_exception"):
        index._ensure_namespace("acme")
    assert indices.created == []
