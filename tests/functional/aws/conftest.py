from __future__ import annotations

from collections.abc import Iterator

import pytest

moto = pytest.importorskip("moto")
boto3 = pytest.importorskip("boto3")

from tests.functional.aws.harness import Pipeline  # noqa: E402
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


@pytest.fixture
def stack() -> Iterator[TemplateStack]:
    with moto.mock_aws():
        yield TemplateStack(boto3.session.Session(region_name="us-east-1")).create()


@pytest.fixture
def pipeline(stack: TemplateStack) -> Pipeline:
    return Pipeline(stack)
