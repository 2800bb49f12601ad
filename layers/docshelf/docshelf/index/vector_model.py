"""The embedding model a namespace records and the rule that vectors of two models never share one. No numpy here:
the search function reads it on every cold start (index/vectors.py has the arrays)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from docshelf.errors import IndexBackendError


class EmbeddingModelLike(Protocol):
    """What an engine needs of an embedding model (docshelf.embeddings.EmbeddingModel is one)."""

    @property
    def provider(self) -> str: ...
    @property
    def model_id(self) -> str: ...
    @property
    def version(self) -> str: ...
    @property
    def dimension(self) -> int: ...
    @property
    def normalized(self) -> bool: ...


class ModelMismatchError(IndexBackendError):
    """Vectors of another embedding model than the one a namespace records."""


@dataclass(frozen=True, slots=True)
class VectorModel:
    """The embedding model a namespace records: vectors of two models never share a namespace."""

    provider: str
    model_id: str
    version: str
    dimension: int
    normalized: bool

    @classmethod
    def of(cls, model: EmbeddingModelLike) -> VectorModel:
        return cls(model.provider, model.model_id, model.version, int(model.dimension), bool(model.normalized))

    def to_dict(self) -> dict[str, Any]:
        return {
            "provider": self.provider,
            "model_id": self.model_id,
            "version": self.version,
            "dimension": self.dimension,
            "normalized": self.normalized,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VectorModel:
        return cls(
            str(data["provider"]),
            str(data["model_id"]),
            str(data["version"]),
            int(data["dimension"]),
            bool(data["normalized"]),
        )

    def describe(self) -> str:
        return f"{self.provider}:{self.model_id}@{self.version} ({self.dimension} dims)"


def model_refusal(recorded: VectorModel | None, holds_chunks: bool, given: VectorModel | None) -> str | None:
    """Why a write of vectors of `given` (None: no vectors) into a namespace recording `recorded` is refused, or
    None. A namespace takes a model with its first chunks; changing it means ingesting into an empty namespace
    (the chunk cache makes that an embedding run only)."""
    if recorded == given or not holds_chunks:
        return None
    if recorded is None:
        return (
            f"the namespace holds chunks without vectors; vectors of {given.describe() if given else '?'} cannot "
            "join them: ingest into a new namespace, or delete this one and ingest again"
        )
    if given is None:
        return (
            f"the namespace holds vectors of {recorded.describe()} and this write has none: configure that "
            "embedding provider, or ingest into a new namespace"
        )
    return (
        f"the namespace holds vectors of {recorded.describe()}, not {given.describe()}: vectors of two models "
        "never mix; ingest into a new namespace, or delete this one and ingest again (chunks come from the cache)"
    )


def refusals(
    recorded: VectorModel | None, holds_others: bool, documents: Sequence[tuple[str, VectorModel | None]]
) -> dict[str, str]:
    """{document id: why} for the (document id, model of its vectors) a namespace cannot take, written together
    into a namespace recording `recorded` that `holds_others` chunks besides the documents' own. The first
    document accepted into a namespace without other chunks sets the model of the rest."""
    refused: dict[str, str] = {}
    for document_id, given in documents:
        reason = model_refusal(recorded, holds_others, given)
        if reason is not None:
            refused[document_id] = reason
        elif not holds_others:
            recorded, holds_others = given, True
    return refused
