"""The passage vote across documents (search/passage_vote.py)."""

from __future__ import annotations

from docshelf.model import Chunk
from docshelf.search.packing import best_passage_scores
from docshelf.search.passage_vote import LONG_SHARE, may_vote, passage_voted, votes_on
from docshelf.search.response import RankedChunk
from docshelf.tokens import count_tokens

FILL = "The archive holds letters, maps and ledgers from the period."
SCATTERED = " ".join(
    ["Ribault sailed along the coast.", FILL, FILL, "The river mouth was charted twice.", FILL, FILL,
     "Ribault wrote of the land.", FILL, "A claim dispute came much later."]
)  # fmt: skip
ANSWER = " ".join([FILL, FILL, "In 1562 Ribault claimed the land at the river for France.", FILL, FILL])
WEIGHTS = {"ribault": 3.0, "claim": 2.0, "land": 1.5, "river": 1.5}


def chunk(name: str, text: str, ordinal: int = 1) -> Chunk:
    return Chunk(
        chunk_id=name, document_id=f"doc-{name}", namespace="ns", type="text", text=text, section_path=(),
        pages=(1,), token_count=count_tokens(text), ordinal=ordinal, source_file_name=f"{name}.md",
    )  # fmt: skip


def ranked(*items: tuple[Chunk, float]) -> list[RankedChunk]:
    return [RankedChunk(item, score, {"content": at}) for at, (item, score) in enumerate(items)]


def test_the_best_passage_is_where_the_query_terms_meet() -> None:
    scores = best_passage_scores([chunk("a", SCATTERED), chunk("b", ANSWER), chunk("c", FILL)], WEIGHTS)
    assert scores[1] > scores[0] > 0.0 and scores[2] == 0.0


def test_the_vote_lifts_the_chunk_whose_passage_answers_past_a_close_neighbour() -> None:
    results = ranked((chunk("a", SCATTERED), 0.0450), (chunk("b", ANSWER), 0.0447), (chunk("c", FILL), 0.0300))
    voted = passage_voted(results, WEIGHTS, weight=2.0, rrf_k=60)
    assert [r.chunk.chunk_id for r in voted] == ["b", "a", "c"]
    assert [r.score for r in voted] == sorted((r.score for r in voted), reverse=True)
    assert voted[0].score == 0.0447 + 2.0 / 61 and voted[0].channel_ranks == {"content": 1}


def test_the_vote_does_not_undo_a_clear_lead_nor_act_at_weight_zero() -> None:
    results = ranked((chunk("a", SCATTERED), 0.0600), (chunk("b", ANSWER), 0.0444))
    assert [r.chunk.chunk_id for r in passage_voted(results, WEIGHTS, weight=2.0, rrf_k=60)] == ["a", "b"]
    close = ranked((chunk("a", SCATTERED), 0.0450), (chunk("b", ANSWER), 0.0444))
    assert passage_voted(close, WEIGHTS, weight=0.0, rrf_k=60) == close
    assert passage_voted(close, {}, weight=2.0, rrf_k=60) == close


def test_equal_passages_keep_the_fused_order() -> None:
    results = ranked((chunk("a", ANSWER), 0.05), (chunk("b", ANSWER + " "), 0.05))
    assert [r.chunk.chunk_id for r in passage_voted(results, WEIGHTS, weight=4.0, rrf_k=60)] == ["a", "b"]


def test_the_vote_is_cast_among_parts_of_long_documents_only() -> None:
    long_parts = ranked(*((chunk(f"p{i}", FILL, ordinal=i % 3), 0.1) for i in range(6)))  # 4 of 6 later chunks
    abstracts = ranked(*((chunk(f"x{i}", FILL, ordinal=int(i == 0)), 0.1) for i in range(6)))  # 1 of 6
    assert LONG_SHARE == 0.5 and votes_on(long_parts) and not votes_on(abstracts) and not votes_on([])


def test_queries_in_chinese_japanese_or_korean_take_no_vote() -> None:
    assert may_vote("when did Ribault claim the land") and may_vote("TX-100 torque")
    assert not may_vote("里博何时宣称拥有这片土地") and not may_vote("有給休暇は何日") and not may_vote("휴가 정책")
