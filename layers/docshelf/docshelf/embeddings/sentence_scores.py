"""An embedding model as a passage scorer (`search.rerank.Reranker`): the cosine of each text to the query."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class PassageEmbedder(Protocol):
    def embed_query(self, text: str) -> Any: ...

    def embed_passages(self, texts: Sequence[str]) -> Any: ...


# Vectors of the sentences scored last (1.5 KB each at 384 dimensions): the first passages of popular chunks come back
# with the next question about them, and a sentence costs the model about 3.5 ms.
CACHED_SENTENCES = 8192
CACHED_QUERIES = 64  # a search asks twice (the vote, then the packer)


@dataclass(frozen=True, slots=True)
class EmbeddingSimilarity:
    """Scores texts by their cosine to the query under `embedder`, whose vectors are unit length (the local models')."""

    embedder: PassageEmbedder
    _vectors: OrderedDict[str, Any] = field(default_factory=OrderedDict, repr=False, compare=False)
    _queries: OrderedDict[str, Any] = field(default_factory=OrderedDict, repr=False, compare=False)

    @property
    def identity(self) -> str:
        model = getattr(self.embedder, "model", None)
        return str(getattr(model, "key", None) or type(self.embedder).__qualname__)

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        missing = [text for text in dict.fromkeys(texts) if text not in self._vectors]
        if missing:
            for text, vector in zip(missing, self.embedder.embed_passages(missing), strict=True):
                self._vectors[text] = vector
        query_vector = _remembered(self._queries, query, self.embedder.embed_query, CACHED_QUERIES)
        scores = [float(self._vectors[text] @ query_vector) for text in texts]
        for text in texts:
            self._vectors.move_to_end(text)
        while len(self._vectors) > CACHED_SENTENCES:
            self._vectors.popitem(last=False)
        return scores


def _remembered(cache: OrderedDict[str, Any], key: str, compute: Callable[[str], Any], size: int) -> Any:
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    value = cache[key] = compute(key)
    if len(cache) > size:
        cache.popitem(last=False)
    return value
