"""The embedding provider a setting names, built on first use (each provider imports its own libraries)."""

from __future__ import annotations

from typing import Any

from docshelf.config import PROVIDER_NAMES
from docshelf.embeddings.base import EmbeddingError, EmbeddingProvider


def provider_from_config(name: str, model_id: str | None, **clients: Any) -> EmbeddingProvider | None:
    """The provider a setting names: "none" (or "") gives None, "local" an ONNX model shipped with the package,
    "bedrock" a model on Amazon Bedrock through `clients["bedrock_runtime"]` (a boto3 `bedrock-runtime` client).
    `model_id` None or "" picks the provider's default model; `clients["sleep"]` replaces Bedrock's retry sleep
    (tests)."""
    choice = (name or "none").strip().lower()
    if choice == "none":
        return None
    if choice == "local":
        from docshelf.embeddings.local import LocalProvider

        return LocalProvider.load(model_id or None)
    if choice == "bedrock":
        from docshelf.embeddings.bedrock import bedrock_provider

        client = clients.get("bedrock_runtime")
        if client is None:
            raise EmbeddingError("the bedrock embedding provider needs a bedrock-runtime client")
        return bedrock_provider(client, model_id or None, sleep=clients.get("sleep"))
    raise EmbeddingError(f"unknown embedding provider {name!r}: use one of {', '.join(PROVIDER_NAMES)}")
