"""The typed query plan the search algorithm (search/) hands to an engine: what to rank, with which weights and
rules. Engines execute a plan; what goes into it is decided in search/. Nothing here imports numpy."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from docshelf.model import Chunk

Channel: TypeAlias = Literal["content", "path", "term"]
CHANNELS: tuple[Channel, ...] = ("content", "path", "term")
# The ranked lists of a first pass: the BM25 channels and the semantic one (chunk vectors nearest the query's).
RankedList: TypeAlias = Literal["content", "path", "term", "semantic"]

# A query: terms in order (a repeated term counts again, as in rank-bm25), or each term with its weight.
QueryTerms: TypeAlias = Sequence[str] | Mapping[str, float]


def term_weights(terms: QueryTerms) -> dict[str, float]:
    if isinstance(terms, Mapping):
        return {term: float(weight) for term, weight in terms.items() if weight > 0}
    return {term: float(count) for term, count in Counter(terms).items()}


@dataclass(frozen=True, slots=True)
class SearchFilters:
    """Search filters, applied inside every engine's ranking (never after the top-k cut)."""

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


@dataclass(frozen=True, slots=True)
class ChannelQuery:
    """One channel's query: each distinct term with its weight (a chunk's BM25 score of a term is multiplied by
    it), and how many of the distinct terms a chunk must hold to be ranked at all."""

    terms: Mapping[str, float]
    min_match: int = 1
    # Terms that score but do not count toward min_match (the term channel's trigrams).
    optional: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class SemanticQuery:
    """The semantic channel's query: the query's vector (of the namespace's embedding model), and how many of the
    chunks the filters allow to rank by dot product with it."""

    vector: tuple[float, ...]
    limit: int = 10


@dataclass(frozen=True, slots=True)
class QueryPlan:
    """A search's first pass: count the chunks `filters` allows, rank each channel (`limit` chunks each) and the
    semantic channel when planned, and read the content terms of the content ranking's first `feedback` chunks."""

    channels: Mapping[Channel, ChannelQuery]
    filters: SearchFilters = field(default_factory=SearchFilters)
    limit: int = 10
    feedback: int = 0
    semantic: SemanticQuery | None = None


def mixed_query(
    query: Mapping[str, float], expansion: Mapping[str, float], dropped: Collection[str] = ()
) -> dict[str, float]:
    """The query's terms, then the expansion terms not `dropped`; a term in both gets both weights."""
    mixed = dict(query)
    for term, weight in expansion.items():
        if term not in dropped:
            mixed[term] = mixed.get(term, 0.0) + weight
    return mixed


@dataclass(frozen=True, slots=True)
class ExpansionPlan:
    """A search's second pass: rank the content channel for the query mixed with its expansion terms, leaving out
    the expansion terms found in the content of more than `common_share` of the namespace's chunks (regardless of
    the filters), and fetch what the engine can cheaply of the chunks `fetch` names."""

    query: Mapping[str, float]
    expansion: Mapping[str, float]
    filters: SearchFilters = field(default_factory=SearchFilters)
    limit: int = 10
    fetch: Sequence[str] = ()
    common_share: float = 0.5
    min_match: int = 1

    def mixed(self, common: Collection[str]) -> ChannelQuery:
        """The content channel's query once `common` are known to be the expansion's common terms."""
        return ChannelQuery(mixed_query(self.query, self.expansion, common), self.min_match)

    def is_common(self, chunks_holding: int, chunks: int) -> bool:
        """Whether a term `chunks_holding` of a namespace's `chunks` hold counts as common."""
        return chunks_holding > chunks * self.common_share


@dataclass(frozen=True, slots=True)
class SpellingRule:
    """Which indexed terms an engine proposes as corrections of a term: content terms sharing its first `prefix`
    letters, within `max_edits` edits (optimal string alignment), each with the number of chunks holding it. An
    engine that caps its answer proposes `suggestions` per term at least."""

    max_edits: int
    prefix: int
    suggestions: int
