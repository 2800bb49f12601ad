"""A deterministic embedding provider for tests: each word's concept (words of `SYNONYMS` share one) hashed to a
fixed random unit vector, a text the normalised sum of its words'. Texts sharing concepts are near, so a
paraphrase ("automobile" for "car") is found by vectors where BM25 finds nothing."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from docshelf.embeddings.base import EmbeddingModel

SYNONYMS = {"automobile": "car", "vehicle": "car", "motorcar": "car", "physician": "doctor", "medic": "doctor"}


def FakeModel(model_id: str = "concept-hash", dimension: int = 256) -> EmbeddingModel:
    return EmbeddingModel("test", model_id, "1", dimension, normalized=True)


class ConceptEmbedder:
    def __init__(self, model: EmbeddingModel | None = None) -> None:
        self.model = model or FakeModel()
        self.queries: list[str] = []

    def _word(self, word: str) -> np.ndarray:
        concept = SYNONYMS.get(word, word)
        seed = int.from_bytes(hashlib.sha256(concept.encode()).digest()[:8], "little")
        vector = np.random.default_rng(seed).standard_normal(self.model.dimension)
        return vector / np.linalg.norm(vector)

    def _text(self, text: str) -> np.ndarray:
        words = re.findall(r"\w+", text.lower())
        total = sum((self._word(word) for word in words), np.zeros(self.model.dimension))
        norm = float(np.linalg.norm(total))
        return (total / norm if norm else total).astype(np.float32)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._text(text) for text in texts]).astype(np.float32).reshape(-1, self.model.dimension)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self._text(text)
