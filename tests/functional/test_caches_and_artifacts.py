"""Content-addressed caches (parse: sha256 + parser version; chunks: + chunker version + every
parameter) and the per-document artifacts, validated against the JSON Schemas in the package."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from referencing import Registry, Resource

import docshelf.index.plan
import docshelf.parsers
from docshelf.chunking import chunker as chunker_module
from docshelf.graph.source import BuiltGraphSource
from docshelf.local.services import LocalServices
from docshelf.parsers.base import Parser

MANUAL = (
    "Chapter 1 Overview\n\nThe TX-100 valve is rated for 200 bar.\n\n"
    "Chapter 2 Maintenance\n\n" + "Replace the stem seal every 6 months. " * 80
).encode()


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    counter: Counter[str] = Counter()
    load_parser = docshelf.parsers.load_parser
    chunk_document = chunker_module.chunk_document

    def counting_loader(fmt: str) -> Parser:
        parser = load_parser(fmt)

        def counted(data: bytes, **kwargs: Any) -> Any:
            counter["parse"] += 1
            return parser(data, **kwargs)

        return counted

    def counting_chunker(*args: Any, **kwargs: Any) -> Any:
        counter["chunk"] += 1
        return chunk_document(*args, **kwargs)

    monkeypatch.setattr(docshelf.parsers, "load_parser", counting_loader)
    monkeypatch.setattr("docshelf.pipeline.chunk.chunk_document", counting_chunker)
    return counter


def test_identical_bytes_are_neither_parsed_nor_chunked_again(tmp_path: Path, calls: Counter[str]) -> None:
    services = LocalServices.open(tmp_path)
    first = services.ingest(MANUAL, namespace="ns", source_key="manual.txt")
    second = services.ingest(MANUAL, namespace="ns", source_key="manual.txt")
    assert calls == {"parse": 1, "chunk": 1}
    assert second.parse_cache_hit and second.chunk_cache_hit and second.chunks == first.chunks


def test_a_failing_file_is_not_parsed_again(tmp_path: Path, calls: Counter[str]) -> None:
    services = LocalServices.open(tmp_path)
    first = services.ingest(b"%PDF-1.7 broken", namespace="ns", source_key="broken.pdf")
    again = services.ingest(b"%PDF-1.7 broken", namespace="ns", source_key="broken.pdf")
    assert calls == {"parse": 1}
    assert (first.status, first.error_code) == (again.status, again.error_code) == ("failed", "corrupt")
    record = services.registry.get("ns", first.document_id)
    assert record is not None and record.error_code == "corrupt"


def test_same_bytes_under_another_name_reuse_the_parse(tmp_path: Path, calls: Counter[str]) -> None:
    services = LocalServices.open(tmp_path)
    services.ingest(MANUAL, namespace="ns", source_key="manual.txt")
    services.ingest(MANUAL, namespace="ns", source_key="copy/manual.txt")
    assert calls == {"parse": 1, "chunk": 2}


def test_changing_only_chunk_parameters_rechunks_without_reparsing(tmp_path: Path, calls: Counter[str]) -> None:
    LocalServices.open(tmp_path).ingest(MANUAL, namespace="ns", source_key="manual.txt")
    smaller = LocalServices.open(tmp_path, chunk_tokens=100).ingest(MANUAL, namespace="ns", source_key="manual.txt")
    overlapping = LocalServices.open(tmp_path, chunk_tokens=100, overlap_tokens=20)
    result = overlapping.ingest(MANUAL, namespace="ns", source_key="manual.txt")
    assert calls == {"parse": 1, "chunk": 3}
    assert smaller.parse_cache_hit and not smaller.chunk_cache_hit and smaller.chunks > 1
    assert result.parse_cache_hit and not result.chunk_cache_hit


def test_a_file_edited_in_place_is_parsed_again(tmp_path: Path, calls: Counter[str]) -> None:
    services = LocalServices.open(tmp_path)
    services.ingest(MANUAL, namespace="ns", source_key="manual.txt")
    edited = services.ingest(MANUAL.replace(b"6 months", b"3 months"), namespace="ns", source_key="manual.txt")
    assert calls == {"parse": 2, "chunk": 2}
    assert not edited.parse_cache_hit
    texts = [c.text for c in services.index.list_chunks("ns", docshelf.index.plan.SearchFilters(), 100)]
    assert any("3 months" in text for text in texts) and not any("6 months" in text for text in texts)


def _validator(name: str) -> jsonschema.Draft202012Validator:
    folder = resources.files("docshelf") / "schemas"
    schemas = {
        p.name: json.loads(p.read_text(encoding="utf-8")) for p in folder.iterdir() if p.name.endswith(".schema.json")
    }
    registry: Registry[Any] = Registry().with_resources(
        (f"https://docshelf.dev/schemas/{n}", Resource.from_contents(s)) for n, s in schemas.items()
    )
    return jsonschema.Draft202012Validator(schemas[name], registry=registry)


def test_artifacts_match_their_json_schemas(tmp_path: Path) -> None:
    services = LocalServices.open(tmp_path, chunk_tokens=120)
    ok = services.ingest(MANUAL, namespace="ns", source_key="docs/manual.txt")
    failed = services.ingest(b"%PDF-1.7 broken", namespace="ns", source_key="broken.pdf")
    for result in (ok, failed):
        prefix = tmp_path / "docs" / "ns" / result.document_id
        for name in ("chunks", "manifest", "doc_nav"):
            data = json.loads((prefix / f"{name}.json").read_text(encoding="utf-8"))
            _validator(f"{name}.schema.json").validate(data)
    source = BuiltGraphSource(services.store, lambda _: services.index)
    graph = dict(source.load("ns", ok.document_id) or {})
    _validator("graph.schema.json").validate(graph)
    assert graph["revision"] == manifest_revision(tmp_path, ok.document_id) and {n["kind"] for n in graph["nodes"]} == {
        "section",
        "chunk",
    }
    assert source.load("ns", failed.document_id) is None  # no content, no graph
    manifest = json.loads((tmp_path / "docs/ns" / ok.document_id / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["status"] == "ok" and manifest["stats"]["chunks"] == ok.chunks
    assert [s["title"] for s in manifest["HIERARCHY"]] == ["Chapter 1 Overview", "Chapter 2 Maintenance"]
    nav = json.loads((tmp_path / "docs/ns" / ok.document_id / "doc_nav.json").read_text(encoding="utf-8"))
    assert nav["sections"] == manifest["HIERARCHY"]
    counted = sum(s["chunk_count"] + sum(c["chunk_count"] for c in s["children"]) for s in nav["sections"])
    assert counted + nav["unsectioned_chunk_count"] == ok.chunks
    broken = json.loads((tmp_path / "docs/ns" / failed.document_id / "manifest.json").read_text(encoding="utf-8"))
    assert broken["status"] == "failed" and broken["errors"][0]["code"] == "corrupt"


def test_schemas_reject_a_broken_artifact() -> None:
    with pytest.raises(jsonschema.ValidationError):
        _validator("chunks.schema.json").validate({"schema_version": "1.0", "document_id": "d", "chunks": [{}]})
    rule = {"keywords_per_node": 8, "min_shared": 3, "min_overlap": 0.8, "overlap": "", "max_edges_per_node": 20}
    edge = {"source": "a", "target": "b", "shared": ["x"], "score": 1.5}
    with pytest.raises(jsonschema.ValidationError):
        _validator("graph.schema.json").validate(
            {"schema_version": "1.0", "document_id": "d", "revision": "r", "rule": rule, "nodes": [], "edges": [edge]}
        )


def manifest_revision(store: Path, document_id: str) -> str:
    manifest = json.loads((store / "docs/ns" / document_id / "manifest.json").read_text(encoding="utf-8"))
    return str(manifest["revision"])
