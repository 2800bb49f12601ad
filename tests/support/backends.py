"""Backends built on another one, for tests and benchmarks: `Delegating` passes every contract method on, and
`OneCallAtATime` answers a search's two passes with the plain one-channel `rank`, `count` and `fetch`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from docshelf.index.analyzer import analyze
from docshelf.index.base import DocumentChunks, ExpansionPass, FirstPass, SearchBackend
from docshelf.index.bm25_math import okapi_idf
from docshelf.index.plan import ExpansionPlan, QueryPlan, RankedList, SearchFilters, SpellingRule
from docshelf.model import Chunk

ALL = SearchFilters()


class Delegating(SearchBackend):
    def __init__(self, inner: SearchBackend) -> None:
        self.inner = inner

    @property
    def identity(self) -> str:
        return self.inner.identity

    def write(self, namespace: str, documents: Sequence[DocumentChunks]) -> Mapping[str, str]:
        return self.inner.write(namespace, documents)

    def delete(self, namespace: str, document_id: str) -> None:
        self.inner.delete(namespace, document_id)

    def first_pass(self, namespace: str, plan: QueryPlan) -> FirstPass:
        return self.inner.first_pass(namespace, plan)

    def expansion_pass(self, namespace: str, plan: ExpansionPlan) -> ExpansionPass:
        return self.inner.expansion_pass(namespace, plan)

    def count(self, namespace: str, filters: SearchFilters) -> int:
        return self.inner.count(namespace, filters)

    def fetch(self, namespace: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        return self.inner.fetch(namespace, chunk_ids)

    def list_chunks(self, namespace: str, filters: SearchFilters, limit: int) -> list[Chunk]:
        return self.inner.list_chunks(namespace, filters, limit)

    def similar_terms(
        self, namespace: str, terms: Sequence[str], rule: SpellingRule
    ) -> dict[str, list[tuple[str, int]]]:
        return self.inner.similar_terms(namespace, terms, rule)

    def document_frequencies(self, namespace: str, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        return self.inner.document_frequencies(namespace, terms)

    def commit(self) -> None:
        self.inner.commit()

    def reader(self, namespace: str, version: int) -> SearchBackend:
        self.inner.reader(namespace, version)
        return self


class OneCallAtATime(Delegating):
    """The passes from one-channel rankings, a count and a fetch of the feedback chunks (analyzed here), one call
    after another. With `statistics`, the content idf and the common expansion terms too, from one ranking a term
    (slow; a reference for what an engine answers in one round trip); without, no idf and no common terms."""

    def __init__(self, inner: SearchBackend, *, statistics: bool = True) -> None:
        super().__init__(inner)
        self.statistics = statistics

    def first_pass(self, namespace: str, plan: QueryPlan) -> FirstPass:
        total = self.count(namespace, plan.filters)
        if total == 0:
            return FirstPass(total, {})
        rankings: dict[RankedList, list[tuple[str, float]]] = {
            channel: self.inner.rank(
                namespace, channel, query.terms, plan.filters, plan.limit, query.min_match, query.optional
            )
            for channel, query in plan.channels.items()
        }
        ids = [chunk_id for chunk_id, _ in rankings.get("content", [])[: max(0, plan.feedback)]]
        found = {chunk.chunk_id: chunk for chunk in self.fetch(namespace, ids)}
        frequencies = {cid: dict(Counter(analyze(found[cid].text))) for cid in ids if cid in found}
        content = plan.channels.get("content")
        idf = self.content_idf(namespace, list(content.terms)) if content and self.statistics else {}
        return FirstPass(total, rankings, frequencies, idf)

    def expansion_pass(self, namespace: str, plan: ExpansionPlan) -> ExpansionPass:
        common = self.common_terms(namespace, list(plan.expansion), plan) if self.statistics else set()
        query = plan.mixed(common)
        ranking = self.inner.rank(namespace, "content", query.terms, plan.filters, plan.limit, query.min_match)
        return ExpansionPass(ranking)

    def common_terms(self, namespace: str, terms: Collection[str], plan: ExpansionPlan) -> set[str]:
        total = self.count(namespace, ALL)
        return {term for term in terms if plan.is_common(self._document_frequency(namespace, term, total), total)}

    def content_idf(self, namespace: str, terms: Collection[str]) -> dict[str, float]:
        """BM25Okapi's idf as both engines answer it (`okapi_idf`: floored at MIN_IDF, 0 for a term no chunk
        holds), so evidence weighed by it is the engines' own."""
        total = self.count(namespace, ALL)
        return {term: okapi_idf(total, self._document_frequency(namespace, term, total)) for term in terms}

    def _document_frequency(self, namespace: str, term: str, total: int) -> int:
        return len(self.inner.rank(namespace, "content", [term], ALL, total + 1))
