"""Pseudo-relevance feedback: RM3 query expansion from the first pass's best chunks.

The top `FEEDBACK_CHUNKS` chunks of the content channel are taken as relevant. Each votes for its terms
with P(t | chunk) weighted by its share of the first-pass scores (relevance model RM1); the
`EXPANSION_TERMS` strongest terms are mixed with the query's own at `ORIGINAL_WEIGHT` (RM3).
The defaults are the usual published ones (Lavrenko & Croft 2001; Anserini's RM3: 10 docs, 10 terms, 0.5).
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence

from docshelf.index.plan import QueryTerms, term_weights
from docshelf.search.ranking import RANKING

FEEDBACK_CHUNKS = RANKING.feedback_chunks
EXPANSION_TERMS = RANKING.expansion_terms
ORIGINAL_WEIGHT = RANKING.original_weight


def expansion_parts(
    query_terms: QueryTerms,
    feedback: Sequence[tuple[Mapping[str, int], float]],
    *,
    expansion_terms: int = EXPANSION_TERMS,
    original_weight: float = ORIGINAL_WEIGHT,
) -> tuple[dict[str, float], dict[str, float]]:
    """(the query's own terms, the relevance model's strongest terms), each term with its weight in the mixed
    query, strongest first: the expanded query before common terms are dropped (see `mixed_query`)."""
    query = term_weights(query_terms)
    if not query:
        return {}, {}
    relevance = _relevance_model(feedback)
    query_total = sum(query.values())
    share = original_weight if relevance else 1.0
    own = {term: share * count / query_total for term, count in query.items()}
    strongest = heapq.nsmallest(expansion_terms, relevance.items(), key=lambda item: (-item[1], item[0]))
    strongest_total = sum(weight for _, weight in strongest)
    return own, {term: (1 - original_weight) * weight / strongest_total for term, weight in strongest}


def _relevance_model(feedback: Sequence[tuple[Mapping[str, int], float]]) -> dict[str, float]:
    usable = [(frequencies, score) for frequencies, score in feedback if frequencies and score > 0]
    total_score = sum(score for _, score in usable)
    model: dict[str, float] = {}
    for frequencies, score in usable:
        chunk_weight = score / total_score / sum(frequencies.values())
        for term, count in frequencies.items():
            model[term] = model.get(term, 0.0) + chunk_weight * count
    return model
