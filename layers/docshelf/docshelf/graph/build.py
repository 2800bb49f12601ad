"""The graph of one document revision: its sections and chunks as nodes with their keywords, and the edges
the overlap rule makes between them (`edges.py`)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from docshelf.graph.edges import MAX_EDGES_PER_NODE, MIN_OVERLAP, MIN_SHARED, keyword_edges
from docshelf.graph.keywords import (
    KEYWORDS_PER_NODE,
    heaviest_terms,
    section_keyword_count,
    section_weights,
    top_keywords,
)
from docshelf.index.analyzer import analyzed_terms
from docshelf.model import Chunk
from docshelf.versions import SCHEMA_VERSION

OVERLAP_RULE = "shared keywords / keywords of the smaller node"


def content_terms(chunks: Sequence[Chunk]) -> list[Counter[str]]:
    """Each chunk's content terms with their frequencies, as the index analyzed them (`index/analyzer.py`)."""
    return [Counter(analyzed_terms(chunk.text)) for chunk in chunks]


def section_node_id(path: Sequence[str]) -> str:
    """`s` + 16 hex of SHA-256 over the section path: stable across revisions that keep the section."""
    return "s" + hashlib.sha256("\x1f".join(path).encode("utf-8", "surrogatepass")).hexdigest()[:16]


def document_graph(
    document_id: str,
    revision: str,
    chunks: Sequence[Chunk],
    frequencies: Sequence[Mapping[str, int]],
    *,
    namespace_chunks: int,
    namespace_holding: Mapping[str, int],
) -> dict[str, Any]:
    """The graph (graph.schema.json): `frequencies[i]` are chunk i's content terms; `namespace_holding` how many of the
    namespace's `namespace_chunks` chunks hold each of them (the index's document frequencies)."""
    weights = heaviest_terms(frequencies, namespace_chunks, namespace_holding)
    sections = _section_paths(chunks)
    own: dict[tuple[str, ...], list[int]] = {path: [] for path in sections}
    for at, chunk in enumerate(chunks):
        if chunk.section_path:
            own[chunk.section_path].append(at)
    under = _chunks_under(chunks, sections)
    section_terms = _subtree_weights(
        sections, {path: section_weights([weights[at] for at in own[path]]) for path in sections}
    )
    nodes: list[dict[str, Any]] = [
        {
            "id": section_node_id(path),
            "kind": "section",
            "section_path": list(path),
            "keywords": top_keywords(section_terms[path], section_keyword_count(under[path])),
        }
        for path in sections
    ]
    nodes += [
        {
            "id": chunk.chunk_id,
            "kind": "chunk",
            "section_path": list(chunk.section_path),
            "keywords": [term for term, _ in weights[at][:KEYWORDS_PER_NODE]],
        }
        for at, chunk in enumerate(chunks)
    ]
    paths = [tuple(node["section_path"]) for node in nodes]
    kinds = [node["kind"] for node in nodes]

    def related(i: int, j: int) -> bool:
        """A section and a node inside it (its chunks, its subsections)."""
        return (kinds[i] == "section" and _inside(paths[j], paths[i], kinds[j])) or (
            kinds[j] == "section" and _inside(paths[i], paths[j], kinds[i])
        )

    edges = keyword_edges([node["keywords"] for node in nodes], related)
    return {
        "schema_version": SCHEMA_VERSION,
        "document_id": document_id,
        "revision": revision,
        "rule": {
            "keywords_per_node": KEYWORDS_PER_NODE,
            "min_shared": MIN_SHARED,
            "min_overlap": MIN_OVERLAP,
            "overlap": OVERLAP_RULE,
            "max_edges_per_node": MAX_EDGES_PER_NODE,
        },
        "nodes": nodes,
        "edges": [
            {
                "source": nodes[e.source]["id"],
                "target": nodes[e.target]["id"],
                "shared": list(e.shared),
                "score": e.score,
            }
            for e in edges
        ],
    }


def _chunks_under(chunks: Sequence[Chunk], sections: Sequence[tuple[str, ...]]) -> dict[tuple[str, ...], int]:
    counts = dict.fromkeys(sections, 0)
    for chunk in chunks:
        for depth in range(1, len(chunk.section_path) + 1):
            counts[chunk.section_path[:depth]] += 1
    return counts


def _subtree_weights(
    sections: Sequence[tuple[str, ...]], own: Mapping[tuple[str, ...], dict[str, float]]
) -> dict[tuple[str, ...], dict[str, float]]:
    """Each section's weights with those of every section below it, summed deepest first."""
    total = {path: dict(own[path]) for path in sections}
    for path in sorted(sections, key=len, reverse=True):
        if len(path) > 1:
            parent = total[path[:-1]]
            for term, weight in total[path].items():
                parent[term] = parent.get(term, 0.0) + weight
    return total


def _section_paths(chunks: Sequence[Chunk]) -> list[tuple[str, ...]]:
    """Every section holding a chunk, or holding a section that does, in the order chunks first reach them."""
    paths: dict[tuple[str, ...], None] = {}
    for chunk in chunks:
        for depth in range(1, len(chunk.section_path) + 1):
            paths.setdefault(chunk.section_path[:depth], None)
    return list(paths)


def _inside(path: tuple[str, ...], section: tuple[str, ...], kind: str) -> bool:
    """Whether a node at `path` of `kind` lies inside `section` (a section also when it holds `section`)."""
    if kind == "section" and section[: len(path)] == path:
        return True
    return path[: len(section)] == section
