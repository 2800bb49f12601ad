from __future__ import annotations

import random

import pytest
from rank_bm25 import BM25Okapi

from docshelf.index.analyzer import analyze
from docshelf.index.embedded import EmbeddedIndex
from docshelf.model import Chunk
from docshelf.search.filters import SearchFilters
from docshelf.store import LocalStore

WORDS = [
    "valve",
    "seal",
    "pressure",
    "flange",
    "bolt",
    "torque",
    "pump",
    "steel",
    "gasket",
    "leak",
    "stem",
    "lever",
] + [f"filler{i}" for i in range(300)]


def make_chunk(i: int, text: str, document: str = "d1", **extra: object) -> Chunk:
    fields: dict[str, object] = dict(
        chunk_id=f"c{i:04d}", document_id=document, namespace="ns", type="text", text=text,
        section_path=("Manual",), pages=(1,), token_count=1, ordinal=i, source_file_name=f"{document}.txt",
    )  # fmt: skip
    fields.update(extra)
    return Chunk(**fields)  # type: ignore[arg-type]


@pytest.fixture
def corpus() -> list[Chunk]:
    rng = random.Random(7)
    weights = [1.0 / (rank + 1) for rank in range(len(WORDS))]
    return [make_chunk(i, " ".join(rng.choices(WORDS, weights, k=rng.randint(3, 30)))) for i in range(120)]


def test_scores_match_rank_bm25_on_the_same_tokens(tmp_path, corpus: list[Chunk]) -> None:  # type: ignore[no-untyped-def]
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r1", corpus)
    reference = BM25Okapi([analyze(c.text) for c in corpus])
    for query in ["seal leak", "torque torque flange", "pump", "steel gasket stem lever"]:
        terms = analyze(query)
        expected = reference.get_scores(terms)
        ranked = index.rank("ns", "content", terms, SearchFilters(), limit=len(corpus))
        got = dict(ranked)
        for i, chunk in enumerate(corpus):
            if expected[i] > 0:
                assert got[chunk.chunk_id] == pytest.approx(expected[i], rel=1e-9)
        matched = [i for i in range(len(corpus)) if set(terms) & set(analyze(corpus[i].text))]
        assert len(ranked) == len(matched)
        top_expected = sorted(matched, key=lambda i: (-expected[i], corpus[i].chunk_id))[:10]
        assert [cid for cid, _ in ranked[:10]] == [corpus[i].chunk_id for i in top_expected]


def test_upsert_replaces_and_delete_removes_and_both_persist(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    index = EmbeddedIndex(store)
    index.upsert("ns", "d1", "r1", [make_chunk(1, "old valve text")])
    index.upsert("ns", "d2", "r1", [make_chunk(2, "pump manual", document="d2")])
    index.upsert("ns", "d1", "r2", [make_chunk(3, "new seal text")])
    reopened = EmbeddedIndex(store)
    assert reopened.rank("ns", "content", analyze("valve"), SearchFilters(), 10) == []
    assert [cid for cid, _ in reopened.rank("ns", "content", analyze("seal"), SearchFilters(), 10)] == ["c0003"]
    reopened.delete("ns", "d1")
    assert EmbeddedIndex(store).count("ns", SearchFilters()) == 1
    assert EmbeddedIndex(store).count("other", SearchFilters()) == 0


def test_filters_apply_inside_ranking(tmp_path) -> None:  # type: ignore[no-untyped-def]
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r", [make_chunk(1, "seal seal"), make_chunk(2, "seal", type="table")])
    index.upsert("ns", "d2", "r", [make_chunk(3, "seal", document="d2", section_path=("Appendix",))])
    terms = analyze("seal")

    def ids(filters: SearchFilters) -> set[str]:
        return {cid for cid, _ in index.rank("ns", "content", terms, filters, 10)}

    assert ids(SearchFilters(documents=("d2",))) == {"c0003"}
    assert ids(SearchFilters(documents=("d2.txt",))) == {"c0003"}
    assert ids(SearchFilters(exclude_documents=("d1",))) == {"c0003"}
    assert ids(SearchFilters(exclude_sections=("Appendix",))) == {"c0001", "c0002"}
    assert ids(SearchFilters(chunk_types=("table",))) == {"c0002"}
