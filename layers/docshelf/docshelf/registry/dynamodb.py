"""The registry in one DynamoDB table: a document's status and ordering, and each namespace's version.

Items (partition key `pk`, sort key `sk`):
- `pk=<namespace>, sk=doc#<document_id>`: one DocumentRecord, plus `seq_order` (the S3 sequencer left-padded
  so that DynamoDB's string order is the sequencer order) for the conditional write.
- `pk=<namespace>, sk=#version`: the namespace version, bumped by every publish and delete.

The sparse global secondary index `REVISION_INDEX` (partition key `revision`, projecting `status`) answers "does a
live document still have these bytes?" with a Query: only document items with a revision appear in it.
"""

from __future__ import annotations

import time
from dataclasses import fields, replace
from typing import TYPE_CHECKING, Any

from docshelf.registry.base import DocumentRecord, stored_name

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import AttributeValueTypeDef

DOCUMENT_PREFIX = "doc#"
VERSION_SORT_KEY = "#version"
REVISION_INDEX = "by-revision"  # template.yaml RegistryTable
SEQUENCER_WIDTH = 64
_INT_FIELDS = {"chunk_count", "pages"}
_FLOAT_FIELDS = {"updated_at"}
_FIELDS = [f.name for f in fields(DocumentRecord)]


def sequencer_order(sequencer: str) -> str:
    return sequencer.rjust(SEQUENCER_WIDTH, "0")


class DynamoDBRegistry:
    def __init__(self, table: str, *, client: DynamoDBClient | None = None) -> None:
        self.table = table
        self._client = client

    @property
    def client(self) -> DynamoDBClient:
        if self._client is None:
            import boto3

            self._client = boto3.client("dynamodb")
        return self._client

    def get(self, namespace: str, document_id: str) -> DocumentRecord | None:
        response = self.client.get_item(
            TableName=self.table,
            Key={"pk": {"S": namespace}, "sk": {"S": DOCUMENT_PREFIX + document_id}},
            ConsistentRead=True,
        )
        item = response.get("Item")
        return _record(item) if item else None

    def list(self, namespace: str) -> list[DocumentRecord]:
        paginator = self.client.get_paginator("query")
        records: list[DocumentRecord] = []
        for page in paginator.paginate(
            TableName=self.table,
            KeyConditionExpression="pk = :ns AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":ns": {"S": namespace}, ":prefix": {"S": DOCUMENT_PREFIX}},
        ):
            records.extend(_record(item) for item in page.get("Items", []))
        return sorted(records, key=lambda record: record.source_key)

    def put(self, record: DocumentRecord) -> bool:
        """Write unless the stored record has a newer sequencer (checked by DynamoDB, not read-then-write)."""
        record = replace(record, updated_at=record.updated_at or time.time())
        item = _item(record)
        if record.sequencer:
            condition = "attribute_not_exists(sk) OR seq_order <= :seq"
        else:  # no sequencer is the oldest: it may only replace a record that has none either
            condition = "attribute_not_exists(sk) OR seq_order = :seq"
        try:
            self.client.put_item(
                TableName=self.table,
                Item=item,
                ConditionExpression=condition,
                ExpressionAttributeValues={":seq": item["seq_order"]},
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            return False
        return True

    def revision_in_use(self, revision: str, *, besides: tuple[str, str] | None = None) -> bool:
        """A Query of the revision index. Its reads are eventually consistent: `besides` (the document being deleted)
        is left out by key, as the index may still show it live; a document written a moment ago may not show yet,
        which can only remove a parse cache that its own parse then rebuilds."""
        if not revision:
            return False
        skipped = (besides[0], DOCUMENT_PREFIX + besides[1]) if besides else None
        paginator = self.client.get_paginator("query")
        for page in paginator.paginate(
            TableName=self.table,
            IndexName=REVISION_INDEX,
            KeyConditionExpression="#revision = :revision",
            FilterExpression="#status <> :deleted",
            ExpressionAttributeNames={"#revision": "revision", "#status": "status"},  # no reserved word as is
            ExpressionAttributeValues={":revision": {"S": revision}, ":deleted": {"S": "deleted"}},
            ProjectionExpression="pk, sk",
        ):
            if any((item["pk"]["S"], item["sk"]["S"]) != skipped for item in page.get("Items", [])):
                return True
        return False

    def namespace_version(self, namespace: str) -> int:
        response = self.client.get_item(
            TableName=self.table,
            Key={"pk": {"S": namespace}, "sk": {"S": VERSION_SORT_KEY}},
            ConsistentRead=True,
        )
        item = response.get("Item")
        return int(item["version"]["N"]) if item and "version" in item else 0

    def namespaces(self) -> tuple[str, ...]:
        """The namespaces with a version item (every publish, failure and delete writes one): a filtered scan, for
        `GET /namespaces` and the answer to an unknown namespace, not for every search."""
        paginator = self.client.get_paginator("scan")
        found: set[str] = set()
        for page in paginator.paginate(
            TableName=self.table,
            FilterExpression="sk = :version",
            ExpressionAttributeValues={":version": {"S": VERSION_SORT_KEY}},
            ProjectionExpression="pk",
        ):
            found.update(item["pk"]["S"] for item in page.get("Items", []))
        return tuple(sorted(found))

    def bump_namespace_version(self, namespace: str) -> int:
        response = self.client.update_item(
            TableName=self.table,
            Key={"pk": {"S": namespace}, "sk": {"S": VERSION_SORT_KEY}},
            UpdateExpression="ADD version :one",
            ExpressionAttributeValues={":one": {"N": "1"}},
            ReturnValues="UPDATED_NEW",
        )
        return int(response["Attributes"]["version"]["N"])


def _item(record: DocumentRecord) -> dict[str, AttributeValueTypeDef]:
    item: dict[str, AttributeValueTypeDef] = {
        "pk": {"S": record.namespace},
        "sk": {"S": DOCUMENT_PREFIX + record.document_id},
        "seq_order": {"S": sequencer_order(record.sequencer)},
    }
    for name in _FIELDS:
        value = getattr(record, name)
        if name == "revision" and not value:
            continue  # a key of the revision index cannot be empty; a record without one stays out of the index
        if name in _INT_FIELDS:
            item[stored_name(name)] = {"N": str(int(value))}
        elif name in _FLOAT_FIELDS:
            item[stored_name(name)] = {"N": repr(float(value))}
        else:
            item[stored_name(name)] = {"S": str(value)}
    return item


def _record(item: dict[str, Any]) -> DocumentRecord:
    values: dict[str, Any] = {}
    for name in _FIELDS:
        attribute = item.get(stored_name(name))
        if attribute is None:
            continue
        if name in _INT_FIELDS:
            values[name] = int(attribute["N"])
        elif name in _FLOAT_FIELDS:
            values[name] = float(attribute["N"])
        else:
            values[name] = attribute["S"]
    return DocumentRecord(**values)
