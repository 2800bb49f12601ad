from __future__ import annotations

import random

import pytest
from rank_bm25 import BM25Okapi

from docshelf.index.analyzer import analyze, raw_terms
from docshelf.index.bm25 import Vocabulary
from docshelf.index.embedded import EmbeddedIndex, channel_terms
from docshelf.index.term_table import TermTable
from docshelf.model import Chunk
from docshelf.search.filters import SearchFilters
from docshelf.serde import chunk_to_dict, dumps
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


def _assert_matches_rank_bm25(index: EmbeddedIndex, live: list[Chunk], queries: list[str]) -> None:
    reference = BM25Okapi([analyze(c.text) for c in live])
    for query in queries:
        terms = analyze(query)
        expected = reference.get_scores(terms)
        got = dict(index.rank("ns", "content", terms, SearchFilters(), limit=len(live)))
        assert set(got) == {c.chunk_id for c in live if set(terms) & set(analyze(c.text))}
        for i, chunk in enumerate(live):
            if chunk.chunk_id in got:
                assert got[chunk.chunk_id] == pytest.approx(expected[i], rel=1e-9)


def test_scores_stay_rank_bm25_through_upserts_replacements_deletes_and_reload(tmp_path) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(11)
    weights = [1.0 / (rank + 1) for rank in range(len(WORDS))]
    store = LocalStore(tmp_path)
    index = EmbeddedIndex(store)
    documents: dict[str, list[Chunk]] = {}
    queries = ["seal leak", "torque torque flange", "pump filler3", "steel gasket stem lever"]
    number = 0
    for step in range(40):
        document = f"d{rng.randrange(12)}"
        if step % 7 == 6 and document in documents:
            index.delete("ns", document)
            del documents[document]
        else:
            chunks = []
            for _ in range(rng.randint(1, 6)):
                number += 1
                chunks.append(make_chunk(number, " ".join(rng.choices(WORDS, weights, k=rng.randint(3, 30))), document))
            index.upsert("ns", document, f"r{step}", chunks)
            documents[document] = chunks
        if step % 5 == 0:  # searching between writes merges segments at different points
            index.rank("ns", "content", analyze("seal"), SearchFilters(), 5)
    live = [chunk for chunks in documents.values() for chunk in chunks]
    _assert_matches_rank_bm25(index, live, queries)
    _assert_matches_rank_bm25(EmbeddedIndex(store), live, queries)


def test_the_term_channel_and_path_channel_index_the_analyzer_terms(tmp_path) -> None:  # type: ignore[no-untyped-def]
    texts = ["Replace the TX-100 seal\u3000(see v2.3.1)", "阀门TX-100的维修手册。東京です", "mail OPS@Corp.com\tnow"]
    chunks = [make_chunk(i, text, source_file_name="PriceList_2026.xlsx") for i, text in enumerate(texts)]
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r1", chunks)
    for reopened in (index, EmbeddedIndex(LocalStore(tmp_path))):
        for chunk in chunks:
            for channel, terms in channel_terms(chunk).items():
                for term in set(terms):
                    ranked = [cid for cid, _ in reopened.rank("ns", channel, [term], SearchFilters(), 10)]
                    assert chunk.chunk_id in ranked, (channel, term)


def test_format_1_objects_load(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    chunk = make_chunk(1, "old pump manual")
    entry = {"chunk": chunk_to_dict(chunk), "terms": channel_terms(chunk)}
    store.put("index/ns/d1.json", dumps({"format": 1, "document_id": "d1", "revision": "r", "chunks": [entry]}))
    index = EmbeddedIndex(store)
    assert [cid for cid, _ in index.rank("ns", "content", analyze("pumps"), SearchFilters(), 10)] == ["c0001"]
    index.upsert("ns", "d1", "r2", [make_chunk(2, "new valve manual")])
    assert EmbeddedIndex(store).rank("ns", "content", analyze("pump"), SearchFilters(), 10) == []


def test_chunks_without_terms_are_indexed_and_reloaded(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    chunks = [make_chunk(1, "the and of"), make_chunk(2, ""), make_chunk(3, "valve")]
    EmbeddedIndex(store).upsert("ns", "d1", "r1", chunks)
    EmbeddedIndex(store).upsert("ns", "d2", "r1", [make_chunk(4, "", document="d2", section_path=())])
    reopened = EmbeddedIndex(store)
    assert reopened.count("ns", SearchFilters()) == 4
    assert [cid for cid, _ in reopened.rank("ns", "content", analyze("valves"), SearchFilters(), 10)] == ["c0003"]


def test_term_table_gives_the_analyzer_terms_in_order() -> None:
    texts = [
        "Replace the TX-100 seal\u3000(see v2.3.1),\u00a0then\u2003mail OPS@Corp.com",
        "阀门TX-100的维修手册。東京です 서울 특별시",
        "",
        "  The valves were running quickly\n\tＴＸ－１００ Straße",
    ]
    vocabulary = Vocabulary()
    table = TermTable(vocabulary)
    for _ in range(2):  # first sight of every piece, then from the cache
        (content, content_at), (raw, raw_at) = table.text_terms(texts)
        for i, text in enumerate(texts):
            expected_content, expected_raw = analyze(text), raw_terms(text)
            assert [vocabulary.terms[t] for t in content[content_at == i]] == expected_content
            assert [vocabulary.terms[t] for t in raw[raw_at == i]] == expected_raw
