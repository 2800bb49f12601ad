from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

import pytest

from docshelf.index.embedded import EmbeddedIndex
from docshelf.index.plan import mixed_query
from docshelf.model import Chunk
from docshelf.search.expansion import expansion_parts
from docshelf.search.query import query_terms
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from docshelf.store import LocalStore
from docshelf.tokens import count_tokens


def expanded_query(
    query_terms: Sequence[str],
    feedback: Sequence[tuple[Mapping[str, int], float]],
    *,
    common: Collection[str] = (),
    expansion_terms: int = 10,
    original_weight: float = 0.5,
) -> dict[str, float]:
    """The content query of the second pass, as the engines mix it (`ExpansionPlan.mixed`)."""
    query, expansion = expansion_parts(
        query_terms, feedback, expansion_terms=expansion_terms, original_weight=original_weight
    )
    return mixed_query(query, expansion, common)


def test_without_feedback_the_query_keeps_its_own_terms() -> None:
    assert expanded_query(["seal", "stem", "seal"], []) == pytest.approx({"seal": 2 / 3, "stem": 1 / 3})
    assert expanded_query(["seal"], [({"valve": 1}, 0.0), ({}, 3.0)]) == {"seal": 1.0}
    assert expanded_query([], [({"valve": 1}, 1.0)]) == {}


def test_feedback_terms_are_weighted_by_chunk_score_and_frequency() -> None:
    feedback = [({"seal": 1, "gasket": 2, "valve": 1}, 3.0), ({"seal": 1, "pump": 1}, 1.0)]
    weights = expanded_query(["seal"], feedback, expansion_terms=3, original_weight=0.5)
    # Relevance model: seal 3/4*1/4 + 1/4*1/2 = 0.3125, gasket 3/4*2/4 = 0.375, valve 0.1875, pump 0.125.
    strongest = 0.375 + 0.3125 + 0.1875
    assert weights == pytest.approx(
        {"seal": 0.5 + 0.5 * 0.3125 / strongest, "gasket": 0.5 * 0.375 / strongest, "valve": 0.5 * 0.1875 / strongest}
    )
    assert sum(weights.values()) == pytest.approx(1.0)


def test_plain_word_queries_skip_the_surface_channel_and_keep_repeats() -> None:
    plain = query_terms("Replace the seal, the seal and the gasket")
    assert set(plain) == {"content", "path"}
    assert plain["content"] == ["replac", "seal", "seal", "gasket"]  # weighed by RankingSettings.repeat_weight
    exact = query_terms("When does the TX-100 seal wear out?")
    assert "tx-100" in exact["term"] and "tx100" in exact["term"]
    assert "term" in query_terms("error 404 on upload") and "term" in query_terms("ops@corp.com")


def _chunk(i: int, text: str) -> Chunk:
    return Chunk(
        chunk_id=f"c{i:02d}", document_id="d1", namespace="ns", type="text", text=text, section_path=(),
        pages=(1,), token_count=count_tokens(text), ordinal=i, source_file_name="notes.md",
    )  # fmt: skip


def test_expansion_finds_a_chunk_that_shares_no_query_word(tmp_path: Path) -> None:
    index = EmbeddedIndex(LocalStore(tmp_path))
    about_pumps = [f"The pump impeller and the volute casing, inspection {i}." for i in range(4)]
    only_vocabulary = ["Impeller wear shows on the volute casing first."]
    noise = [f"Invoice {i} was paid by the accounts team in March." for i in range(30)]
    index.upsert("ns", "d1", "r", [_chunk(i, t) for i, t in enumerate(about_pumps + only_vocabulary + noise)])
    response = search(index, SearchRequest("ns", "pump", top_k=6))
    ranked = [r.chunk.chunk_id for r in response.results]
    assert ranked[:4] == ["c00", "c01", "c02", "c03"]
    assert ranked[4] == "c04"
    assert "content" not in response.results[4].channel_ranks
    assert response.results[4].channel_ranks["expansion"] >= 0


def test_terms_found_in_most_chunks_are_not_added() -> None:
    feedback = [({"seal": 1, "the": 5, "gasket": 2}, 1.0)]
    _, expansion = expansion_parts(["seal"], feedback, expansion_terms=2)
    assert sorted(expansion) == ["gasket", "the"]  # only the strongest terms are looked up
    weights = expanded_query(["seal"], feedback, expansion_terms=2, common={"the"})
    assert weights == pytest.approx({"seal": 0.5, "gasket": 0.5 * 2 / 7})
