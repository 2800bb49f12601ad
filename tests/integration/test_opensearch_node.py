"""Checks against a real OpenSearch node (see infra/opensearch/): health, the docshelf index template,
and whitespace-analyzed indexing/search.

Start a node with `make opensearch-up`. Without a node at $OPENSEARCH_URL (default http://127.0.0.1:9200)
these tests skip, except under CI=true, where they fail.
"""

from __future__ import annotations

import copy
import json
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from opensearchpy import OpenSearch, helpers
from opensearchpy.exceptions import RequestError

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.opensearch

TEMPLATE_FILE = Path(__file__).resolve().parents[2] / "infra" / "opensearch" / "index-template.json"


@pytest.fixture(scope="module")
def client(opensearch_node: OpenSearch) -> OpenSearch:
    return opensearch_node


@pytest.fixture
def chunk_index(client: OpenSearch) -> Iterator[tuple[str, str]]:
    """Loads index-template.json under a unique name/pattern (so a real docshelf-chunks template on the
    node is neither overwritten nor overlapped) and creates a namespace's versioned index with its write alias."""
    prefix = f"docshelftest-{uuid.uuid4().hex[:8]}-chunks"
    body: dict[str, Any] = copy.deepcopy(json.loads(TEMPLATE_FILE.read_text(encoding="utf-8")))
    assert body["index_patterns"] == ["docshelf-chunks.*"]
    body["index_patterns"] = [f"{prefix}.*"]
    client.indices.put_index_template(name=prefix, body=body)
    index, alias = f"{prefix}.itest.v1", f"{prefix}.itest"
    client.indices.create(index=index, body={"aliases": {alias: {"is_write_index": True}}})
    try:
        yield index, alias
    finally:
        client.indices.delete(index=index, ignore_unavailable=True)
        client.indices.delete_index_template(name=prefix)


def _chunk(chunk_id: str, ordinal: int, content_terms: str, **extra: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "namespace": "itest",
        "document_id": "doc-1",
        "revision": "r1",
        "chunk_id": chunk_id,
        "chunk_type": "paragraph",
        "source_file_name": "manual.pdf",
        "section_path": ["Setup", "Install"],
        "pages": [ordinal + 1],
        "ordinal": ordinal,
        "token_count": len(content_terms.split()),
        "text": f"Original text of {chunk_id}.",
        "content_terms": content_terms,
        "path_terms": "setup install",
        "term_grams": "_".join(content_terms.split()[:2]),
    }
    doc.update(extra)
    return doc


def test_cluster_health(client: OpenSearch) -> None:
    health = client.cluster.health(wait_for_status="yellow")  # server-side wait, 30 s by default
    assert health["status"] in {"yellow", "green"}
    assert health["number_of_nodes"] >= 1
    assert client.info()["version"]["number"].startswith("2.19.")


def test_template_applies_settings_and_mapping(client: OpenSearch, chunk_index: tuple[str, str]) -> None:
    index, alias = chunk_index
    settings = client.indices.get_settings(index=index)[index]["settings"]["index"]
    assert settings["number_of_shards"] == "1"
    assert settings["number_of_replicas"] == "0"
    similarity = settings["similarity"]["docshelf_bm25"]
    assert similarity["type"] == "scripted"
    assert "Math.max(0.1," in similarity["weight_script"]["source"]
    mapping = client.indices.get_mapping(index=index)[index]["mappings"]
    assert mapping["dynamic"] == "strict"
    props = mapping["properties"]
    for field in ("content_terms", "path_terms", "term_grams"):
        assert props[field] == {"type": "text", "analyzer": "whitespace", "similarity": "docshelf_bm25"}
    assert props["text"] == {"type": "text", "index": False}
    assert props["section_path"]["type"] == "keyword"
    assert client.indices.get_alias(name=alias) == {index: {"aliases": {alias: {"is_write_index": True}}}}
    with pytest.raises(RequestError) as err:
        client.index(index=alias, body={"namespace": "itest", "unknown_field": 1})
    assert err.value.error == "strict_dynamic_mapping_exception"


def test_whitespace_index_and_search(client: OpenSearch, chunk_index: tuple[str, str]) -> None:
    _, alias = chunk_index
    docs = [
        _chunk("c0", 0, "install docshelf_cli with pip"),
        _chunk("c1", 1, "Install the Server on linux"),
        _chunk("c2", 2, "uninstall docshelf_cli docshelf_cli"),
    ]
    ok, errors = helpers.bulk(
        client, ({"_index": alias, "_id": d["chunk_id"], "_source": d} for d in docs), refresh="wait_for"
    )
    assert (ok, errors) == (3, [])

    # whitespace analyzer: no lowercasing and no splitting on "_"
    analyzed = client.indices.analyze(index=alias, body={"field": "content_terms", "text": "Install docshelf_cli"})
    assert [t["token"] for t in analyzed["tokens"]] == ["Install", "docshelf_cli"]

    res = client.search(index=alias, body={"query": {"match": {"content_terms": "docshelf_cli"}}})
    hits = res["hits"]["hits"]
    assert {h["_id"] for h in hits} == {"c0", "c2"}
    assert hits[0]["_id"] == "c2"  # higher term frequency wins under BM25
    assert hits[0]["_source"]["text"] == "Original text of c2."  # hydration from _source

    res = client.search(index=alias, body={"query": {"match": {"content_terms": "install"}}})
    assert [h["_id"] for h in res["hits"]["hits"]] == ["c0"]  # "Install" (capitalised) does not match

    res = client.search(
        index=alias,
        body={"query": {"bool": {"filter": [{"term": {"namespace": "itest"}}, {"term": {"section_path": "Install"}}]}}},
    )
    assert res["hits"]["total"]["value"] == 3
