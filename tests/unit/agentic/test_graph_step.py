"""Navigation along graph.json (agentic/graph_step.py): from a step's strongest findings to a section breadth-first
navigation would not open."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from docshelf.agentic.graph_step import graph_sections
from docshelf.agentic.service import AgenticRun, agentic_search
from docshelf.agentic.steps import FOLLOW_GRAPH
from docshelf.graph.source import StoreGraphSource
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
    path = services.store.root / "docs" / "ns" / drive.document_id / "graph.json"
    graph = json.loads(path.read_text(encoding="utf-8"))
    by_section = {tuple(node["section_path"]): node["id"] for node in graph["nodes"] if node["kind"] == "chunk"}
    gearbox, spares = by_section[("Drive manual",)], by_section[("Drive manual", "Spare parts")]  # title + gearbox
    graph["edges"] = [{"source": gearbox, "target": spares, "shared": ["gear", "wheel", "seal"], "score": 1.0}]
    path.write_text(json.dumps(graph), encoding="utf-8")  # an edge the rule could make, placed by hand
    ctx = replace(context(services, top_k=8), graph_source=StoreGraphSource(services.store))
    query = "how often is the XR-7 gearbox checked?"
    off = agentic_search(replace(ctx, follow_graph=False), AgenticRun(query, 2000))
    on = agentic_search(replace(ctx, follow_graph=True), AgenticRun(query, 2000))
    # without the graph the section is an outline line at most; following the edge, its chunk is evidence
    assert spares not in {r["chunk_id"] for r in off["results"] if r["evidence_ref"] is not None}
    assert spares in {r["chunk_id"] for r in on["results"] if r["evidence_ref"] is not None}
    assert not FOLLOW_GRAPH  # off by default: it did not help across the agentic bench's sets
