"""The search result cache in DynamoDB (DESIGN §5).

An entry is keyed on the user, namespace, normalised query, top_k, max_tokens and filters; it is served only
while its namespace version equals the current one and its TTL has not passed (DynamoDB deletes expired items
lazily, up to days later, so the read checks the TTL itself). Written only after a successful search.
"""

from __future__ import annotations

import hashlib
import json
import time
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from docshelf.search.service import SearchRequest

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

MAX_ENTRY_BYTES = 350_000  # DynamoDB items are capped at 400 KB
CACHE_FORMAT = 1


def normalise_query(query: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", query).casefold().split())


def cache_key(user: str, request: SearchRequest) -> str:
    material = {
        "format": CACHE_FORMAT,
        "user": user,
        "namespace": request.namespace,
        "query": normalise_query(request.query),
        "top_k": request.top_k,
        "max_tokens": request.max_tokens,
        "filters": request.filters.cache_fields(),
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class SearchCache:
    def __init__(
        self,
        table: str,
        *,
        client: DynamoDBClient,
        ttl_s: int,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.table = table
        self.client = client
        self.ttl_s = ttl_s
        self.clock = clock

    def get(self, key: str, namespace_version: int) -> dict[str, Any] | None:
        item = self.client.get_item(TableName=self.table, Key={"cache_key": {"S": key}}).get("Item")
        if not item:
            return None
        if int(item["expires_at"]["N"]) <= self.clock():
            return None
        if int(item["namespace_version"]["N"]) != namespace_version:
            return None
        payload: dict[str, Any] = json.loads(item["payload"]["S"])
        return payload

    def put(self, key: str, namespace: str, namespace_version: int, payload: dict[str, Any]) -> bool:
        """Store a response; False when it is too large for one item (the search still succeeded)."""
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        if len(body.encode()) > MAX_ENTRY_BYTES:
            return False
        self.client.put_item(
            TableName=self.table,
            Item={
                "cache_key": {"S": key},
                "namespace": {"S": namespace},
                "namespace_version": {"N": str(namespace_version)},
                "expires_at": {"N": str(int(self.clock()) + self.ttl_s)},
                "payload": {"S": body},
            },
        )
        return True
