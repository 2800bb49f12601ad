"""Navigation along the document graph (agentic/graph_step.py): from a step's strongest findings to a section
breadth-first navigation would not open."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from docshelf.agentic.graph_step import graph_sections
from docshelf.agentic.service import AgenticRun, agentic_search
from docshelf.agentic.steps import FOLLOW_GRAPH
from docshelf.graph.source import GraphSource
from tests.agentic_fixtures import context, ingest_documents

GRAPH = {
    "nodes": [
        {"id": "c1", "kind": "chunk", "section_path": ["Manual", "Torque"], "keywords": []},
        {"id": "c2", "kind": "chunk", "section_path": ["Manual", "Tables"], "keywords": []},
        {"id": "c3", "kind": "chunk", "section_path": ["Manual", "Storage"], "keywords": []},
        {"id": "s1", "kind": "section", "section_path": ["Manual", "Index"], "keywords": []},
    ],
    "edges": [
        {"source": "c1", "target": "c3", "shared": ["a", "b", "c"], "score": 0.8},
        {"source": "c2", "target": "c1", "shared": ["a", "b", "c", "d"], "score": 1.0},
        {"source": "s1", "target": "c3", "shared": ["a", "b", "c"], "score": 1.0},
    ],
}


def test_the_strongest_edge_of_a_strong_finding_leads_to_a_section_not_opened() -> None:
    assert graph_sections(GRAPH, ["c1"], []) == [("Manual", "Tables")]
    assert graph_sections(GRAPH, ["c1"], [("Manual", "Tables")]) == [("Manual", "Storage")]
    assert graph_sections(GRAPH, ["c3"], []) == [("Manual", "Index")]  # a section node too
    assert graph_sections(GRAPH, ["unknown"], []) == [] and graph_sections({}, ["c1"], []) == []


PARTS = b"""# Drive manual

## Gearbox

The gearbox of the XR-7 drive runs in an oil bath and is checked every 500 hours.

## Lubrication

Fill with ISO VG 220 oil to the sight glass; change it yearly.

## Spare parts

Order kit K-40: helical spur gears, a bronze worm wheel and the labyrinth seal.
"""


def test_a_walk_following_the_graph_hydrates_the_linked_section(tmp_path: Path) -> None:
    services = ingest_documents(tmp_path / "store")
    drive = services.ingest(PARTS, namespace="ns", source_key="drive.md")
    graph = dict(context(services).graph_source.load("ns", drive.document_id) or {})  # type: ignore[union-attr]
    by_section = {tuple(node["section_path"]): node["id"] for node in graph["nodes"] if node["kind"] == "chunk"}
    gearbox, spares = by_section[("Drive manual",)], by_section[("Drive manual", "Spare parts")]  # title + gearbox
    graph["edges"] = [{"source": gearbox, "target": spares, "shared": ["gear", "wheel", "seal"], "score": 1.0}]
    # an edge the rule could make, placed by hand
    ctx = replace(context(services, top_k=8), graph_source=_Placed(drive.document_id, graph))
    query = "how often is the XR-7 gearbox checked?"
    off = agentic_search(replace(ctx, follow_graph=False), AgenticRun(query, 2000))
    on = agentic_search(replace(ctx, follow_graph=True), AgenticRun(query, 2000))
    # without the graph the section is an outline line at most; following the edge, its chunk is evidence
    assert spares not in {r["chunk_id"] for r in off["results"] if r["evidence_ref"] is not None}
    assert spares in {r["chunk_id"] for r in on["results"] if r["evidence_ref"] is not None}
    assert not FOLLOW_GRAPH  # off by default: it did not help across the agentic bench's sets


@dataclass(frozen=True)
class _Placed:
    """One document's graph as given."""

    document_id: str
    graph: Mapping[str, Any]

    def load(self, namespace: str, document_id: str, revision: str | None = None) -> Mapping[str, Any] | None:
        return self.graph if document_id == self.document_id else None


_SOURCE: GraphSource = _Placed("", {})  # the protocol's shape, checked by mypy
