"""The search function's agentic parts: the planner its environment names, the run log in the registry table,
the doc_nav source in the artifacts bucket."""

from __future__ import annotations

import pytest

from docshelf.agentic.bedrock_planner import BedrockPlanner
from docshelf.agentic.navigate import StoreNavSource
from docshelf.agentic.rules import RULES
from docshelf.api.service_agentic import AgenticParts
from docshelf.aws.search_api import PLANNER_MODEL_ENV, AwsApiServices
from docshelf.aws.services import AwsServices
from docshelf.aws.settings import Settings
from docshelf.registry.runs_dynamodb import DynamoDBRunLog


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch) -> AwsApiServices:
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}.items():
        monkeypatch.setenv(name, value)
    return AwsApiServices(
        AwsServices(Settings(artifacts_bucket="artifacts", registry_table="registry", region="us-east-1"))
    )


def test_the_rules_plan_unless_a_model_is_named(backend: AwsApiServices, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PLANNER_MODEL_ENV, raising=False)
    assert backend.planner is RULES
    monkeypatch.setenv(PLANNER_MODEL_ENV, "anthropic.claude-3-haiku-20240307-v1:0")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    planner = backend.planner
    assert isinstance(planner, BedrockPlanner) and planner.name == "bedrock:anthropic.claude-3-haiku-20240307-v1:0"
    assert backend.planner is planner  # one client for the function's life


def test_runs_go_to_the_registry_table_and_navigation_reads_the_artifacts_bucket(backend: AwsApiServices) -> None:
    assert isinstance(backend, AgenticParts)
    run_log = backend.run_log
    assert isinstance(run_log, DynamoDBRunLog) and run_log.table == "registry"
    assert isinstance(backend.nav_source, StoreNavSource)
