"""The embedding provider contract: what a model is (recorded in the index) and how text becomes vectors."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from docshelf.errors import DocshelfError

if TYPE_CHECKING:
    import numpy

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
