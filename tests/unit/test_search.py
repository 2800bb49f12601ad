from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from docshelf.citations import format_pages
from docshelf.errors import IndexBackendError, InvalidNameError, InvalidQueryError
from docshelf.index.base import ExpansionPass, FirstPass
from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.plan import ExpansionPlan, QueryPlan, SearchFilters
from docshelf.model import Chunk
from docshelf.search.expansion import FEEDBACK_CHUNKS
from docshelf.search.packing import pack_evidence
from docshelf.search.query import query_terms
from docshelf.search.ranking import RANKING
from docshelf.search.request import SearchRequest
from docshelf.search.rrf import CHANNEL_WEIGHTS, RRF_K, fuse_rrf
from docshelf.search.service import search
from docshelf.store import LocalStore
from docshelf.tokens import count_tokens
from tests.support.backends import Delegating


def chunk(i: int, text: str, *, name: str = "manual.pdf", pages: tuple[int, ...] = (1,)) -> Chunk:
    return Chunk(
        chunk_id=f"c{i}", document_id="d1", namespace="ns", type="text", text=text, section_path=("Maintenance",),
        pages=pages, token_count=count_tokens(text), ordinal=i, source_file_name=name,
    )  # fmt: skip


def test_rrf_uses_weights_and_zero_based_ranks() -> None:
    fused = fuse_rrf({"content": ["a", "b"], "path": ["b"], "term": []})
    scores = {item: score for item, score, _ in fused}
    assert scores["a"] == pytest.approx(2.0 / 61)
    assert scores["b"] == pytest.approx(2.0 / 62 + 1.0 / 61)
    assert [item for item, _, _ in fused] == ["b", "a"]
    assert fused[0][2] == {"content": 1, "path": 0}


def test_evidence_fits_the_budget_with_citations() -> None:
    chunks = [chunk(i, f"Seal replacement step {i}. " * 20, pages=(i, i + 1)) for i in range(1, 6)]
    packed = pack_evidence(chunks, {"seal": 1.0}, max_tokens=300)
    assert 1 <= len(packed.blocks) <= 5
    assert count_tokens(packed.text) <= packed.tokens <= 300
    assert packed.text.startswith("[1] manual.pdf › Maintenance, pp. 1-2\n")
    assert format_pages([3]) == "p. 3" and format_pages([1, 4]) == "pp. 1, 4"


def test_search_ranks_and_cites(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    texts = ["Replace the stem seal every 6 months.", "Torque the M12 bolts to 80 Nm."] + [
        f"Unrelated paragraph number {i} about shipping." for i in range(20)
    ]
    index.upsert("ns", "d1", "r", [chunk(i, t, pages=(i + 1,)) for i, t in enumerate(texts)])
    response = search(index, SearchRequest("ns", "how often replace the seal?", top_k=3))
    assert response.results[0].chunk.chunk_id == "c0"
    assert response.results[0].channel_ranks["content"] == 0
    assert response.total_chunks == 22
    assert response.answer_text == ""
    assert response.evidence_text.startswith("[1] manual.pdf › Maintenance, p. 1\nReplace the stem seal")
    filtered = search(index, SearchRequest("ns", "seal", filters=SearchFilters(exclude_sections=("Maintenance",))))
    assert filtered.results == [] and filtered.total_chunks == 0


def test_a_chunk_its_passage_moves_up_takes_the_fused_score_of_its_new_place(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    filler = "Filler one here. Filler two here. Filler three here."
    spread = " ".join(f"{word.capitalize()} it. {filler}" for word in ["replace", "seal", "gasket"] * 2)
    together = "Replace the seal and gasket together. " + " ".join(f"Unrelated note {i} here." for i in range(12))
    texts = [spread, together] + [f"Unrelated paragraph number {i} about shipping." for i in range(12)]
    index.upsert("ns", "d1", "r", [chunk(i, text) for i, text in enumerate(texts)])
    request = SearchRequest("ns", "replace seal gasket", top_k=4)
    results = search(index, request, replace(RANKING, passage_vote_weight=0.0)).results  # the fused scores alone
    own_score = {
        r.chunk.chunk_id: sum(CHANNEL_WEIGHTS[name] / (RRF_K + rank + 1) for name, rank in r.channel_ranks.items())
        for r in results
    }
    assert [r.chunk.chunk_id for r in results[:2]] == ["c1", "c0"]
    assert results[0].channel_ranks["content"] == 1 and own_score["c0"] > own_score["c1"]  # moved by its passage
    assert [r.score for r in results] == sorted(own_score.values(), reverse=True)
    voted = search(index, request).results  # the passage vote on top (search/passage_vote.py): scores still fall
    assert [r.chunk.chunk_id for r in voted[:2]] == ["c1", "c0"]
    assert [r.score for r in voted] == sorted((r.score for r in voted), reverse=True)


def test_corrections_apply_within_the_filters_and_a_backend_failure_to_propose_them_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    texts = ["Replace the stem seal every 6 months."] + [f"Shipping note {i}." for i in range(20)]
    index.upsert("ns", "d1", "r", [chunk(i, t) for i, t in enumerate(texts)])
    gaskets = ["Check the gasket."] + [f"Packing list {i}." for i in range(5)]
    d2 = [replace(chunk(i, text), chunk_id=f"g{i}", document_id="d2") for i, text in enumerate(gaskets)]
    index.upsert("ns", "d2", "r", d2)
    found = search(index, SearchRequest("ns", "gaskt", top_k=3, filters=SearchFilters(documents=("d2",))))
    assert found.corrections == {"gaskt": "gasket"} and [r.chunk.chunk_id for r in found.results] == ["g0"]
    # Corrected from the whole namespace, searched within the filters: still nothing, so no correction is reported.
    elsewhere = search(index, SearchRequest("ns", "gaskt", top_k=3, filters=SearchFilters(documents=("d1",))))
    assert (elsewhere.results, elsewhere.corrections) == ([], {})

    def failing(*args: object) -> None:
        raise IndexBackendError("OpenSearch search failed: 400 parsing_exception")

    monkeypatch.setattr(EmbeddedIndex, "similar_terms", failing)
    response = search(index, SearchRequest("ns", "gaskt", top_k=3))
    assert (response.results, response.corrections) == ([], {})


def test_chinese_question_words_are_left_out_of_the_query(tmp_path: Path) -> None:
    content = query_terms("谁发明了电话？")["content"]
    assert "电话" in content and "发明" in content
    assert not any("谁" in term for term in content)  # neither the word nor the bigram straddling it
    assert not any(word in term for term in query_terms("阀门的额定压力是多少？")["content"] for word in ("多", "少"))
    assert query_terms("谁？")["content"] == ["谁"]  # nothing else is left: keep it
    assert query_terms("Who invented the telephone?")["content"] == ["invent", "telephon"]

    index = EmbeddedIndex(LocalStore(tmp_path))
    # Without the cut, the question word (in no other chunk, so of high idf) ranks the chunk asking it first.
    texts = ["电话是谁发明的？谁知道呢？", "贝尔发明电话。"] + [f"第{i}段讲的是运输和包装。" for i in range(20)]
    index.upsert("ns", "d1", "r", [chunk(i, t) for i, t in enumerate(texts)])
    assert search(index, SearchRequest("ns", "谁发明了电话？", top_k=3)).results[0].chunk.chunk_id == "c1"


def test_small_corpus_returns_everything_in_document_order_when_nothing_matches(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r", [chunk(2, "second"), chunk(1, "first")])
    response = search(index, SearchRequest("ns", "anything", top_k=5))
    assert [r.chunk.text for r in response.results] == ["first", "second"]


def test_small_corpus_ranks_the_matching_chunk_first_and_spends_the_budget_on_it(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    filler = [chunk(i, f"Paragraph {i} is about shipping crates by rail and road. " * 6) for i in range(3)]
    index.upsert("ns", "d1", "r", [*filler, chunk(3, "Replace the stem seal every six months.")])
    response = search(index, SearchRequest("ns", "stem seal", top_k=8, max_tokens=40))
    assert [r.chunk.chunk_id for r in response.results] == ["c3", "c0", "c1", "c2"]
    assert response.results[0].score > 0 and response.results[0].channel_ranks
    assert all(r.score == 0.0 and r.channel_ranks == {} for r in response.results[1:])
    assert response.evidence_chunks == 1 and "stem seal" in response.evidence_text


def test_a_text_already_in_the_results_is_left_out_and_the_next_chunk_takes_its_place(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    seal = "Replace the stem seal every 6 months."
    others = [f"Unrelated paragraph number {i} about shipping." for i in range(20)]
    index.upsert("ns", "d1", "r", [chunk(0, seal, name="readme.md"), *(chunk(i + 1, t) for i, t in enumerate(others))])
    documents = {  # the same text in two more files (one with other case and spaces), and a different one
        "d2": ("readme.html", seal),
        "d3": ("copy.txt", "REPLACE the stem seal\nevery 6  months."),
        "d4": ("b.md", "Check the seal for leaks."),
    }
    for document_id, (name, text) in documents.items():
        only = replace(chunk(0, text, name=name), chunk_id=f"{document_id}-c0", document_id=document_id)
        index.upsert("ns", document_id, "r", [only])

    results = search(index, SearchRequest("ns", "replace the seal", top_k=3)).results
    texts = [" ".join(r.chunk.text.casefold().split()) for r in results]
    assert len(results) == 3 and len(set(texts)) == 3
    assert texts.count("replace the stem seal every 6 months.") == 1
    assert "check the seal for leaks." in texts  # moved up into a place a copy would have taken
    assert [r.score for r in results] == sorted((r.score for r in results), reverse=True)


def test_the_small_corpus_path_returns_a_repeated_text_once(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    index.upsert("ns", "d1", "r", [chunk(1, "first"), chunk(2, "second"), chunk(3, "First")])
    response = search(index, SearchRequest("ns", "anything", top_k=5))
    assert [r.chunk.chunk_id for r in response.results] == ["c1", "c2"]


def test_requests_are_validated() -> None:
    with pytest.raises(InvalidNameError):
        SearchRequest("Bad Namespace", "q")
    with pytest.raises(InvalidQueryError):
        SearchRequest("ns", "   ")
    with pytest.raises(InvalidQueryError):
        SearchRequest("ns", "q", top_k=51)


class _FetchingAlong(Delegating):
    """The embedded index fetching along what the expansion pass is asked for and reading the feedback terms of
    only `known_feedback` chunks; it records the ids the service fetches itself."""

    def __init__(self, index: EmbeddedIndex, known_feedback: int) -> None:
        super().__init__(index)
        self.known_feedback = known_feedback
        self.fetched: list[list[str]] = []
        self.fetched_along: list[str] = []

    def first_pass(self, namespace: str, plan: QueryPlan) -> FirstPass:
        found = self.inner.first_pass(namespace, plan)
        known = dict(itertools.islice(found.content_frequencies.items(), self.known_feedback))
        return FirstPass(found.total, found.rankings, known, found.content_idf)

    def expansion_pass(self, namespace: str, plan: ExpansionPlan) -> ExpansionPass:
        ranked = self.inner.expansion_pass(namespace, plan)
        self.fetched_along = list(plan.fetch)
        return ExpansionPass(ranked.ranking, {c.chunk_id: c for c in self.inner.fetch(namespace, plan.fetch)})

    def fetch(self, namespace: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        self.fetched.append(list(chunk_ids))
        return self.inner.fetch(namespace, chunk_ids)


def _seal_manual(index: EmbeddedIndex) -> None:
    texts = [f"Replace the {part} seal of pump {i % 3}; check the {part} gasket." for i, part in enumerate("abcdefgh")]
    texts += [f"Invoice {i} for pump parts was paid by the accounts team." for i in range(12)]
    texts += ["Seal kits ship with every pump overhaul."]
    index.upsert("ns", "d1", "r", [chunk(i, text, pages=(i + 1,)) for i, text in enumerate(texts)])


@pytest.mark.parametrize("known_feedback", [15, 4, 0])
def test_feedback_the_first_pass_did_not_read_is_fetched_and_analyzed(tmp_path: Path, known_feedback: int) -> None:
    embedded = EmbeddedIndex(LocalStore(tmp_path))
    _seal_manual(embedded)
    two_pass = _FetchingAlong(embedded, known_feedback)
    for query in ["pump seal", "gasket", "invoice paid", "TX-100 overhaul"]:
        request = SearchRequest("ns", query, top_k=4)
        expected = search(embedded, request)
        two_pass.fetched.clear()
        two_pass.fetched_along.clear()
        found = search(two_pass, request)
        assert [(r.chunk, r.score, r.channel_ranks) for r in found.results] == [
            (r.chunk, r.score, r.channel_ranks) for r in expected.results
        ]
        # The feedback chunks the first pass did not read are fetched (to be analyzed), then only results that
        # neither fetch brought; nothing twice.
        content = embedded.rank("ns", "content", query_terms(query)["content"], SearchFilters(), 50)
        unread = {chunk_id for chunk_id, _ in content[known_feedback:FEEDBACK_CHUNKS]}
        fetched = [chunk_id for call in two_pass.fetched for chunk_id in call]
        assert len(fetched) == len(set(fetched)) and not set(fetched) & set(two_pass.fetched_along)
        # The passage vote reads the first passage_vote_depth candidates: those are the results it may fetch.
        deep = replace(request, top_k=RANKING.passage_vote_depth)
        read = search(embedded, deep, replace(RANKING, passage_vote_weight=0.0)).results
        assert unread <= set(fetched) <= unread | {r.chunk.chunk_id for r in read}
        unvoted = replace(RANKING, passage_vote_weight=0.0)
        two_pass.fetched.clear()
        two_pass.fetched_along.clear()
        plain = search(two_pass, request, unvoted)
        fetched = [chunk_id for call in two_pass.fetched for chunk_id in call]
        assert unread <= set(fetched) <= unread | {r.chunk.chunk_id for r in plain.results}
