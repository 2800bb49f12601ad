"""The OpenSearch engine of SearchBackend (docs/architecture.md#backends).

Chunks are indexed with the terms of docshelf's own analyzer (`channel_terms`), so both backends rank
the same term lists, and the index template's scripted similarity computes the embedded index's BM25
(index/bm25_math.py: k1, b and the idf floor). Scores still differ from the embedded index in small ways:

- Lucene stores document lengths in one lossy byte, so length normalisation is approximate; scores are
  float32. An engine that refuses the scripted similarity gets Lucene's BM25 (`with_lucene_bm25`), whose idf,
  log(1 + (N - n + 0.5) / (n + 0.5)), weighs common terms more; an index made before the template's version 2
  keeps it too, until it is made again.
- By default each namespace has an index of its own (`<prefix>.<namespace>`, an alias over
  `<prefix>.<namespace>.v1`, created on the namespace's first publish), so N, n and the average length are the
  namespace's, as in the embedded index. The `shared` tenancy (tenancy.py) packs small namespaces into a few
  shared indices, whose statistics mix their namespaces (docs/evaluation/tenancy.md measures the cost). Lucene
  still counts deleted chunks until their segments merge.
A query term's weight in the plan (search/ranking.py saturates repeats) is its term query's boost here, and
multiplies its BM25 score in the embedded index.

A search takes two `_msearch` requests (`first_pass`, `expansion_pass`): the count, every channel and the
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
import logging
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from opensearchpy.exceptions import TransportError

from docshelf.config import DEFAULT_OPENSEARCH_INDEX
from docshelf.errors import IndexBackendError, InvalidConfigError
from docshelf.index.analyzer import channel_terms
from docshelf.index.base import DocumentChunks, ExpansionPass, FirstPass, SearchBackend
from docshelf.index.opensearch.bulk import Backoff, BulkAction, BulkWriter, Refresh, call_with_retries
from docshelf.index.opensearch.common_term_memory import CommonTermMemory
from docshelf.index.opensearch.queries import (
    DOCUMENT_ORDER,
    HYDRATION_FIELDS,
    JsonObject,
    bm25_idf,
    channel_query,
    channel_rankings,
    chunk_from_source,
    chunk_source,
    common_terms,
    content_frequencies,
    count_query,
    document_chunks_query,
    document_frequencies,
    document_frequency_query,
    document_id_for,
    error_reason,
    feedback_query,
    filter_clause,
    hydrated_chunks,
    hydration_query,
    indexable,
    ranked_hits,
    similar_terms_query,
    suggested_terms,
    total_hits,
    total_query,
    usable_channels,
    weighted_terms,
)
from docshelf.index.opensearch.setup import create_index, index_template, namespace_index_body, shared_index_body
from docshelf.index.opensearch.tenancy import (
    Tenancy,
    is_shared_index,
    namespace_filter,
    own_alias,
    shared_alias,
    shared_index_name,
    shared_slot,
)
from docshelf.index.opensearch.vectors import (
    NamespaceModels,
    NamespaceVectors,
    semantic_ranking,
    semantic_search,
    vector_source,
)
from docshelf.index.plan import ChannelQuery, ExpansionPlan, QueryPlan, SearchFilters, SpellingRule
from docshelf.index.vector_model import VectorModel, refusals
from docshelf.model import Chunk
from docshelf.versions import ANALYZER_VERSION

if TYPE_CHECKING:
    from docshelf.index.vectors import StoredVectors  # numpy: not at import on the search path

# With a namespace (64 characters at most) and ".v1", an index name stays within OpenSearch's 255 bytes.
INDEX_PREFIX = re.compile(r"[a-z0-9][a-z0-9_-]{0,150}")
PAGE_SIZE = 5000
# Feedback frequencies are read for this many chunks past the feedback depth: the caller orders the ranking by
# rounded scores, which can move a chunk across the depth's edge.
FEEDBACK_MARGIN = 5
FREQUENCY_TERMS_PER_SEARCH = 1024  # filters of one aggregation, well within search.max_buckets
_log = logging.getLogger(__name__)


def _with_vector(
    source: JsonObject, vectors: StoredVectors | None, row: int, found: NamespaceVectors | None
) -> JsonObject:
    if vectors is None or found is None:
        return source
    return {**source, **vector_source(vectors, row, found.search)}


class OpenSearchIndex(SearchBackend):
    """SearchBackend over OpenSearch: namespace NS in the alias `<index>.NS` (`index` is the name prefix)."""

    def __init__(
        self,
        client: Any,
        *,
        index: str = DEFAULT_OPENSEARCH_INDEX,
        refresh: Refresh = False,
        max_batch_bytes: int = 5 * 1024 * 1024,
        backoff: Backoff | None = None,
        commit_refreshes: bool = True,
        tenancy: Tenancy | None = None,
    ) -> None:
        """`commit_refreshes` False: `commit` sends no refresh (Serverless refreshes on its own and has no refresh
        API). `tenancy`: where a new namespace's chunks go (tenancy.py; an index of its own by default)."""
        if not INDEX_PREFIX.fullmatch(index):
            raise InvalidConfigError(f"OpenSearch index prefix {index!r} must match {INDEX_PREFIX.pattern}")
        self.client = client
        self.index = index
        self.refresh_policy: Refresh = refresh
        self.commit_refreshes = commit_refreshes
        self.tenancy = tenancy or Tenancy()
        self.backoff = backoff or Backoff()
        self.writer = BulkWriter(client, max_batch_bytes=max_batch_bytes, backoff=self.backoff)
        self.common_term_memory = CommonTermMemory()
        self._namespaces_ready: set[str] = set()
        self._unrefreshed: set[str] = set()  # namespaces written since this object last refreshed them
        self._models = NamespaceModels(client, self.backoff)
        self._template_ready = False

    # -- setup -------------------------------------------------------------------------------------

    @property
    def identity(self) -> str:
        """The node, the name prefix and the analyzer version: the index keeps each chunk's terms as they were
        analyzed when it was published, so a new analyzer makes every document due to be published again (the
        embedded index analyzes again on load)."""
        hosts = getattr(getattr(self.client, "transport", None), "hosts", None) or [{}]
        host = hosts[0] if isinstance(hosts[0], dict) else {}
        return f"opensearch:{host.get('host', '')}:{host.get('port', '')}/{self.index};analyzer={ANALYZER_VERSION}"

    def alias(self, namespace: str) -> str:
        """The alias holding a namespace's chunks (namespaces hold no dots, so names cannot collide)."""
        return f"{self.index}.{namespace}"

    def ensure_index(self) -> None:
        """Put the index template (pattern `<index>.*`) unless it is there with that pattern, so a template of that
        name with another pattern (such as `<index>*`) is replaced; namespace indices are made on first publish."""
        template = self._template()
        try:
            if self.client.indices.exists_index_template(name=self.index):
                found = self.client.indices.get_index_template(name=self.index)["index_templates"]
                current = found[0]["index_template"] if found else {}
                if [current.get(key) for key in ("index_patterns", "version")] == [
                    template[key] for key in ("index_patterns", "version")
                ]:
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
        """Give the namespace its alias unless it has one (with retries, like every request): over a versioned
        index of its own (setup.py's `namespace_index_body`) or, in the shared tenancy, a filtered alias over its
        shared index."""
        if namespace in self._namespaces_ready:
            return
        alias = self.alias(namespace)

        def create() -> None:
            if self.client.indices.exists_alias(name=alias):
                return
            if self.tenancy.shared:
                shared = self._ensure_shared_index(namespace)
                self._point_alias(namespace, shared)
                return
            create_index(
                lambda body: self.client.indices.create(index=f"{alias}.v1", body=body),
                f"{alias}.v1",
                namespace_index_body(alias),
            )

        call_with_retries(create, self.backoff, f"creating index {alias}.v1")
        self._namespaces_ready.add(namespace)

    def drop_index(self) -> None:
        """Remove every namespace's index and the template (tests and benchmarks)."""
        pattern = f"{self.index}.*"
        for name in self.client.indices.get(index=pattern, allow_no_indices=True, ignore_unavailable=True):
            self.client.indices.delete(index=name, ignore_unavailable=True)
        self.client.indices.delete_index_template(name=self.index, ignore=[404])
        self._namespaces_ready.clear()
        self._models.forget()
        self._template_ready = False

    # -- tenancy: where a namespace lives, and moving it -------------------------------------------

    def _ensure_shared_index(self, namespace: str) -> str:
        name = shared_index_name(self.index, shared_slot(namespace, self.tenancy.shared_indices))
        if not self.client.indices.exists(index=name):
            create_index(lambda body: self.client.indices.create(index=name, body=body), name, shared_index_body())
        return name

    def _point_alias(self, namespace: str, index: str, *, away_from: str | None = None) -> None:
        """Point the namespace's alias at `index` (filtered and routed when it is shared), in one `_aliases` request
        that also takes it off `away_from`: readers see the old place or the new one, never neither."""
        alias = self.alias(namespace)
        body = shared_alias(namespace) if is_shared_index(self.index, index) else own_alias()
        actions: list[JsonObject] = [{"add": {"index": index, "alias": alias, **body}}]
        if away_from is not None:
            actions.insert(0, {"remove": {"index": away_from, "alias": alias}})
        self.client.indices.update_aliases(body={"actions": actions})

    def placement(self, namespace: str) -> str | None:
        """The index holding the namespace's chunks (its alias's), None before its first publish."""
        found = call_with_retries(
            lambda: self.client.indices.get_alias(name=self.alias(namespace), ignore=[404]),
            self.backoff,
            "reading an alias",
        )
        names = [name for name in found if name not in {"error", "status"}]
        return names[0] if names else None

    def move_namespace(self, namespace: str, *, shared: bool) -> str | None:
        """Move the namespace to its shared index (`shared`) or to a new index of its own, while it is searched:
        its chunks are copied, the alias is switched in one request, the chunks written to the old place during
        the copy are copied again, then the old place loses them. Returns the new index (None: nothing to move)."""
        source = self.placement(namespace)
        if source is None or is_shared_index(self.index, source) == shared:
            return None
        alias = self.alias(namespace)
        if shared:
            target = self._ensure_shared_index(namespace)
        else:
            target = self._next_own_index(namespace)
            create_index(
                lambda body: self.client.indices.create(index=target, body=body), target, namespace_index_body(None)
            )
        try:
            found = self._models.vectors(alias, namespace)
            if found is not None:
                self._models.record_on(target, found, namespace)
            self._copy_chunks(namespace, source, target, self._revisions(namespace, source))
            call_with_retries(
                lambda: self._point_alias(namespace, target, away_from=source), self.backoff, "moving alias"
            )
        except (IndexBackendError, TransportError):
            self._remove_from(namespace, target)  # the alias still points at the old place, which is whole
            raise
        self._refresh(source)
        copied = self._revisions(namespace, target)
        late = {cid: rev for cid, rev in self._revisions(namespace, source).items() if copied.get(cid) != rev}
        self._copy_chunks(namespace, source, target, late)
        self._remove_from(namespace, source)
        self._refresh(target)
        self._models.forget(alias)
        self.common_term_memory = CommonTermMemory()
        return target

    def drop_namespace(self, namespace: str) -> None:
        """Remove every chunk of the namespace and its alias; the other namespaces of a shared index keep theirs."""
        source = self.placement(namespace)
        if source is None:
            return
        self._remove_from(namespace, source)
        self._namespaces_ready.discard(namespace)
        self._models.forget(self.alias(namespace))

    def _remove_from(self, namespace: str, index: str) -> None:
        """The namespace's chunks out of `index` and its alias off it: a shared index loses its chunks one by one,
        an index of the namespace's own is deleted."""
        if not is_shared_index(self.index, index):
            call_with_retries(
                lambda: self.client.indices.delete(index=index, ignore_unavailable=True), self.backoff, "delete"
            )
            return
        self.client.indices.delete_alias(index=index, name=self.alias(namespace), ignore=[404])
        body = {"query": {"bool": {"filter": [namespace_filter(namespace)]}}, "_source": ["document_id"],
                "sort": [{"chunk_id": "asc"}]}  # fmt: skip
        removals = [
            BulkAction("delete", hit["_id"], namespace, hit["_source"]["document_id"])
            for hit in self._scan(namespace, body, None, index=index)
        ]
        outcome = self.writer.write(index, removals, refresh=self.refresh_policy)
        if outcome.failures:
            raise IndexBackendError(f"removing namespace {namespace} from {index}: {next(iter(outcome.failures))}")

    def _next_own_index(self, namespace: str) -> str:
        alias = self.alias(namespace)
        found = self.client.indices.get(index=f"{alias}.v*", allow_no_indices=True, ignore_unavailable=True)
        versions = [int(name.rsplit(".v", 1)[1]) for name in found if name.rsplit(".v", 1)[1].isdigit()]
        return f"{alias}.v{max(versions, default=0) + 1}"

    def _revisions(self, namespace: str, index: str) -> dict[str, str]:
        body = {"query": {"bool": {"filter": [namespace_filter(namespace)]}}, "_source": ["revision"],
                "sort": [{"chunk_id": "asc"}]}  # fmt: skip
        return {hit["_id"]: hit["_source"]["revision"] for hit in self._scan(namespace, body, None, index=index)}

    def _copy_chunks(self, namespace: str, source: str, target: str, chunks: dict[str, str]) -> None:
        """Copy the named chunks (`_id` -> revision) of the namespace from `source` to `target`, whole."""
        ids = sorted(chunks)
        for at in range(0, len(ids), PAGE_SIZE):
            part = ids[at : at + PAGE_SIZE]
            body = {"query": {"bool": {"filter": [namespace_filter(namespace), {"ids": {"values": part}}]}},
                    "sort": [{"chunk_id": "asc"}]}  # fmt: skip
            copies = [
                BulkAction("index", hit["_id"], namespace, hit["_source"]["document_id"], hit["_source"])
                for hit in self._scan(namespace, body, None, index=source)
            ]
            outcome = self.writer.write(target, copies)
            if outcome.failures:
                owner, reasons = next(iter(outcome.failures.items()))
                raise IndexBackendError(f"moving namespace {namespace}: document {owner}: {reasons[0]}")
        self._refresh(target)

    def _refresh(self, index: str) -> None:
        if self.commit_refreshes:
            call_with_retries(lambda: self.client.indices.refresh(index=index), self.backoff, "refresh")

    def _promote_if_large(self, namespace: str) -> None:
        """In the shared tenancy, move a namespace that outgrew `large_chunks` to an index of its own."""
        if not self.tenancy.shared or self.tenancy.large_chunks <= 0:
            return
        self._see_own_writes(namespace)
        if self.tenancy.is_large(self.count(namespace, SearchFilters())):
            placed = self.placement(namespace)
            if placed is not None and is_shared_index(self.index, placed):
                try:
                    self.move_namespace(namespace, shared=False)
                except (IndexBackendError, TransportError) as error:  # the publish itself succeeded
                    _log.warning("namespace %s stays in %s for now: moving it failed: %s", namespace, placed, error)

    def commit(self) -> None:
        """Make every write searchable now (writes are durable once acknowledged); Serverless refreshes on its own."""
        if not self.commit_refreshes:
            return
        call_with_retries(
            lambda: self.client.indices.refresh(index=f"{self.index}.*", allow_no_indices=True),
            self.backoff,
            "refresh",
        )
        self._unrefreshed.clear()

    def _see_own_writes(self, namespace: str) -> None:
        """Refresh the namespace when this object wrote to it since its last refresh, so that a read it makes next
        counts those writes (Serverless, which has no refresh API, counts them once it refreshes on its own)."""
        if namespace not in self._unrefreshed or not self.commit_refreshes:
            return
        call_with_retries(
            lambda: self.client.indices.refresh(index=self.alias(namespace), allow_no_indices=True),
            self.backoff,
            "refresh",
        )
        self._unrefreshed.discard(namespace)

    # -- writes ------------------------------------------------------------------------------------

    def write(self, namespace: str, documents: Sequence[DocumentChunks]) -> dict[str, str]:
        """Publish documents together; returns {document_id: reason} for documents that failed. The first write of
        the process puts the index template.

        A document's new revision is written first, then its old chunks are removed by id. A failed
        document keeps its previous chunks, and any of its new chunks that were written are removed.
        """
        if not self._template_ready:
            self.ensure_index()
            self._template_ready = True
        self._ensure_namespace(namespace)
        previous = self._chunk_ids_by_document(namespace, [d.document_id for d in documents])
        refused = self._vector_refusals(namespace, documents, previous)
        documents = [d for d in documents if d.document_id not in refused]
        vectors = {d.document_id: d.stored_vectors() for d in documents}
        recorded = self._models.record(
            self.alias(namespace), [v.model for v in vectors.values() if v is not None], namespace
        )
        new_ids = {d.document_id: {document_id_for(namespace, c.chunk_id) for c in d.chunks} for d in documents}
        old_ids = {d.document_id: previous.get(d.document_id, set()) for d in documents}
        writes = [
            BulkAction(
                "index",
                document_id_for(namespace, chunk.chunk_id),
                namespace,
                doc.document_id,
                _with_vector(
                    chunk_source(chunk, doc.revision, channel_terms(chunk)), vectors[doc.document_id], row, recorded
                ),
            )
            for doc in documents
            for row, chunk in enumerate(doc.chunks)
        ]
        superseded = any(old_ids[d.document_id] - new_ids[d.document_id] for d in documents)
        index = self.alias(namespace)
        self._unrefreshed.add(namespace)
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
        self._promote_if_large(namespace)
        return refused | {owner: "; ".join(reasons[:5]) for owner, reasons in failures.items()}

    def _vector_refusals(
        self, namespace: str, documents: Sequence[DocumentChunks], previous: dict[str, set[str]]
    ) -> dict[str, str]:
        """The documents whose vectors' model the namespace cannot take (index/vectors.py `refusals`)."""
        recorded = self.vector_model(namespace)
        if {d.vector_model() for d in documents} <= {recorded}:
            return {}
        replaced = sum(len(previous.get(d.document_id, ())) for d in documents)
        others = self.count(namespace, SearchFilters()) > replaced
        return refusals(recorded, others, [(d.document_id, d.vector_model()) for d in documents])

    def vector_model(self, namespace: str) -> VectorModel | None:
        return self._models.model(self.alias(namespace), namespace)

    def delete(self, namespace: str, document_id: str) -> None:
        ids = self._chunk_ids_by_document(namespace, [document_id]).get(document_id, set())
        if not ids:
            return
        self._unrefreshed.add(namespace)
        outcome = self.writer.write(
            self.alias(namespace),
            [BulkAction("delete", doc_id, namespace, document_id) for doc_id in sorted(ids)],
            refresh=self.refresh_policy,
        )
        if outcome.failures:
            raise IndexBackendError(f"document {document_id}: {'; '.join(outcome.failures[document_id][:5])}")

    # -- reads -------------------------------------------------------------------------------------

    def reader(self, namespace: str, version: int) -> OpenSearchIndex:
        """This index: every read asks the node, which holds the current version."""
        return self

    def first_pass(self, namespace: str, plan: QueryPlan) -> FirstPass:
        """One `_msearch`: the count, every channel, the content terms of the content channel's first chunks,
        and the document frequencies of the content query's terms (for their idf)."""
        channels = usable_channels(plan.channels) if plan.limit > 0 else []
        searches = [total_query(namespace, plan.filters)]
        searches += [channel_query(namespace, ch, plan.channels[ch], plan.filters, plan.limit) for ch in channels]
        wants_feedback = "content" in channels and plan.feedback > 0
        if wants_feedback:
            size = plan.feedback + FEEDBACK_MARGIN
            searches.append(feedback_query(namespace, plan.channels["content"], plan.filters, size))
        terms = [t for t in plan.channels["content"].terms if indexable(t)] if "content" in channels else []
        if terms:
            searches.append(document_frequency_query(namespace, terms))
        found = self._models.vectors(self.alias(namespace), namespace) if plan.semantic is not None else None
        if plan.semantic is not None and found is not None:
            searches.append(semantic_search(filter_clause(namespace, plan.filters), plan.semantic, found))
        responses = self._msearch(namespace, searches)
        semantic = semantic_ranking(responses.pop()) if found is not None else None
        after_channels = responses[len(channels) + 1 :]
        frequencies = content_frequencies(after_channels[0]) if wants_feedback else {}
        idf = bm25_idf(after_channels[-1], terms) if terms else {}
        rankings = channel_rankings(plan.channels, channels, responses[1:])
        if semantic is not None:
            rankings["semantic"] = semantic
        return FirstPass(total_hits(responses[0]), rankings, frequencies, idf)

    def expansion_pass(self, namespace: str, plan: ExpansionPlan) -> ExpansionPass:
        """One `_msearch`: the expanded query without the terms `common_term_memory` remembers as common, the document
        frequencies that check that guess, and the chunks to fetch. A wrong guess is ranked again."""
        checked = [term for term in plan.expansion if indexable(term)]
        guessed = self.common_term_memory.guess(namespace, checked)
        searches = [channel_query(namespace, "content", plan.mixed(guessed), plan.filters, plan.limit)]
        if checked:
            searches.append(document_frequency_query(namespace, checked))
        if plan.fetch:
            searches.append(hydration_query(namespace, plan.fetch))
        responses = self._msearch(namespace, searches)
        ranking = ranked_hits(responses[0])
        chunks = hydrated_chunks(responses[-1]) if plan.fetch else {}
        common = common_terms(responses[1], checked, plan.is_common) if checked else set()
        self.common_term_memory.learn(namespace, checked, common)
        if common != guessed:
            ranking = self._content_ranking(namespace, plan.mixed(common), plan.filters, plan.limit)
        return ExpansionPass(ranking, chunks)

    def _content_ranking(
        self, namespace: str, query: ChannelQuery, filters: SearchFilters, limit: int
    ) -> list[tuple[str, float]]:
        if limit <= 0 or not weighted_terms(query.terms):
            return []
        return ranked_hits(self._msearch(namespace, [channel_query(namespace, "content", query, filters, limit)])[0])

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
                raise IndexBackendError(f"OpenSearch search failed: {error_reason(item['error'])}")
        return items

    def similar_terms(
        self, namespace: str, terms: Sequence[str], rule: SpellingRule
    ) -> dict[str, list[tuple[str, int]]]:
        asked = [term for term in dict.fromkeys(terms) if indexable(term)]
        if not asked:
            return {}
        query = similar_terms_query(asked, rule.max_edits, rule.prefix, rule.suggestions)
        suggested = suggested_terms(self._msearch(namespace, [query])[0], asked)
        return self._own_suggestions(namespace, suggested) if self.tenancy.shared else suggested

    def _own_suggestions(
        self, namespace: str, suggested: dict[str, list[tuple[str, int]]]
    ) -> dict[str, list[tuple[str, int]]]:
        """A suggester reads the shard's whole term dictionary, every namespace's in a shared index: only the
        suggestions the namespace's own chunks hold are kept, with its own counts."""
        found = sorted({term for options in suggested.values() for term, _ in options})
        if not found:
            return suggested
        _, holding = self.document_frequencies(namespace, found)
        kept = {
            term: [(option, holding[option]) for option, _ in options if holding.get(option)]
            for term, options in suggested.items()
        }
        return {term: options for term, options in kept.items() if options}

    def document_frequencies(self, namespace: str, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """One `_msearch` of `document_frequency_query`s, `FREQUENCY_TERMS_PER_SEARCH` terms each, after this
        object's own writes are refreshed (the graph weighs a document's keywords right after publishing it)."""
        self._see_own_writes(namespace)
        asked = [term for term in dict.fromkeys(terms) if indexable(term)]
        if not asked:
            return self.count(namespace, SearchFilters()), {}
        parts = [asked[at : at + FREQUENCY_TERMS_PER_SEARCH] for at in range(0, len(asked), FREQUENCY_TERMS_PER_SEARCH)]
        responses = self._msearch(namespace, [document_frequency_query(namespace, part) for part in parts])
        holding: dict[str, int] = {}
        for part, response in zip(parts, responses, strict=True):
            holding.update(
                (term, df) for term, df in zip(part, document_frequencies(response, part), strict=True) if df
            )
        return total_hits(responses[0]), holding

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
        found: dict[str, set[str]] = {}
        for hit in self._scan(namespace, document_chunks_query(namespace, document_ids), None):
            found.setdefault(hit["_source"]["document_id"], set()).add(hit["_id"])
        return found

    def _scan(
        self, namespace: str, body: JsonObject, limit: int | None, *, index: str | None = None
    ) -> Iterator[JsonObject]:
        """Hits of a sorted query, paged with search_after (no scroll contexts, which Serverless limits), from the
        namespace's alias or the named index."""
        target = index or self.alias(namespace)
        after: list[Any] | None = None
        seen = 0
        while limit is None or seen < limit:
            size = PAGE_SIZE if limit is None else min(PAGE_SIZE, limit - seen)
            page: JsonObject = {**body, "size": size, "track_total_hits": False}
            if after is not None:
                page["search_after"] = after
            response = call_with_retries(
                lambda page=page: self.client.search(  # type: ignore[misc]
                    index=target, body=page, routing=namespace, ignore_unavailable=True
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
