"""A vote from a sentence model for the first results (with `--passage-model local`).

Words rank a chunk by the query terms it holds; a sentence model reads whether a sentence says what was asked. Each of
the first `depth` results gets an RRF vote for the rank, among them, of the model's best score of its best passages
by words (their matching sentences: a few sentences a chunk, not whole chunks, which a small model reads poorly and
slowly). The vote is cast for queries the semantic channel reads (not CJK ones by default) and on every kind of
collection: abstracts gained the most (docs/evaluation/evidence.md, "A vote from the sentence model").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from docshelf.search.abbreviations import NO_ALIASES, Aliases
from docshelf.search.packing import best_sentences
from docshelf.search.passage_vote import with_vote
from docshelf.search.rerank import Reranker
from docshelf.search.response import RankedChunk


def model_voted(
    results: Sequence[RankedChunk],
    query: str,
    weights: Mapping[str, float],
    model: Reranker,
    *,
    weight: float,
    sentences: int,
    rrf_k: int,
    aliases: Aliases = NO_ALIASES,
) -> list[RankedChunk]:
    """`results` (fused, best first) with each score raised by weight / (rrf_k + r + 1), r the rank of the result's
    best model score among them (a result with no matching passage ranks last), and sorted again (ties keep their
    order)."""
    if weight <= 0 or not results:
        return list(results)
    texts, owners = best_sentences([r.chunk for r in results], weights, sentences, aliases=aliases)
    best: dict[int, float] = {}
    for owner, score in zip(owners, model.scores(query, texts) if texts else [], strict=True):
        best[owner] = max(best.get(owner, score), score)
    by_model = sorted(range(len(results)), key=lambda at: (at not in best, -best.get(at, 0.0), at))
    return with_vote(results, by_model, weight, rrf_k)
