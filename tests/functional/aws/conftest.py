from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

moto = pytest.importorskip("moto")
boto3 = pytest.importorskip("boto3")

from tests.functional.aws.harness import Pipeline  # noqa: E402
from tests.functional.aws.recorded_calls import (  # noqa: E402
    CallRecorder,
    active_recorder,
    install_recorder,
    uninstall_recorder,
)
from tests.functional.aws.template_resources import TemplateStack  # noqa: E402


@pytest.fixture(autouse=True)
def aws_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fake credentials and Powertools settings: nothing here can reach AWS."""
    for name, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_REGION": "us-east-1",
        "POWERTOOLS_METRICS_NAMESPACE": "docshelf",
        "POWERTOOLS_SERVICE_NAME": "docshelf-test",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_DEV": "false",
    }.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)


def recorded_calls() -> CallRecorder:
    """Every AWS call the functions' code makes, on a fresh default boto3 session (where their clients come from),
    so `Pipeline.invoke` can check each against the function's role. Set up once moto is on: starting moto drops
    the default session."""
    boto3.setup_default_session(region_name="us-east-1")
    assert boto3.DEFAULT_SESSION is not None
    return install_recorder(boto3.DEFAULT_SESSION.events)


@pytest.fixture
def recorded(stack: TemplateStack) -> CallRecorder:
    """The calls recorded so far in this test, each with the function that made it."""
    return active_recorder()


OPENSEARCH_URL = os.environ.get("OPENSEARCH_URL", "http://127.0.0.1:9200")
# moto intercepts every `requests` call under mock_aws; the local OpenSearch node is let through.
PASSTHROUGH = {"core": {"passthrough": {"urls": [rf"{OPENSEARCH_URL.rstrip('/')}/.*"]}}}


@pytest.fixture
def stack() -> Iterator[TemplateStack]:
    with moto.mock_aws(config=PASSTHROUGH):
        recorded_calls()
        try:
            yield TemplateStack(boto3.session.Session(region_name="us-east-1")).create()
        finally:
            uninstall_recorder()
            boto3.DEFAULT_SESSION = None


@pytest.fixture(params=["embedded", pytest.param("opensearch", marks=pytest.mark.opensearch)])
def pipeline(request: pytest.FixtureRequest, stack: TemplateStack) -> Pipeline:
    """The functions with each index backend: `OpenSearchMode=embedded`, then `existing` (the local node)."""
    if request.param == "opensearch":
        chosen: Pipeline = request.getfixturevalue("opensearch_pipeline")
        return chosen
    return Pipeline(stack)


@pytest.fixture
def opensearch_pipeline(stack: TemplateStack, opensearch_node: Any) -> Iterator[Pipeline]:
    """The functions configured as `OpenSearchMode=existing` against the local node (SigV4-signed requests,
    which a node without the security plugin ignores), under an index prefix of their own."""
    from docshelf.index.opensearch import OpenSearchIndex

    prefix = f"docshelftest-aws-{uuid.uuid4().hex[:8]}"
    environment = {
        "AWS_REGION": "us-east-1",  # Lambda sets it; the SigV4 signer needs it
        "OPENSEARCH_ENDPOINT": OPENSEARCH_URL,
        "OPENSEARCH_SERVICE": "es",
        "OPENSEARCH_INDEX": prefix,
    }
    try:
        yield Pipeline(stack, environment)
    finally:
        OpenSearchIndex(opensearch_node, index=prefix).drop_index()
