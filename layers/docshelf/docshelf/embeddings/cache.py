"""Vectors cached per (model, chunk id) in the object store, one `.npz` per model and document revision.

The chunk cache is untouched (its key does not name the model): a document whose chunks are cached is indexed
whatever happens here, and changing the model only re-embeds, from the cached chunks, under another key. A chunk id
is a hash of the document and the chunk's text, so a new revision takes the vectors of its unchanged chunks from
the previous revision's object, and that object is then dropped: one object per model and document.

Missing chunks are embedded in batches of `batch_size`, the object written again after each: a publish that runs
out of time (a long document on a Lambda) leaves the batches it finished, and its retry embeds only the rest.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np

from docshelf.embeddings.base import EmbeddingProvider
from docshelf.keys import vector_cache_key, vector_cache_model_prefix
from docshelf.store.base import ObjectStore

# Chunks embedded between two writes of the object: about 5 s of the local model on one Lambda vCPU, so a timed
# out invocation loses little, while a 2,000-chunk document writes its object 32 times (O(n²/batch) bytes: 50 MB).
DEFAULT_BATCH_SIZE = 64


class VectorCache:
    def __init__(
        self, store: ObjectStore, provider: EmbeddingProvider, *, batch_size: int = DEFAULT_BATCH_SIZE
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        self.store = store
        self.provider = provider
        self.batch_size = batch_size

    def vectors(self, namespace: str, document_id: str, revision: str, chunks: Sequence[tuple[str, str]]) -> np.ndarray:
        """float32 [len(chunks), dimension] for (chunk id, text) pairs, in their order: cached ones read back (from
        this revision's object, else the document's other revisions'), the others embedded `batch_size` at a time,
        each batch saved to this revision's object before the next is embedded."""
        key = vector_cache_key(self.provider.model.key, namespace, document_id, revision)
        wanted = dict(chunks)
        known = self._read(key)
        others: list[str] = []
        if any(chunk_id not in known for chunk_id in wanted):
            prefix = vector_cache_model_prefix(self.provider.model.key, namespace, document_id)
            others = [other for other in self.store.list(prefix) if other != key]
            for other in others:
                known.update({k: v for k, v in self._read(other).items() if k in wanted and k not in known})
        missing = [(chunk_id, text) for chunk_id, text in wanted.items() if chunk_id not in known]
        for start in range(0, len(missing), self.batch_size):
            batch = missing[start : start + self.batch_size]
            fresh = self.provider.embed_passages([text for _, text in batch])
            known.update({chunk_id: fresh[row] for row, (chunk_id, _) in enumerate(batch)})
            self.store.put(key, _encode({chunk_id: known[chunk_id] for chunk_id in wanted if chunk_id in known}))
        if others:
            if not missing:
                self.store.put(key, _encode({chunk_id: known[chunk_id] for chunk_id in wanted}))
            for other in others:
                self.store.delete(other)
        result = np.zeros((len(chunks), self.provider.model.dimension), dtype=np.float32)
        for row, (chunk_id, _) in enumerate(chunks):
            result[row] = known[chunk_id]
        return result

    def _read(self, key: str) -> dict[str, np.ndarray]:
        data = self.store.get(key)
        if data is None:
            return {}
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as archive:
                ids, vectors = archive["ids"], archive["vectors"]
        except (OSError, ValueError, KeyError):  # an unreadable cache is a miss: the vectors are made again
            return {}
        if vectors.ndim != 2 or vectors.shape != (len(ids), self.provider.model.dimension):
            return {}
        return {str(chunk_id): vectors[row] for row, chunk_id in enumerate(ids)}


def _encode(vectors: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    ids = np.array(list(vectors), dtype=np.str_)
    matrix = np.stack(list(vectors.values())).astype(np.float32) if vectors else np.zeros((0, 0), np.float32)
    np.savez(buffer, ids=ids, vectors=matrix)
    return buffer.getvalue()
