"""A document's graph, built when it is asked for (the API's GET /documents/{id}/graph, agentic navigation,
`docshelf status --graph`) from its published chunks (chunks.json) and the namespace's document frequencies as the
index holds them then: nothing is written at ingest, and the keywords' weights follow the namespace as it grows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from docshelf.store.base import ObjectStore


class GraphSource(Protocol):
    def load(self, namespace: str, document_id: str, revision: str | None = None) -> Mapping[str, Any] | None:
        """The document's graph (graph.schema.json), or None when it has no chunks (not chunked yet, failed,
        deleted) or, given `revision`, when its chunks are of another revision."""
        ...


class FrequencySource(Protocol):
    def document_frequencies(self, namespace: str, terms: Sequence[str]) -> tuple[int, dict[str, int]]: ...


@dataclass(frozen=True, slots=True)
class BuiltGraphSource:
    store: ObjectStore
    index_for: Callable[[str], FrequencySource]  # namespace -> the index as of its current version

    def load(self, namespace: str, document_id: str, revision: str | None = None) -> Mapping[str, Any] | None:
        # keys imports the chunker's settings and build the analyzer: neither is needed on a cold start
        from docshelf.graph.build import content_terms, document_graph
        from docshelf.keys import artifact_key
        from docshelf.serde import chunks_from_dict, loads

        data = self.store.get(artifact_key(namespace, document_id, "chunks.json"))
        if data is None:
            return None
        try:
            chunks = chunks_from_dict(loads(data))
        except (ValueError, KeyError, TypeError):
            return None
        if not chunks or chunks[0].document_id != document_id:
            return None
        found = chunks[0].revision
        if revision is not None and found != revision:
            return None
        frequencies = content_terms(chunks)
        terms = sorted(set().union(*frequencies))
        namespace_chunks, holding = (
            self.index_for(namespace).document_frequencies(namespace, terms) if terms else (0, {})
        )
        return document_graph(
            document_id, found, chunks, frequencies, namespace_chunks=namespace_chunks, namespace_holding=holding
        )
