"""The document graph (graph.schema.json): nodes inside one document, its sections and chunks, joined by undirected
edges where they share keywords (docs/architecture.md#chunks-and-artifacts; docs/reference.md "Document graph").

`keywords.py` picks each node's keywords from the analyzer's terms, weighted across the namespace; `edges.py` holds
the overlap rule and the cap on edges per node; `build.py` makes the graph of one revision;
`source.py` builds it when asked for, from the revision's chunks.json.
"""

from docshelf.graph.build import document_graph
from docshelf.graph.edges import MAX_EDGES_PER_NODE, MIN_OVERLAP, MIN_SHARED, overlap_score

__all__ = ["MAX_EDGES_PER_NODE", "MIN_OVERLAP", "MIN_SHARED", "document_graph", "overlap_score"]
