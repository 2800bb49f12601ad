"""Weighted reciprocal rank fusion: score = w / (k + rank + 1), rank from 0."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from docshelf.search.ranking import RANKING

RRF_K = RANKING.rrf_k
CHANNEL_WEIGHTS: dict[str, float] = RANKING.channel_weights()


def fuse_rrf(
    rankings: Mapping[str, Sequence[str]],
    weights: Mapping[str, float] = CHANNEL_WEIGHTS,
    k: int = RRF_K,
) -> list[tuple[str, float, dict[str, int]]]:
    """(id, fused score, rank per channel) best first; ties broken by id for determinism. A channel without weight
    takes no part: its chunks would rank with score 0 after the others."""
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for channel, ids in rankings.items():
        weight = weights.get(channel, 0.0)
        if weight <= 0:
            continue
        for rank, item in enumerate(ids):
            scores[item] = scores.get(item, 0.0) + weight / (k + rank + 1)
            ranks.setdefault(item, {})[channel] = rank
    ordered = sorted(scores, key=lambda item: (-scores[item], item))
    return [(item, scores[item], ranks[item]) for item in ordered]
