"""Hit statistics in the search cache table (search/hits.py), ids and numbers only.

Per document, `cache_key=hits#<namespace>#<document_id>`: `hits` (count), `hits_weight` (forward-decayed) and
`chunk#<chunk_id>` counts. Per chunk, for the boost's reads, `cache_key=hitw#<namespace>#<chunk_id>`: `hits`,
`hits_weight` and `document_id`. Every write is an atomic `ADD`, so concurrent searches never lose a hit; a
response's updates are sent together (up to 8 at once), and the boost reads the candidates' chunk items with one
BatchGetItem per 100.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from docshelf.search.hits import decayed, forward_weight

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef

HITS_PREFIX = "hits#"
CHUNK_PREFIX = "hitw#"
BATCH_KEYS = 100  # BatchGetItem's limit
MAX_PARALLEL_UPDATES = 8
_log = logging.getLogger(__name__)


def hits_key(namespace: str, document_id: str) -> str:
    return f"{HITS_PREFIX}{namespace}#{document_id}"


def chunk_hits_key(namespace: str, chunk_id: str) -> str:
    return f"{CHUNK_PREFIX}{namespace}#{chunk_id}"


class DynamoDBHits:
    def __init__(self, table: str, *, client: DynamoDBClient, clock: Callable[[], float] = time.time) -> None:
        self.table = table
        self.client = client
        self.clock = clock

    def record(self, namespace: str, hits: Sequence[tuple[str, str]]) -> None:
        """Best effort: a counter that cannot be written is logged, never a failed search."""
        weight = forward_weight(1, self.clock())
        by_document: dict[str, list[str]] = {}
        for document_id, chunk_id in hits:
            by_document.setdefault(document_id, []).append(chunk_id)
        updates: list[tuple[str, str, dict[str, str], dict[str, AttributeValueTypeDef]]] = []
        for document_id, chunks in by_document.items():
            names = {f"#c{n}": f"chunk#{chunk}" for n, chunk in enumerate(chunks)}
            values: dict[str, AttributeValueTypeDef] = {
                ":n": {"N": str(len(chunks))}, ":w": {"N": _number(len(chunks) * weight)}, ":one": {"N": "1"}
            }  # fmt: skip
            clauses = ["hits :n", "hits_weight :w", *(f"{name} :one" for name in names)]
            updates.append((hits_key(namespace, document_id), "ADD " + ", ".join(clauses), names, values))
            updates += [
                (
                    chunk_hits_key(namespace, chunk_id),
                    "ADD hits :one, hits_weight :w SET document_id = :d",
                    {},
                    {":one": {"N": "1"}, ":w": {"N": _number(weight)}, ":d": {"S": document_id}},
                )
                for chunk_id in chunks
            ]
        if len(updates) <= 1:
            for update in updates:
                self._add(*update)
            return
        from concurrent.futures import ThreadPoolExecutor  # not on a cold start

        # one round trip's wait for all of them, not one each: the search's response waits for these
        with ThreadPoolExecutor(max_workers=min(MAX_PARALLEL_UPDATES, len(updates))) as pool:
            list(pool.map(lambda update: self._add(*update), updates))

    def _add(self, key: str, expression: str, names: dict[str, str], values: dict[str, AttributeValueTypeDef]) -> None:
        try:
            if names:
                self.client.update_item(
                    TableName=self.table, Key={"cache_key": {"S": key}}, UpdateExpression=expression,
                    ExpressionAttributeNames=names, ExpressionAttributeValues=values,
                )  # fmt: skip
            else:
                self.client.update_item(
                    TableName=self.table, Key={"cache_key": {"S": key}}, UpdateExpression=expression,
                    ExpressionAttributeValues=values,
                )  # fmt: skip
        except Exception:  # the counters are statistics; the search has already succeeded
            _log.warning("could not record hits", extra={"key": key})

    def chunk_hits(self, namespace: str, chunk_ids: Sequence[str]) -> dict[str, float]:
        """Best effort too: a read that fails boosts nothing."""
        moment = self.clock()
        found: dict[str, float] = {}
        wanted = list(dict.fromkeys(chunk_ids))
        for at in range(0, len(wanted), BATCH_KEYS):
            keys = [{"cache_key": {"S": chunk_hits_key(namespace, chunk)}} for chunk in wanted[at : at + BATCH_KEYS]]
            request = {self.table: {"Keys": keys, "ProjectionExpression": "cache_key, hits_weight"}}
            for _ in range(3):  # unprocessed keys (throttling) are asked again, a little later
                try:
                    response = self.client.batch_get_item(RequestItems=request)  # type: ignore[arg-type]
                except Exception:
                    _log.warning("could not read hits", extra={"namespace": namespace})
                    return found
                for item in response.get("Responses", {}).get(self.table, []):
                    chunk = item["cache_key"]["S"].removeprefix(chunk_hits_key(namespace, ""))
                    found[chunk] = decayed(float(item["hits_weight"]["N"]), moment)
                request = response.get("UnprocessedKeys") or {}  # type: ignore[assignment]
                if not request:
                    break
                time.sleep(0.05)
        return found

    def top_documents(self, namespace: str, limit: int) -> list[tuple[str, int, float]]:
        """Not kept on AWS (it would need a scan of the table): none."""
        return []

    def hits(self, namespace: str, document_id: str, chunk_id: str = "") -> int:
        key = chunk_hits_key(namespace, chunk_id) if chunk_id else hits_key(namespace, document_id)
        item = self.client.get_item(TableName=self.table, Key={"cache_key": {"S": key}}).get("Item")
        attribute = (item or {}).get("hits")
        return int(attribute["N"]) if attribute else 0


def _number(value: float) -> str:
    """A DynamoDB number: at most 38 significant digits."""
    return f"{value:.17g}"
