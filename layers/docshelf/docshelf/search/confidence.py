"""How sure a result is: the idf-weighted share of the query's words a chunk holds, calibrated to the chance that
it holds the answer.

The share weighs each content term of the query by its idf; a term the namespace does not hold at all (idf 0)
weighs as the query's rarest found term, since it is the words a user asked about that nothing here contains
("what is the capital of Mongolia" over papers on viruses holds "capital" at most). The share is mapped by a
logistic fitted on every QA set in ../shared/ireval pooled (a result is positive when its text holds an answer;
docs/evaluation/evidence.md has the fit and the reliability per set), so 0.5 means "about one in two such
results holds the answer". Pooled, it is calibrated; per set it is not (long papers hold fewer answers per matching
chunk than short articles), which the table in docs/evaluation/evidence.md shows.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from math import exp

# The logistic's slope and offset over the share (docs/evaluation/evidence.md, "confidence").
SLOPE = 5.18
OFFSET = -4.28


def query_weights(terms: Collection[str], idf: Mapping[str, float]) -> dict[str, float]:
    """Each distinct content term's weight: its idf, or for a term no chunk holds, the rarest found term's (1 for
    every term when the backend tells no idf)."""
    weights = {term: idf.get(term, 0.0) for term in terms}
    rarest = max(weights.values(), default=0.0) or 1.0
    return {term: weight or rarest for term, weight in weights.items()}


def term_share(held: Collection[str], weights: Mapping[str, float]) -> float:
    total = sum(weights.values())
    return sum(weight for term, weight in weights.items() if term in held) / total if total > 0 else 0.0


def confidence(share: float) -> float:
    return round(1.0 / (1.0 + exp(-(SLOPE * share + OFFSET))), 4)


# A good match holds at least this share of the query's weight: first results that do hold the answer 62-99% of the
# time per set, those that do not 30-89% (docs/evaluation/evidence.md). Below it for every result, the response
# says that nothing matched well.
GOOD_SHARE = 0.6
GOOD_MATCH = confidence(GOOD_SHARE)
