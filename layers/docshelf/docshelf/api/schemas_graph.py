"""The response schema of GET /documents/{id}/graph: the graph as graph/source.py builds it (schemas/graph.schema.json,
whose uniqueness and minimum-count rules the API's validator subset leaves to the builder)."""

from __future__ import annotations

from docshelf.api.schema_parts import STRINGS as _STRINGS
from docshelf.api.schema_parts import Schema
from docshelf.api.schema_parts import closed as _closed

GRAPH_SCHEMAS: dict[str, Schema] = {
    "GraphRuleOut": _closed(
        {
            "keywords_per_node": {"type": "integer", "minimum": 1},
            "min_shared": {"type": "integer", "minimum": 1},
            "min_overlap": {"type": "number", "minimum": 0, "maximum": 1},
            "overlap": {"type": "string", "description": "the overlap score: shared keywords / the smaller set's"},
            "max_edges_per_node": {"type": "integer", "minimum": 1},
        }
    ),
    "GraphNodeOut": _closed(
        {
            "id": {"type": "string", "description": "a chunk id, or `s` + 16 hex for a section"},
            "kind": {"type": "string", "enum": ["section", "chunk"]},
            "section_path": _STRINGS,
            "keywords": _STRINGS,
        }
    ),
    "GraphEdgeOut": _closed(
        {
            "source": {"type": "string"},
            "target": {"type": "string"},
            "shared": _STRINGS,
            "score": {"type": "number", "minimum": 0, "maximum": 1},
        }
    ),
    "GraphOut": _closed(
        {
            "schema_version": {"type": "string"},
            "document_id": {"type": "string"},
            "revision": {"type": "string"},
            "rule": {"$ref": "#/components/schemas/GraphRuleOut"},
            "nodes": {"type": "array", "items": {"$ref": "#/components/schemas/GraphNodeOut"}},
            "edges": {"type": "array", "items": {"$ref": "#/components/schemas/GraphEdgeOut"}},
        }
    ),
}
