"""The registry's revision index: the table as template.yaml defines it, queried (never scanned) on a delete."""

from __future__ import annotations

from typing import Any

import pytest

from docshelf.registry.base import DocumentRecord
from docshelf.registry.local import LocalRegistry

moto = pytest.importorskip("moto")
boto3 = pytest.importorskip("boto3")


def _record(document_id: str, revision: str, status: str = "ok", namespace: str = "demo") -> DocumentRecord:
    return DocumentRecord(namespace=namespace, document_id=document_id, source_key=f"{namespace}/{document_id}.md",
                          source_file_name=f"{document_id}.md", revision=revision, status=status,  # type: ignore[arg-type]
                          sequencer="0a")  # fmt: skip


def _template_table(client: Any) -> None:
    from tests.functional.aws.template_resources import load_template

    props = load_template()["Resources"]["RegistryTable"]["Properties"]
    client.create_table(TableName="registry", AttributeDefinitions=props["AttributeDefinitions"],
                        KeySchema=props["KeySchema"], GlobalSecondaryIndexes=props["GlobalSecondaryIndexes"],
                        BillingMode=props["BillingMode"])  # fmt: skip


def test_revision_in_use_queries_the_index_and_leaves_out_the_deleted_document() -> None:
    from docshelf.registry.dynamodb import DynamoDBRegistry
    from tests.functional.aws.recorded_calls import checked_calls

    with moto.mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        _template_table(client)
        registry = DynamoDBRegistry("registry", client=client)
        operations: list[str] = []
        client.meta.events.register("before-call.dynamodb", lambda model, **_: operations.append(model.name))
        assert registry.put(_record("d1", "a" * 64))
        assert registry.put(_record("d2", "a" * 64, namespace="other"))
        assert registry.put(_record("queued", ""))  # a page queued by POST /ingest has no revision yet
        with checked_calls(client, ("ParseFunction",), refs={"RegistryTable": "registry"}):  # the delete path
            assert not registry.revision_in_use("c" * 64, besides=("demo", "d1"))
        assert registry.revision_in_use("a" * 64)
        assert registry.revision_in_use("a" * 64, besides=("demo", "d1"))  # d2 has it too
        assert registry.put(_record("d2", "a" * 64, status="deleted", namespace="other"))
        assert not registry.revision_in_use("a" * 64, besides=("demo", "d1"))
        assert not registry.revision_in_use("b" * 64)
        assert not registry.revision_in_use("")
        assert "Scan" not in operations and "Query" in operations
        queued = registry.get("demo", "queued")
        assert queued is not None and queued.revision == ""


def test_the_local_registry_leaves_out_the_deleted_document_too(tmp_path: Any) -> None:
    registry = LocalRegistry(tmp_path / "registry.sqlite")
    assert registry.put(_record("d1", "a" * 64))
    assert registry.revision_in_use("a" * 64)
    assert not registry.revision_in_use("a" * 64, besides=("demo", "d1"))
    assert registry.put(_record("d2", "a" * 64, namespace="other"))
    assert registry.revision_in_use("a" * 64, besides=("demo", "d1"))
