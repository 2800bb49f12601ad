"""The search result cache in DynamoDB (docs/architecture.md#search-cache), one table keyed on `cache_key`.

Entries: `cache_key=<sha256>` with the namespace version it was computed at, `expires_at` (the table's TTL
attribute; DynamoDB deletes expired items lazily, up to days later, so a read checks it too) and the response,
as JSON in `payload` or zlib-compressed in `payload_z` when it is large. A response that stays over the item
limit even compressed is not cached (the search still succeeds).
Hit counts live in the same table (aws/hits_dynamodb.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from docshelf.search.cache import cache_key, decode_payload, encode_payload, normalise_query

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef

__all__ = ["DynamoDBSearchCache", "cache_key", "normalise_query"]


class DynamoDBSearchCache:
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
        if not item or "namespace_version" not in item:
            return None
        if int(item["expires_at"]["N"]) <= self.clock():
            return None
        if int(item["namespace_version"]["N"]) != namespace_version:
            return None
        if "payload_z" in item:
            return decode_payload(bytes(item["payload_z"]["B"]), True)
        return decode_payload(item["payload"]["S"].encode(), False)

    def put(self, key: str, namespace: str, namespace_version: int, payload: Mapping[str, Any]) -> bool:
        encoded = encode_payload(payload)
        if encoded is None:
            return False
        data, compressed = encoded
        body: dict[str, AttributeValueTypeDef] = {"payload_z": {"B": data}} if compressed else {
            "payload": {"S": data.decode()}
        }  # fmt: skip
        self.client.put_item(
            TableName=self.table,
            Item={
                "cache_key": {"S": key},
                "namespace": {"S": namespace},
                "namespace_version": {"N": str(namespace_version)},
                "expires_at": {"N": str(int(self.clock()) + self.ttl_s)},
                **body,
            },
        )
        return True
