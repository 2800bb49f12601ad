"""The SearchBackend contract, run against every backend: the embedded BM25 index and a real OpenSearch node.

OpenSearch cases carry the `opensearch` marker and skip when no node answers at $OPENSEARCH_URL (default
http://127.0.0.1:9200), except under CI=true, where they fail. Each test gets its own OpenSearch index
(a unique name per session plus a counter) so BM25 statistics never leak between tests.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from docshelf.errors import IndexBackendError, InvalidConfigError
from docshelf.index.analyzer import analyze
from docshelf.index.base import DocumentChunks, SearchBackend
from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.opensearch import OpenSearchIndex
from docshelf.index.opensearch.client import opensearch_client
from docshelf.index.opensearch.tenancy import Tenancy
from docshelf.index.plan import Channel, ExpansionPlan, SearchFilters
from docshelf.model import Chunk, Link
from docshelf.search.corrections import SPELLING_RULE
from docshelf.search.query import channel_query, query_plan
from docshelf.search.ranking import RankingSettings
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from docshelf.store import LocalStore
from docshelf.tokens import count_tokens
from tests.support.backends import OneCallAtATime

OPENSEARCH_URL = os.environ.get("OPENSEARCH_URL", "http://127.0.0.1:9200")
SESSION_PREFIX = f"docshelftest-{uuid.uuid4().hex[:8]}"
ALL = SearchFilters()
# opensearch-shared: the shared tenancy (namespaces in filtered aliases over a shared index), same contract.
BACKENDS = [
    "embedded",
    pytest.param("opensearch", marks=pytest.mark.opensearch),
    pytest.param("opensearch-shared", marks=pytest.mark.opensearch),
]
SHARED = Tenancy("shared", shared_indices=1)


@pytest.fixture(scope="session")
def opensearch(opensearch_node: Any) -> Iterator[Any]:
    yield opensearch_node
    opensearch_node.indices.delete(index=f"{SESSION_PREFIX}-*", ignore_unavailable=True)


_numbers = itertools.count(1)


def _opensearch_index(client: Any, name: str | None = None, tenancy: Tenancy | None = None) -> OpenSearchIndex:
    return OpenSearchIndex(client, index=name or f"{SESSION_PREFIX}-{next(_numbers)}", refresh=True, tenancy=tenancy)


@pytest.fixture(params=BACKENDS)
def engines(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[SearchBackend, SearchBackend]]:
    """Two handles on one index, as two processes have: the second reads what the first writes."""
    if request.param == "embedded":
        yield EmbeddedIndex(LocalStore(tmp_path / "store")), EmbeddedIndex(LocalStore(tmp_path / "store"))
        return
    tenancy = SHARED if request.param == "opensearch-shared" else None
    first = _opensearch_index(request.getfixturevalue("opensearch"), tenancy=tenancy)
    yield first, _opensearch_index(first.client, first.index, tenancy)
    first.drop_index()


@pytest.fixture
def index(engines: tuple[SearchBackend, SearchBackend]) -> SearchBackend:
    return engines[0]


CONTRACT = ["identity", "write", "delete", "first_pass", "expansion_pass", "count", "fetch", "list_chunks",
            "similar_terms", "document_frequencies", "commit", "reader"]  # fmt: skip


def test_the_contract_is_every_abstract_method() -> None:
    assert SearchBackend.__abstractmethods__ == frozenset(CONTRACT)
    whole = type("Whole", (SearchBackend,), {name: getattr(EmbeddedIndex, name) for name in CONTRACT})
    assert isinstance(whole(), SearchBackend)


@pytest.mark.parametrize("missing", CONTRACT)
def test_an_engine_lacking_a_contract_method_cannot_be_made(missing: str) -> None:
    lacking = type(
        "Lacking", (SearchBackend,), {name: getattr(EmbeddedIndex, name) for name in CONTRACT if name != missing}
    )
    with pytest.raises(TypeError, match=f"abstract method.* '?{missing}'?"):
        lacking()


def make_chunk(
    i: int,
    text: str,
    *,
    doc: str = "d1",
    name: str = "manual.pdf",
    section: tuple[str, ...] = ("Maintenance",),
    kind: str = "text",
    namespace: str = "ns",
    revision: str = "r1",
) -> Chunk:
    return Chunk(
        chunk_id=f"{doc}-c{i}", document_id=doc, namespace=namespace, type=kind, text=text,  # type: ignore[arg-type]
        section_path=section, pages=(i + 1,), token_count=count_tokens(text), ordinal=i, source_file_name=name,
        revision=revision,
    )  # fmt: skip


def ids(ranked: list[tuple[str, float]]) -> list[str]:
    return [cid for cid, _ in ranked]


def test_upsert_fetch_round_trip_and_count(index: SearchBackend) -> None:
    linked = Chunk(
        chunk_id="d1-t0", document_id="d1", namespace="ns", type="table", text="| Part | Torque |\n| M12 | 80 Nm |",
        section_path=("Specs", "Bolts"), pages=(3, 4), token_count=12, ordinal=2, source_file_name="manual.pdf",
        revision="r1", connect_to=(Link(target="assets/t0.html", relation="table", ref="t0", position=0),),
        overlap_chars=3,
    )  # fmt: skip
    chunks = [make_chunk(0, "Replace the stem seal."), make_chunk(1, "Check the valve."), linked]
    index.upsert("ns", "d1", "r1", chunks)
    assert index.count("ns", ALL) == 3
    assert index.fetch("ns", ["d1-t0", "missing", "d1-c0"]) == [linked, chunks[0]]
    assert index.fetch("ns", []) == []


def test_new_revision_replaces_the_old_one(index: SearchBackend) -> None:
    index.upsert("ns", "d1", "r1", [make_chunk(i, f"old seal text {i}") for i in range(4)])
    index.upsert("ns", "d2", "r1", [make_chunk(0, "another seal document", doc="d2", name="other.pdf")])
    new = [make_chunk(i, f"new gasket text {i}", revision="r2") for i in range(2)]
    index.upsert("ns", "d1", "r2", new)
    assert index.count("ns", ALL) == 3
    assert index.fetch("ns", ["d1-c2", "d1-c3"]) == []
    assert [c.text for c in index.list_chunks("ns", SearchFilters(documents=("d1",)), 10)] == [c.text for c in new]
    assert ids(index.rank("ns", "content", analyze("seal"), ALL, 10)) == ["d2-c0"]
    # Re-publishing the same revision changes nothing.
    index.upsert("ns", "d1", "r2", new)
    assert index.count("ns", ALL) == 3


def test_delete_removes_only_that_document(index: SearchBackend) -> None:
    index.upsert("ns", "d1", "r1", [make_chunk(i, f"seal {i}") for i in range(3)])
    index.upsert("ns", "d2", "r1", [make_chunk(0, "seal other", doc="d2", name="b.pdf")])
    index.delete("ns", "d1")
    index.delete("ns", "never-indexed")
    assert index.count("ns", ALL) == 1
    assert ids(index.rank("ns", "content", ["seal"], ALL, 10)) == ["d2-c0"]
    assert index.fetch("ns", ["d1-c0"]) == []


def _filter_corpus(index: SearchBackend) -> None:
    index.upsert("ns", "d1", "r1", [
        make_chunk(0, "pump seal replacement", section=("Maintenance", "Seals")),
        make_chunk(1, "pump seal torque table", kind="table", section=("Specs",)),
    ])  # fmt: skip
    index.upsert("ns", "d2", "r1", [
        make_chunk(0, "seal inspection checklist", doc="d2", name="guide.docx", section=("Intro",)),
        make_chunk(1, "seal storage", doc="d2", name="guide.docx", section=("Appendix", "Seals")),
    ])  # fmt: skip


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (SearchFilters(documents=("d2",)), {"d2-c0", "d2-c1"}),
        (SearchFilters(documents=("d1", "d2"), exclude_sections=("Seals",)), {"d1-c1", "d2-c0"}),
        (SearchFilters(documents=("manual.pdf",)), {"d1-c0", "d1-c1"}),
        (SearchFilters(exclude_documents=("guide.docx",)), {"d1-c0", "d1-c1"}),
        (SearchFilters(exclude_sections=("Seals",)), {"d1-c1", "d2-c0"}),
        (SearchFilters(chunk_types=("table",)), {"d1-c1"}),
        (SearchFilters(documents=("d1", "guide.docx"), chunk_types=("text",), exclude_sections=("Intro",)),
         {"d1-c0", "d2-c1"}),
    ],
)  # fmt: skip
def test_filters_apply_to_rank_count_and_listing(
    index: SearchBackend, filters: SearchFilters, expected: set[str]
) -> None:
    _filter_corpus(index)
    assert set(ids(index.rank("ns", "content", ["seal"], filters, 10))) == expected
    assert index.count("ns", filters) == len(expected)
    assert {c.chunk_id for c in index.list_chunks("ns", filters, 10)} == expected


def test_filters_apply_before_the_limit(index: SearchBackend) -> None:
    index.upsert("ns", "d1", "r1", [make_chunk(i, "seal seal seal") for i in range(20)])
    index.upsert("ns", "d2", "r1", [make_chunk(0, "seal and many other words here", doc="d2", name="b.pdf")])
    assert ids(index.rank("ns", "content", ["seal"], SearchFilters(documents=("d2",)), 1)) == ["d2-c0"]


def test_list_chunks_in_document_order(index: SearchBackend) -> None:
    index.upsert("ns", "d2", "r1", [make_chunk(i, f"beta {i}", doc="d2", name="b.txt") for i in (2, 0, 1)])
    index.upsert("ns", "d1", "r1", [make_chunk(i, f"alpha {i}", doc="d1", name="a.txt") for i in (1, 0)])
    listed = [c.chunk_id for c in index.list_chunks("ns", ALL, 10)]
    assert listed == ["d1-c0", "d1-c1", "d2-c0", "d2-c1", "d2-c2"]
    assert [c.chunk_id for c in index.list_chunks("ns", ALL, 3)] == listed[:3]


def test_namespaces_are_isolated(index: SearchBackend) -> None:
    index.upsert("ns", "d1", "r1", [make_chunk(0, "valve seal")])
    index.upsert(
        "other", "d1", "r1", [make_chunk(0, "valve seal", namespace="other"), make_chunk(1, "x", namespace="other")]
    )
    assert index.count("ns", ALL) == 1 and index.count("other", ALL) == 2
    assert [c.namespace for c in index.fetch("ns", ["d1-c0", "d1-c1"])] == ["ns"]
    index.delete("other", "d1")
    assert index.count("other", ALL) == 0
    assert ids(index.rank("ns", "content", ["seal"], ALL, 10)) == ["d1-c0"]
    assert ids(index.rank("other", "content", ["seal"], ALL, 10)) == []


def test_a_namespace_ranks_by_its_own_statistics(index: SearchBackend) -> None:
    """Another namespace's chunks change no score here: its chunk count, term frequencies and lengths are its
    own (on OpenSearch, one index per namespace; a shared index counts them all: docs/evaluation/tenancy.md)."""
    if isinstance(index, OpenSearchIndex) and index.tenancy.shared:
        pytest.skip("a shared index's BM25 statistics are its namespaces' together, by design")
    index.upsert("ns", "d1", "r1", [make_chunk(0, "pump pump pump housing"), make_chunk(1, "gasket for the valve")])
    index.upsert(
        "ns", "d2", "r1", [make_chunk(i, f"valve seat and pump {i}" if i < 1 else "notes", doc="d2") for i in range(6)]
    )
    alone = index.rank("ns", "content", analyze("pump valve"), ALL, 10)
    assert len(alone) == 3 and all(score > 0 for _, score in alone)
    crowd = [make_chunk(i, f"pump impeller {i} " + "filler " * (i % 9), namespace="other") for i in range(60)]
    index.upsert("other", "d1", "r1", crowd)
    assert index.count("other", ALL) == 60
    assert index.rank("ns", "content", analyze("pump valve"), ALL, 10) == alone


def test_a_query_that_matches_nothing_is_searched_again_with_misspelt_words_corrected(index: SearchBackend) -> None:
    texts = [
        "The parliament of Victoria meets in Melbourne.",
        "Septicemic plague spreads through the blood.",
        "The parlement of Paris was a court of appeal.",
        "Replace the gasket every six months.",
    ] + [f"Filler note {i} about the canteen opening hours." for i in range(12)]
    index.upsert("ns", "d1", "r1", [make_chunk(i, text) for i, text in enumerate(texts)])
    similar = index.similar_terms("ns", ["parliment", "septicemia", "zzzzz"], SPELLING_RULE)
    assert {term: sorted(found) for term, found in similar.items()} == {
        "parliment": [("parlement", 1), ("parliament", 1)],
        "septicemia": [("septicem", 1)],
    }
    assert index.similar_terms("unused", ["parliment"], SPELLING_RULE) == {}

    response = search(index, SearchRequest(namespace="ns", query="the parliment", top_k=3))
    assert response.corrections == {"parliment": "parlement"}  # one edit each, as common: alphabetical
    assert response.results[0].chunk.text.startswith("The parlement")
    response = search(index, SearchRequest(namespace="ns", query="What is septicemik?", top_k=3))
    assert response.corrections == {"septicemik": "septicem"}
    assert [r.chunk.chunk_id for r in response.results] == ["d1-c1"]
    # A word of the language is never rewritten, though one edit from an indexed term: "leave" is not "leak".
    index.upsert("ns", "d2", "r1", [make_chunk(0, "The valve leaks at the stem.", doc="d2")])
    response = search(index, SearchRequest(namespace="ns", query="annual leave for recent hires", top_k=3))
    assert response.corrections == {} and response.results == [] and response.empty_reason == "no_match"
    response = search(index, SearchRequest(namespace="ns", query="annual leaak", top_k=3))
    assert response.corrections == {"leaak": "leak"}  # the word typed names a correction
    # A query with a term that matches is searched as written.
    response = search(index, SearchRequest(namespace="ns", query="parliment gasket", top_k=3))
    assert response.corrections == {} and response.results[0].chunk.chunk_id == "d1-c3"
    assert search(index, SearchRequest(namespace="ns", query="zzzzzz", top_k=3)).results == []


def test_a_namespace_never_written_is_empty(index: SearchBackend) -> None:
    index.upsert("ns", "d1", "r1", [make_chunk(0, "valve seal")])
    assert index.count("unused", ALL) == 0
    assert index.rank("unused", "content", ["seal"], ALL, 10) == []
    assert index.fetch("unused", ["d1-c0"]) == []
    assert index.list_chunks("unused", ALL, 10) == []
    index.delete("unused", "d1")
    response = search(index, SearchRequest(namespace="unused", query="valve seal"))
    assert (response.results, response.total_chunks, response.evidence_text) == ([], 0, "")
    if isinstance(index, OpenSearchIndex):  # reads create nothing
        assert not index.client.indices.exists_alias(name=index.alias("unused"))


def test_search_service_with_budget_and_citations(index: SearchBackend) -> None:
    texts = ["Replace the stem seal every 6 months.", "Torque the M12 bolts to 80 Nm on the TX-100."] + [
        f"Unrelated paragraph number {i} about shipping and invoices." for i in range(20)
    ]
    index.upsert("ns", "d1", "r1", [make_chunk(i, t) for i, t in enumerate(texts)])
    response = search(index, SearchRequest("ns", "how often replace the seal?", top_k=3, max_tokens=40))
    assert response.results[0].chunk.chunk_id == "d1-c0"
    assert response.results[0].channel_ranks["content"] == 0
    assert response.total_chunks == 22
    assert response.evidence_text.startswith("[1] manual.pdf › Maintenance, p. 1\nReplace the stem seal")
    assert response.evidence_chunks >= 1 and count_tokens(response.evidence_text) <= 40
    by_part = search(index, SearchRequest("ns", "tx100", top_k=1))
    assert [r.chunk.chunk_id for r in by_part.results] == ["d1-c1"]
    excluded = search(index, SearchRequest("ns", "seal", filters=SearchFilters(exclude_sections=("Maintenance",))))
    assert excluded.results == [] and excluded.total_chunks == 0
    small = search(index, SearchRequest("ns", "seal", top_k=5, filters=SearchFilters(documents=("nothing",))))
    assert small.results == []


def test_small_corpus_returns_everything_in_document_order(index: SearchBackend) -> None:
    index.upsert("ns", "d1", "r1", [make_chunk(i, f"part {i}") for i in range(3)])
    response = search(index, SearchRequest("ns", "unrelated words", top_k=8))
    assert [r.chunk.chunk_id for r in response.results] == ["d1-c0", "d1-c1", "d1-c2"]


def test_small_corpus_is_ranked_best_first_with_the_rest_after(index: SearchBackend) -> None:
    texts = ["part zero about trains", "part one about seals", "part two about trucks"]
    index.upsert("ns", "d1", "r1", [make_chunk(i, text) for i, text in enumerate(texts)])
    response = search(index, SearchRequest("ns", "seals", top_k=8, max_tokens=30))
    assert [r.chunk.chunk_id for r in response.results] == ["d1-c1", "d1-c0", "d1-c2"]
    assert response.results[0].score > 0 and [r.score for r in response.results[1:]] == [0.0, 0.0]
    assert "about seals" in response.evidence_text.split("\n\n")[0]


def test_the_passage_vote_lifts_the_chunk_where_the_query_terms_meet(index: SearchBackend) -> None:
    """search/passage_vote.py through either engine: among parts of long documents, the chunk whose sentence holds
    the question's terms passes one that scatters them; one-chunk documents and CJK queries are ranked as before."""
    fill = "The archive holds letters, maps and ledgers from the period."
    scattered = " ".join(
        [
            "Ribault sailed along the coast.",
            fill,
            fill,
            "The river mouth was charted twice.",
            fill,
            fill,
            "Ribault wrote of the land.",
            fill,
            "A claim dispute came much later.",
            "The river froze.",
        ]
    )
    answer = " ".join([fill, fill, "In 1562 Ribault claimed the land at the river for France.", *[fill] * 5])
    for doc, text in (("a", scattered), ("b", answer)):
        index.upsert("ns", doc, "r1", [make_chunk(0, f"Chapter {doc}. {fill}", doc=doc, name=f"{doc}.txt"),
                                       make_chunk(1, text, doc=doc, name=f"{doc}.txt")])  # fmt: skip
    index.upsert("ns", "c", "r1", [make_chunk(i, f"Note {i} on ships and weather.", doc="c") for i in range(8)])
    question = SearchRequest("ns", "when did Ribault claim the land at the river", top_k=3)

    def first(request: SearchRequest, weight: float) -> list[str]:
        return ids(
            [
                (r.chunk.chunk_id, r.score)
                for r in search(index, request, RankingSettings(passage_vote_weight=weight)).results
            ]
        )

    assert first(question, 0.0)[:2] == ["a-c1", "b-c1"]
    assert first(question, 8.0)[:2] == ["b-c1", "a-c1"]
    # The same question with a Chinese name no chunk holds: no vote, so the fused order stands.
    assert first(replace(question, query=f"{question.query} 里博"), 8.0)[:2] == ["a-c1", "b-c1"]


# Chunks of 3 to 20 words (lengths Lucene's one-byte norms hold exactly), some words in more than half of them
# (where an idf floor decides), a word repeated in some.
WORDS = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
    "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor",
]  # fmt: skip


def _mixed_corpus() -> list[Chunk]:
    rng = random.Random(5)
    chunks = []
    for i in range(40):
        words = [WORDS[(i * 7 + j * j) % len(WORDS)] for j in range(rng.randint(3, 18))]
        words += ["common"] * rng.randint(1, 2) if i % 3 else []
        chunks.append(make_chunk(i, " ".join(words), doc=f"doc{i % 4}", name=f"file{i % 4}.txt"))
    return chunks


@pytest.mark.parametrize(
    "query", ["alpha", "kilo victor", "echo echo golf", "romeo sierra tango", "papa", "common", "common alpha"]
)
@pytest.mark.opensearch
def test_scores_and_results_agree_with_the_embedded_index(opensearch: Any, tmp_path: Path, query: str) -> None:
    embedded = EmbeddedIndex(LocalStore(tmp_path))
    remote = _opensearch_index(opensearch)
    try:
        for doc in sorted({c.document_id for c in _mixed_corpus()}):
            chunks = [c for c in _mixed_corpus() if c.document_id == doc]
            embedded.upsert("ns", doc, "r1", chunks)
            remote.upsert("ns", doc, "r1", chunks)
        terms = analyze(query)
        expected = embedded.rank("ns", "content", terms, ALL, 40)
        assert expected, "the query must match something"
        got = remote.rank("ns", "content", terms, ALL, 40)
        assert [cid for cid, _ in got] == [cid for cid, _ in expected]
        assert [score for _, score in got] == pytest.approx([score for _, score in expected], rel=1e-5)
        request = SearchRequest("ns", query, top_k=8)
        remote_top = [r.chunk.chunk_id for r in search(remote, request).results]
        assert remote_top == [r.chunk.chunk_id for r in search(embedded, request).results]
    finally:
        remote.drop_index()


@pytest.mark.opensearch
def test_rejected_chunk_fails_only_its_document(opensearch: Any) -> None:
    remote = _opensearch_index(opensearch)
    try:
        remote.upsert("ns", "d2", "r1", [make_chunk(0, "old revision of two", doc="d2")])
        immense = ("x" * 40_000,)  # a keyword term over Lucene's 32766-byte limit is rejected per item
        rejected = make_chunk(2, "bad", doc="d2", section=immense)
        failures = remote.write(
            "ns",
            [
                DocumentChunks("d1", "r1", [make_chunk(0, "good seal chunk")]),
                DocumentChunks("d2", "r2", [make_chunk(1, "new text", doc="d2"), rejected]),
            ],
        )
        assert list(failures) == ["d2"] and "d2-c2" in failures["d2"]
        assert ids(remote.rank("ns", "content", ["seal"], ALL, 10)) == ["d1-c0"]
        # d2 keeps its previous revision, and none of the new one.
        assert [c.chunk_id for c in remote.list_chunks("ns", SearchFilters(documents=("d2",)), 10)] == ["d2-c0"]
        with pytest.raises(IndexBackendError, match="document d2"):
            remote.upsert("ns", "d2", "r2", [rejected])
    finally:
        remote.drop_index()


@pytest.mark.opensearch
def test_small_bulk_batches_and_ensure_index_is_idempotent(opensearch: Any) -> None:
    remote = OpenSearchIndex(
        opensearch, index=f"{SESSION_PREFIX}-{next(_numbers)}", refresh="wait_for", max_batch_bytes=600
    )
    try:
        # A template of the same name with another pattern ("<prefix>*") is replaced; then nothing changes.
        opensearch.indices.put_index_template(name=remote.index, body={"index_patterns": [f"{remote.index}*"]})
        remote.ensure_index()
        template = opensearch.indices.get_index_template(name=remote.index)["index_templates"][0]["index_template"]
        assert template["index_patterns"] == [f"{remote.index}.*"]
        remote.ensure_index()
        remote.upsert("ns", "d1", "r1", [make_chunk(i, f"seal number {i}") for i in range(30)])
        assert remote.count("ns", ALL) == 30
        remote.upsert("ns", "d1", "r2", [make_chunk(i, f"seal number {i}") for i in range(5)])
        assert remote.count("ns", ALL) == 5
        assert opensearch.indices.exists_alias(name=remote.alias("ns"))
        assert list(opensearch.indices.get_alias(name=remote.alias("ns"))) == [f"{remote.index}.ns.v1"]
    finally:
        remote.drop_index()


@pytest.mark.opensearch
def test_each_namespace_gets_a_strict_index_on_first_publish(opensearch: Any) -> None:
    """Made by the publish itself, with the template's mapping even when the template is gone (the first write of a
    process puts it); `drop_index` removes every namespace's index."""
    remote = OpenSearchIndex(opensearch, index=f"{SESSION_PREFIX}-{next(_numbers)}", refresh=True)
    try:
        remote.upsert("a", "d1", "r1", [make_chunk(0, "seal", namespace="a")])
        assert opensearch.indices.exists_index_template(name=remote.index)
        opensearch.indices.delete_index_template(name=remote.index)
        remote.upsert("b", "d1", "r1", [make_chunk(0, "seal", namespace="b")])
        assert not opensearch.indices.exists_index_template(name=remote.index)
        names = sorted(opensearch.indices.get(index=f"{remote.index}.*"))
        assert names == [f"{remote.index}.a.v1", f"{remote.index}.b.v1"]
        mapping = opensearch.indices.get_mapping(index=names[1])[names[1]]["mappings"]
        assert mapping["dynamic"] == "strict" and mapping["properties"]["content_terms"]["analyzer"] == "whitespace"
        assert remote.count("a", ALL) == remote.count("b", ALL) == 1
    finally:
        remote.drop_index()
    assert not opensearch.indices.get(index=f"{remote.index}.*", allow_no_indices=True)


def test_index_prefix_must_leave_room_for_the_namespace() -> None:
    with pytest.raises(InvalidConfigError):
        OpenSearchIndex(object(), index="x" * 152)
    with pytest.raises(InvalidConfigError):
        OpenSearchIndex(object(), index="Docshelf")


@pytest.mark.opensearch
def test_cli_runs_on_opensearch(opensearch: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from docshelf.local.cli import main

    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "manual.txt").write_text("Maintenance\n\nReplace the stem seal every 6 months.\n", encoding="utf-8")
    (docs / "notes.txt").write_text("Notes\n\nShipping takes five days.\n", encoding="utf-8")
    name = f"{SESSION_PREFIX}-{next(_numbers)}"
    common = ["--store", str(tmp_path / "store"), "--namespace", "acme", "--backend", "opensearch"]
    common += ["--opensearch-url", OPENSEARCH_URL, "--opensearch-index", name]
    try:
        # The same store published into the embedded index first: those files are not "unchanged" for OpenSearch.
        assert main(["ingest", str(docs), "--store", str(tmp_path / "store"), "--namespace", "acme", "--quiet"]) == 0
        capsys.readouterr()
        assert main(["ingest", str(docs), *common, "--quiet"]) == 0
        assert "2 ok, 0 failed" in capsys.readouterr().out
        assert main(["search", "stem seal", *common, "--top-k", "1"]) == 0
        assert "[1] manual.txt" in capsys.readouterr().out
        assert main(["delete", "manual.txt", *common]) == 0
        capsys.readouterr()
        assert main(["search", "stem seal", *common, "--json"]) == 0
        assert [r["source_file_name"] for r in json.loads(capsys.readouterr().out)["results"]] == ["notes.txt"]
    finally:
        OpenSearchIndex(opensearch, index=name).drop_index()


def test_path_channel_needs_every_query_term(index: SearchBackend) -> None:
    """The search's plan asks all of a path query's terms (search/query.py, `path_min_share`); every engine holds
    to `min_match`."""
    index.upsert("ns", "d1", "r1", [make_chunk(0, "intro", name="american-broadcasting-company.txt", section=())])
    index.upsert("ns", "d2", "r1", [make_chunk(0, "intro", doc="d2", name="vacation-policy.txt", section=())])

    def path_ranking(query: str, channel: Channel = "path") -> list[str]:
        planned = channel_query(channel, analyze(query))
        return ids(index.rank("ns", channel, planned.terms, ALL, 10, planned.min_match))

    long_question = "which company financed the businessmen and their bank"
    assert path_ranking(long_question) == []
    assert ids(index.rank("ns", "path", analyze(long_question), ALL, 10)) == ["d1-c0"]  # one term is enough
    assert path_ranking("company news") == []
    assert path_ranking("american company") == ["d1-c0"]
    assert path_ranking("vacation days policy") == []
    assert path_ranking("vacation policy") == ["d2-c0"]
    assert path_ranking(long_question, "content") == []


def test_a_reader_sees_what_another_handle_committed(engines: tuple[SearchBackend, SearchBackend]) -> None:
    writer, other = engines
    writer.upsert("ns", "d1", "r1", [make_chunk(0, "valve seal")])
    writer.commit()
    assert ids(other.reader("ns", 1).rank("ns", "content", ["seal"], ALL, 10)) == ["d1-c0"]
    writer.upsert("ns", "d2", "r1", [make_chunk(0, "seal kit", doc="d2", name="kit.pdf")])
    writer.delete("ns", "d1")
    writer.commit()
    assert ids(other.reader("ns", 3).rank("ns", "content", ["seal"], ALL, 10)) == ["d2-c0"]
    assert other.reader("ns", 3).count("ns", ALL) == 1 and writer.identity == other.identity


def test_the_expansion_pass_leaves_out_common_terms(index: SearchBackend) -> None:
    texts = ["pump seal", "pump valve", "pump gasket", "seal valve"]
    index.upsert("ns", "d1", "r1", [make_chunk(i, text) for i, text in enumerate(texts)])
    plan = ExpansionPlan({"gasket": 0.5}, {"pump": 0.25, "valv": 0.25, "unknown": 0.1}, ALL, 10)
    # "pump" is in three of the four chunks: left out, so the chunk it alone matches is not ranked.
    assert set(ids(index.expansion_pass("ns", plan).ranking)) == {"d1-c1", "d1-c2", "d1-c3"}
    rare_enough = ExpansionPlan(plan.query, plan.expansion, ALL, 10, common_share=0.8)
    assert set(ids(index.expansion_pass("ns", rare_enough).ranking)) == {f"d1-c{i}" for i in range(4)}


def test_the_first_pass_reads_the_feedback_chunks_terms_and_the_content_idf(index: SearchBackend) -> None:
    texts = ["Pump impeller, pump casing: the TX-100 pump.", "密封圈每六个月更换一次。", "", "Seals and seals."]
    index.upsert("ns", "d1", "r1", [make_chunk(i, text) for i, text in enumerate(texts)])
    terms = sorted({term for text in texts for term in analyze(text)})
    plan = query_plan({"content": terms}, ALL, 10, 10)
    first = index.first_pass("ns", plan)
    assert first.total == 4 and {cid for cid, _ in first.rankings["content"]} == {"d1-c0", "d1-c1", "d1-c3"}
    read = {cid: first.content_frequencies[cid] for cid in ("d1-c0", "d1-c1", "d1-c3")}
    assert read == {f"d1-c{i}": dict(Counter(analyze(texts[i]))) for i in (0, 1, 3)}
    assert set(first.content_idf) == set(terms) and first.content_idf["pump"] > 0


def test_document_frequencies_count_the_namespaces_chunks_holding_each_term(index: SearchBackend) -> None:
    index.upsert("ns", "d1", "r1", [make_chunk(i, text) for i, text in enumerate(["pump seal", "pump valve"])])
    index.upsert("ns", "d2", "r1", [make_chunk(0, "pump gasket", doc="d2")])
    index.upsert("other", "d3", "r1", [make_chunk(0, "seal seal seal", doc="d3", namespace="other")])
    index.commit()
    chunks, holding = index.document_frequencies("ns", ["pump", "seal", "gasket", "absent"])
    assert chunks == 3 and {term: n for term, n in holding.items() if n} == {"pump": 3, "seal": 1, "gasket": 1}
    many = [f"term{i}" for i in range(2_500)]  # more than one aggregation's worth of terms
    assert index.document_frequencies("ns", [*many, "pump"])[1].get("pump") == 3
    assert index.document_frequencies("never", ["pump"]) == (0, {})


class _RequestLog:
    def __init__(self, client: Any) -> None:
        self.paths: list[str] = []
        send = client.transport.perform_request

        def logged(method: str, url: str, *args: Any, **kwargs: Any) -> Any:
            self.paths.append(url.rsplit("/", 1)[-1])
            return send(method, url, *args, **kwargs)

        client.transport.perform_request = logged


def _pump_manual(seed: int = 3) -> list[Chunk]:
    """Sixty chunks of up to twelve words: `motor` and `pump` in most, the rest drawn at random."""
    rng = random.Random(seed)
    words = [*WORDS, "seal", "valve", "gasket", "impeller", "casing", "bearing", "shaft", "TX-100", "80"]
    chunks = []
    for i in range(60):
        text = " ".join(["motor"] * (i % 3 != 0) + ["pump"] * (i % 5 < 3) + rng.choices(words, k=10))
        chunks.append(make_chunk(i, text, doc=f"doc{i % 6}", name=f"manual{i % 6}.txt", section=(f"Part {i % 4}",)))
    return chunks


PASS_QUERIES = ["motor pump seal", "impeller casing", "TX-100 bearing", "alpha bravo motor", "shaft", "gasket valve 80"]


@pytest.fixture
def logged_remote(opensearch: Any) -> Iterator[tuple[OpenSearchIndex, _RequestLog]]:
    """An OpenSearch index on a client of its own whose requests are logged."""
    client = opensearch_client(OPENSEARCH_URL)
    log = _RequestLog(client)
    remote = _opensearch_index(client)
    try:
        yield remote, log
    finally:
        remote.drop_index()
        client.close()


@pytest.mark.opensearch
def test_two_passes_give_the_sequential_results_in_two_requests(
    logged_remote: tuple[OpenSearchIndex, _RequestLog],
) -> None:
    remote, log = logged_remote
    chunks = _pump_manual()
    for doc in sorted({c.document_id for c in chunks}):
        remote.upsert("ns", doc, "r1", [c for c in chunks if c.document_id == doc])
    reference = OneCallAtATime(remote)
    assert reference.common_terms("ns", ["motor", "pump", "seal"], ExpansionPlan({}, {})) == {"motor", "pump"}
    filtered = SearchFilters(exclude_documents=("doc1",), chunk_types=("text",))
    requests = [SearchRequest("ns", q, top_k=5) for q in PASS_QUERIES]
    requests += [SearchRequest("ns", q, top_k=12, filters=filtered) for q in PASS_QUERIES[:3]]
    for attempt in ("cold", "warm"):
        for request in requests:
            expected = search(reference, request)
            del log.paths[:]
            found = search(remote, request)
            assert [(r.chunk, r.score, r.channel_ranks) for r in found.results] == [
                (r.chunk, r.score, r.channel_ranks) for r in expected.results
            ]
            assert found.total_chunks == expected.total_chunks and found.evidence_text == expected.evidence_text
            # The expansion pass ranks again only when its guess of the common terms was wrong, which a warm
            # memory never is; a result the first pass did not foresee is fetched on its own.
            msearches = log.paths.count("_msearch")
            assert (msearches == 2) if attempt == "warm" else (msearches in (2, 3))
            assert set(log.paths) <= {"_msearch", "_mget"} and log.paths.count("_mget") <= 1
    assert remote.common_term_memory.guess("ns", ["motor", "pump", "seal"]) == {"motor", "pump"}  # checked, dropped


@pytest.mark.opensearch
def test_a_wrong_common_term_guess_is_ranked_again(logged_remote: tuple[OpenSearchIndex, _RequestLog]) -> None:
    remote, log = logged_remote
    chunks = _pump_manual()
    remote.upsert("ns", "d1", "r1", chunks)
    vocabulary = {term for chunk in chunks for term in analyze(chunk.text)}
    remote.common_term_memory.learn("ns", vocabulary, vocabulary)  # every term guessed common
    request = SearchRequest("ns", "impeller casing", top_k=5)
    expected = search(OneCallAtATime(remote), request)
    del log.paths[:]
    found = search(remote, request)
    assert [(r.chunk.chunk_id, r.score) for r in found.results] == [
        (r.chunk.chunk_id, r.score) for r in expected.results
    ]
    assert log.paths.count("_msearch") == 3
    assert remote.common_term_memory.guess("ns", ["motor", "pump", *analyze(request.query)]) == {"motor", "pump"}


def test_a_repeated_query_term_weighs_its_saturated_weight(index: SearchBackend) -> None:
    """The plan weighs a term written twice (k3 saturation, search/ranking.py) below twice its score; every engine
    multiplies the term's BM25 score by that weight, so the order turns where the weights say."""
    texts = ["seal seal seal kit", "gasket gasket gasket kit"] + [f"shipping note {i}" for i in range(6)]
    index.upsert("ns", "d1", "r1", [make_chunk(i, text) for i, text in enumerate(texts)])

    def content_ranking(query: str, ranking: RankingSettings) -> list[str]:
        planned = channel_query("content", analyze(query), ranking)
        return ids(index.rank("ns", "content", planned.terms, ALL, 2, planned.min_match))

    assert content_ranking("seal seal gasket", RankingSettings(repeat_saturation=8.0)) == ["d1-c0", "d1-c1"]
    assert content_ranking("seal gasket gasket", RankingSettings(repeat_saturation=8.0)) == ["d1-c1", "d1-c0"]
    assert channel_query("content", analyze("seal seal"), RankingSettings(repeat_saturation=8.0)).terms == {
        "seal": pytest.approx(18 / 10)
    }


def test_a_code_in_a_chunk_past_its_trigram_bound_is_still_found_by_the_term_channel(index: SearchBackend) -> None:
    from docshelf.index.analyzer import MAX_CHUNK_TRIGRAMS
    from docshelf.search.query import query_terms

    rows = [f"| P{number:05d}-K{number % 97:02d} | {number * 7919 % 100003} |" for number in range(400)]
    table = "\n".join(["| part | price |", "|---|---|", *rows])
    others = [make_chunk(i + 1, f"Unrelated note {i} about shipping.") for i in range(10)]
    index.upsert("ns", "d1", "r1", [make_chunk(0, table, kind="table"), *others])
    last = "P00399-K11"
    terms = query_terms(last)
    assert len({term for term in terms["term"] if term.startswith("#")}) > 0
    plan = query_plan(terms, SearchFilters(), 10, 0)
    ranked = index.first_pass("ns", plan).rankings["term"]
    assert [chunk_id for chunk_id, _ in ranked] == ["d1-c0"], MAX_CHUNK_TRIGRAMS


def test_the_trigram_bound_is_the_same_in_both_engines_analysis() -> None:
    import numpy as np

    from docshelf.index.analyzer import bounded_trigrams, content_and_raw_terms
    from docshelf.index.embedded.bm25 import Vocabulary
    from docshelf.index.embedded.term_table import TermTable

    rng = random.Random(5)
    texts = [
        " ".join(
            f"{rng.choice('ABCDEFGH')}{rng.randint(0, 99999)}-{rng.randint(0, 999)}" for _ in range(rng.randint(1, 300))
        )
        for _ in range(40)
    ]
    table = TermTable(Vocabulary())
    _content, (term_ids, owners) = table.text_terms(texts)
    term_ids, owners = table.bounded_trigrams(term_ids, owners)
    for number, text in enumerate(texts):
        expected = bounded_trigrams(content_and_raw_terms(text)[1])
        got = [table.vocabulary.terms[term] for term in term_ids[np.flatnonzero(owners == number)].tolist()]
        assert got == expected, number


def test_a_name_in_variant_kanji_is_found_by_its_common_form_and_the_other_way(index: SearchBackend) -> None:
    """﨑 and 髙 fold at index and query time in every engine: 山崎 finds 山﨑 and 髙橋 finds 高橋."""
    index.upsert("ns", "d1", "r1", [
        make_chunk(0, "問い合わせは総務部の山﨑（内線3306）まで。", section=("連絡先",)),
        make_chunk(1, "高橋一郎 総務部 内線3305", section=("名簿",)),
        make_chunk(2, "山田花子 営業部 内線3307", section=("名簿",)),
    ])  # fmt: skip
    for query, first in [("山崎", "d1-c0"), ("山﨑", "d1-c0"), ("高橋", "d1-c1"), ("髙橋", "d1-c1")]:
        assert ids(index.rank("ns", "content", analyze(query), ALL, 10))[0] == first, query
        assert search(index, SearchRequest("ns", f"{query}さんの内線", top_k=3)).results[0].chunk.chunk_id == first


def test_variant_kanji_fold_alike_in_the_embedded_term_table_and_the_analyzer() -> None:
    import numpy as np

    from docshelf.index.analyzer import content_and_raw_terms
    from docshelf.index.embedded.bm25 import Vocabulary
    from docshelf.index.embedded.term_table import TermTable

    texts = ["山﨑 花子 総務部", "髙橋の内線は3305", "𠮷野家と黑田 TX-100", "郞 鄕土 悅 緖"]
    table = TermTable(Vocabulary())
    (content_ids, content_owners), (raw_ids, raw_owners) = table.text_terms(texts)
    terms = table.vocabulary.terms
    for number, text in enumerate(texts):
        content, raw = content_and_raw_terms(text)
        assert [terms[term] for term in content_ids[np.flatnonzero(content_owners == number)].tolist()] == content
        assert [terms[term] for term in raw_ids[np.flatnonzero(raw_owners == number)].tolist()] == raw
        assert not {"﨑", "髙", "𠮷", "黑"} & set("".join(content + raw))
