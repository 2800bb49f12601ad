"""The document graph on both engines: built when asked from the published revision's chunks, weighed by the
namespace as it is then, gone when the document fails or is deleted; `docshelf status --graph`."""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docshelf.graph import MAX_EDGES_PER_NODE
from docshelf.graph.source import BuiltGraphSource
from docshelf.local.cli import main
from docshelf.local.services import LocalServices
from tests.functional.test_caches_and_artifacts import _validator

SPEC = "torque wrench flange nut thread spanner calibration gasket"
MANUAL = (
    f"# Assembly\n\nTighten every flange with the {SPEC} set, one quarter turn at a time, crosswise.\n\n"
    "# Safety\n\nWear gloves and goggles near the pump, and keep its guard closed while it runs at speed.\n\n"
    f"# Appendix\n\nValues for the {SPEC} set, by size, as the factory measured them in the last series.\n"
)


@pytest.fixture(params=["embedded", pytest.param("opensearch", marks=pytest.mark.opensearch)])
def services(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LocalServices]:
    if request.param == "embedded":
        yield LocalServices.open(tmp_path / "store", chunk_tokens=40)
        return
    node = request.getfixturevalue("opensearch_node")
    host = node.transport.hosts[0]
    opened = LocalServices.open(
        tmp_path / "store", chunk_tokens=40, backend="opensearch", opensearch_url=f"http://{host['host']}:{host['port']}",
        opensearch_index=f"graph-{uuid.uuid4().hex[:8]}",
    )  # fmt: skip
    try:
        yield opened
    finally:
        opened.index.drop_index()  # type: ignore[attr-defined]


def graph_of(services: LocalServices, document_id: str) -> dict[str, Any] | None:
    """The document's graph as the API builds it, for its published revision."""
    record = services.registry.get("ns", document_id)
    source = BuiltGraphSource(services.store, lambda _: services.index)
    graph = source.load("ns", document_id, record.revision) if record and record.status != "deleted" else None
    return dict(graph) if graph is not None else None


def load(services: LocalServices, document_id: str) -> dict[str, Any]:
    graph = graph_of(services, document_id)
    assert graph is not None
    return graph


def test_the_graph_follows_the_documents_revisions(services: LocalServices) -> None:
    plain = " ".join(word for word in MANUAL.replace("#", "").split() if word.strip(",.") not in SPEC.split())
    for n in range(30):  # a namespace where the manual's plain words are common and its spec words rare
        services.ingest(f"{plain} (note {n})\n".encode(), namespace="ns", source_key=f"notes/{n}.md")
    first = services.ingest(MANUAL.encode(), namespace="ns", source_key="manual.md")
    graph = load(services, first.document_id)
    _validator("graph.schema.json").validate(graph)
    nodes = {node["id"]: node for node in graph["nodes"]}
    chunks = {key: node for key, node in nodes.items() if node["kind"] == "chunk"}
    assert len(chunks) == first.chunks == 3
    joined = {
        frozenset(tuple(nodes[edge[end]]["section_path"]) for end in ("source", "target")) for edge in graph["edges"]
    }
    assert frozenset({("Assembly",), ("Appendix",)}) in joined  # the spec text and its values table
    assert all(("Safety",) not in pair for pair in joined)
    assembly = next(node for node in chunks.values() if node["section_path"] == ["Assembly"])
    assert "turn" not in assembly["keywords"] and "torqu" in assembly["keywords"]  # common / rare in the namespace
    edited = services.ingest(MANUAL.replace("by size", "by bolt size").encode(), namespace="ns", source_key="manual.md")
    again = load(services, edited.document_id)
    record = services.registry.get("ns", edited.document_id)
    assert record is not None and again["revision"] == record.revision != graph["revision"]
    broken = services.ingest(b"%PDF-1.7 broken", namespace="ns", source_key="manual.md")
    assert broken.status == "failed" and graph_of(services, broken.document_id) is None
    services.ingest(MANUAL.encode(), namespace="ns", source_key="manual.md")
    assert graph_of(services, first.document_id) is not None
    services.delete(namespace="ns", source_key="manual.md")
    assert graph_of(services, first.document_id) is None
    assert not list(services.store.root.rglob("graph.json"))  # built when asked, never written


def test_keywords_are_weighed_by_the_namespace_as_it_is_when_asked(services: LocalServices) -> None:
    manual = services.ingest(MANUAL.encode(), namespace="ns", source_key="manual.md")
    alone = {tuple(n["section_path"]): n["keywords"] for n in load(services, manual.document_id)["nodes"]}
    assert "turn" in alone[("Assembly",)] and "torqu" not in alone[("Assembly",)]  # the spec is in two of three
    plain = "Tighten every bolt one quarter turn at a time, crosswise."
    for n in range(30):  # then notes that make the section's plain words common in the namespace
        services.ingest(f"{plain} (note {n})\n".encode(), namespace="ns", source_key=f"notes/{n}.md")
    later = {tuple(n["section_path"]): n["keywords"] for n in load(services, manual.document_id)["nodes"]}
    assert "turn" not in later[("Assembly",)] and "torqu" in later[("Assembly",)]


def test_a_long_document_keeps_its_cap(services: LocalServices) -> None:
    section = "\n\n".join(f"Step {i}: {SPEC} check {i % 7}." for i in range(120))
    result = services.ingest(f"# Steps\n\n{section}\n".encode(), namespace="ns", source_key="steps.md")
    graph = load(services, result.document_id)
    degree = Counter(node for edge in graph["edges"] for node in (edge["source"], edge["target"]))
    assert graph["edges"] and max(degree.values()) <= MAX_EDGES_PER_NODE


def test_status_shows_each_documents_graph(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "store"
    services = LocalServices.open(store, chunk_tokens=40)
    manual = services.ingest(MANUAL.encode(), namespace="ns", source_key="manual.md")
    notes = services.ingest(b"# Notes\n\nNothing to add.\n", namespace="ns", source_key="notes.md")
    assert main(["status", "--store", str(store), "--namespace", "ns"]) == 0
    assert "most hit" not in capsys.readouterr().out  # nothing returned in evidence yet
    services.hits.record("ns", [(notes.document_id, "c1")])
    services.hits.record("ns", [(manual.document_id, "c2"), (manual.document_id, "c3")])
    assert main(["status", "--store", str(store), "--namespace", "ns", "--graph"]) == 0
    out = capsys.readouterr().out
    hit_lines = out.split("-- most hit documents (in search evidence):\n")[1].splitlines()
    assert hit_lines[0].startswith("  manual.md  2 hits") and hit_lines[1].startswith("  notes.md  1 hits")
    assert "-- document graphs" in out and "manual.md" in out and "6 nodes (3 sections)" in out
    assert main(["status", "--store", str(store), "--namespace", "ns", "--graph", "--json"]) == 0
    rows = {row["source_key"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["manual.md"]["graph"]["nodes"] == 6 and rows["manual.md"]["graph"]["sections"] == 3
