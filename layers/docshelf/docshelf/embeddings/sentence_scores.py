"""An embedding model as a passage scorer (`search.rerank.Reranker`): the cosine of each text to the query."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol


class PassageEmbedder(Protocol):
    def embed_query(self, text: str) -> Any: ...

    def embed_passages(self, texts: Sequence[str]) -> Any: ...


# Vectors of the sentences scored last (1.5 KB each at 384 dimensions): the first passages of popular chunks come back
# with the next question about them, and a sentence of ~40 word pieces costs the model about 2 ms on 2 CPUs.
CACHED_SENTENCES = 8192
CACHED_QUERIES = 64  # a search asks twice (the vote, then the packer)


@dataclass(frozen=True, slots=True)
class EmbeddingSimilarity:
    """Scores texts by their cosine to the query under `embedder`, whose vectors are unit length (the local models').
    One instance serves a server's threads and an agentic run's steps at once: the kept vectors are read and
    changed under a lock, the model runs outside it."""

    embedder: PassageEmbedder
    _vectors: OrderedDict[str, Any] = field(default_factory=OrderedDict, repr=False, compare=False)
    _queries: OrderedDict[str, Any] = field(default_factory=OrderedDict, repr=False, compare=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @property
    def identity(self) -> str:
        model = getattr(self.embedder, "model", None)
        return str(getattr(model, "key", None) or type(self.embedder).__qualname__)

    def scores(self, query: str, texts: Sequence[str]) -> list[float]:
        if not texts:
            return []
        distinct = list(dict.fromkeys(texts))
        with self._lock:
            vectors = {text: self._vectors[text] for text in distinct if text in self._vectors}
            query_vector = self._queries.get(query)
        missing = [text for text in distinct if text not in vectors]
        if missing:
            vectors.update(zip(missing, self.embedder.embed_passages(missing), strict=True))
        if query_vector is None:
            query_vector = self.embedder.embed_query(query)
        with self._lock:
            _keep(self._vectors, vectors, CACHED_SENTENCES)
            _keep(self._queries, {query: query_vector}, CACHED_QUERIES)
        return [float(vectors[text] @ query_vector) for text in texts]


def _keep(cache: OrderedDict[str, Any], values: dict[str, Any], size: int) -> None:
    """`values` put last in `cache` (the most recent), and the oldest dropped beyond `size`."""
    for key, value in values.items():
        cache[key] = value
        cache.move_to_end(key)
    while len(cache) > size:
        cache.popitem(last=False)
