"""The vector cache: one embedding call per chunk and model, read back by chunk id, never mixing two models."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from docshelf.embeddings.base import EmbeddingModel
from docshelf.embeddings.cache import VectorCache
from docshelf.keys import vector_cache_key
from docshelf.purge import purge_document_caches
from docshelf.registry.local import LocalRegistry
from docshelf.store.local import LocalStore


class CountingProvider:
    """Deterministic vectors from each text's hash; remembers every text it was asked to embed."""

    def __init__(self, model_id: str = "fake", dimension: int = 4) -> None:
        self.model = EmbeddingModel("local", model_id, "1", dimension, normalized=False)
        self.embedded: list[str] = []

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded.extend(texts)
        return np.array([self._vector(text) for text in texts], dtype=np.float32).reshape(len(texts), -1)

    def embed_query(self, text: str) -> np.ndarray:
        return self._vector(text)

    def _vector(self, text: str) -> np.ndarray:
        digest = hashlib.sha256(text.encode()).digest()
        return np.frombuffer(digest[: self.model.dimension], dtype=np.uint8).astype(np.float32)


CHUNKS = [("c1", "first chunk"), ("c2", "second chunk"), ("c3", "third chunk")]


def test_a_second_read_embeds_nothing(tmp_path: Path) -> None:
    provider = CountingProvider()
    cache = VectorCache(LocalStore(tmp_path), provider)
    first = cache.vectors("ns", "d1", "rev1", CHUNKS)
    assert provider.embedded == ["first chunk", "second chunk", "third chunk"]
    again = VectorCache(LocalStore(tmp_path), provider).vectors("ns", "d1", "rev1", list(reversed(CHUNKS)))
    assert provider.embedded == ["first chunk", "second chunk", "third chunk"]
    assert np.array_equal(again, first[::-1])
    assert np.array_equal(first[1], provider.embed_query("second chunk"))


def test_only_chunks_missing_from_the_cache_are_embedded(tmp_path: Path) -> None:
    provider = CountingProvider()
    cache = VectorCache(LocalStore(tmp_path), provider)
    cache.vectors("ns", "d1", "rev1", CHUNKS[:2])
    provider.embedded.clear()
    vectors = cache.vectors("ns", "d1", "rev1", CHUNKS)
    assert provider.embedded == ["third chunk"]
    assert vectors.shape == (3, 4) and vectors.dtype == np.float32
    provider.embedded.clear()
    cache.vectors("ns", "d1", "rev1", CHUNKS)
    assert provider.embedded == []


def test_two_models_keep_apart_and_an_unreadable_cache_is_made_again(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    small, large = CountingProvider("small", 4), CountingProvider("large", 8)
    VectorCache(store, small).vectors("ns", "d1", "rev1", CHUNKS)
    assert VectorCache(store, large).vectors("ns", "d1", "rev1", CHUNKS).shape == (3, 8)
    assert len(large.embedded) == 3
    assert small.model.key != large.model.key
    store.put(vector_cache_key(small.model.key, "ns", "d1", "rev1"), b"not an npz")
    small.embedded.clear()
    assert VectorCache(store, small).vectors("ns", "d1", "rev1", CHUNKS).shape == (3, 4)
    assert len(small.embedded) == 3


def test_model_keys_are_one_safe_path_segment() -> None:
    model = EmbeddingModel("bedrock", "amazon.titan-embed-text-v2:0/256", "1", 256, normalized=True)
    assert model.key == "bedrock-amazon.titan-embed-text-v2_0_256-v1-256"


def test_deleting_a_document_removes_its_vector_caches(tmp_path: Path) -> None:
    store = LocalStore(tmp_path / "store")
    VectorCache(store, CountingProvider("a")).vectors("ns", "d1", "rev1", CHUNKS)
    VectorCache(store, CountingProvider("b")).vectors("ns", "d1", "rev2", CHUNKS)
    VectorCache(store, CountingProvider("a")).vectors("ns", "d2", "rev1", CHUNKS)
    removed = purge_document_caches(
        store, LocalRegistry(tmp_path / "registry.sqlite"), namespace="ns", document_id="d1", revision="rev2"
    )
    assert sum("/vectors/" in key for key in removed) == 2
    assert list(store.list("cache/vectors/ns/d1/")) == []
    assert len(list(store.list("cache/vectors/ns/d2/"))) == 1


def test_a_new_revision_embeds_only_its_changed_chunks_and_replaces_the_old_object(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    provider = CountingProvider()
    old = VectorCache(store, provider).vectors("ns", "d1", "rev1", CHUNKS)
    provider.embedded.clear()
    revised = [CHUNKS[0], ("c4", "a new chunk"), CHUNKS[2]]
    new = VectorCache(store, provider).vectors("ns", "d1", "rev2", revised)
    assert provider.embedded == ["a new chunk"]
    assert np.array_equal(new[0], old[0]) and np.array_equal(new[2], old[2])
    assert list(store.list("cache/vectors/ns/d1/")) == [vector_cache_key(provider.model.key, "ns", "d1", "rev2")]
    provider.embedded.clear()
    VectorCache(store, provider).vectors("ns", "d1", "rev2", revised)
    assert provider.embedded == []


class TimesOut(Exception):
    """What a Lambda's timeout does to the invocation: the call stops between two model calls."""


class TimingOutProvider(CountingProvider):
    """Gives up (as a timed out invocation) on its call number `after + 1`."""

    def __init__(self, after: int) -> None:
        super().__init__()
        self.after = after
        self.calls = 0

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if self.calls == self.after:
            raise TimesOut
        self.calls += 1
        return super().embed_passages(texts)


class CountingStore(LocalStore):
    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.puts: list[str] = []

    def put(self, key: str, data: bytes, *, content_type: str = "application/octet-stream") -> None:
        self.puts.append(key)
        super().put(key, data, content_type=content_type)


LONG = [(f"c{n:04d}", f"passage number {n} of a long document") for n in range(300)]


def test_a_long_document_is_embedded_and_saved_batch_by_batch(tmp_path: Path) -> None:
    store, provider = CountingStore(tmp_path), CountingProvider()
    vectors = VectorCache(store, provider, batch_size=64).vectors("ns", "d1", "rev1", LONG)
    key = vector_cache_key(provider.model.key, "ns", "d1", "rev1")
    assert store.puts == [key] * 5  # 64, 128, 192, 256, 300 chunks
    assert len(provider.embedded) == 300
    assert np.array_equal(vectors[299], provider.embed_query(LONG[299][1]))


def test_a_timed_out_embedding_keeps_its_finished_batches_and_the_retry_embeds_only_the_rest(tmp_path: Path) -> None:
    store = CountingStore(tmp_path)
    dying = TimingOutProvider(after=3)
    with pytest.raises(TimesOut):
        VectorCache(store, dying, batch_size=64).vectors("ns", "d1", "rev1", LONG)
    key = vector_cache_key(dying.model.key, "ns", "d1", "rev1")
    assert store.puts == [key] * 3
    retry = CountingProvider()
    vectors = VectorCache(store, retry, batch_size=64).vectors("ns", "d1", "rev1", LONG)
    assert retry.embedded == [text for _, text in LONG[192:]]
    whole = VectorCache(LocalStore(tmp_path / "fresh"), CountingProvider()).vectors("ns", "d1", "rev1", LONG)
    assert np.array_equal(vectors, whole)


def test_a_timed_out_new_revision_keeps_the_old_revisions_vectors_until_it_is_complete(tmp_path: Path) -> None:
    store = LocalStore(tmp_path)
    VectorCache(store, CountingProvider()).vectors("ns", "d1", "rev1", LONG[:100])
    with pytest.raises(TimesOut):
        VectorCache(store, TimingOutProvider(after=1), batch_size=64).vectors("ns", "d1", "rev2", LONG)
    assert len(list(store.list("cache/vectors/ns/d1/"))) == 2  # rev1's object stays: it still serves the retry
    retry = CountingProvider()
    VectorCache(store, retry, batch_size=64).vectors("ns", "d1", "rev2", LONG)
    assert retry.embedded == [text for _, text in LONG[164:]]  # rev1 gave 0-99, the first batch 100-163
    assert list(store.list("cache/vectors/ns/d1/")) == [vector_cache_key(retry.model.key, "ns", "d1", "rev2")]


def test_a_batch_size_below_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="batch_size"):
        VectorCache(LocalStore(tmp_path), CountingProvider(), batch_size=0)
