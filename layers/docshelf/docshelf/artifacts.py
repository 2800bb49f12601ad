"""Per-document artifacts: manifest.json (with nested HIERARCHY) and doc_nav.json.

See docs/architecture.md#chunks-and-artifacts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from docshelf.model import Chunk, Document, Link, Source
from docshelf.section_summaries import section_summaries
from docshelf.serde import source_dict
from docshelf.structure import section_paths
from docshelf.versions import SCHEMA_VERSION


@dataclass(slots=True)
class _Section:
    title: str
    level: int
    chunk_count: int = 0
    summary: str = ""
    resources: list[dict[str, str]] = field(default_factory=list)
    children: list[_Section] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "level": self.level,
            "chunk_count": self.chunk_count,
            "summary": self.summary,
            "resources": self.resources,
            "children": [child.to_dict() for child in self.children],
        }


def section_tree(document: Document | None, chunks: list[Chunk]) -> list[_Section]:
    """Sections from the document's headings, with chunk counts and table/image resources."""
    root = _Section("", 0)
    nodes: dict[tuple[str, ...], _Section] = {(): root}
    heading_paths = (
        [path for block, path in section_paths(document.blocks()) if block.kind == "heading"] if document else []
    )
    for path in [*heading_paths, *(chunk.section_path for chunk in chunks)]:
        for depth in range(1, len(path) + 1):
            key = path[:depth]
            if key not in nodes:
                node = _Section(key[-1], depth)
                nodes[key[:-1]].children.append(node)
                nodes[key] = node
    counts = Counter(chunk.section_path for chunk in chunks)
    for path, count in counts.items():
        nodes[path].chunk_count += count
    for chunk, link in _resource_links(chunks):
        resource = {"type": link.target, "ref": link.ref, "chunk_id": chunk.chunk_id}
        nodes[chunk.section_path].resources.append(resource)
    for path, summary in section_summaries(document).items():
        if path in nodes:
            nodes[path].summary = summary
    return root.children


def _resource_links(chunks: list[Chunk]) -> list[tuple[Chunk, Link]]:
    """Each table part and image chunk with the asset it comes from; an image without a chunk of its own (it
    says nothing itself) with the first text chunk it sits in."""
    own = [(chunk, link) for chunk in chunks for link in chunk.connect_to if link.relation in ("part_of", "describes")]
    listed = {link.ref for _, link in own}
    for chunk in chunks:
        for link in chunk.connect_to:
            if link.relation == "embeds" and link.target == "image" and link.ref not in listed:
                listed.add(link.ref)
                own.append((chunk, link))
    return own


def section_dicts(document: Document | None, chunks: list[Chunk]) -> list[dict[str, Any]]:
    """The section tree as doc_nav.json's `sections` and the manifest's `HIERARCHY` hold it (the same list)."""
    return [section.to_dict() for section in section_tree(document, chunks)]


def doc_nav(
    document_id: str,
    document: Document | None,
    chunks: list[Chunk],
    *,
    sections: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """`sections`: the document's `section_dicts`, when the caller has them already (their summaries cost)."""
    root_chunks = sum(1 for chunk in chunks if not chunk.section_path)
    return {
        "schema_version": SCHEMA_VERSION,
        "document_id": document_id,
        "title": document.title if document else "",
        "unsectioned_chunk_count": root_chunks,
        "sections": section_dicts(document, chunks) if sections is None else sections,
    }


def manifest(
    *,
    namespace: str,
    document_id: str,
    source_key: str,
    source: Source | None,
    status: str,
    document: Document | None,
    chunks: list[Chunk],
    chunker: str,
    errors: list[dict[str, Any]],
    sections: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    blocks = document.blocks() if document else []
    kinds = Counter(block.kind for block in blocks)
    data = {
        "schema_version": SCHEMA_VERSION,
        "namespace": namespace,
        "document_id": document_id,
        "source_key": source_key,
        "source": None if source is None else source_dict(source),
        "status": status,
        "revision": source.sha256 if source else "",
        "title": document.title if document else "",
        "parser": document.parser if document else "",
        "chunker": chunker,
        "stats": {
            "pages": len(document.pages) if document else 0,
            "blocks": len(blocks),
            "headings": kinds["heading"],
            "tables": kinds["table"],
            "images": kinds["image"],
            "tokens": sum(block.tokens for block in blocks),
            "chunks": len(chunks),
            "chunk_tokens": sum(chunk.token_count for chunk in chunks),
        },
        "warnings": list(document.warnings) if document else [],
        "errors": errors,
        "HIERARCHY": section_dicts(document, chunks) if sections is None else sections,
    }  # fmt: skip
    if document is not None and document.truncation:
        data["truncation"] = document.truncation  # what a parse limit cut: why the status is `partial`
    return data
