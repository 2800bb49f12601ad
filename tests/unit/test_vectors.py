"""Chunk vectors in the engines: int8 quantisation, exact top-k with filters first, the model a namespace takes,
and vectors surviving a reload from document objects and from the namespace snapshot."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from docshelf.index.base import DocumentChunks
from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.plan import ChannelQuery, QueryPlan, SearchFilters, SemanticQuery
from docshelf.index.vectors import VectorModel, dequantized, quantized, refusals, top_rows
from docshelf.model import Chunk
from docshelf.search.ranking import RankingSettings
from docshelf.search.rrf import fuse_rrf
from docshelf.store import LocalStore
from tests.embedding_fakes import ConceptEmbedder, FakeModel

MODEL = VectorModel.of(FakeModel())
OTHER = VectorModel.of(FakeModel(model_id="other"))


def clustered(rows: int, dimension: int, seed: int = 3) -> np.ndarray:
    """Unit vectors around 50 centres, as sentence embeddings are: many near neighbours, close scores."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((50, dimension))
    matrix = centres[rng.integers(0, 50, rows)] + 0.6 * rng.standard_normal((rows, dimension))
    unit: np.ndarray = (matrix / np.linalg.norm(matrix, axis=1, keepdims=True)).astype(np.float32)
    return unit


def test_int8_codes_keep_the_float32_top_10() -> None:
    matrix = clustered(20_000, 384)
    codes, scales = quantized(matrix)
    assert codes.dtype == np.int8 and codes.nbytes == matrix.nbytes // 4
    assert np.abs(dequantized(codes, scales) - matrix).max() <= scales.max() / 2 + 1e-7
    queries = clustered(50, 384, seed=4)
    every = np.ones(len(matrix), dtype=np.bool_)
    recall = []
    for query in queries:
        exact = set(np.argsort(-(matrix @ query))[:10].tolist())
        found = {row for row, _ in top_rows(codes, scales, query.tolist(), every, 10)}
        recall.append(len(exact & found) / 10)
    assert float(np.mean(recall)) >= 0.97


def test_top_rows_scores_only_the_allowed_rows_and_breaks_ties_by_row() -> None:
    codes, scales = quantized(np.array([[1, 0], [1, 0], [0, 1], [0.9, 0.1]], dtype=np.float32))
    allowed = np.array([False, True, True, True])
    assert [row for row, _ in top_rows(codes, scales, [1.0, 0.0], allowed, 2)] == [1, 3]
    assert [row for row, _ in top_rows(codes, scales, [1.0, 0.0], np.ones(4, np.bool_), 2)] == [0, 1]
    assert top_rows(codes, scales, [1.0, 0.0], np.zeros(4, np.bool_), 2) == []


def test_a_namespace_takes_one_model() -> None:
    assert refusals(MODEL, True, [("a", MODEL)]) == {}
    assert set(refusals(MODEL, True, [("a", OTHER), ("b", None), ("c", MODEL)])) == {"a", "b"}
    assert "without vectors" in refusals(None, True, [("a", MODEL)])["a"]
    # Into an empty namespace, the first document sets the model of the others.
    assert set(refusals(None, False, [("a", OTHER), ("b", MODEL), ("c", OTHER)])) == {"b"}


def chunk(document: str, ordinal: int, text: str) -> Chunk:
    return Chunk(
        chunk_id=f"{document}-{ordinal}", document_id=document, namespace="ns", type="text", text=text,
        section_path=(), pages=(1,), token_count=3, ordinal=ordinal, source_file_name=f"{document}.txt", revision="r1",
    )  # fmt: skip


def _written(root: Path) -> ConceptEmbedder:
    embedder = ConceptEmbedder()
    index = EmbeddedIndex(LocalStore(root))
    for number in range(6):
        own = [chunk(f"d{number}", 0, f"car brake {number}"), chunk(f"d{number}", 1, f"doctor visit {number}")]
        vectors = embedder.embed_passages([c.text for c in own])
        index.write("ns", [DocumentChunks(f"d{number}", "r1", own, vectors, embedder.model)])
    index.commit()
    return embedder


@pytest.mark.parametrize("snapshot", [False, True])
def test_vectors_survive_a_reload(tmp_path: Path, snapshot: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EmbeddedIndex, "SNAPSHOT_AFTER_CHUNKS", 1 if snapshot else 10**9)
    embedder = _written(tmp_path)
    assert (tmp_path / "index" / "ns.snapshot").exists() == snapshot
    reader = EmbeddedIndex(LocalStore(tmp_path), writes_snapshots=False)
    assert reader.vector_model("ns") == VectorModel.of(embedder.model)
    query = SemanticQuery(tuple(embedder.embed_query("physician visit 3").tolist()), 3)
    found = reader.first_pass("ns", QueryPlan({}, SearchFilters(), 3, semantic=query)).rankings["semantic"]
    assert found[0][0] == "d3-1" and all(chunk_id.endswith("-1") for chunk_id, _ in found)
    assert found[0][1] == pytest.approx(float(embedder.embed_query("doctor visit 3") @ query.vector), abs=0.02)


def test_a_deleted_document_leaves_the_semantic_ranking(tmp_path: Path) -> None:
    embedder = _written(tmp_path)
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.delete("ns", "d3")
    query = SemanticQuery(tuple(embedder.embed_query("doctor visit 3").tolist()), 20)
    found = [cid for cid, _ in index.first_pass("ns", QueryPlan({}, semantic=query)).rankings["semantic"]]
    assert len(found) == 10 and "d3-1" not in found


def test_the_semantic_channel_is_fused_with_its_own_weight() -> None:
    rankings = {"content": ["a", "b"], "semantic": ["b", "c"]}
    off = fuse_rrf(rankings, RankingSettings(semantic_weight=0.0).channel_weights())
    assert [item for item, _, _ in off][:2] == ["a", "b"]
    strong = fuse_rrf(rankings, RankingSettings(content_weight=1.0, semantic_weight=2.0).channel_weights())
    assert strong[0][0] == "b" and strong[0][2] == {"content": 1, "semantic": 0}


def test_a_semantic_search_leaves_no_thread_behind(tmp_path: Path) -> None:
    """The vector products run in a thread for the call only: a thread kept alive would stop the process forking
    its parse workers (forked.can_fork) once it has searched."""
    import threading

    embedder = _written(tmp_path)
    before = threading.active_count()
    query = SemanticQuery(tuple(embedder.embed_query("car brake 2").tolist()), 3)
    plan = QueryPlan({"content": ChannelQuery({"brake": 1.0})}, SearchFilters(), 3, semantic=query)
    found = EmbeddedIndex(LocalStore(tmp_path)).first_pass("ns", plan).rankings
    assert found["semantic"][0][0] == "d2-0" and found["content"]
    assert threading.active_count() == before
