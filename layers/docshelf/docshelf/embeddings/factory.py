"""The embedding provider a setting names, built on first use (each provider imports its own libraries)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from docshelf.config import PASSAGE_MODELS, PROVIDER_NAMES
from docshelf.embeddings.base import EmbeddingError, EmbeddingProvider

if TYPE_CHECKING:
    from docshelf.embeddings.sentence_scores import EmbeddingSimilarity


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


def passage_model_from_config(
    name: str, loaded: Callable[[], EmbeddingProvider | None] = lambda: None
) -> EmbeddingSimilarity | None:
    """The passage model a setting names (`--passage-model`, PASSAGE_MODEL): "none" gives None, "local" the default
    local embedding model as a scorer of sentences: the semantic channel's provider (`loaded()`) when it is that model,
    so one copy is in memory. "auto" is "local" when that model's files are installed, else "none"."""
    from docshelf.embeddings.catalog import DEFAULT_LOCAL_MODEL, find_model_dir

    choice = (name or "none").strip().lower()
    if choice == "auto":
        choice = "local" if find_model_dir(DEFAULT_LOCAL_MODEL) is not None else "none"
    if choice == "none":
        return None
    if choice != "local":
        raise EmbeddingError(f"unknown passage model {name!r}: use one of {', '.join(PASSAGE_MODELS)}")
    from docshelf.embeddings.local import LocalProvider
    from docshelf.embeddings.sentence_scores import EmbeddingSimilarity

    provider = loaded()
    if isinstance(provider, LocalProvider) and provider.spec.name == DEFAULT_LOCAL_MODEL:
        return EmbeddingSimilarity(provider)
    return EmbeddingSimilarity(LocalProvider.load())
