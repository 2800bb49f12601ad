"""The semantic channel of the SearchBackend contract, on every backend: vectors written with their chunks, the
namespace's model recorded and enforced, the channel ranked after the filters and fused in search."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from docshelf.errors import IndexBackendError
from docshelf.index.base import DocumentChunks, SearchBackend
from docshelf.index.plan import ChannelQuery, QueryPlan, SearchFilters, SemanticQuery
from docshelf.index.vectors import VectorModel
from docshelf.model import Chunk
from docshelf.search.ranking import RankingSettings
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from tests.embedding_fakes import ConceptEmbedder, FakeModel
from tests.integration.test_index_contract import engines, index, make_chunk, opensearch  # noqa: F401

EMBEDDER = ConceptEmbedder()


def embedded(document_id: str, chunks: list[Chunk], embedder: ConceptEmbedder = EMBEDDER) -> DocumentChunks:
    vectors = embedder.embed_passages([chunk.text for chunk in chunks])
    return DocumentChunks(document_id, chunks[0].revision, chunks, vectors, embedder.model)


def _corpus(index: SearchBackend) -> None:  # noqa: F811
    refused = index.write("ns", [
        embedded("d1", [make_chunk(0, "the car needs new brake pads"), make_chunk(1, "check the tyre pressure")]),
        embedded("d2", [make_chunk(0, "a doctor examines the patient", doc="d2", name="clinic.pdf"),
                        make_chunk(1, "car park opening hours", doc="d2", name="clinic.pdf", kind="table")]),
    ])  # fmt: skip
    assert refused == {}


def _semantic(index: SearchBackend, query: str, filters: SearchFilters, limit: int = 10) -> list[str]:  # noqa: F811
    plan = QueryPlan({}, filters, limit, semantic=SemanticQuery(tuple(EMBEDDER.embed_query(query).tolist()), limit))
    return [chunk_id for chunk_id, _ in index.first_pass("ns", plan).rankings.get("semantic", [])]


def test_the_namespace_records_its_model(index: SearchBackend) -> None:  # noqa: F811
    assert index.vector_model("ns") is None
    _corpus(index)
    assert index.vector_model("ns") == VectorModel.of(EMBEDDER.model)


def test_the_semantic_channel_finds_a_paraphrase_bm25_misses(index: SearchBackend) -> None:  # noqa: F811
    _corpus(index)
    assert _semantic(index, "automobile brake pads", SearchFilters())[0] == "d1-c0"
    assert _semantic(index, "physician", SearchFilters())[0] == "d2-c0"
    bm25 = index.first_pass("ns", QueryPlan({"content": ChannelQuery({"physician": 1.0})}, limit=10))
    assert bm25.rankings["content"] == []


def test_semantic_filters_apply_before_the_limit(index: SearchBackend) -> None:  # noqa: F811
    _corpus(index)
    assert _semantic(index, "automobile", SearchFilters(documents=("clinic.pdf",)), limit=1) == ["d2-c1"]
    assert _semantic(index, "automobile", SearchFilters(chunk_types=("text",), exclude_documents=("d1",))) == ["d2-c0"]


def test_a_write_of_another_model_is_refused(index: SearchBackend) -> None:  # noqa: F811
    _corpus(index)
    other = ConceptEmbedder(FakeModel(model_id="other", dimension=16))
    refused = index.write("ns", [embedded("d3", [make_chunk(0, "new car", doc="d3")], other)])
    assert "test:concept-hash@1 (256 dims)" in refused["d3"] and "new namespace" in refused["d3"]
    plain = index.write("ns", [DocumentChunks("d4", "r1", [make_chunk(0, "no vectors", doc="d4")])])
    assert "has none" in plain["d4"]
    with pytest.raises(IndexBackendError, match="has none"):
        index.upsert("ns", "d4", "r1", [make_chunk(0, "no vectors", doc="d4")])
    assert index.count("ns", SearchFilters()) == 4
    assert index.vector_model("ns") == VectorModel.of(EMBEDDER.model)


def test_replacing_every_document_may_change_the_model(index: SearchBackend) -> None:  # noqa: F811
    index.write("ns", [embedded("d1", [make_chunk(0, "car")])])
    other = ConceptEmbedder(FakeModel(model_id="other", dimension=16))
    assert index.write("ns", [embedded("d1", [make_chunk(0, "car", revision="r2")], other)]) == {}
    assert index.vector_model("ns") == VectorModel.of(other.model)


def test_malformed_vectors_are_an_error(index: SearchBackend) -> None:  # noqa: F811
    chunks = [make_chunk(0, "car"), make_chunk(1, "doctor")]
    with pytest.raises(IndexBackendError, match="shape"):
        index.write("ns", [DocumentChunks("d1", "r1", chunks, np.zeros((1, 256), np.float32), EMBEDDER.model)])
    with pytest.raises(IndexBackendError, match="go together"):
        DocumentChunks("d1", "r1", chunks, None, EMBEDDER.model)


def test_search_fuses_the_semantic_channel_and_shows_its_ranks(index: SearchBackend) -> None:  # noqa: F811
    _corpus(index)
    for document in range(3, 12):  # more chunks than top_k, so ranking decides
        index.write("ns", [embedded(f"d{document}", [make_chunk(0, f"filler text {document}", doc=f"d{document}")])])
    embedder = ConceptEmbedder()
    response = search(index, SearchRequest("ns", "physician", top_k=2), embedder=embedder)
    assert embedder.queries == ["physician"]
    assert response.results[0].chunk.chunk_id == "d2-c0"
    assert response.results[0].channel_ranks == {"semantic": 0}
    without = search(index, SearchRequest("ns", "physician", top_k=2))
    assert all(result.score == 0 for result in without.results)  # nothing matched lexically


def test_the_semantic_weight_falls_as_the_best_chunk_holds_the_query(index: SearchBackend) -> None:  # noqa: F811
    _corpus(index)
    for document in range(3, 12):
        index.write("ns", [embedded(f"d{document}", [make_chunk(0, f"filler text {document}", doc=f"d{document}")])])

    def scored(query: str, embedder: ConceptEmbedder | None) -> list[tuple[str, float]]:
        found = search(index, SearchRequest("ns", query, top_k=4), embedder=embedder)
        return [(result.chunk.chunk_id, result.score) for result in found.results]

    # "brake pads": d1-c0 holds both words, so the vectors get no weight; the results are the lexical ones.
    assert scored("brake pads", ConceptEmbedder()) == scored("brake pads", None)
    # "car physician": no chunk holds both, so the vectors vote.
    assert scored("car physician", ConceptEmbedder()) != scored("car physician", None)


def test_no_semantic_channel_at_weight_zero_or_for_a_script_the_model_lacks(index: SearchBackend) -> None:  # noqa: F811
    _corpus(index)
    embedder = ConceptEmbedder()
    off = dataclasses.replace(RankingSettings(), semantic_weight=0.0)
    search(index, SearchRequest("ns", "car", top_k=2), off, embedder=embedder)
    search(index, SearchRequest("ns", "汽车 car", top_k=2), embedder=embedder)
    assert embedder.queries == []
    search(index, SearchRequest("ns", "汽车 car", top_k=2), RankingSettings(semantic_cjk=True), embedder=embedder)
    assert embedder.queries == ["汽车 car"]


def test_a_spelling_correction_never_outranks_the_semantic_channel(index: SearchBackend) -> None:  # noqa: F811
    _corpus(index)
    for document in range(3, 12):  # more chunks than top_k, so ranking decides
        index.write("ns", [embedded(f"d{document}", [make_chunk(0, f"filler text {document}", doc=f"d{document}")])])
    lexical = search(index, SearchRequest("ns", "physician tyrre", top_k=3))
    assert lexical.corrections == {"tyrre": "tyre"}  # "physician" is a word: never rewritten
    assert lexical.results[0].chunk.chunk_id == "d1-c1"
    hybrid = search(index, SearchRequest("ns", "physician tyrre", top_k=3), embedder=ConceptEmbedder())
    ranked = [result.chunk.chunk_id for result in hybrid.results]
    assert ranked[0] == "d2-c0" and hybrid.results[0].channel_ranks["semantic"] == 0
    semantic_order = sorted(hybrid.results, key=lambda result: result.channel_ranks.get("semantic", 10**6))
    assert [result.chunk.chunk_id for result in semantic_order] == ranked
