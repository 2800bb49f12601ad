"""The embedding provider as a setting: the Lambdas' environment, the local configuration, the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.aws.services import AwsServices
from docshelf.aws.settings import Settings, SettingsError
from docshelf.config import PipelineConfig
from docshelf.errors import InvalidConfigError
from docshelf.local.cli import build_parser
from docshelf.local.services import LocalServices

BASE = {"ARTIFACTS_BUCKET": "bucket", "REGISTRY_TABLE": "table"}


def test_the_lambdas_read_the_provider_and_model_from_the_environment() -> None:
    assert Settings.from_env(BASE).pipeline.embedding_provider == "none"
    settings = Settings.from_env(
        {**BASE, "EMBEDDING_PROVIDER": "bedrock", "EMBEDDING_MODEL_ID": "amazon.titan-embed-text-v2:0/512"}
    )
    assert settings.pipeline.embedding_provider == "bedrock"
    assert settings.pipeline.embedding_model_id == "amazon.titan-embed-text-v2:0/512"
    with pytest.raises(SettingsError, match="EMBEDDING_PROVIDER"):
        Settings.from_env({**BASE, "EMBEDDING_PROVIDER": "openai"})


def test_the_search_functions_read_the_passage_model_from_the_environment() -> None:
    assert Settings.from_env(BASE).passage_model == "none"
    assert Settings.from_env({**BASE, "PASSAGE_MODEL": "local"}).passage_model == "local"
    with pytest.raises(SettingsError, match="PASSAGE_MODEL"):
        Settings.from_env({**BASE, "PASSAGE_MODEL": "cross-encoder"})
    assert AwsServices(Settings.from_env(BASE)).passage_model() is None


def test_the_local_configuration_refuses_an_unknown_provider() -> None:
    assert PipelineConfig().embedding_provider == "none"
    with pytest.raises(InvalidConfigError, match="unknown embedding provider"):
        PipelineConfig(embedding_provider="word2vec")


def test_the_command_line_passes_the_provider_to_the_local_services(tmp_path: Path) -> None:
    args = build_parser().parse_args(["search", "pump", "--embeddings", "local", "--store", str(tmp_path)])
    assert args.embeddings == "local" and args.embedding_model == ""
    services = LocalServices.open(tmp_path, embedding_provider="none")
    assert services.embedding_provider() is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["ingest", "x", "--embeddings", "openai"])
