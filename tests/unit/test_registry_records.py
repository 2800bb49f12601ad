"""A record's `published_with` is stored under the name existing stores use (`chunker`), and where an event
stands against the record decides whether a stage has work left."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from docshelf.errors import StorageError
from docshelf.pipeline import DocumentRef, event_standing
from docshelf.registry import DocumentRecord, DocumentStatus, LocalRegistry

PUBLICATION = "chunk=500/75;index=embedded"


def _record(status: DocumentStatus = "ok", sequencer: str = "", published_with: str = PUBLICATION) -> DocumentRecord:
    return DocumentRecord(
        "demo", "d1", "a.md", "a.md", status, revision="r1", sequencer=sequencer,
        published_with=published_with,
    )  # fmt: skip


def test_sqlite_keeps_the_chunker_column(tmp_path: Path) -> None:
    registry = LocalRegistry(tmp_path / "registry.sqlite")
    registry.put(_record())
    with sqlite3.connect(tmp_path / "registry.sqlite") as db:
        (stored,) = db.execute("SELECT chunker FROM documents").fetchone()
        db.execute("UPDATE documents SET chunker = 'written-by-an-older-docshelf'")
    assert stored == PUBLICATION
    reopened = LocalRegistry(tmp_path / "registry.sqlite")
    record = reopened.get("demo", "d1")
    assert record is not None and record.published_with == "written-by-an-older-docshelf"


def test_a_registry_without_a_column_is_refused_with_why(tmp_path: Path) -> None:
    path = tmp_path / "registry.sqlite"
    LocalRegistry(path).put(replace(_record(), pages=7))
    with sqlite3.connect(path) as db:  # as a store written by a docshelf whose records kept no pages
        db.execute("ALTER TABLE documents DROP COLUMN pages")
    with pytest.raises(StorageError, match=r"\(no pages column\): remove the store folder"):
        LocalRegistry(path)


def test_dynamodb_keeps_the_chunker_attribute() -> None:
    moto = pytest.importorskip("moto")
    boto3 = pytest.importorskip("boto3")
    from docshelf.registry.dynamodb import DynamoDBRegistry
    from tests.functional.aws.recorded_calls import checked_calls

    with moto.mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(
            TableName="registry",
            AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                  {"AttributeName": "sk", "AttributeType": "S"}],
            KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            BillingMode="PAY_PER_REQUEST",
        )  # fmt: skip
        registry = DynamoDBRegistry("registry", client=client)
        with checked_calls(client, ("ParseFunction", "PublishFunction"), refs={"RegistryTable": "registry"}):
            assert registry.put(_record(sequencer="0a"))  # what both functions' roles must allow
            assert registry.get("demo", "d1") is not None
        key = {"pk": {"S": "demo"}, "sk": {"S": "doc#d1"}}
        item = client.get_item(TableName="registry", Key=key)["Item"]
        assert item["chunker"] == {"S": PUBLICATION} and "published_with" not in item
        client.update_item(
            TableName="registry", Key=key, UpdateExpression="SET chunker = :old",
            ExpressionAttributeValues={":old": {"S": "written-by-an-older-docshelf"}},
        )  # fmt: skip
        record = registry.get("demo", "d1")
        assert record is not None and record.published_with == "written-by-an-older-docshelf"
        assert record.pages == 0  # an item written before records kept pages has no attribute: 0
        assert registry.put(replace(_record(sequencer="0b"), pages=4))
        assert client.get_item(TableName="registry", Key=key)["Item"]["pages"] == {"N": "4"}


@pytest.mark.parametrize(
    ("recorded", "incoming", "standing"),
    [
        (None, "0b", "open"),  # no record yet
        (_record(sequencer="0a"), "0b", "open"),  # an older event's record
        (_record(status="processing", sequencer="0b"), "0b", "open"),  # this event, not yet final
        (_record(sequencer="0b"), "0b", "finished"),  # this event, redelivered after it ended
        (_record(status="failed", sequencer="0b"), "0b", "finished"),
        (_record(status="processing", sequencer="0c"), "0b", "superseded"),  # a newer event holds the record
        (_record(sequencer="0c"), "", "superseded"),  # a local writer after an S3 event
        (_record(), "", "open"),  # a local writer is never finished: its next run may bring other settings
    ],
)
def test_event_standing(tmp_path: Path, recorded: DocumentRecord | None, incoming: str, standing: str) -> None:
    registry = LocalRegistry(tmp_path / "registry.sqlite")
    if recorded is not None:
        registry.put(recorded)
    ref = DocumentRef("demo", "d1", "a.md", "r1")
    assert event_standing(registry, ref.namespace, ref.document_id, incoming) == standing
