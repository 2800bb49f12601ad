"""Hit statistics: which chunks and documents searches returned in their evidence, and the bounded ranking boost
they feed (docs/reference.md "Hit boost").

A hit is counted when a response's evidence holds a result (a cached response served again counts again), as ids
and numbers only, per namespace. Each hit also adds to a weight that halves every `half_life_days`: stored as
forward decay (Cormode et al., 2009), n x 2^((t - LANDMARK) / half-life) summed with atomic adds, and read as that
sum / 2^((now - LANDMARK) / half-life), so neither a writer nor a reader rewrites old counts.

The boost: a chunk the content channel ranked (it holds a term of the query) with at least a share (`hit_floor`) of
the best content score gets min(cap, weight x ln(1 + h)) added to its fused score, h its decayed hits in the
namespace searched; a chunk holding none of the query's terms, or far less of them than the best, gets nothing,
however often it was returned before.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

LANDMARK = 1_767_225_600.0  # 2026-01-01T00:00:00Z: forward-decay exponents count half-lives from here
DAY_S = 86_400.0
MAX_EXPONENT = 400.0  # 2^400 is within DynamoDB's numbers (< 1e126) and a double: ~33 years at 30-day half-lives


HALF_LIFE_DAYS = 30.0  # of the stored weights: a reader must decay them with the half-life they were written with
BOOSTED_CHANNEL = "content"  # only chunks this channel ranked (they hold a term of the query) are boosted


@dataclass(frozen=True, slots=True)
class HitPrior:
    """The boost's constants (RankingSettings.hit_prior()): `weight` x ln(1 + decayed hits), at most `cap`, in the
    fused score's units (a content rank 0 alone scores 2.0 / 61 = 0.0328)."""

    weight: float
    cap: float

    def boost(self, decayed_hits: float) -> float:
        if decayed_hits <= 0 or self.weight <= 0:
            return 0.0
        return min(self.cap, self.weight * math.log1p(decayed_hits))


def boosted(
    fused: Sequence[tuple[str, float, dict[str, int]]], hits: Mapping[str, float], prior: HitPrior
) -> list[tuple[str, float, dict[str, int]]]:
    """The fused ranking with each content-ranked chunk's boost added to its score, best first (ties by id)."""
    if not hits:
        return list(fused)
    scored = [
        (chunk_id, score + (prior.boost(hits.get(chunk_id, 0.0)) if BOOSTED_CHANNEL in ranks else 0.0), ranks)
        for chunk_id, score, ranks in fused
    ]
    scored.sort(key=lambda item: (-item[1], item[0]))
    return scored


def candidates(
    fused: Sequence[tuple[str, float, dict[str, int]]], depth: int, content_scores: Mapping[str, float], floor: float
) -> list[str]:
    """The chunks that may be boosted, whose hits are read: among the first `depth` fused ones, those the content
    channel ranked with at least `floor` of the best content score (BM25), so hits reorder close lexical matches
    but never lift a chunk over a clearly better one."""
    best = max(content_scores.values(), default=0.0)
    return [
        chunk_id
        for chunk_id, _, ranks in fused[:depth]
        if BOOSTED_CHANNEL in ranks and content_scores.get(chunk_id, 0.0) >= floor * best
    ]


def forward_weight(count: int, at: float, half_life_days: float = HALF_LIFE_DAYS) -> float:
    """What `count` hits at time `at` add to a stored forward-decayed weight."""
    exponent = min(MAX_EXPONENT, (at - LANDMARK) / (half_life_days * DAY_S))
    return float(count * 2.0**exponent)


def decayed(stored: float, now: float, half_life_days: float = HALF_LIFE_DAYS) -> float:
    """A stored forward-decayed weight as hits of `now`."""
    exponent = min(MAX_EXPONENT, (now - LANDMARK) / (half_life_days * DAY_S))
    return float(stored / 2.0**exponent)


def evidence_hits(results: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """(document id, chunk id) of each result the evidence cites (a result naming its `[n]`), once each."""
    seen: dict[tuple[str, str], None] = {}
    for result in results:
        chunk_id = str(result.get("chunk_id", ""))
        if chunk_id and result.get("evidence_ref") is not None:
            seen.setdefault((str(result["document_id"]), chunk_id), None)
    return list(seen)


class HitReader(Protocol):
    def chunk_hits(self, namespace: str, chunk_ids: Sequence[str]) -> dict[str, float]:
        """The decayed hits of those of `chunk_ids` the namespace's evidence ever held (the others are left out)."""
        ...


class HitStore(HitReader, Protocol):
    def record(self, namespace: str, hits: Sequence[tuple[str, str]]) -> None:
        """Count one hit for each (document id, chunk id) and for its document. Never fails a search."""
        ...

    def top_documents(self, namespace: str, limit: int) -> list[tuple[str, int, float]]:
        """The most hit documents: (document id, hits, decayed hits), most decayed hits first."""
        ...


def now() -> float:
    return time.time()
