"""The semantic channel on a real node: an HNSW graph (k-NN plugin, Lucene engine) where the index was made with
`index.knn`, the exact script score where it was not, both ranking as numpy does over the same int8 vectors."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from docshelf.index.opensearch import OpenSearchIndex
from docshelf.index.opensearch.setup import namespace_index_body, without_knn
from docshelf.index.plan import QueryPlan, SearchFilters, SemanticQuery
from docshelf.index.vectors import dequantized, quantized
from tests.integration.test_index_contract import _opensearch_index, make_chunk, opensearch  # noqa: F401
from tests.integration.test_semantic_contract import EMBEDDER, embedded

pytestmark = pytest.mark.opensearch

TEXTS = [
    "the car needs new brake pads",
    "check the tyre pressure monthly",
    "a doctor examines the patient",
    "car park opening hours",
    "the physician prescribes rest",
    "replace the brake fluid every two years",
]
QUERIES = ["automobile brakes", "physician", "parking", "tyres"]


def _has_knn_plugin(client: Any) -> bool:
    plugins = client.cat.plugins(format="json")
    return any(row.get("component") == "opensearch-knn" for row in plugins)


@pytest.fixture
def knn_node(opensearch: Any) -> Any:  # noqa: F811
    if not _has_knn_plugin(opensearch):
        if os.environ.get("CI") == "true":
            pytest.fail("the OpenSearch node has no k-NN plugin (infra/opensearch/install.sh installs it)")
        pytest.skip("the OpenSearch node has no k-NN plugin")
    return opensearch


def _written(remote: OpenSearchIndex) -> None:
    chunks = [make_chunk(i, text) for i, text in enumerate(TEXTS)]
    assert remote.write("ns", [embedded("d1", chunks)]) == {}


ALL = SearchFilters()


def _semantic(remote: OpenSearchIndex, query: str, filters: SearchFilters = ALL) -> list[tuple[str, float]]:
    vector = tuple(EMBEDDER.embed_query(query).tolist())
    plan = QueryPlan({}, filters, 4, semantic=SemanticQuery(vector, 4))
    return remote.first_pass("ns", plan).rankings["semantic"]


def _numpy_ranking(query: str) -> list[tuple[str, float]]:
    codes, scales = quantized(EMBEDDER.embed_passages(TEXTS).astype(np.float32))
    scores = dequantized(codes, scales) @ EMBEDDER.embed_query(query).astype(np.float32)
    order = sorted(range(len(TEXTS)), key=lambda row: (-scores[row], f"d1-c{row}"))[:4]
    return [(f"d1-c{row}", float(scores[row])) for row in order]


def _mapping(remote: OpenSearchIndex) -> dict[str, Any]:
    found = remote.client.indices.get_mapping(index=remote.alias("ns"))
    return dict(next(iter(found.values()))["mappings"])


def _assert_numpy_ranking(remote: OpenSearchIndex) -> None:
    for query in QUERIES:
        got, expected = _semantic(remote, query), _numpy_ranking(query)
        assert [chunk for chunk, _ in got] == [chunk for chunk, _ in expected], query
        assert np.allclose([s for _, s in got], [s for _, s in expected], atol=1e-4), query


def test_an_index_made_with_knn_searches_an_hnsw_graph(knn_node: Any) -> None:
    remote = _opensearch_index(knn_node)
    try:
        _written(remote)
        mapping = _mapping(remote)
        field = mapping["properties"][f"vector_hnsw_{EMBEDDER.model.dimension}"]
        assert field["type"] == "knn_vector" and field["method"]["engine"] == "lucene"
        assert mapping["_meta"]["vector_search"] == "hnsw"
        assert "vector_codes" not in remote.client.get(index=remote.alias("ns"), id="ns/d1-c0", routing="ns")["_source"]
        _assert_numpy_ranking(remote)
        only_d1_c3 = SearchFilters(chunk_types=("table",))
        assert _semantic(remote, "automobile", only_d1_c3) == []
    finally:
        remote.drop_index()


def test_an_index_made_without_knn_scores_exactly(knn_node: Any) -> None:
    remote = _opensearch_index(knn_node)
    alias = remote.alias("ns")
    try:
        remote.ensure_index()
        knn_node.indices.create(index=f"{alias}.v1", body=without_knn(namespace_index_body(alias)))
        _written(remote)
        assert _mapping(remote)["_meta"]["vector_search"] == "exact"
        _assert_numpy_ranking(remote)
    finally:
        remote.drop_index()
