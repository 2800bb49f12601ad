"""Agentic run and step records in the registry's DynamoDB table, each written once (a conditional put).

Items: `pk=run#<run_id>, sk=#run` (the run) and `pk=run#<run_id>, sk=step#<step_id>` (its steps), the record
as JSON in `record`. Documents live under `pk=<namespace>`, which never starts with `run#` (namespace names are
`[a-z0-9][a-z0-9_-]*`), so the two never meet.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from docshelf.registry.run_records import RecordExistsError, RunRecord, StepRecord

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

RUN_PREFIX = "run#"
RUN_SORT_KEY = "#run"
STEP_PREFIX = "step#"


class DynamoDBRunLog:
    def __init__(self, table: str, *, client: DynamoDBClient) -> None:
        self.table = table
        self.client = client

    def append_step(self, record: StepRecord) -> None:
        self._put(record.run_id, STEP_PREFIX + record.step_id, asdict(record))

    def append_run(self, record: RunRecord) -> None:
        self._put(record.run_id, RUN_SORT_KEY, asdict(record))

    def _put(self, run_id: str, sort_key: str, record: dict[str, Any]) -> None:
        try:
            self.client.put_item(
                TableName=self.table,
                Item={
                    "pk": {"S": RUN_PREFIX + run_id},
                    "sk": {"S": sort_key},
                    "record": {"S": json.dumps(record, ensure_ascii=False)},
                },
                ConditionExpression="attribute_not_exists(pk)",
            )
        except self.client.exceptions.ConditionalCheckFailedException:
            raise RecordExistsError(f"{sort_key} of run {run_id} is already recorded") from None

    def get_run(self, run_id: str) -> tuple[RunRecord, list[StepRecord]] | None:
        paginator = self.client.get_paginator("query")
        items: list[dict[str, Any]] = []
        for page in paginator.paginate(
            TableName=self.table,
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": RUN_PREFIX + run_id}},
            ConsistentRead=True,
        ):
            items.extend(page.get("Items", []))
        run = next((item for item in items if item["sk"]["S"] == RUN_SORT_KEY), None)
        if run is None:
            return None
        steps = [json.loads(item["record"]["S"]) for item in items if item["sk"]["S"].startswith(STEP_PREFIX)]
        steps.sort(key=lambda step: int(step["step_id"][1:]))
        return RunRecord(**json.loads(run["record"]["S"])), [
            StepRecord(**{**step, "depends_on": tuple(step["depends_on"]), "result_ids": tuple(step["result_ids"])})
            for step in steps
        ]
