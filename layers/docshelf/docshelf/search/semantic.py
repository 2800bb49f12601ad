"""The semantic channel's query: the search's query embedded (one call) when the namespace holds vectors of the
provider's model, the ranking weighs the channel, and the query is not in a CJK script (unless
`RankingSettings.semantic_cjk`: both local models lowered the Chinese sets, docs/evaluation.md "How a query is
ranked")."""

from __future__ import annotations

import logging
from typing import Any, Protocol

from docshelf.index.base import SearchBackend
from docshelf.index.plan import SemanticQuery
from docshelf.index.vector_model import EmbeddingModelLike, VectorModel
from docshelf.scripts import has_cjk_letter
from docshelf.search.ranking import RankingSettings

_log = logging.getLogger(__name__)


class QueryEmbedder(Protocol):
    """What search needs of an embedding provider (docshelf.embeddings.EmbeddingProvider is one)."""

    @property
    def model(self) -> EmbeddingModelLike: ...

    def embed_query(self, text: str) -> Any: ...


def model_reads(query: str, ranking: RankingSettings) -> bool:
    """Whether the semantic channel and a passage model read `query`: not one in Han, kana or hangul, unless
    `semantic_cjk`."""
    return ranking.semantic_cjk or not has_cjk_letter(query)


def semantic_query(
    index: SearchBackend,
    namespace: str,
    query: str,
    embedder: QueryEmbedder | None,
    ranking: RankingSettings,
    limit: int,
) -> SemanticQuery | None:
    """The plan's semantic query, or None when the channel does not run for this search."""
    if embedder is None or ranking.semantic_weight <= 0 or not model_reads(query, ranking):
        return None
    recorded = index.vector_model(namespace)
    if recorded is None:
        return None
    if VectorModel.of(embedder.model) != recorded:
        _log.warning(
            "namespace %s holds vectors of %s, the search's provider is %s: no semantic channel",
            namespace,
            recorded.describe(),
            VectorModel.of(embedder.model).describe(),
        )
        return None
    vector = embedder.embed_query(query)
    return SemanticQuery(tuple(float(value) for value in vector), limit)
