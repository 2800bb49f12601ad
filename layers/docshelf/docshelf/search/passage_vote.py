"""A vote for the chunks that hold the best passages among the first results, across documents.

In a long document the question is answered where its terms meet, in a sentence or three, while a chunk's BM25 score
sums terms spread over all of it; within one document the results are already ordered by their best passage
(search/passages.py). Here each of the first `depth` fused results also gets an RRF vote for the rank of its best
passage among them, weighed as the evidence packer weighs passages (`packing.best_passage_scores`: a term's idf in
the collection and its rarity among the candidates' sentences, so a paper's subject that every candidate holds counts
less than the words of the answer). The vote is cast only where passages can tell chunks apart: among candidates that
are mostly parts of longer documents (a pool of one-chunk abstracts has nothing to gain: MEDLINE lost up to 0.014
nDCG@10 with the vote on every query), and not for a query in Chinese, Japanese or Korean, whose characters and their
pairs make passages match alike (docs/evaluation/evidence.md, "A passage vote across documents").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from docshelf.scripts import has_cjk_letter
from docshelf.search.abbreviations import NO_ALIASES, Aliases
from docshelf.search.packing import best_passage_scores
from docshelf.search.response import RankedChunk

# The share of the candidates that must be later chunks of their documents: a pool of mostly one-chunk documents
# (abstracts, with a few longer ones among them) is ranked by whole texts.
LONG_SHARE = 0.5


def may_vote(query: str) -> bool:
    """Whether a query's results may take the passage vote: not a query in Chinese, Japanese or Korean."""
    return not has_cjk_letter(query)


def votes_on(results: Sequence[RankedChunk]) -> bool:
    """Whether the candidates take the vote: at least `LONG_SHARE` of them are later chunks of their documents."""
    return bool(results) and sum(r.chunk.ordinal > 0 for r in results) >= LONG_SHARE * len(results)


def passage_voted(
    results: Sequence[RankedChunk],
    weights: Mapping[str, float],
    *,
    weight: float,
    rrf_k: int,
    aliases: Aliases = NO_ALIASES,
) -> list[RankedChunk]:
    """`results` (fused, best first) with each score raised by weight / (rrf_k + r + 1), r the rank of the
    result's best passage among them (a short form of `aliases` standing for its long form), and sorted again (ties
    keep their order)."""
    if weight <= 0 or not results or not weights:
        return list(results)
    scores = best_passage_scores([r.chunk for r in results], weights, aliases=aliases)
    return with_vote(results, sorted(range(len(results)), key=lambda at: (-scores[at], at)), weight, rrf_k)


def with_vote(results: Sequence[RankedChunk], ranks: Sequence[int], weight: float, rrf_k: int) -> list[RankedChunk]:
    """`results` with each score raised by weight / (rrf_k + r + 1), r the place of its index in `ranks` (a vote's
    order of them, best first), and sorted again (ties keep their order)."""
    vote = {at: weight / (rrf_k + rank + 1) for rank, at in enumerate(ranks)}
    voted = [results[at].score + vote[at] for at in range(len(results))]
    order = sorted(range(len(results)), key=lambda at: (-voted[at], at))
    return [replace(results[at], score=voted[at]) for at in order]
