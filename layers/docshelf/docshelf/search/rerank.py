"""The reranking stage: a cross-encoder scores the query against each of the first `depth` results, and the results
are put in the order of its scores (ties keep the first-stage order), the rest after them as they were.

`Reranker` is the interface; Bedrock's Rerank API (Amazon Rerank or Cohere Rerank on Bedrock) is its AWS
implementation, `BedrockReranker` with the client injected. No local cross-encoder is shipped: no registry
reachable here publishes one's weights (docs/evaluation/reranking.md), and the stage is off by default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

from docshelf.search.ranking import RankingSettings
from docshelf.search.semantic import model_reads

DEFAULT_DEPTH = 20
# Bedrock's Rerank takes at most 1,000 sources per call and scores a passage's first ~512 tokens; longer text is cut
# here, in characters, so a request never carries a whole long chunk it would not read.
MAX_SOURCE_CHARS = 4000

T = TypeVar("T")


class Reranker(Protocol):
    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        """A relevance score per text (higher is better), in the order of `texts`."""
        ...


def reranker_identity(model: Reranker) -> str:
    """What names a reranker or passage model in a cache key and a response: its own `identity` (model and
    version), else its type."""
    return str(getattr(model, "identity", None) or type(model).__qualname__)


def reading_model(model: Reranker | None, query: str, ranking: RankingSettings) -> Reranker | None:
    """The passage model that reads `query`: `model`, unless the query is one it leaves to the words alone
    (`semantic.model_reads`: Han, kana or hangul with the default settings)."""
    return model if model is not None and model_reads(query, ranking) else None


def model_identity(model: Reranker | None) -> str:
    """`reranker_identity`, or "" for the words alone: what a response's `passage_model` names."""
    return reranker_identity(model) if model is not None else ""


@dataclass(frozen=True, slots=True)
class BedrockReranker:
    """Bedrock Agent Runtime's `Rerank` with the model `model_arn` (e.g. amazon.rerank-v1:0, cohere.rerank-v3-5:0)."""

    client: Any  # a boto3 bedrock-agent-runtime client
    model_arn: str

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        response = self.client.rerank(
            queries=[{"type": "TEXT", "textQuery": {"text": query}}],
            sources=[
                {
                    "type": "INLINE",
                    "inlineDocumentSource": {"type": "TEXT", "textDocument": {"text": text[:MAX_SOURCE_CHARS]}},
                }
                for text in texts
            ],
            rerankingConfiguration={
                "type": "BEDROCK_RERANKING_MODEL",
                "bedrockRerankingConfiguration": {
                    "numberOfResults": len(texts),
                    "modelConfiguration": {"modelArn": self.model_arn},
                },
            },
        )
        scores = [0.0] * len(texts)
        for result in response["results"]:
            scores[result["index"]] = float(result["relevanceScore"])
        return scores


def reranked(query: str, items: Sequence[T], texts: Sequence[str], reranker: Reranker, depth: int) -> list[T]:
    """`items` (best first, `texts` theirs) with the first `depth` in the reranker's order, ties by first-stage rank."""
    head = list(items[:depth])
    scores = reranker.scores(query, list(texts[:depth]))
    order = sorted(range(len(head)), key=lambda at: (-round(scores[at], 6), at))
    return [head[at] for at in order] + list(items[depth:])


def with_rerank_scores(ranked: Sequence[Any], original: Sequence[Any]) -> list[Any]:
    """Reranked results keeping the fused score of the place each moved to, so scores still fall down the list."""
    return [replace(item, score=place.score) for item, place in zip(ranked, original, strict=True)]
