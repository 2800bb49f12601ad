"""The embedding provider contract: what a model is (recorded in the index) and how text becomes vectors."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from docshelf.errors import DocshelfError

if TYPE_CHECKING:
    import numpy

PROVIDER_NAMES = ("none", "local", "bedrock")
_UNSAFE_KEY_CHARACTERS = re.compile(r"[^A-Za-z0-9._-]+")


class EmbeddingError(DocshelfError):
    """An embedding could not be computed (model missing, service refused); the message says why."""


class UnknownEmbeddingModelError(EmbeddingError):
    pass


@dataclass(frozen=True, slots=True)
class EmbeddingModel:
    """Recorded in the index so that vectors of two models never mix."""

    provider: str  # "local" | "bedrock"
    model_id: str  # e.g. "all-minilm-l6-v2-q", "amazon.titan-embed-text-v2:0"
    version: str  # bumped when the vectors would change (weights, pooling, truncation)
    dimension: int
    normalized: bool  # vectors are unit length (cosine == dot product)

    @property
    def key(self) -> str:
        """One path segment naming the vectors this model makes: `<provider>-<model id>-v<version>-<dimension>`."""
        raw = f"{self.provider}-{self.model_id}-v{self.version}-{self.dimension}"
        return _UNSAFE_KEY_CHARACTERS.sub("_", raw)


class EmbeddingProvider(Protocol):
    model: EmbeddingModel

    def embed_passages(self, texts: Sequence[str]) -> numpy.ndarray: ...  # float32 [n, dimension]

    def embed_query(self, text: str) -> numpy.ndarray: ...  # float32 [dimension]


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
