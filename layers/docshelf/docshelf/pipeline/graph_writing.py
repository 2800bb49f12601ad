"""graph.json beside a published revision's other artifacts (docshelf/graph/): written by the publish stage, where
the index knows the namespace's document frequencies that weigh the keywords; removed with the document."""

from __future__ import annotations

from collections.abc import Sequence

from docshelf.graph import GRAPH_FILE, document_graph
from docshelf.graph.build import content_terms
from docshelf.index.base import SearchBackend
from docshelf.keys import artifact_key
from docshelf.model import Chunk
from docshelf.pipeline.outcomes import DocumentRef
from docshelf.serde import dumps
from docshelf.store.base import ObjectStore


def write_document_graph(store: ObjectStore, index: SearchBackend, ref: DocumentRef, chunks: Sequence[Chunk]) -> None:
    """The revision's graph, its keywords weighted by the namespace as the index holds it now."""
    frequencies = content_terms(chunks)
    terms = sorted(set().union(*frequencies))
    namespace_chunks, holding = index.document_frequencies(ref.namespace, terms) if terms else (0, {})
    graph = document_graph(
        ref.document_id, ref.revision, chunks, frequencies, namespace_chunks=namespace_chunks, namespace_holding=holding
    )
    store.put(artifact_key(ref.namespace, ref.document_id, GRAPH_FILE), dumps(graph), content_type="application/json")


def delete_document_graph(store: ObjectStore, namespace: str, document_id: str) -> None:
    store.delete(artifact_key(namespace, document_id, GRAPH_FILE))
