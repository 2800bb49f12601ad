"""A search in two passes, and what a backend offers to run each pass in one round trip.

The first pass counts the chunks the filters allow, ranks every channel and reads the content terms of the
content channel's best chunks (the feedback of query expansion). The second ranks the expanded query, leaving
out expansion terms found in more than half of the namespace's chunks, and fetches the chunks the caller
expects to return. A remote backend (OpenSearch) answers each pass with one request; `SequentialPasses` runs
them on any `SearchIndex` with its plain methods.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from docshelf.index.base import Channel, QueryTerms, SearchIndex, term_weights
from docshelf.model import Chunk
from docshelf.search.expansion import mixed_query
from docshelf.search.filters import SearchFilters

# A backend answering in one round trip reads feedback frequencies for this many chunks past the feedback
# depth: the caller orders the ranking by rounded scores, which can move a chunk across the depth's edge.
FEEDBACK_MARGIN = 5


@dataclass(frozen=True, slots=True)
class FirstPass:
    total: int
    """The chunks the filters allow."""
    rankings: dict[Channel, list[tuple[str, float]]]
    """Each asked channel's chunk ids with their scores, best first."""
    content_frequencies: dict[str, dict[str, int]] = field(default_factory=dict)
    """Chunk id -> its content terms with their frequencies, for the content ranking's first chunks (`feedback`
    of them, and FEEDBACK_MARGIN more from a backend that answers in one round trip; the caller analyses any it
    lacks)."""
    content_idf: dict[str, float] = field(default_factory=dict)
    """The content channel's BM25 idf of each content query term (0.0 for a term no chunk holds), for
    weighing passage evidence; empty when the backend does not tell it."""


@dataclass(frozen=True, slots=True)
class ExpansionPass:
    ranking: list[tuple[str, float]]
    """The content channel's ranking of the expanded query."""
    chunks: dict[str, Chunk] = field(default_factory=dict)
    """Those of the chunks asked for that the backend fetched along (the caller fetches the rest)."""


@runtime_checkable
class TwoPassSearch(Protocol):
    """A backend that runs each pass of a search in one round trip."""

    def first_pass(
        self,
        namespace: str,
        queries: Mapping[Channel, QueryTerms],
        filters: SearchFilters,
        limit: int,
        feedback: int,
    ) -> FirstPass:
        """Count, rank every channel (`limit` each) and read the first `feedback` content chunks' terms."""
        ...

    def expansion_pass(
        self,
        namespace: str,
        query: Mapping[str, float],
        expansion: Mapping[str, float],
        filters: SearchFilters,
        limit: int,
        fetch: Sequence[str],
    ) -> ExpansionPass:
        """Rank the content channel for `mixed_query(query, expansion, common)`, where `common` are the
        expansion terms found in the content of more than half of the namespace's chunks (regardless of the
        filters), and fetch what it can of the chunks `fetch` names."""
        ...


@runtime_checkable
class BatchChannelRanking(Protocol):
    """A backend that ranks every channel in one round trip."""

    def rank_channels(
        self, namespace: str, queries: Mapping[Channel, QueryTerms], filters: SearchFilters, limit: int
    ) -> dict[Channel, list[tuple[str, float]]]: ...


@runtime_checkable
class ContentStatistics(Protocol):
    """A backend that holds its chunks in process (the embedded index): it counts a feedback chunk's content terms
    without a fetch (analysing its text again, from the analyzer's piece cache: about 90 us a 120-word chunk),
    and knows each term's document frequency, so feedback leaves out terms that are everywhere."""

    def content_frequencies(self, namespace: str, chunk_ids: Sequence[str]) -> list[dict[str, int]]: ...

    def common_content_terms(self, namespace: str, terms: Collection[str]) -> set[str]: ...


@runtime_checkable
class ContentIdf(Protocol):
    """A backend that tells the content channel's BM25 idf of terms (0.0 for a term no chunk holds)."""

    def content_idf(self, namespace: str, terms: Collection[str]) -> dict[str, float]: ...


class SequentialPasses:
    """Both passes over a plain `SearchIndex`, one method call after another.

    Without `ContentStatistics`, no feedback frequencies come back (the caller fetches and analyses the
    feedback chunks) and no expansion term counts as common.
    """

    def __init__(self, index: SearchIndex) -> None:
        self.index = index

    def first_pass(
        self,
        namespace: str,
        queries: Mapping[Channel, QueryTerms],
        filters: SearchFilters,
        limit: int,
        feedback: int,
    ) -> FirstPass:
        total = self.index.count(namespace, filters)
        if total == 0:
            return FirstPass(total, {})
        if isinstance(self.index, BatchChannelRanking):
            rankings = self.index.rank_channels(namespace, queries, filters, limit)
        else:
            rankings = {
                channel: self.index.rank(namespace, channel, terms, filters, limit)
                for channel, terms in queries.items()
            }
        frequencies: dict[str, dict[str, int]] = {}
        if isinstance(self.index, ContentStatistics) and feedback > 0:
            ids = [chunk_id for chunk_id, _ in rankings.get("content", [])[:feedback]]  # another costs no round trip
            frequencies = dict(zip(ids, self.index.content_frequencies(namespace, ids), strict=True))
        idf: dict[str, float] = {}
        if isinstance(self.index, ContentIdf) and "content" in queries:
            idf = self.index.content_idf(namespace, list(term_weights(queries["content"])))
        return FirstPass(total, rankings, frequencies, idf)

    def expansion_pass(
        self,
        namespace: str,
        query: Mapping[str, float],
        expansion: Mapping[str, float],
        filters: SearchFilters,
        limit: int,
        fetch: Sequence[str],
    ) -> ExpansionPass:
        common: Collection[str] = ()
        if isinstance(self.index, ContentStatistics) and expansion:
            common = self.index.common_content_terms(namespace, list(expansion))
        expanded = mixed_query(query, expansion, common)
        return ExpansionPass(self.index.rank(namespace, "content", expanded, filters, limit))
