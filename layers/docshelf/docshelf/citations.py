"""The citation of a chunk, as evidence headers and the CLI print it: source key | section path | pages | ids.

The source key is the document's path inside its namespace (`groundtruth/MANIFEST.tsv`), the name `status` shows
and filters take, so two files of one name in different folders are never cited alike."""

from __future__ import annotations

from collections.abc import Sequence

from docshelf.model import Chunk


def format_pages(pages: Sequence[int]) -> str:
    if not pages:
        return ""
    if len(pages) == 1:
        return f"p. {pages[0]}"
    if list(pages) == list(range(pages[0], pages[-1] + 1)):
        return f"pp. {pages[0]}-{pages[-1]}"
    return "pp. " + ", ".join(str(page) for page in pages)


def citation_of(
    source_key: str, section_path: Sequence[str], pages: Sequence[int], document_id: str, chunk_id: str
) -> str:
    parts = [source_key]
    if section_path:
        parts.append(" > ".join(section_path))
    if pages:
        parts.append(format_pages(pages))
    parts.append(f"{document_id}#{chunk_id}")
    return " | ".join(parts)


def citation(chunk: Chunk) -> str:
    return citation_of(cited_name(chunk), chunk.section_path, chunk.pages, chunk.document_id, chunk.chunk_id)


def cited_name(chunk: Chunk) -> str:
    """The name a chunk is cited by: its source key (its file name in chunks made before they had one)."""
    return chunk.source_key or chunk.source_file_name


def citation_line(chunk_citation: str) -> str:
    """What follows `[n]` in an evidence header: the text whose tokens a chunk's `citation_tokens` counts."""
    return f" {chunk_citation}\n"
