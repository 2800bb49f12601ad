"""The ranking's constants (search/ranking.py): repeated query terms saturate, and a study's settings reach the
plan and the fusion."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from docshelf.index.embedded import EmbeddedIndex
from docshelf.model import Chunk
from docshelf.search.query import channel_query, query_terms
from docshelf.search.ranking import RANKING, RankingSettings
from docshelf.search.request import SearchRequest
from docshelf.search.service import search
from docshelf.store import LocalStore
from docshelf.tokens import count_tokens


def test_a_repeated_query_term_weighs_more_but_saturates() -> None:
    saturating = RankingSettings(repeat_saturation=1.2)
    assert saturating.repeat_weight(1) == 1.0
    assert saturating.repeat_weight(2) == pytest.approx(2.2 * 2 / 3.2)
    assert 1.0 < saturating.repeat_weight(2) < saturating.repeat_weight(5) < 2.2
    assert RankingSettings(repeat_saturation=0.0).repeat_weight(3) == 1.0
    assert RankingSettings(repeat_saturation=math.inf).repeat_weight(3) == 3.0


def test_the_plan_carries_the_saturated_weights_and_the_path_share() -> None:
    terms = query_terms("seal the seal, then the gasket and the valve")["content"]
    assert terms == ["seal", "seal", "gasket", "valv"]
    settings = RankingSettings(repeat_saturation=1.2, path_min_share=1.0)
    content = channel_query("content", terms, settings)
    assert content.terms == pytest.approx({"seal": 2.2 * 2 / 3.2, "gasket": 1.0, "valv": 1.0})
    assert content.min_match == 1
    assert channel_query("path", terms, settings).min_match == 3
    assert channel_query("path", terms).min_match == math.ceil(RANKING.path_min_share * 3)


def _chunk(i: int, text: str, section: str) -> Chunk:
    return Chunk(
        chunk_id=f"c{i:02d}", document_id=f"d{i % 3}", namespace="ns", type="text", text=text,
        section_path=(section,), pages=(1,), token_count=count_tokens(text), ordinal=i,
        source_file_name=f"doc{i % 3}.md",
    )  # fmt: skip


def _indexed(tmp_path: Path, chunks: list[Chunk]) -> EmbeddedIndex:
    """An embedded index of namespace `ns` holding the chunks, a document each of d0, d1 and d2."""
    index = EmbeddedIndex(LocalStore(tmp_path))
    for document in ("d0", "d1", "d2"):
        index.upsert("ns", document, "r", [c for c in chunks if c.document_id == document])
    return index


def test_settings_choose_the_channels_that_vote(tmp_path: Path) -> None:
    texts = [f"Paragraph {i} on shipping crates and pallets." for i in range(12)]
    texts[4] = "Replace the pump seal when it leaks; a worn seal drips."
    chunks = [_chunk(i, text, "Pump seals" if i == 7 else "Shipping") for i, text in enumerate(texts)]
    index = _indexed(tmp_path, chunks)
    request = SearchRequest("ns", "pump seal leaks", top_k=5)
    default = search(index, request)
    assert default.results[0].chunk.chunk_id == "c04"
    assert any("expansion" in r.channel_ranks for r in default.results)
    plain = search(index, request, RankingSettings(path_weight=0.0, expansion_weight=0.0))
    assert not any("expansion" in r.channel_ranks for r in plain.results)
    assert [r.chunk.chunk_id for r in plain.results] == ["c04"]


def test_the_path_channel_votes_only_for_a_query_its_path_holds_whole(tmp_path: Path) -> None:
    texts = [f"Paragraph {i} on shipping crates and pallets." for i in range(12)]
    texts[4] = "Replace the pump seal when it leaks; a worn seal drips."
    chunks = [_chunk(i, text, "Pump seals" if i == 7 else "Shipping") for i, text in enumerate(texts)]
    index = _indexed(tmp_path, chunks)
    question = search(index, SearchRequest("ns", "pump seal leaks", top_k=5))
    assert not any("path" in r.channel_ranks for r in question.results)
    half = search(index, SearchRequest("ns", "pump seal leaks", top_k=5), RankingSettings(path_min_share=0.5))
    assert [r.chunk.chunk_id for r in half.results if "path" in r.channel_ranks] == ["c07"]
    naming = search(index, SearchRequest("ns", "pump seals", top_k=5))
    assert [r.chunk.chunk_id for r in naming.results if "path" in r.channel_ranks] == ["c07"]


def test_a_query_with_cjk_terms_needs_half_its_characters_and_pairs_in_the_path(tmp_path: Path) -> None:
    texts = [f"第{i}条 本規程の手続きについて定める。" for i in range(12)]
    texts[6] = "年次有給休暇は、勤続年数に応じて次の表のとおり付与する。"
    chunks = [_chunk(i, text, "第6条（年次有給休暇）" if i == 6 else "総則") for i, text in enumerate(texts)]
    index = _indexed(tmp_path, chunks)
    asked = search(index, SearchRequest("ns", "有給休暇は何日", top_k=5))
    assert [r.chunk.chunk_id for r in asked.results if "path" in r.channel_ranks] == ["c06"]
    whole = RankingSettings(path_min_share_cjk=1.0)
    assert not any(
        "path" in r.channel_ranks for r in search(index, SearchRequest("ns", "有給休暇は何日"), whole).results
    )


def test_the_term_channel_ranks_only_chunks_holding_every_exact_form(tmp_path: Path) -> None:
    surface = query_terms("error 404 on upload")["term"]
    query = channel_query("term", surface)
    assert query.optional == {"#404"}  # trigrams score but are not required: a chunk indexes at most 64 of them
    assert query.min_match == len(set(surface) - query.optional)
    index = EmbeddedIndex(LocalStore(tmp_path))
    texts = ["Torque the M12 bolts on the TX-100.", "Error 404 means the upload page moved."]
    texts += [f"Error {i} on page {i}: retry the shipping upload." for i in range(10)]
    index.upsert("ns", "d0", "r", [_chunk(3 * i, text, "Notes") for i, text in enumerate(texts)])
    by_part = search(index, SearchRequest("ns", "tx100", top_k=1))
    assert [r.chunk.text for r in by_part.results] == [texts[0]]
    assert by_part.results[0].channel_ranks == {"term": 0}
    exact = search(index, SearchRequest("ns", "error 404 on upload", top_k=3))
    assert exact.results[0].chunk.text == texts[1]
    assert all(set(r.channel_ranks) - {"term"} for r in exact.results)  # no chunk ranked by the term channel alone
    assert [r for r in exact.results if "term" in r.channel_ranks] == exact.results[:1]
