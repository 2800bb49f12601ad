from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias, runtime_checkable

from docshelf.model import Chunk
from docshelf.search.filters import SearchFilters

# BM25 as rank-bm25's BM25Okapi computes it (index/bm25.py); the passage scorer saturates tf with the same k1.
K1 = 1.5
B = 0.75
EPSILON = 0.25

Channel: TypeAlias = Literal["content", "path", "term"]
CHANNELS: tuple[Channel, ...] = ("content", "path", "term")

# A query: terms in order (a repeated term counts again, as in rank-bm25), or each term with its weight.
QueryTerms: TypeAlias = Sequence[str] | Mapping[str, float]


def term_weights(terms: QueryTerms) -> dict[str, float]:
    if isinstance(terms, Mapping):
        return {term: float(weight) for term, weight in terms.items() if weight > 0}
    return {term: float(count) for term, count in Counter(terms).items()}


# The share of a query's distinct terms a chunk must match to be a candidate in a channel.
# A file name or section title that shares one word with a long question is weak evidence,
# yet RRF would give its rank 0 a full vote; half the terms makes a path match mean something.
MIN_MATCH: dict[Channel, float] = {"content": 0.0, "path": 0.5, "term": 0.0}


def required_matches(channel: Channel, distinct_terms: int) -> int:
    return max(1, math.ceil(MIN_MATCH[channel] * distinct_terms))


@dataclass(frozen=True, slots=True)
class DocumentChunks:
    """One document's chunks for one revision, as published together by a backend's `upsert_many`."""

    document_id: str
    revision: str
    chunks: Sequence[Chunk]


class SearchIndex(Protocol):
    """What every backend offers; the contract test suite runs against each implementation."""

    def upsert(self, namespace: str, document_id: str, revision: str, chunks: Sequence[Chunk]) -> None:
        """Make `chunks` the document's only chunks (the new revision replaces the old one)."""
        ...

    def delete(self, namespace: str, document_id: str) -> None: ...

    def rank(
        self, namespace: str, channel: Channel, terms: QueryTerms, filters: SearchFilters, limit: int
    ) -> list[tuple[str, float]]:
        """Chunk ids with their BM25 scores (each term's weighted by the query's), best first, among chunks
        the filters allow."""
        ...

    def count(self, namespace: str, filters: SearchFilters) -> int: ...

    def fetch(self, namespace: str, chunk_ids: Sequence[str]) -> list[Chunk]: ...

    def list_chunks(self, namespace: str, filters: SearchFilters, limit: int) -> list[Chunk]:
        """Chunks in document order (file name, then ordinal)."""
        ...


def index_identity(index: object) -> str:
    """Which index this is (backend, place and name), for records of what was published where; an index that does
    not say is named by its class."""
    identity = getattr(index, "identity", None)
    return identity if isinstance(identity, str) else type(index).__name__


@runtime_checkable
class BulkUpsert(Protocol):
    """A backend that publishes many documents in one call, far cheaper per document than one upsert each."""

    def upsert_many(self, namespace: str, documents: Sequence[DocumentChunks]) -> Mapping[str, str]:
        """`upsert` of each document; returns {document_id: reason} for documents the backend refused (they keep
        their previous revision). A failure that stops the whole call raises."""
        ...


@runtime_checkable
class SimilarTerms(Protocol):
    """A backend that proposes spelling corrections from the terms it holds (search/corrections.py)."""

    def similar_terms(self, namespace: str, terms: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        """For each term, content terms of the namespace's chunks with its first letter and within two edits of it,
        each with the number of chunks holding it. Terms without any are left out."""
        ...
