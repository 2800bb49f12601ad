"""The HTTP API behind API Gateway: search, and document status, for the namespaces a JWT allows.

Input is validated here, at the boundary; the user and the namespaces they may read come only from the
verified JWT claims that API Gateway passes on, never from the request body.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from docshelf.aws.search_cache import SearchCache, cache_key
from docshelf.aws.services import AwsServices
from docshelf.errors import DocshelfError, InvalidQueryError
from docshelf.ids import validate_namespace
from docshelf.registry import DocumentRecord
from docshelf.search.filters import SearchFilters
from docshelf.search.service import DEFAULT_MAX_TOKENS, DEFAULT_TOP_K, SearchRequest, search

ALL_NAMESPACES = "*"
MAX_QUERY_CHARS = 2000
_FILTER_FIELDS = ("documents", "exclude_documents", "exclude_sections", "chunk_types")
_CLAIM_SPLIT = re.compile(r"[\s,]+")


class ForbiddenError(DocshelfError):
    """The token does not allow this namespace."""


@dataclass(frozen=True, slots=True)
class Caller:
    user: str
    namespaces: frozenset[str]

    def authorize(self, namespace: str) -> str:
        validate_namespace(namespace)
        if ALL_NAMESPACES not in self.namespaces and namespace not in self.namespaces:
            raise ForbiddenError(f"the token does not allow namespace {namespace!r}")
        return namespace


def caller_from_claims(claims: Mapping[str, Any], namespaces_claim: str) -> Caller:
    """API Gateway HTTP APIs pass list claims flattened to a string like `[a b]`; accept that and real lists."""
    user = str(claims.get("sub") or claims.get("client_id") or "")
    if not user:
        raise ForbiddenError("the token has no subject")
    raw = claims.get(namespaces_claim, "")
    values = raw if isinstance(raw, list) else _CLAIM_SPLIT.split(str(raw).strip().strip("[]"))
    return Caller(user, frozenset(str(value) for value in values if value))


def parse_search_request(body: Any) -> SearchRequest:
    if not isinstance(body, dict):
        raise InvalidQueryError("the request body must be a JSON object")
    query = body.get("query")
    if not isinstance(query, str):
        raise InvalidQueryError("query must be a string")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidQueryError(f"query is longer than {MAX_QUERY_CHARS} characters")
    filters = body.get("filters") or {}
    if not isinstance(filters, dict) or set(filters) - set(_FILTER_FIELDS):
        raise InvalidQueryError(f"filters may only have {', '.join(_FILTER_FIELDS)}")
    return SearchRequest(
        namespace=_string(body, "namespace", ""),
        query=query,
        top_k=_integer(body, "top_k", DEFAULT_TOP_K),
        max_tokens=_integer(body, "max_tokens", DEFAULT_MAX_TOKENS),
        filters=SearchFilters(**{name: _strings(filters, name) for name in _FILTER_FIELDS}),
    )


def run_search(services: AwsServices, caller: Caller, request: SearchRequest) -> tuple[dict[str, Any], bool]:
    """(response body, cache hit). The namespace version is read first, so a cached entry is never newer."""
    started = time.perf_counter()
    caller.authorize(request.namespace)
    version = services.registry.namespace_version(request.namespace)
    cache = _cache(services)
    key = cache_key(caller.user, request)
    if cache is not None:
        cached = cache.get(key, version)
        if cached is not None:
            cached.update(cache="hit", took_ms=round((time.perf_counter() - started) * 1000, 3))
            return cached, True
    payload = search(services.fresh_index(request.namespace), request).to_dict()
    if cache is not None:
        cache.put(key, request.namespace, version, payload)
    payload.update(cache="miss", took_ms=round((time.perf_counter() - started) * 1000, 3))
    return payload, False


def list_documents(services: AwsServices, caller: Caller, namespace: str) -> dict[str, Any]:
    caller.authorize(namespace)
    records = services.registry.list(namespace)
    return {"namespace": namespace, "documents": [record_to_dict(record) for record in records]}


def get_document(services: AwsServices, caller: Caller, namespace: str, document_id: str) -> dict[str, Any] | None:
    caller.authorize(namespace)
    record = services.registry.get(namespace, document_id)
    return None if record is None else record_to_dict(record)


def record_to_dict(record: DocumentRecord) -> dict[str, Any]:
    return asdict(record)


def _cache(services: AwsServices) -> SearchCache | None:
    settings = services.settings
    if not settings.search_cache_table or settings.search_cache_ttl_s <= 0:
        return None
    return SearchCache(settings.search_cache_table, client=services.dynamodb, ttl_s=settings.search_cache_ttl_s)


def _string(body: Mapping[str, Any], name: str, default: str) -> str:
    value = body.get(name, default)
    if not isinstance(value, str):
        raise InvalidQueryError(f"{name} must be a string")
    return value


def _integer(body: Mapping[str, Any], name: str, default: int) -> int:
    value = body.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidQueryError(f"{name} must be an integer")
    return value


def _strings(body: Mapping[str, Any], name: str) -> tuple[str, ...]:
    value = body.get(name) or []
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise InvalidQueryError(f"filters.{name} must be a list of strings")
    return tuple(value)
