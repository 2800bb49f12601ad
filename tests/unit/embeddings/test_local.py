"""The local provider against numpy computed apart from it, on the fetched all-MiniLM-L6-v2 int8 model."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import onnxruntime
import pytest
import tokenizers

from docshelf.embeddings import provider_from_config
from docshelf.embeddings.base import UnknownEmbeddingModelError
from docshelf.embeddings.catalog import MINILM
from docshelf.embeddings.local import LocalProvider
from docshelf.embeddings.pooling import l2_normalize, pool

PASSAGES = [
    "The impeller of the centrifugal pump shows wear on its leading edges.",
    "Quarterly revenue rose by four percent, driven by service contracts.",
    "Replace the seal kit when the pump leaks at the shaft.",
    "Short.",
]


@pytest.fixture(scope="module")
def provider(minilm_dir: Path) -> LocalProvider:
    return LocalProvider.load(MINILM.name, threads=1)


def reference_embedding(folder: Path, text: str) -> np.ndarray:
    """One text alone (no padding, no batch): the raw ONNX states, averaged and scaled to unit length by hand."""
    tokenizer = tokenizers.Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(256)
    encoding = tokenizer.encode(text)
    session = onnxruntime.InferenceSession(str(folder / "model.onnx"), providers=["CPUExecutionProvider"])
    feed = {
        "input_ids": np.array([encoding.ids], dtype=np.int64),
        "attention_mask": np.ones((1, len(encoding.ids)), dtype=np.int64),
        "token_type_ids": np.zeros((1, len(encoding.ids)), dtype=np.int64),
    }
    states: np.ndarray = session.run(["last_hidden_state"], feed)[0][0]
    mean = states.sum(axis=0) / states.shape[0]
    unit: np.ndarray = (mean / np.sqrt((mean * mean).sum())).astype(np.float32)
    return unit


def test_pooling_averages_real_tokens_only_and_scales_to_unit_length() -> None:
    hidden = np.array([[[1.0, 0.0], [3.0, 4.0], [100.0, 100.0]], [[0.0, 2.0], [0.0, 0.0], [0.0, 0.0]]], np.float32)
    mask = np.array([[1, 1, 0], [1, 0, 0]])
    assert pool(hidden, mask, "mean").tolist() == [[2.0, 2.0], [0.0, 2.0]]
    assert pool(hidden, mask, "cls").tolist() == [[1.0, 0.0], [0.0, 2.0]]
    unit = l2_normalize(np.array([[3.0, 4.0], [0.0, 0.0]], np.float32))
    assert np.allclose(unit, [[0.6, 0.8], [0.0, 0.0]]) and unit.dtype == np.float32


def test_passages_match_the_raw_model_states_pooled_by_hand(provider: LocalProvider, minilm_dir: Path) -> None:
    vectors = provider.embed_passages(PASSAGES)
    assert vectors.shape == (len(PASSAGES), 384) and vectors.dtype == np.float32
    for row, text in enumerate(PASSAGES):
        reference = reference_embedding(minilm_dir, text)
        assert np.allclose(vectors[row], reference, atol=1e-4), text
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_a_paraphrase_is_nearer_than_an_unrelated_passage(provider: LocalProvider) -> None:
    query = provider.embed_query("Is the pump's rotor damaged?")
    assert query.shape == (384,)
    scores = provider.embed_passages(PASSAGES) @ query
    assert min(scores[0], scores[2]) > scores[1] + 0.2  # both pump passages, far above the revenue one


def test_passages_are_cut_at_256_word_pieces(provider: LocalProvider) -> None:
    head = " ".join(f"pump{n % 7} impeller seal" for n in range(200))  # far beyond 256 word pieces
    first, second = provider.embed_passages([head + " quarterly revenue", head + " a different tail entirely"])
    assert np.array_equal(first, second)
    cut = provider.truncated([head, "Short."])
    assert cut[0] > 300 and cut[1] == 0
    assert provider.embed_passages(["Short."]).shape == (1, 384)  # truncation still on after counting


def test_calls_side_by_side_give_the_same_vectors_and_leave_no_thread_behind(
    provider: LocalProvider, minilm_dir: Path
) -> None:
    texts = PASSAGES * 3 + [f"Sentence {n} about the pump's seal and its shaft." for n in range(9)]
    two_at_a_time = LocalProvider.load(MINILM.name, threads=2)
    session = two_at_a_time._session
    callers: set[int] = set()

    class RecordingSession:
        def get_inputs(self) -> object:
            return session.get_inputs()

        def run(self, names: object, feed: object) -> object:
            callers.add(threading.get_ident())
            return session.run(names, feed)

    two_at_a_time._session = RecordingSession()
    assert np.array_equal(two_at_a_time.embed_passages(texts), provider.embed_passages(texts))
    assert callers and threading.get_ident() not in callers and len(callers) <= 2  # run by the pool, two at most
    assert threading.active_count() == 1  # a fork after this call is still safe (forked.can_fork)


def test_empty_input_and_the_model_record(provider: LocalProvider) -> None:
    assert provider.embed_passages([]).shape == (0, 384)
    assert provider.model.provider == "local" and provider.model.normalized
    assert provider.model.key == "local-all-minilm-l6-v2-q-v1-384"


def test_provider_from_config(minilm_dir: Path) -> None:
    assert provider_from_config("none", None) is None
    local = provider_from_config("local", None)
    assert local is not None and local.model.model_id == "all-minilm-l6-v2-q"
    with pytest.raises(UnknownEmbeddingModelError):
        provider_from_config("local", "no-such-model")
