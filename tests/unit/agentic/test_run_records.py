"""Run and step records are written once, never replaced, and come back complete from SQLite and DynamoDB."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from docshelf.agentic.service import AgenticRun, agentic_search
from docshelf.registry.run_records import RecordExistsError, RunLog, RunRecord, StepRecord
from docshelf.registry.runs_local import LocalRunLog
from tests.agentic_fixtures import context, ingest_documents


def run_record(run_id: str = "r1", user: str = "alice") -> RunRecord:
    return RunRecord(
        run_id=run_id, user=user, namespace="ns", query="a vs b", planner="rules", fallback_reason="",
        plan_json='{"planner": "rules", "fallback_reason": null, "steps": []}', budget_tokens=500, tokens_used=120,
        truncated=True, latency_ms=12.5, outcome="truncated", created_at=1.0,
    )  # fmt: skip


def step_record(step_id: str, run_id: str = "r1") -> StepRecord:
    return StepRecord(run_id, step_id, "search", f"query {step_id}", ("s1",), "done", ("c1", "c2"), 60, 3.5)


@pytest.fixture(params=["sqlite", "dynamodb"])
def run_log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RunLog]:
    if request.param == "sqlite":
        yield LocalRunLog(tmp_path / "registry.sqlite")
        return
    moto = pytest.importorskip("moto")
    boto3 = pytest.importorskip("boto3")
    from docshelf.registry.runs_dynamodb import DynamoDBRunLog
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
        # the run log is the search and MCP functions' code: what it does must be what their roles allow
        with checked_calls(client, ("SearchFunction", "McpFunction"), refs={"RegistryTable": "registry"}) as calls:
            yield DynamoDBRunLog("registry", client=client)
        assert calls


def test_records_come_back_complete(run_log: RunLog) -> None:
    for step_id in ("s2", "s10", "s1"):
        run_log.append_step(step_record(step_id))
    run_log.append_run(run_record())
    stored = run_log.get_run("r1")
    assert stored is not None
    run, steps = stored
    assert run == run_record()
    assert [step.step_id for step in steps] == ["s1", "s2", "s10"]
    assert steps[0] == step_record("s1")
    body = run.to_dict(steps)
    assert body["fallback_reason"] is None and body["plan"]["planner"] == "rules" and len(body["steps"]) == 3
    assert run_log.get_run("nope") is None


def test_records_are_append_only(run_log: RunLog) -> None:
    run_log.append_step(step_record("s1"))
    run_log.append_run(run_record())
    with pytest.raises(RecordExistsError):
        run_log.append_run(run_record(user="mallory"))
    with pytest.raises(RecordExistsError):
        run_log.append_step(step_record("s1"))
    stored = run_log.get_run("r1")
    assert stored is not None and stored[0].user == "alice" and len(stored[1]) == 1


def test_sqlite_run_log_offers_no_update(tmp_path: Path) -> None:
    methods = {name for name in dir(LocalRunLog) if not name.startswith("_")}
    assert methods == {"append_run", "append_step", "get_run"}


def test_a_search_records_its_run_and_every_step(tmp_path: Path) -> None:
    services = ingest_documents(tmp_path / "store")
    log = LocalRunLog(tmp_path / "store" / "registry.sqlite")
    body: dict[str, Any] = agentic_search(
        context(services), AgenticRun("TX-100 warranty vs pump seal hours", 300, user="bob"), run_log=log
    )
    stored = log.get_run(body["run_id"])
    assert stored is not None
    run, steps = stored
    assert (run.user, run.namespace, run.budget_tokens, run.tokens_used) == ("bob", "ns", 300, body["tokens_used"])
    assert run.truncated == body["truncated"] and run.planner == "rules"
    assert [step.step_id for step in steps] == [step["id"] for step in body["steps"]]
    assert [list(step.result_ids) for step in steps] == [step["result_ids"] for step in body["steps"]]
