"""BM25's constants and idf, shared by both engines (OpenSearch's index template carries the same numbers in its
scripted similarity; a test holds them equal)."""

from __future__ import annotations

import math

K1 = 1.5
B = 0.75
# The least idf a term gets. rank-bm25 floors a negative idf (a term in more than half of the chunks) at a quarter
# of the vocabulary's mean idf, which a term in 49% of the chunks does not get and an engine without the whole
# vocabulary cannot compute; with a constant floor the development sets score alike (docs/evaluation.md "How a
# query is ranked"), and chunks sharing only common terms are still ordered by tf and length.
MIN_IDF = 0.1


def okapi_idf(chunks: int, holding: int) -> float:
    """log((N - n + 0.5) / (n + 0.5)), at least MIN_IDF; 0 for a term no chunk holds."""
    if holding <= 0:
        return 0.0
    return max(MIN_IDF, math.log(chunks - holding + 0.5) - math.log(holding + 0.5))
