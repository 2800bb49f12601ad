"""What `docshelf status` shows beside each document's status: the most hit documents (search/hits.py) and, with
`--graph`, each document's keyword graph (docshelf/graph/)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from docshelf.graph.source import BuiltGraphSource
from docshelf.local.services import LocalServices
from docshelf.registry import DocumentRecord

TOP_HIT_DOCUMENTS = 10


def hit_lines(services: LocalServices, namespace: str, records: Sequence[DocumentRecord]) -> list[str]:
    """The most hit documents: hits returned in evidence, and the same decayed to today (30-day half-life)."""
    keys = {record.document_id: record.source_key for record in records}
    top = services.hits.top_documents(namespace, TOP_HIT_DOCUMENTS)
    lines = [
        f"  {keys.get(document_id, document_id)}  {hits} hits ({weight:.1f} decayed)"
        for document_id, hits, weight in top
    ]
    return ["-- most hit documents (in search evidence):", *lines] if lines else []


def graph_summary(graph: dict[str, Any] | None) -> dict[str, Any]:
    """Nodes, edges and the largest degree of a graph (all 0 for a document without one)."""
    if graph is None:
        return {"nodes": 0, "sections": 0, "edges": 0, "max_degree": 0}
    degree = Counter(node for edge in graph["edges"] for node in (edge["source"], edge["target"]))
    return {
        "nodes": len(graph["nodes"]),
        "sections": sum(1 for node in graph["nodes"] if node["kind"] == "section"),
        "edges": len(graph["edges"]),
        "max_degree": max(degree.values(), default=0),
    }


def document_graphs(
    services: LocalServices, namespace: str, records: Sequence[DocumentRecord]
) -> dict[str, dict[str, Any]]:
    """Source key -> its graph summary, for the documents not deleted."""
    source = BuiltGraphSource(services.store, lambda _: services.index)
    return {
        record.source_key: graph_summary(_loaded(source, record)) for record in records if record.status != "deleted"
    }


def print_graphs(summaries: dict[str, dict[str, Any]], out: TextIO) -> None:
    if not summaries:
        return
    width = max(len(key) for key in summaries)
    print("-- document graphs (nodes: sections + chunks; edges: >= 3 shared keywords, overlap >= 0.8):", file=out)
    for key, summary in summaries.items():
        print(
            f"  {key:<{width}}  {summary['nodes']} nodes ({summary['sections']} sections)  {summary['edges']} edges"
            f"  max {summary['max_degree']} a node",
            file=out,
        )


def _loaded(source: BuiltGraphSource, record: DocumentRecord) -> dict[str, Any] | None:
    graph = source.load(record.namespace, record.document_id, record.revision)
    return dict(graph) if graph is not None else None
