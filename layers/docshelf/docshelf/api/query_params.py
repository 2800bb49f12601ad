"""The query parameters each route takes, and GET /documents' paging and filters.

An unknown query parameter is a 400, as an unknown body field is: a typo (`?namspace=`, `?stauts=ok`) would
otherwise be ignored and answer something the caller did not ask for.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from docshelf.api.errors import BadRequestError
from docshelf.registry import DocumentRecord

DEFAULT_PAGE_SIZE = 1000
MAX_PAGE_SIZE = 1000


@functools.cache
def _route_parameters() -> tuple[tuple[re.Pattern[str], str, frozenset[str]], ...]:
    """(path pattern, method, the query parameters it takes) of every operation, from the OpenAPI document: the
    routes' one description, so a route and the parameters it takes cannot drift apart."""
    from docshelf.api.openapi import openapi_document

    routes = []
    for path, operations in openapi_document()["paths"].items():
        pattern = re.compile(re.sub(r"\{[^}/]+\}", "[^/]+", path))
        for method, operation in operations.items():
            names = frozenset(p["name"] for p in operation.get("parameters", []) if p["in"] == "query")
            routes.append((pattern, method.upper(), names))
    return tuple(routes)


def check_query_parameters(event: Mapping[str, Any]) -> None:
    """400 for a query parameter the route does not take (a route the OpenAPI document does not list takes none;
    HEAD takes what GET takes)."""
    given = set((event.get("queryStringParameters") or {}).keys())
    if not given:
        return
    http = (event.get("requestContext") or {}).get("http") or {}
    path = str(http.get("path") or event.get("rawPath") or "")
    method = str(http.get("method") or "GET").upper()
    method = "GET" if method == "HEAD" else method
    allowed = next(
        (names for pattern, verb, names in _route_parameters() if verb == method and pattern.fullmatch(path)),
        frozenset(),
    )
    unknown = sorted(given - allowed)
    if unknown:
        takes = ", ".join(sorted(allowed)) if allowed else "no query parameters"
        raise BadRequestError(f"unknown query parameter {', '.join(unknown)}: {path} takes {takes}")


@dataclass(frozen=True, slots=True)
class DocumentPage:
    documents: list[DocumentRecord]
    next_cursor: str | None


def document_page(
    records: Sequence[DocumentRecord],
    *,
    status: str | None = None,
    source_key: str | None = None,
    limit: int = DEFAULT_PAGE_SIZE,
    cursor: str | None = None,
) -> DocumentPage:
    """One page of a namespace's documents in source key order, after those up to `cursor`."""
    after = _decoded(cursor) if cursor else None
    chosen = [
        record
        for record in sorted(records, key=lambda record: record.source_key)
        if (status is None or record.status == status)
        and (source_key is None or record.source_key == source_key)
        and (after is None or record.source_key > after)
    ]
    page = chosen[:limit]
    more = len(chosen) > limit
    return DocumentPage(page, _encoded(page[-1].source_key) if more and page else None)


def _encoded(source_key: str) -> str:
    return base64.urlsafe_b64encode(source_key.encode()).decode().rstrip("=")


def _decoded(cursor: str) -> str:
    try:
        return base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, ValueError):
        raise BadRequestError("cursor is not one this API gave") from None
