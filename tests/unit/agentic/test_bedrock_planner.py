"""The Bedrock planner against botocore's Stubber (Converse): a valid plan, invalid JSON, a plan off the schema or
naming another namespace, a throttle and a timeout, each falling back to the rule-based plan with its reason."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ReadTimeoutError
from botocore.stub import ANY, Stubber

from docshelf.agentic.bedrock_planner import BedrockPlanner
from docshelf.agentic.rules import rule_plan

MODEL = "anthropic.claude-3-haiku-20240307-v1:0"
QUERY = "compare the warranty of TX-100 and TX-200"


@pytest.fixture
def client() -> Iterator[Any]:
    yield boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="testing", aws_secret_access_key="testing"
    )


def converse_reply(text: str) -> dict[str, Any]:
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 200, "outputTokens": 60, "totalTokens": 260},
        "metrics": {"latencyMs": 300},
    }


def expected_request(query: str = QUERY) -> dict[str, Any]:
    return {
        "modelId": MODEL, "system": ANY, "messages": [{"role": "user", "content": [{"text": query}]}],
        "inferenceConfig": ANY,
    }  # fmt: skip


def plan_with(client: Any, text: str) -> Any:
    with Stubber(client) as stub:
        stub.add_response("converse", converse_reply(text), expected_request())
        plan = BedrockPlanner(client, MODEL)(QUERY, "ns")
        stub.assert_no_pending_responses()
    return plan


def test_a_valid_plan_is_used_as_the_model_wrote_it(client: Any) -> None:
    steps = [
        {"id": "s1", "action": "search", "query": "TX-100 warranty period", "depends_on": []},
        {"id": "s2", "action": "search", "query": "TX-200 warranty period", "depends_on": []},
        {"id": "s3", "action": "navigate", "query": "warranty terms", "depends_on": ["s1", "s2"]},
    ]
    plan = plan_with(client, "```json\n" + json.dumps({"steps": steps}) + "\n```")
    assert plan.planner == "bedrock" and plan.fallback_reason is None
    assert [step.to_dict() for step in plan.steps] == steps
    assert BedrockPlanner(client, MODEL).name == f"bedrock:{MODEL}"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Sure! First search for the TX-100 warranty.", "invalid JSON"),
        ('{"steps": [{"id": "s1", "action": "answer", "query": "x", "depends_on": []}]}', "does not match the schema"),
        ('{"steps": [{"id": "s1", "action": "search", "query": "x", "depends_on": ["s1"]}]}', "cycle"),
        (
            '{"steps": [{"id": "s1", "action": "search", "query": "salaries", "depends_on": [], "namespace": "hr"}]}',
            "namespace 'hr'",
        ),
    ],
)
def test_bad_model_output_falls_back_to_the_rules(client: Any, text: str, reason: str) -> None:
    plan = plan_with(client, text)
    assert plan.planner == "rules" and reason in (plan.fallback_reason or "")
    assert plan.steps == rule_plan(QUERY, "ns").steps


def test_a_throttle_falls_back_to_the_rules(client: Any) -> None:
    with Stubber(client) as stub:
        stub.add_client_error("converse", service_error_code="ThrottlingException", http_status_code=429)
        plan = BedrockPlanner(client, MODEL)(QUERY, "ns")
    assert plan.planner == "rules" and plan.fallback_reason == "throttled: ThrottlingException"
    assert len(plan.steps) == 2


class TimingOutClient:
    """A bedrock-runtime client whose read times out, as botocore raises it."""

    def converse(self, **_: Any) -> dict[str, Any]:
        raise ReadTimeoutError(endpoint_url="https://bedrock-runtime.us-east-1.amazonaws.com/model/x/converse")


def test_a_timeout_falls_back_to_the_rules() -> None:
    plan = BedrockPlanner(TimingOutClient(), MODEL)(QUERY, "ns")
    assert plan.planner == "rules" and (plan.fallback_reason or "").startswith("timeout: ")


def test_the_fallback_reason_reaches_the_response_and_the_run_record(client: Any, tmp_path: Any) -> None:
    from docshelf.agentic.service import AgenticRun, agentic_search
    from docshelf.registry.runs_local import LocalRunLog
    from tests.agentic_fixtures import context, ingest_documents

    services = ingest_documents(tmp_path / "store")
    log = LocalRunLog(tmp_path / "store" / "registry.sqlite")
    with Stubber(client) as stub:
        stub.add_response("converse", converse_reply("not json"), expected_request())
        body = agentic_search(
            context(services), AgenticRun(QUERY, 300), planner=BedrockPlanner(client, MODEL), run_log=log
        )
    assert body["plan"]["planner"] == "rules" and "invalid JSON" in body["plan"]["fallback_reason"]
    stored = log.get_run(body["run_id"])
    assert stored is not None and "invalid JSON" in stored[0].fallback_reason and stored[0].planner == "rules"
