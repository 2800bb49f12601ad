"""The one contract every search engine implements (tests/integration/test_index_contract.py runs it against each).

An engine stores chunks per namespace and executes query plans (index/plan.py); what goes into a plan (terms,
weights, expansion, corrections) is the search algorithm's, in search/. Every method is required: `SearchBackend`
cannot be instantiated without all of them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from docshelf.errors import IndexBackendError
from docshelf.index.plan import (
    Channel,
    ChannelQuery,
    ExpansionPlan,
    QueryPlan,
    QueryTerms,
    RankedList,
    SearchFilters,
    SpellingRule,
    term_weights,
)
from docshelf.index.vector_model import EmbeddingModelLike, VectorModel
from docshelf.model import Chunk

if TYPE_CHECKING:  # numpy: loaded only where vectors are (the search function's cold start has none)
    from docshelf.index.vectors import Float32Array, StoredVectors


@dataclass(frozen=True, slots=True)
class DocumentChunks:
    """One document's chunks for one revision, as published together by `SearchBackend.write`; with `vectors`
    (float32 [chunks, dimension], row i the vector of chunk i) and the `model` that made them, or neither."""

    document_id: str
    revision: str
    chunks: Sequence[Chunk]
    vectors: Any = None
    model: EmbeddingModelLike | None = None

    def __post_init__(self) -> None:
        if (self.vectors is None) != (self.model is None):
            raise IndexBackendError(f"document {self.document_id}: vectors and their model go together")

    def vector_model(self) -> VectorModel | None:
        return None if self.model is None else VectorModel.of(self.model)

    def matrix(self) -> Float32Array | None:
        """The vectors as a checked float32 matrix, or None without vectors; IndexBackendError if malformed."""
        from docshelf.index.vectors import checked_matrix

        model = self.vector_model()
        return None if model is None else checked_matrix(self.vectors, len(self.chunks), model)

    def stored_vectors(self) -> StoredVectors | None:
        """The vectors quantized as engines store them, or None; IndexBackendError if malformed."""
        from docshelf.index.vectors import StoredVectors, quantized

        model, matrix = self.vector_model(), self.matrix()
        return None if model is None or matrix is None else StoredVectors(model, *quantized(matrix))


@dataclass(frozen=True, slots=True)
class FirstPass:
    total: int
    """The chunks the filters allow."""
    rankings: dict[RankedList, list[tuple[str, float]]]
    """Each planned channel's chunk ids with their scores, best first (none when `total` is 0); "semantic" when
    the plan has a semantic query and the namespace vectors."""
    content_frequencies: dict[str, dict[str, int]] = field(default_factory=dict)
    """Chunk id -> its content terms with their frequencies, for the content ranking's first chunks (`feedback` of
    them, or more; the caller analyzes any it lacks)."""
    content_idf: dict[str, float] = field(default_factory=dict)
    """The content channel's BM25 idf of each content query term (0.0 for a term no chunk holds), for weighing
    passage evidence."""


@dataclass(frozen=True, slots=True)
class ExpansionPass:
    ranking: list[tuple[str, float]]
    """The content channel's ranking of the expanded query."""
    chunks: dict[str, Chunk] = field(default_factory=dict)
    """Those of the chunks asked for that the engine fetched along (the caller fetches the rest)."""


class SearchBackend(ABC):
    """A search engine: namespaces of chunks, written in batches, ranked by BM25 per channel."""

    @property
    @abstractmethod
    def identity(self) -> str:
        """Which index this is (engine, place and name), for records of what was published where."""

    @abstractmethod
    def write(self, namespace: str, documents: Sequence[DocumentChunks]) -> Mapping[str, str]:
        """Make each document's chunks its only chunks (the new revision replaces the old one); returns
        {document_id: reason} for documents the engine refused (they keep their previous revision). A failure
        that stops the whole call raises."""

    @abstractmethod
    def delete(self, namespace: str, document_id: str) -> None: ...

    def vector_model(self, namespace: str) -> VectorModel | None:
        """The embedding model of the namespace's vectors, None when it holds none (always, for an engine that
        keeps no vectors). A write of vectors of another model (or of none into a namespace with vectors)
        refuses its documents, unless they replace every chunk of the namespace."""
        return None

    @abstractmethod
    def first_pass(self, namespace: str, plan: QueryPlan) -> FirstPass:
        """Count, rank every channel of the plan and read the first `plan.feedback` content chunks' terms."""

    @abstractmethod
    def expansion_pass(self, namespace: str, plan: ExpansionPlan) -> ExpansionPass:
        """Rank the content channel for the expanded query without its common terms (`ExpansionPlan`)."""

    @abstractmethod
    def count(self, namespace: str, filters: SearchFilters) -> int: ...

    @abstractmethod
    def fetch(self, namespace: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        """The chunks found, in the order asked."""

    @abstractmethod
    def list_chunks(self, namespace: str, filters: SearchFilters, limit: int) -> list[Chunk]:
        """Chunks in document order (file name, document id, ordinal)."""

    @abstractmethod
    def similar_terms(
        self, namespace: str, terms: Sequence[str], rule: SpellingRule
    ) -> dict[str, list[tuple[str, int]]]:
        """For each term, the content terms of the namespace that `rule` relates to it, each with the number of
        chunks holding it. Terms without any are left out."""

    @abstractmethod
    def document_frequencies(self, namespace: str, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """(the namespace's chunks, how many of them hold each of `terms` in their content); a term no chunk holds
        is left out. For weighing a document's keywords across the namespace (docshelf/graph/)."""

    @abstractmethod
    def commit(self) -> None:
        """Make what was written durable and searchable by any reader."""

    @abstractmethod
    def reader(self, namespace: str, version: int) -> SearchBackend:
        """The engine to read `namespace` at `version` (the registry's namespace version) with: an engine that
        keeps namespaces in memory drops one loaded at another version."""

    def upsert(
        self,
        namespace: str,
        document_id: str,
        revision: str,
        chunks: Sequence[Chunk],
        vectors: Any = None,
        model: EmbeddingModelLike | None = None,
    ) -> None:
        """`write` of one document; a refusal raises IndexBackendError."""
        refused = self.write(namespace, [DocumentChunks(document_id, revision, chunks, vectors, model)])
        if refused:
            raise IndexBackendError(f"document {document_id}: {refused[document_id]}")

    def rank(
        self,
        namespace: str,
        channel: Channel,
        terms: QueryTerms,
        filters: SearchFilters,
        limit: int,
        min_match: int = 1,
        optional: frozenset[str] = frozenset(),
    ) -> list[tuple[str, float]]:
        """Chunk ids with their BM25 scores (each term's weighted by the query's), best first, among chunks the
        filters allow: one channel's first pass (`optional` terms score without counting toward `min_match`)."""
        plan = QueryPlan({channel: ChannelQuery(term_weights(terms), min_match, optional)}, filters, limit)
        return self.first_pass(namespace, plan).rankings.get(channel, [])
