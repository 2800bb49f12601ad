"""The hit boost through the search service on both engines: hits lift a chunk holding the query's terms, never
one without them, only in their own namespace, and without hits nothing changes."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docshelf.index.base import SearchBackend
from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.opensearch import OpenSearchIndex
from docshelf.search.hits_local import SqliteHits
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from docshelf.store import LocalStore
from tests.integration.test_index_contract import make_chunk

TEXTS = [
    "The seal kit replaces the pump seal and the seal ring of the pump.",  # the clear lexical match
    "A pump seal wears out; check it every year.",
    "Seal the box before shipping it to the depot.",
    "The warranty covers parts for two years.",  # none of the query's terms
] + [f"Filler note {i} about the office kitchen rota." for i in range(8)]


@pytest.fixture(params=["embedded", pytest.param("opensearch", marks=pytest.mark.opensearch)])
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SearchBackend]:
    if request.param == "embedded":
        engine: SearchBackend = EmbeddedIndex(LocalStore(tmp_path / "store"))
    else:
        node: Any = request.getfixturevalue("opensearch_node")
        engine = OpenSearchIndex(node, index=f"hitboost-{uuid.uuid4().hex[:8]}", refresh=True)
    for namespace in ("ns", "other"):
        for i, text in enumerate(TEXTS):  # one document each: within a document, passages order its chunks
            engine.upsert(
                namespace, f"d{i}", "r1", [make_chunk(0, text, doc=f"d{i}", name=f"{i}.md", namespace=namespace)]
            )
    engine.commit()
    yield engine
    if isinstance(engine, OpenSearchIndex):
        engine.drop_index()


def ranked(index: SearchBackend, hits: SqliteHits | None, namespace: str = "ns") -> list[str]:
    response = search(index, SearchRequest(namespace, "pump seal", top_k=3), hits=hits)
    return [r.chunk.chunk_id for r in response.results]


def test_hits_lift_a_matching_chunk_but_never_one_without_the_querys_terms(
    index: SearchBackend, tmp_path: Path
) -> None:
    hits = SqliteHits(tmp_path / "hits.sqlite")
    plain = ranked(index, None)
    assert plain == ["d0-c0", "d1-c0", "d2-c0"] and ranked(index, hits) == plain  # no hits: the same ranking
    for _ in range(5_000):  # one chunk without the query's terms, returned thousands of times
        hits.record("ns", [("d3", "d3-c0")])
    assert ranked(index, hits) == plain
    for _ in range(3):
        hits.record("ns", [("d2", "d2-c0")])
    assert ranked(index, hits) == plain  # a handful of hits on a weak match does not lift it over clear ones
    for _ in range(3):
        hits.record("ns", [("d1", "d1-c0")])
    assert ranked(index, hits) == ["d1-c0", "d0-c0", "d2-c0"]  # they do reorder two close matches
    assert ranked(index, hits, "other") == ranked(index, None, "other")  # another namespace's hits count not
