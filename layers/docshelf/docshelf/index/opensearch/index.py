"""The OpenSearch backend of SearchIndex (DESIGN §6).

Chunks are indexed with the terms of docshelf's own analyzer (`channel_terms`), so both backends rank
the same term lists. Scores differ from the embedded index in three ways, none of which changes the
order on a corpus where the statistics agree:

- Lucene's idf is log(1 + (N - n + 0.5) / (n + 0.5)), always positive; rank-bm25's BM25Okapi uses
  log((N - n + 0.5) / (n + 0.5)) and floors negative values at 0.25 times the mean idf. They order
  documents alike except for terms present in more than half the chunks.
- Lucene drops the constant (k1 + 1) factor and stores document lengths in one lossy byte, so
  length normalisation is approximate; scores are float32.
- Each namespace has an index of its own (`<prefix>.<namespace>`, an alias over `<prefix>.<namespace>.v1`,
  created on the namespace's first publish), so N, n and the average length are the namespace's, as in the
  embedded index. A shared index would mix every namespace's statistics: with MEDLINE, XQuAD en and XQuAD zh
  as three namespaces of one index, nDCG@10 and MRR@10 fell by 0.013, 0.003 and 0.010. Lucene still counts
  deleted chunks until their segments merge.
Repeated query terms count again in both (a term repeated n times gets boost n here).

A search takes two `_msearch` requests (the passes of index/passes.py): the count, every channel and the
feedback chunks' content terms; then the expanded query, the document frequencies of its expansion terms and
the chunks likely to be returned. The expanded query must leave out terms found in more than half of the
namespace's chunks before their frequencies are known, so it is sent without those `CommonTermMemory` last
found common, and ranked again (a third request) when the frequencies prove that guess wrong.

Publishing finds a document's previous chunks with a search, so it sees them once they are refreshed
(1 s by default). With `refresh=False`, two publishes of one document inside that window can leave the
first revision's chunks behind until the document's next publish or delete, which removes them.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from typing import Any

from opensearchpy.exceptions import RequestError, TransportError

from docshelf.errors import IndexBackendError, InvalidConfigError
from docshelf.index.base import Channel, DocumentChunks, QueryTerms, term_weights
from docshelf.index.common_term_memory import CommonTermMemory
from docshelf.index.embedded import channel_terms
from docshelf.index.opensearch_bulk import Backoff, BulkAction, BulkWriter, Refresh, call_with_retries
from docshelf.index.opensearch_queries import (
    DOCUMENT_ORDER,
    HYDRATION_FIELDS,
    JsonObject,
    bm25_idf,
    channel_query,
    chunk_from_source,
    chunk_source,
    common_terms,
    content_frequencies,
    count_query,
    document_frequency_query,
    document_id_for,
    feedback_query,
    hydrated_chunks,
    hydration_query,
    indexable,
    ranked_hits,
    similar_terms_query,
    suggested_terms,
    total_hits,
    total_query,
    weighted_terms,
)
from docshelf.index.passes import FEEDBACK_MARGIN, ExpansionPass, FirstPass
from docshelf.model import Chunk
from docshelf.search.corrections import MAX_EDITS, PREFIX
from docshelf.search.expansion import mixed_query
from docshelf.search.filters import SearchFilters

DEFAULT_INDEX = "docshelf-chunks"
# With a namespace (64 characters at most) and ".v1", an index name stays within OpenSearch's 255 bytes.
INDEX_PREFIX = re.compile(r"[a-z0-9][a-z0-9_-]{0,150}")
TEMPLATE_RESOURCE = "opensearch-index-template.json"
PAGE_SIZE = 5000
SUGGESTIONS = 50  # per term: every candidate within two edits in practice; the search picks by its own rules


def index_template() -> JsonObject:
    """The index template shipped in the package (infra/opensearch/index-template.json links to it)."""
    text = resources.files("docshelf").joinpath("schemas").joinpath(TEMPLATE_RESOURCE).read_text(encoding="utf-8")
    template: JsonObject = json.loads(text)
    return template


class OpenSearchIndex:
    """SearchIndex over OpenSearch: namespace NS in the alias `<index>.NS` (`index` is the name prefix)."""

    def __init__(
        self,
        client: Any,
        *,
        index: str = DEFAULT_INDEX,
        refresh: Refresh = False,
        max_batch_bytes: int = 5 * 1024 * 1024,
        backoff: Backoff | None = None,
    ) -> None:
        if not INDEX_PREFIX.fullmatch(index):
            raise InvalidConfigError(f"OpenSearch index prefix {index!r} must match {INDEX_PREFIX.pattern}")
        self.client = client
        self.index = index
        self.refresh_policy: Refresh = refresh
        self.backoff = backoff or Backoff()
        self.writer = BulkWriter(client, max_batch_bytes=max_batch_bytes, backoff=self.backoff)
        self.common_term_memory = CommonTermMemory()
        self._namespaces_ready: set[str] = set()

    # -- setup -------------------------------------------------------------------------------------

    @property
    def identity(self) -> str:
        """The node and name prefix (`index.base.index_identity`)."""
        hosts = getattr(getattr(self.client, "transport", None), "hosts", None) or [{}]
        host = hosts[0] if isinstance(hosts[0], dict) else {}
        return f"opensearch:{host.get('host', '')}:{host.get('port', '')}/{self.index}"

    def alias(self, namespace: str) -> str:
        """The alias holding a namespace's chunks (namespaces hold no dots, so names cannot collide)."""
        return f"{self.index}.{namespace}"

    def ensure_index(self) -> None:
        """Put the index template (pattern `<index>.*`) unless it is there with that pattern (a template from the
        shared-index layout had `<index>*`); namespace indices are made on their first publish."""
        template = self._template()
        try:
            if self.client.indices.exists_index_template(name=self.index):
                found = self.client.indices.get_index_template(name=self.index)["index_templates"]
                if found and found[0]["index_template"].get("index_patterns") == template["index_patterns"]:
                    return
            self.client.indices.put_index_template(name=self.index, body=template)
        except TransportError as error:
            raise IndexBackendError(f"cannot set up OpenSearch index template {self.index}: {error}") from error

    def _template(self) -> JsonObject:
        template = copy.deepcopy(index_template())
        template["index_patterns"] = [f"{self.index}.*"]
        template.get("_meta", {}).update({"alias": f"{self.index}.NS", "initial_index": f"{self.index}.NS.v1"})
        return template

    def _ensure_namespace(self, namespace: str) -> None:
        """Create the namespace's versioned index and write alias unless they exist (with retries, like every
        request). The body carries the template's settings and mappings itself, so an index never comes up with
        dynamic mappings; another writer creating it first is fine."""
        if namespace in self._namespaces_ready:
            return
        alias = self.alias(namespace)

        def create() -> None:
            if self.client.indices.exists_alias(name=alias):
                return
            body = {**copy.deepcopy(index_template()["template"]), "aliases": {alias: {"is_write_index": True}}}
            try:
                self.client.indices.create(index=f"{alias}.v1", body=body)
            except RequestError as error:
                if error.error != "resource_already_exists_exception":
                    raise

        call_with_retries(create, self.backoff, f"creating index {alias}.v1")
        self._namespaces_ready.add(namespace)

    def drop_index(self) -> None:
        """Remove every namespace's index and the template (tests and benchmarks)."""
        pattern = f"{self.index}.*"
        for name in self.client.indices.get(index=pattern, allow_no_indices=True, ignore_unavailable=True):
            self.client.indices.delete(index=name, ignore_unavailable=True)
        self.client.indices.delete_index_template(name=self.index, ignore=[404])
        self._namespaces_ready.clear()

    def refresh(self) -> None:
        """Make every write searchable now (managed domains; Serverless refreshes on its own)."""
        call_with_retries(
            lambda: self.client.indices.refresh(index=f"{self.index}.*", allow_no_indices=True),
            self.backoff,
            "refresh",
        )

    # -- writes ------------------------------------------------------------------------------------

    def upsert(self, namespace: str, document_id: str, revision: str, chunks: Sequence[Chunk]) -> None:
        failures = self.upsert_many(namespace, [DocumentChunks(document_id, revision, chunks)])
        if failures:
            raise IndexBackendError(f"document {document_id}: {failures[document_id]}")

    def upsert_many(self, namespace: str, documents: Sequence[DocumentChunks]) -> dict[str, str]:
        """Publish documents together; returns {document_id: reason} for documents that failed.

        A document's new revision is written first, then its old chunks are removed by id. A failed
        document keeps its previous chunks, and any of its new chunks that were written are removed.
        """
        self._ensure_namespace(namespace)
        previous = self._chunk_ids_by_document(namespace, [d.document_id for d in documents])
        new_ids = {d.document_id: {document_id_for(namespace, c.chunk_id) for c in d.chunks} for d in documents}
        old_ids = {d.document_id: previous.get(d.document_id, set()) for d in documents}
        writes = [
            BulkAction(
                "index",
                document_id_for(namespace, chunk.chunk_id),
                namespace,
                doc.document_id,
                chunk_source(chunk, doc.revision, channel_terms(chunk)),
            )
            for doc in documents
            for chunk in doc.chunks
        ]
        superseded = any(old_ids[d.document_id] - new_ids[d.document_id] for d in documents)
        index = self.alias(namespace)
        written = self.writer.write(index, writes, refresh=self.refresh_policy if not superseded else False)
        failures = dict(written.failures)
        removals: list[BulkAction] = []
        for doc in documents:
            new, old = new_ids[doc.document_id], old_ids[doc.document_id]
            # A failed document keeps its old revision: only the new chunks the old one lacked are removed.
            remove = new - old if doc.document_id in failures else old - new
            removals += [BulkAction("delete", doc_id, namespace, doc.document_id) for doc_id in sorted(remove)]
        if removals:
            removed = self.writer.write(index, removals, refresh=self.refresh_policy)
            for owner, reasons in removed.failures.items():
                failures.setdefault(owner, []).extend(f"removing an old chunk: {r}" for r in reasons)
        return {owner: "; ".join(reasons[:5]) for owner, reasons in failures.items()}

    def delete(self, namespace: str, document_id: str) -> None:
        ids = self._chunk_ids_by_document(namespace, [document_id]).get(document_id, set())
        if not ids:
            return
        outcome = self.writer.write(
            self.alias(namespace),
            [BulkAction("delete", doc_id, namespace, document_id) for doc_id in sorted(ids)],
            refresh=self.refresh_policy,
        )
        if outcome.failures:
            raise IndexBackendError(f"document {document_id}: {'; '.join(outcome.failures[document_id][:5])}")

    # -- reads -------------------------------------------------------------------------------------

    def rank(
        self, namespace: str, channel: Channel, terms: QueryTerms, filters: SearchFilters, limit: int
    ) -> list[tuple[str, float]]:
        return self.rank_channels(namespace, {channel: terms}, filters, limit).get(channel, [])

    def rank_channels(
        self, namespace: str, queries: Mapping[Channel, QueryTerms], filters: SearchFilters, limit: int
    ) -> dict[Channel, list[tuple[str, float]]]:
        """Every channel in one `_msearch`; a channel with no usable terms ranks nothing."""
        channels = _usable(queries) if limit > 0 else []
        searches = [channel_query(namespace, channel, queries[channel], filters, limit) for channel in channels]
        return _rankings(queries, channels, self._msearch(namespace, searches))

    def first_pass(
        self,
        namespace: str,
        queries: Mapping[Channel, QueryTerms],
        filters: SearchFilters,
        limit: int,
        feedback: int,
    ) -> FirstPass:
        """One `_msearch`: the count, every channel, the content terms of the content channel's first chunks,
        and the document frequencies of the content query's terms (for their idf)."""
        channels = _usable(queries) if limit > 0 else []
        searches = [total_query(namespace, filters)]
        searches += [channel_query(namespace, channel, queries[channel], filters, limit) for channel in channels]
        wants_feedback = "content" in channels and feedback > 0
        if wants_feedback:
            searches.append(feedback_query(namespace, queries["content"], filters, feedback + FEEDBACK_MARGIN))
        terms = [term for term in term_weights(queries["content"]) if indexable(term)] if "content" in channels else []
        if terms:
            searches.append(document_frequency_query(namespace, terms))
        responses = self._msearch(namespace, searches)
        after_channels = responses[len(channels) + 1 :]
        frequencies = content_frequencies(after_channels[0]) if wants_feedback else {}
        idf = bm25_idf(after_channels[-1], terms) if terms else {}
        return FirstPass(total_hits(responses[0]), _rankings(queries, channels, responses[1:]), frequencies, idf)

    def expansion_pass(
        self,
        namespace: str,
        query: Mapping[str, float],
        expansion: Mapping[str, float],
        filters: SearchFilters,
        limit: int,
        fetch: Sequence[str],
    ) -> ExpansionPass:
        """One `_msearch`: the expanded query without the terms `common_term_memory` remembers as common, the document
        frequencies that check that guess, and the chunks to fetch. A wrong guess is ranked again."""
        checked = [term for term in expansion if indexable(term)]
        guessed = self.common_term_memory.guess(namespace, checked)
        searches = [channel_query(namespace, "content", mixed_query(query, expansion, guessed), filters, limit)]
        if checked:
            searches.append(document_frequency_query(namespace, checked))
        if fetch:
            searches.append(hydration_query(namespace, fetch))
        responses = self._msearch(namespace, searches)
        ranking = ranked_hits(responses[0])
        chunks = hydrated_chunks(responses[-1]) if fetch else {}
        common = common_terms(responses[1], checked) if checked else set()
        self.common_term_memory.learn(namespace, checked, common)
        if common != guessed:
            ranking = self.rank(namespace, "content", mixed_query(query, expansion, common), filters, limit)
        return ExpansionPass(ranking, chunks)

    def _msearch(self, namespace: str, searches: Sequence[JsonObject]) -> list[JsonObject]:
        """The responses of one `_msearch`, in order; any failed search fails the whole call."""
        if not searches:
            return []
        body: list[JsonObject] = []
        for search in searches:
            body += [{"routing": namespace, "ignore_unavailable": True}, search]
        index = self.alias(namespace)
        response = call_with_retries(lambda: self.client.msearch(index=index, body=body), self.backoff, "search")
        items: list[JsonObject] = response["responses"]
        for item in items:
            if "error" in item:
                raise IndexBackendError(f"OpenSearch search failed: {_reason(item['error'])}")
        return items

    def similar_terms(self, namespace: str, terms: Sequence[str]) -> dict[str, list[tuple[str, int]]]:
        asked = [term for term in dict.fromkeys(terms) if indexable(term)]
        if not asked:
            return {}
        query = similar_terms_query(asked, MAX_EDITS, PREFIX, SUGGESTIONS)
        return suggested_terms(self._msearch(namespace, [query])[0], asked)

    def count(self, namespace: str, filters: SearchFilters) -> int:
        response = call_with_retries(
            lambda: self.client.count(
                index=self.alias(namespace),
                body=count_query(namespace, filters),
                routing=namespace,
                ignore_unavailable=True,
            ),
            self.backoff,
            "count",
        )
        return int(response["count"])

    def fetch(self, namespace: str, chunk_ids: Sequence[str]) -> list[Chunk]:
        if not chunk_ids:
            return []
        docs = [
            {"_id": document_id_for(namespace, cid), "routing": namespace, "_source": HYDRATION_FIELDS}
            for cid in chunk_ids
        ]
        response = call_with_retries(
            lambda: self.client.mget(index=self.alias(namespace), body={"docs": docs}), self.backoff, "fetch"
        )
        return [
            chunk_from_source(doc["_source"])
            for doc in response["docs"]
            if doc.get("found") and doc["_source"]["namespace"] == namespace
        ]

    def list_chunks(self, namespace: str, filters: SearchFilters, limit: int) -> list[Chunk]:
        """Chunks in document order (file name, document id, ordinal)."""
        body = {**count_query(namespace, filters), "_source": HYDRATION_FIELDS, "sort": DOCUMENT_ORDER}
        return [chunk_from_source(hit["_source"]) for hit in self._scan(namespace, body, limit)]

    def _chunk_ids_by_document(self, namespace: str, document_ids: Sequence[str]) -> dict[str, set[str]]:
        if not document_ids:
            return {}
        body: JsonObject = {
            "query": {
                "bool": {
                    "filter": [
                        {"term": {"namespace": namespace}},
                        {"terms": {"document_id": sorted(set(document_ids))}},
                    ]
                }
            },
            "_source": ["document_id"],
            "sort": [{"chunk_id": "asc"}],
        }
        found: dict[str, set[str]] = {}
        for hit in self._scan(namespace, body, None):
            found.setdefault(hit["_source"]["document_id"], set()).add(hit["_id"])
        return found

    def _scan(self, namespace: str, body: JsonObject, limit: int | None) -> Iterator[JsonObject]:
        """Hits of a sorted query, paged with search_after (no scroll contexts, which Serverless limits)."""
        after: list[Any] | None = None
        seen = 0
        while limit is None or seen < limit:
            size = PAGE_SIZE if limit is None else min(PAGE_SIZE, limit - seen)
            page: JsonObject = {**body, "size": size, "track_total_hits": False}
            if after is not None:
                page["search_after"] = after
            response = call_with_retries(
                lambda page=page: self.client.search(  # type: ignore[misc]
                    index=self.alias(namespace), body=page, routing=namespace, ignore_unavailable=True
                ),
                self.backoff,
                "search",
            )
            hits = response["hits"]["hits"]
            yield from hits
            seen += len(hits)
            if len(hits) < size:
                return
            after = hits[-1]["sort"]


def _usable(queries: Mapping[Channel, QueryTerms]) -> list[Channel]:
    return [channel for channel, terms in queries.items() if weighted_terms(terms)]


def _rankings(
    queries: Mapping[Channel, QueryTerms], channels: Sequence[Channel], responses: Sequence[JsonObject]
) -> dict[Channel, list[tuple[str, float]]]:
    """Each asked channel's ranking: from its response, or empty for a channel that was not searched."""
    rankings: dict[Channel, list[tuple[str, float]]] = {channel: [] for channel in queries}
    for channel, response in zip(channels, responses[: len(channels)], strict=True):
        rankings[channel] = ranked_hits(response)
    return rankings


def _reason(error: Any) -> str:
    if isinstance(error, dict):
        root = error.get("root_cause") or [error]
        return f"{root[0].get('type', '')}: {root[0].get('reason', '')}"
    return str(error)
