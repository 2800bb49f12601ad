"""Search filters, applied inside every backend's ranking (never after the top-k cut)."""

from __future__ import annotations

from dataclasses import dataclass

from docshelf.model import Chunk


@dataclass(frozen=True, slots=True)
class SearchFilters:
    documents: tuple[str, ...] = ()
    exclude_documents: tuple[str, ...] = ()
    exclude_sections: tuple[str, ...] = ()
    chunk_types: tuple[str, ...] = ()

    def is_empty(self) -> bool:
        return not (self.documents or self.exclude_documents or self.exclude_sections or self.chunk_types)

    def allows(self, chunk: Chunk) -> bool:
        names = (chunk.document_id, chunk.source_file_name)
        if self.documents and not any(name in self.documents for name in names):
            return False
        if any(name in self.exclude_documents for name in names):
            return False
        if self.exclude_sections and any(title in self.exclude_sections for title in chunk.section_path):
            return False
        return not self.chunk_types or chunk.type in self.chunk_types

    def cache_fields(self) -> dict[str, list[str]]:
        return {
            "documents": sorted(self.documents),
            "exclude_documents": sorted(self.exclude_documents),
            "exclude_sections": sorted(self.exclude_sections),
            "chunk_types": sorted(self.chunk_types),
        }
