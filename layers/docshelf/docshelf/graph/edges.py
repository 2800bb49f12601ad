"""The graph's edge rule and its bound.

Two nodes are joined when they share at least `MIN_SHARED` keywords and their overlap score, the shared keywords
over the smaller keyword set (the overlap coefficient, |A ∩ B| / min(|A|, |B|)), is at least `MIN_OVERLAP`. A node
keeps its `MAX_EDGES_PER_NODE` strongest edges (by score, then shared keywords), so a 10,000-chunk document's graph
stays small. A section is never joined to a chunk or section inside it: the section tree already says that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

MIN_SHARED = 3
MIN_OVERLAP = 0.8
MAX_EDGES_PER_NODE = 20
# A keyword more nodes than this hold proposes no pairs (it would cost the square of its postings); it still counts
# as shared for the pairs that meet through other keywords, as the rule's 0.8 demands nearly every keyword anyway.
MAX_KEYWORD_NODES = 64


@dataclass(frozen=True, slots=True)
class Edge:
    source: int
    target: int
    shared: tuple[str, ...]
    score: float


def overlap_score(a: Sequence[str] | set[str], b: Sequence[str] | set[str]) -> float:
    """|A ∩ B| / min(|A|, |B|): 1.0 when the smaller keyword set lies wholly in the larger one."""
    first, second = set(a), set(b)
    smaller = min(len(first), len(second))
    return len(first & second) / smaller if smaller else 0.0


def keyword_edges(keywords: Sequence[Sequence[str]], related: Callable[[int, int], bool]) -> list[Edge]:
    """The edges among nodes (by index, each with its keyword list) that the rule makes, at most
    `MAX_EDGES_PER_NODE` a node, strongest first; `related(i, j)` pairs (containment) are never joined."""
    postings: dict[str, list[int]] = {}
    for node, terms in enumerate(keywords):
        if len(terms) >= MIN_SHARED:
            for term in terms:
                postings.setdefault(term, []).append(node)
    shared_count: dict[tuple[int, int], int] = {}
    unpaired = [0] * len(keywords)  # each node's keywords too common to propose pairs
    for nodes in postings.values():
        if len(nodes) > MAX_KEYWORD_NODES:
            for node in nodes:
                unpaired[node] += 1
            continue
        for pair in combinations(nodes, 2):
            shared_count[pair] = shared_count.get(pair, 0) + 1
    sets = [set(terms) for terms in keywords]
    candidates = []
    for (i, j), count in shared_count.items():
        smaller = min(len(sets[i]), len(sets[j]))
        most = count + min(unpaired[i], unpaired[j])  # the shared keywords this pair may have
        if most < MIN_SHARED or most < MIN_OVERLAP * smaller or related(i, j):
            continue
        shared = tuple(sorted(sets[i] & sets[j]))
        if len(shared) >= MIN_SHARED and len(shared) >= MIN_OVERLAP * smaller:
            candidates.append(Edge(i, j, shared, round(len(shared) / smaller, 4)))
    candidates.sort(key=lambda edge: (-edge.score, -len(edge.shared), edge.source, edge.target))
    degree = [0] * len(keywords)
    kept = []
    for edge in candidates:
        if degree[edge.source] < MAX_EDGES_PER_NODE and degree[edge.target] < MAX_EDGES_PER_NODE:
            degree[edge.source] += 1
            degree[edge.target] += 1
            kept.append(edge)
    return kept
