"""The deployed stack's services for `docshelf resync --aws`, configured as its PublishFunction is, so a re-sync
publishes exactly what the function would (same bucket, registry, index and embedding model)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docshelf.aws.services import AwsServices
from docshelf.aws.settings import ENV_AWS_REGION, Settings, SettingsError
from docshelf.errors import DocshelfError


def function_settings(function_name: str, *, client: Any = None, region: str = "") -> Settings:
    """The settings in a deployed function's environment (lambda:GetFunctionConfiguration)."""
    from botocore.exceptions import BotoCoreError, ClientError

    if client is None:
        import boto3

        client = boto3.client("lambda", region_name=region or None)
    try:
        configuration = client.get_function_configuration(FunctionName=function_name)
    except (BotoCoreError, ClientError) as error:
        raise DocshelfError(f"cannot read the configuration of function {function_name}: {error}") from error
    environment = dict(configuration.get("Environment", {}).get("Variables", {}))
    environment.setdefault(ENV_AWS_REGION, region or client.meta.region_name or "")  # Lambda sets it at run time
    return _settings(environment, f"function {function_name}")


def stack_services(function_name: str = "", environ: Mapping[str, str] | None = None, **clients: Any) -> AwsServices:
    """The services of the stack whose PublishFunction is `function_name`, or, without one, those the environment
    names as the functions read it (ARTIFACTS_BUCKET, REGISTRY_TABLE, OPENSEARCH_ENDPOINT, EMBEDDING_PROVIDER...)."""
    if function_name:
        return AwsServices(function_settings(function_name, client=clients.get("lambda_client")))
    import os

    return AwsServices(_settings(os.environ if environ is None else environ, "the environment"))


def _settings(environment: Mapping[str, str], source: str) -> Settings:
    try:
        return Settings.from_env(environment)
    except SettingsError as error:
        raise DocshelfError(f"{source}: {error}") from error
