"""One search: channels ranked by the index, fused by RRF, rendered as cited evidence."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any, Protocol, runtime_checkable

from docshelf.errors import InvalidQueryError
from docshelf.ids import validate_namespace
from docshelf.index.analyzer import analyze, raw_terms
from docshelf.index.base import Channel, QueryTerms, SearchIndex
from docshelf.model import Chunk
from docshelf.search.evidence import render_evidence
from docshelf.search.expansion import FEEDBACK_CHUNKS, expanded_query
from docshelf.search.filters import SearchFilters
from docshelf.search.rrf import fuse_rrf

DEFAULT_TOP_K = 8
MAX_TOP_K = 50
DEFAULT_MAX_TOKENS = 2000
MIN_CANDIDATES = 50


@dataclass(frozen=True, slots=True)
class SearchRequest:
    namespace: str
    query: str
    top_k: int = DEFAULT_TOP_K
    max_tokens: int = DEFAULT_MAX_TOKENS
    filters: SearchFilters = field(default_factory=SearchFilters)

    def __post_init__(self) -> None:
        validate_namespace(self.namespace)
        if not self.query.strip():
            raise InvalidQueryError("the query is empty")
        if not 1 <= self.top_k <= MAX_TOP_K:
            raise InvalidQueryError(f"top_k must be between 1 and {MAX_TOP_K}")
        if self.max_tokens < 1:
            raise InvalidQueryError("max_tokens must be positive")


@dataclass(frozen=True, slots=True)
class RankedChunk:
    chunk: Chunk
    score: float
    channel_ranks: dict[str, int]


@dataclass(frozen=True, slots=True)
class SearchResponse:
    evidence_text: str
    results: list[RankedChunk]
    total_chunks: int
    took_ms: float
    evidence_chunks: int = 0
    answer_text: str = ""
    cache: str = "miss"

    def to_dict(self) -> dict[str, Any]:
        """The JSON body shared by `docshelf search --json`, `docshelf serve` and the search API."""
        return {
            "evidence_text": self.evidence_text,
            "answer_text": self.answer_text,
            "results": [
                {**asdict(r.chunk), "chunk_type": r.chunk.type, "score": r.score, "channel_ranks": r.channel_ranks}
                for r in self.results
            ],
            "total_chunks": self.total_chunks,
            "evidence_chunks": self.evidence_chunks,
            "cache": self.cache,
            "took_ms": self.took_ms,
        }


@runtime_checkable
class BatchChannelRanking(Protocol):
    """A backend that ranks every channel in one round trip (OpenSearch `_msearch`)."""

    def rank_channels(
        self, namespace: str, queries: Mapping[Channel, QueryTerms], filters: SearchFilters, limit: int
    ) -> dict[Channel, list[tuple[str, float]]]: ...


@runtime_checkable
class ContentStatistics(Protocol):
    """A backend that keeps each chunk's content terms and their document frequencies (the embedded index), so
    feedback needs no re-analysis and leaves out terms that are everywhere."""

    def content_frequencies(self, namespace: str, chunk_ids: Sequence[str]) -> list[dict[str, int]]: ...

    def common_content_terms(self, namespace: str, terms: Collection[str]) -> set[str]: ...


def query_terms(query: str) -> dict[Channel, list[str]]:
    """Each channel's distinct query terms in query order.

    A query term counts once: a long question that repeats a word is not asking for it twice. The
    `term` channel (surface forms) only runs for queries that name something exact, a code, an
    identifier or a number; for plain words it would re-count the content channel's evidence unstemmed.
    """
    analyzed = list(dict.fromkeys(analyze(query)))
    surface = list(dict.fromkeys(raw_terms(query)))
    queries: dict[Channel, list[str]] = {"content": analyzed, "path": analyzed}
    if any(not term.isalpha() for term in surface):
        queries["term"] = surface
    return queries


def search(index: SearchIndex, request: SearchRequest) -> SearchResponse:
    started = time.perf_counter()
    total = index.count(request.namespace, request.filters)
    if total <= request.top_k:
        # Small corpus: everything fits, so return it all in document order.
        ranked = [RankedChunk(chunk, 0.0, {}) for chunk in index.list_chunks(request.namespace, request.filters, total)]
    else:
        ranked = _ranked(index, request)
    evidence, used = render_evidence([r.chunk for r in ranked], request.max_tokens)
    return SearchResponse(
        evidence_text=evidence,
        results=ranked,
        total_chunks=total,
        took_ms=round((time.perf_counter() - started) * 1000, 3),
        evidence_chunks=used,
    )


def _ranked(index: SearchIndex, request: SearchRequest) -> list[RankedChunk]:
    limit = max(MIN_CANDIDATES, request.top_k * 5)
    queries = {channel: terms for channel, terms in query_terms(request.query).items() if terms}
    if isinstance(index, BatchChannelRanking):
        ranked = index.rank_channels(request.namespace, queries, request.filters, limit)
    else:
        ranked = {
            channel: index.rank(request.namespace, channel, terms, request.filters, limit)
            for channel, terms in queries.items()
        }
    ranked = {channel: _settled(ranking) for channel, ranking in ranked.items()}
    rankings: dict[str, list[str]] = {channel: [cid for cid, _ in ranked.get(channel, [])] for channel in queries}
    chunks: dict[str, Chunk] = {}
    feedback = ranked.get("content", [])[:FEEDBACK_CHUNKS]
    if feedback:
        rankings["expansion"] = _expansion_ranking(index, request, queries["content"], feedback, chunks, limit)
    fused = fuse_rrf(rankings)[: request.top_k]
    missing = [cid for cid, _, _ in fused if cid not in chunks]
    chunks.update((c.chunk_id, c) for c in index.fetch(request.namespace, missing))
    return [RankedChunk(chunks[cid], score, ranks) for cid, score, ranks in fused if cid in chunks]


def _expansion_ranking(
    index: SearchIndex,
    request: SearchRequest,
    content_terms: Sequence[str],
    feedback: Sequence[tuple[str, float]],
    fetched: dict[str, Chunk],
    limit: int,
) -> list[str]:
    """The content channel again, for the query expanded from the feedback chunks (RM3). A backend without
    content statistics has its feedback chunks fetched (into `fetched`) and analysed here."""
    ids = [chunk_id for chunk_id, _ in feedback]
    scores = [score for _, score in feedback]
    frequencies: Sequence[Mapping[str, int]]
    common = None
    if isinstance(index, ContentStatistics):
        frequencies = index.content_frequencies(request.namespace, ids)
        common = partial(index.common_content_terms, request.namespace)
    else:
        fetched.update((chunk.chunk_id, chunk) for chunk in index.fetch(request.namespace, ids))
        frequencies = [Counter(analyze(fetched[cid].text)) if cid in fetched else Counter() for cid in ids]
    expanded = expanded_query(content_terms, list(zip(frequencies, scores, strict=True)), common=common)
    return [cid for cid, _ in _settled(index.rank(request.namespace, "content", expanded, request.filters, limit))]


def _settled(ranked: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    """Scores to six significant digits, ties broken by chunk id: Lucene scores in float32, the embedded index
    in float64, and the last bits must not decide an order (nor, through feedback, the expanded query)."""
    rounded = [(chunk_id, float(f"{score:.6g}")) for chunk_id, score in ranked]
    rounded.sort(key=lambda item: (-item[1], item[0]))
    return rounded
