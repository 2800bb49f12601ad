from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from rank_bm25 import BM25Okapi

from docshelf.index.analyzer import analyze, channel_terms, raw_terms
from docshelf.index.base import DocumentChunks
from docshelf.index.bm25_math import MIN_IDF
from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.embedded import index as embedded
from docshelf.index.embedded.bm25 import Vocabulary
from docshelf.index.embedded.term_table import TermTable
from docshelf.index.plan import Channel, ChannelQuery, QueryPlan, SearchFilters
from docshelf.model import Chunk, Link
from docshelf.serde import chunk_to_dict, dumps
from docshelf.store import LocalStore
from docshelf.versions import INDEX_FORMAT

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
    reference = _reference_bm25([analyze(c.text) for c in corpus])
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


def _reference_bm25(documents: list[list[str]]) -> BM25Okapi:
    """rank-bm25's BM25Okapi with the embedded index's idf floor (a constant, not a share of the mean idf)."""
    reference = BM25Okapi(documents)
    frequencies = Counter(term for document in documents for term in set(document))
    for term, df in frequencies.items():
        reference.idf[term] = max(MIN_IDF, math.log(len(documents) - df + 0.5) - math.log(df + 0.5))
    return reference


def _assert_matches_rank_bm25(index: EmbeddedIndex, live: list[Chunk], queries: list[str]) -> None:
    reference = _reference_bm25([analyze(c.text) for c in live])
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


@pytest.mark.parametrize(("boundary_in_text", "unicode_spaces"), [(False, True), (True, True), (False, False)])
def test_term_table_gives_the_analyzer_terms_in_order(boundary_in_text: bool, unicode_spaces: bool) -> None:
    texts = [
        "Replace the TX-100 seal\u3000(see v2.3.1),\u00a0then\u2003mail OPS@Corp.com",
        "阀门TX-100的维修手册。東京です 서울 특별시",
        "",
        "  The valves were running quickly\n\tＴＸ－１００ Straße",
        "e\u0301 \u0301 cafe\u0301 ΣΑΣ",  # combining marks at piece and text starts; final sigma
        "\u0301 ends with a mark e",
        "an-identifier-longer-than-fifteen-bytes 😀 \ud83d lone surrogate",
    ]
    if boundary_in_text:  # the character the table joins texts with
        texts.append("nul\x00inside \x00 TX\x00100")
    if not unicode_spaces:  # then pieces are found in numpy (piece_keys.py), not by str.split
        texts = [" ".join(text.split()) for text in texts]
    vocabulary = Vocabulary()
    table = TermTable(vocabulary)
    for _ in range(2):  # first sight of every piece, then from the cache
        (content, content_at), (raw, raw_at) = table.text_terms(texts)
        for i, text in enumerate(texts):
            expected_content, expected_raw = analyze(text), raw_terms(text)
            assert [vocabulary.terms[t] for t in content[content_at == i]] == expected_content
            assert [vocabulary.terms[t] for t in raw[raw_at == i]] == expected_raw


def _all_rankings(index: EmbeddedIndex, chunks: list[Chunk]) -> dict[tuple[str, str], dict[str, float]]:
    """Per channel and query (the first terms of each chunk): chunk id -> score."""
    rankings: dict[tuple[str, str], dict[str, float]] = {}
    for chunk in chunks:
        for channel, terms in channel_terms(chunk).items():
            query = terms[:3]
            ranked = index.rank("ns", channel, query, SearchFilters(), 1000)
            rankings[(channel, " ".join(query))] = dict(ranked)
    return rankings


def test_a_bulk_write_indexes_and_persists_what_upserts_one_by_one_do(  # type: ignore[no-untyped-def]
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedded, "BATCH_CHUNKS", 7)  # a call's documents are analyzed in several batches
    rng = random.Random(5)
    texts = [*WORDS, "TX-100", "v2.3.1", "阀门维修", "東京です", "ops@corp.com"]
    documents: list[tuple[str, str, list[Chunk]]] = []
    number = 0
    for d in range(12):
        chunks = []
        for _ in range(0 if d == 3 else rng.randint(1, 5)):  # d3 has no chunks
            number += 1
            text = " ".join(rng.choices(texts, k=rng.randint(0, 25)))
            chunks.append(make_chunk(number, text, f"d{d}", section_path=(f"Part {d % 3}",)))
        documents.append((f"d{d}", "r1", chunks))
    replaced = documents[5][2][:1]
    one_by_one = EmbeddedIndex(LocalStore(tmp_path / "one"))
    for document_id, revision, chunks in [*documents, ("d5", "r2", replaced)]:
        one_by_one.upsert("ns", document_id, revision, chunks)
    bulk = EmbeddedIndex(LocalStore(tmp_path / "bulk"))
    bulk.write("ns", [DocumentChunks(*document) for document in documents[:4]])
    later = [*documents[4:], ("d5", "r2", replaced)]  # the last version of a document wins
    bulk.write("ns", [DocumentChunks(*document) for document in later])
    live = [chunk for document_id, _, chunks in documents if document_id != "d5" for chunk in chunks] + replaced
    # The order of summing differs between segment layouts, so scores are compared with a tolerance.
    expected = {key: pytest.approx(ranked, rel=1e-12) for key, ranked in _all_rankings(one_by_one, live).items()}
    assert expected and any(ranked.expected for ranked in expected.values())
    assert _all_rankings(bulk, live) == expected
    reopened = EmbeddedIndex(LocalStore(tmp_path / "bulk"))
    reopened.LOAD_BATCH = 3  # loads in several blocks, merged at the end
    assert _all_rankings(reopened, live) == expected
    assert bulk.count("ns", SearchFilters()) == len(live)
    frequencies = {chunk.chunk_id: Counter(channel_terms(chunk)["content"]) for chunk in live}
    every_term = {term: 1.0 for counts in frequencies.values() for term in counts}
    plan = QueryPlan({"content": ChannelQuery(every_term)}, SearchFilters(), len(live), len(live))
    for index in (one_by_one, bulk, reopened):  # analyzed alone and in a batch, and loaded from the store
        assert index.first_pass("ns", plan).content_frequencies == {cid: f for cid, f in frequencies.items() if f}
    _assert_matches_rank_bm25(EmbeddedIndex(LocalStore(tmp_path / "bulk")), live, ["seal leak", "pump filler3"])


@pytest.mark.parametrize("version", [2, 3, 4])
def test_objects_with_stored_postings_load_their_chunks_analyzed_again(tmp_path, version: int) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    chunk = make_chunk(1, "old pump manual TX-100")
    # Formats 2-4 held postings besides the chunks; stale ones (here of other words) must not count.
    stale: dict[str, object] = {"terms": "valv" if version == 4 else ["valv"]}
    for channel in ("content", "path", "term"):
        stale[channel] = {"terms": "<u1:AA==", "per_term": "<u1:AQ==", "positions": "<u1:AA==", "tfs": "<u1:AQ=="}
    data = {"format": version, "document_id": "d1", "revision": "r1", "chunks": [chunk_to_dict(chunk)]}
    store.put("index/ns/d1.json", dumps({**data, "postings": stale}))
    reopened = EmbeddedIndex(store)
    assert [cid for cid, _ in reopened.rank("ns", "content", analyze("pumps"), SearchFilters(), 10)] == ["c0001"]
    assert [cid for cid, _ in reopened.rank("ns", "term", raw_terms("tx100"), SearchFilters(), 10)] == ["c0001"]
    assert reopened.rank("ns", "content", analyze("valve"), SearchFilters(), 10) == []


def test_objects_hold_the_chunks_and_newer_formats_ask_for_an_upgrade(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = LocalStore(tmp_path)
    chunks = [make_chunk(1, "pump", connect_to=(Link("table", "contains", "d1/t1.json", 3),)), make_chunk(2, "valve")]
    EmbeddedIndex(store).upsert("ns", "d1", "r1", chunks)
    current = json.loads(store.get("index/ns/d1.json") or b"")
    as_written_by_json = json.loads(json.dumps([chunk_to_dict(chunk) for chunk in chunks]))
    assert current == {"format": INDEX_FORMAT, "document_id": "d1", "revision": "r1", "chunks": as_written_by_json}
    assert EmbeddedIndex(store).fetch("ns", ["c0001", "c0002"]) == chunks
    current["format"] = INDEX_FORMAT + 1
    store.put("index/ns/d1.json", dumps(current))
    with pytest.raises(ValueError, match="rebuild"):
        EmbeddedIndex(store).count("ns", SearchFilters())


def test_weighted_query_terms_scale_each_terms_score(tmp_path, corpus: list[Chunk]) -> None:  # type: ignore[no-untyped-def]
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r1", corpus)
    repeated = dict(index.rank("ns", "content", ["seal", "seal", "leak"], SearchFilters(), 200))
    weighted = dict(index.rank("ns", "content", {"seal": 2.0, "leak": 1.0, "unknown": 3.0}, SearchFilters(), 200))
    assert repeated and weighted == pytest.approx(repeated, rel=1e-12)
    half = dict(index.rank("ns", "content", {"seal": 0.5}, SearchFilters(), 200))
    full = dict(index.rank("ns", "content", ["seal"], SearchFilters(), 200))
    assert half == pytest.approx({cid: score / 2 for cid, score in full.items()}, rel=1e-12)


class FailingStore(LocalStore):
    """A folder store whose puts fail from the `fail_at`-th on (counted from 1), as a full disk would."""

    def __init__(self, root: object, fail_at: int) -> None:
        super().__init__(root)  # type: ignore[arg-type]
        self.fail_at = fail_at
        self.puts = 0

    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None:
        self.puts += 1
        if self.puts >= self.fail_at:
            raise OSError(28, "No space left on device")
        super().put(key, data, content_type=content_type)


def _versions(old: str, new: str) -> tuple[list[DocumentChunks], list[DocumentChunks]]:
    def document(d: int, word: str) -> DocumentChunks:
        return DocumentChunks(f"d{d}", word, [make_chunk(d, f"{word} valve {d}", f"d{d}")])

    return [document(d, old) for d in range(5)], [document(d, new) for d in range(5)]


def _holding(index: EmbeddedIndex, word: str) -> set[str]:
    return {chunk_id for chunk_id, _ in index.rank("ns", "content", analyze(word), SearchFilters(), 10)}


def test_a_failed_write_keeps_the_written_documents_and_the_old_versions_of_the_rest(tmp_path) -> None:  # type: ignore[no-untyped-def]
    old, new = _versions("gasket", "flange")
    store = FailingStore(tmp_path, fail_at=1_000)
    index = EmbeddedIndex(store)
    index.write("ns", old)
    store.fail_at = store.puts + 3  # the third object of the next call fails
    with pytest.raises(OSError, match="No space left"):
        index.write("ns", new)
    for reader in (index, EmbeddedIndex(LocalStore(tmp_path))):  # memory, and the store read afresh
        assert _holding(reader, "flange") == {"c0000", "c0001"}
        assert _holding(reader, "gasket") == {"c0002", "c0003", "c0004"}
        assert reader.count("ns", SearchFilters()) == 5


def test_a_failed_analysis_leaves_the_index_as_the_store_holds_it(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    old, new = _versions("gasket", "flange")
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.write("ns", old)

    def broken(texts: object) -> object:
        raise MemoryError("analysis ran out of memory")

    monkeypatch.setattr(index._terms, "text_terms", broken)
    with pytest.raises(MemoryError):
        index.write("ns", new)
    monkeypatch.undo()
    assert _holding(index, "flange") == _holding(EmbeddedIndex(LocalStore(tmp_path)), "flange")
    assert _holding(index, "flange") | _holding(index, "gasket") == {f"c{d:04d}" for d in range(5)}


def test_a_load_leaves_the_cycle_collector_as_it_found_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import gc

    EmbeddedIndex(LocalStore(tmp_path)).upsert("ns", "d1", "r1", [make_chunk(1, "valve seal")])
    assert gc.isenabled()
    assert EmbeddedIndex(LocalStore(tmp_path)).count("ns", SearchFilters()) == 1
    assert gc.isenabled()
    gc.disable()
    try:
        assert EmbeddedIndex(LocalStore(tmp_path)).count("ns", SearchFilters()) == 1
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_large_document_analyzed_in_slices_has_the_postings_of_one_analysis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(7)
    words = ["seal", "valve", "TX-100", "pump", "flange", "bolt", "200 bar", "torque", "gasket", "rotor"]
    chunks = [make_chunk(i, " ".join(rng.choices(words, k=rng.randint(3, 40)))) for i in range(300)]
    whole = EmbeddedIndex(LocalStore(tmp_path / "whole"))
    whole.write("ns", [DocumentChunks("d1", "r1", chunks)])
    monkeypatch.setattr(embedded, "ANALYSIS_CHARS", 500)  # dozens of slices, some of one chunk
    sliced = EmbeddedIndex(LocalStore(tmp_path / "sliced"))
    sliced.write("ns", [DocumentChunks("d1", "r1", chunks)])
    channels: dict[Channel, Callable[[str], list[str]]] = {"content": analyze, "term": raw_terms}
    for query in ("seal valve", "TX-100 torque", "200 bar gasket", "rotor"):
        for channel, terms_of in channels.items():
            ranked = sliced.rank("ns", channel, terms_of(query), SearchFilters(), 50)
            assert ranked and ranked == whole.rank("ns", channel, terms_of(query), SearchFilters(), 50)
