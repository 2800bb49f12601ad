"""Navigation along the document graph (docshelf/graph/): from the step's strongest findings in a
document, follow their keyword edges to sections breadth-first navigation did not open, so a table or passage
that shares a finding's keywords in another part of the manual is read too."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

STRONG_NODES = 2  # the step's best findings in the document whose edges are followed
GRAPH_SECTIONS = 1  # sections a walk adds at most


def graph_sections(
    graph: Mapping[str, Any], strong: Sequence[str], opened: Collection[tuple[str, ...]]
) -> list[tuple[str, ...]]:
    """The sections (paths) the edges of the `strong` chunks (ids, best first) lead to, strongest edge first,
    leaving out the sections navigation `opened` and those the strong chunks sit in; at most `GRAPH_SECTIONS`."""
    nodes = {str(node["id"]): node for node in graph.get("nodes", []) if isinstance(node, Mapping)}
    sources = [chunk_id for chunk_id in strong[:STRONG_NODES] if chunk_id in nodes]
    own = {tuple(nodes[chunk_id]["section_path"]) for chunk_id in sources}
    skipped = set(opened) | own
    reached: list[tuple[float, int, tuple[str, ...]]] = []
    for edge in graph.get("edges", []):
        for rank, source in enumerate(sources):
            other = edge["target"] if edge["source"] == source else edge["source"] if edge["target"] == source else None
            if other is not None and other in nodes:
                path = tuple(nodes[other]["section_path"])
                if path and path not in skipped:
                    reached.append((-float(edge["score"]), rank, path))
    proposed: list[tuple[str, ...]] = []
    for _, _, path in sorted(reached):
        if path not in proposed:
            proposed.append(path)
    return proposed[:GRAPH_SECTIONS]
