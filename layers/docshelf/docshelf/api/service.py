"""The API's operations over either host's services: search through the cache, list and get document status.

Every operation authorises the namespace first; the search then reads the namespace version before the cache,
so a cached entry is never newer than the index it is checked against.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, replace
from typing import Any, Protocol

from docshelf.api.auth import Caller
from docshelf.api.errors import NotFoundError
from docshelf.api.query_params import DEFAULT_PAGE_SIZE, document_page
from docshelf.assets.links import AssetLink
from docshelf.index.base import SearchBackend
from docshelf.registry import DocumentRecord, Registry
from docshelf.search.cache import SearchCache, cache_key
from docshelf.search.document_names import known_namespace, resolved_filters
from docshelf.search.hits import HitStore, evidence_hits
from docshelf.search.request import SearchRequest
from docshelf.search.rerank import Reranker, reranker_identity
from docshelf.search.semantic import QueryEmbedder
from docshelf.search.service import search


class ApiServices(Protocol):
    """What the API needs: the registry, an index that is current for a namespace, and maybe a cache."""

    @property
    def registry(self) -> Registry: ...

    @property
    def cache(self) -> SearchCache | None: ...

    def index_for(self, namespace: str) -> SearchBackend: ...

    @property
    def asset_link(self) -> AssetLink | None: ...

    @property
    def embedder(self) -> QueryEmbedder | None:
        """The embedding provider of the deployment, for namespaces with vectors (None: lexical channels only)."""

    @property
    def hits(self) -> HitStore | None:
        """Where the chunks returned in evidence are counted, and the boost reads them (None: neither)."""

    @property
    def passage_model(self) -> Reranker | None:
        """The sentence model that also orders the evidence's first passages (None: the words alone)."""


def checked_request(services: ApiServices, caller: Caller, request: SearchRequest) -> SearchRequest:
    """The request once the caller may read its namespace (403), the namespace exists (404, naming those the caller
    may read) and its filters name documents there (400 naming the unknown ones), with those named by id."""
    caller.authorize(request.namespace)
    known_namespace(services.registry, request.namespace, caller.may_read)
    filters = request.filters
    if filters.documents or filters.exclude_documents:
        filters = resolved_filters(filters, services.registry.list(request.namespace))
    return replace(request, filters=filters)


def run_search(services: ApiServices, caller: Caller, request: SearchRequest) -> tuple[dict[str, Any], bool]:
    """(response body, served from the cache)."""
    request = checked_request(services, caller, request)
    model = services.passage_model

    def answer() -> dict[str, Any]:
        index = services.index_for(request.namespace)
        found = search(
            index,
            request,
            asset_link=services.asset_link,
            embedder=services.embedder,
            hits=services.hits,
            passage_model=model,
        )
        return found.to_dict()

    return cached_search(services, caller, request, answer, passage_model_mode(model) or None)


def passage_model_mode(model: Reranker | None) -> dict[str, str]:
    """What a cached answer's key holds of its passage model: the model's identity, nothing for the words alone."""
    return {} if model is None else {"passage_model": reranker_identity(model)}


def cached_search(
    services: ApiServices,
    caller: Caller,
    request: SearchRequest,
    answer: Callable[[], dict[str, Any]],
    mode: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], bool]:
    """(response body, served from the cache): the caller authorized for the namespace, then the cached body of
    the request (keyed by user, request and `mode`) or `answer()`, stored for the namespace's version."""
    started = time.perf_counter()
    caller.authorize(request.namespace)
    cache = services.cache
    payload: dict[str, Any] | None = None
    if cache is not None:
        version = services.registry.namespace_version(request.namespace)
        key = cache_key(caller.user, request, mode)
        payload = cache.get(key, version)
    hit = payload is not None
    if payload is None:
        payload = answer()
        if cache is not None:
            cache.put(key, request.namespace, version, payload)
    if services.hits is not None:
        services.hits.record(request.namespace, evidence_hits(payload["results"]))
    payload.update(cache="hit" if hit else "miss", took_ms=round((time.perf_counter() - started) * 1000, 3))
    return payload, hit


def list_documents(
    services: ApiServices,
    caller: Caller,
    namespace: str,
    *,
    status: str | None = None,
    source_key: str | None = None,
    limit: int = DEFAULT_PAGE_SIZE,
    cursor: str | None = None,
) -> dict[str, Any]:
    """One page of the namespace's documents in source key order (`next_cursor` names the next, or is None)."""
    caller.authorize(namespace)
    page = document_page(
        services.registry.list(namespace), status=status, source_key=source_key, limit=limit, cursor=cursor
    )
    documents = [record_to_dict(record) for record in page.documents]
    return {"namespace": namespace, "documents": documents, "next_cursor": page.next_cursor}


def get_document(services: ApiServices, caller: Caller, namespace: str, document_id: str) -> dict[str, Any]:
    caller.authorize(namespace)
    record = services.registry.get(namespace, document_id)
    if record is None:
        raise NotFoundError(f"no document {document_id} in namespace {namespace}")
    return record_to_dict(record)


def record_to_dict(record: DocumentRecord) -> dict[str, Any]:
    return asdict(record)
