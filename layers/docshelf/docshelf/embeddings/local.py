"""The `local` provider: a small sentence-embedding model run on the CPU with onnxruntime and tokenizers.

Passages are cut at the model's own limit (256 word pieces for all-MiniLM-L6-v2, about 200 English words: the
tail of a 300-500 token chunk is not seen; `LocalProvider.truncated` counts what is cut), run one a call (see
BATCH_SIZE) with the calls spread over threads (see `open_session`), pooled as the model card says (mean over the
attention mask, or the first token's state) and scaled to unit length.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np

from docshelf.embeddings.base import EmbeddingError, EmbeddingModel, UnknownEmbeddingModelError
from docshelf.embeddings.catalog import (
    DEFAULT_LOCAL_MODEL,
    LOCAL_MODELS,
    ONNX_FILE,
    TOKENIZER_FILE,
    LocalModelSpec,
    find_model_dir,
)
from docshelf.embeddings.pooling import l2_normalize, pool
from docshelf.forked import spare_cpus

if TYPE_CHECKING:
    from pathlib import Path

    import onnxruntime
    import tokenizers

# Passages per model call. One: the int8 model quantizes its activations per call (DynamicQuantizeLinear over the
# whole batch tensor), so a passage batched with others gets a slightly different vector that would depend on its
# batch-mates; and on 2 CPUs one a call was also the fastest measured (padding to the longest and attention's
# quadratic cost outweigh the saved call overhead; docs/evaluation.md, "Figures from code comments"). The
# tokenizer still encodes every passage in one call.
BATCH_SIZE = 1


class ModelNotInstalledError(EmbeddingError):
    pass


class LocalProvider:
    def __init__(
        self,
        spec: LocalModelSpec,
        session: onnxruntime.InferenceSession,
        tokenizer: tokenizers.Tokenizer,
        threads: int | None = 1,
    ) -> None:
        self.spec = spec
        self.model = EmbeddingModel("local", spec.name, spec.version, spec.dimension, normalized=True)
        self._session = session
        self._tokenizer = tokenizer
        self._threads = threads  # None: as many as `spare_cpus` gives at each call
        self._input_names = {item.name for item in session.get_inputs()}

    @classmethod
    def load(cls, model_id: str | None = None, *, threads: int | None = None) -> LocalProvider:
        """The model `model_id` (the default one when None) from its installed files, running up to `threads` calls
        at a time (when None: every usable CPU while the machine has idle capacity, else one, decided at each
        `embed_*` call; see `open_session`)."""
        name = model_id or DEFAULT_LOCAL_MODEL
        spec = LOCAL_MODELS.get(name)
        if spec is None:
            raise UnknownEmbeddingModelError(
                f"unknown local embedding model {name!r}: use one of {', '.join(sorted(LOCAL_MODELS))}"
            )
        folder = find_model_dir(name)
        if folder is None:
            raise ModelNotInstalledError(
                f"the local embedding model {name!r} is not installed: run `make setup` "
                f"(or `python infra/fetch_models.py {name}`)"
            )
        return cls(spec, open_session(folder / ONNX_FILE), open_tokenizer(folder, spec), threads)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(list(texts))

    def embed_query(self, text: str) -> np.ndarray:
        result: np.ndarray = self._embed([self.spec.query_prefix + text])[0]
        return result

    def truncated(self, texts: Sequence[str]) -> list[int]:
        """Word pieces cut from each text by the model's limit (0 when it fits)."""
        self._tokenizer.no_truncation()
        try:
            lengths = [len(encoding.ids) for encoding in self._tokenizer.encode_batch(list(texts))]
        finally:
            self._tokenizer.enable_truncation(self.spec.max_tokens)
        return [max(0, length - self.spec.max_tokens) for length in lengths]

    def _embed(self, texts: list[str]) -> np.ndarray:
        vectors = np.zeros((len(texts), self.spec.dimension), dtype=np.float32)
        if not texts:
            return vectors
        encodings = self._tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        batches = [order[start : start + BATCH_SIZE] for start in range(0, len(order), BATCH_SIZE)]

        def run(batch: list[int]) -> np.ndarray:
            inputs = padded_inputs([encodings[i] for i in batch])
            feed = {name: array for name, array in inputs.items() if name in self._input_names}
            hidden = self._session.run(None, feed)[0]
            return l2_normalize(pool(hidden, inputs["attention_mask"], self.spec.pooling))

        workers = 1 if len(batches) < 2 else min(self._threads or spare_cpus(), len(batches))
        if workers < 2:
            results = [run(batch) for batch in batches]
        else:  # the pool's threads end with the call: a later fork sees a single-threaded process (forked.can_fork)
            with ThreadPoolExecutor(workers) as threads:
                results = list(threads.map(run, batches))
        for batch, batch_vectors in zip(batches, results, strict=True):
            vectors[batch] = batch_vectors
        return vectors


def padded_inputs(encodings: Sequence[Any]) -> dict[str, np.ndarray]:
    """The model's int64 inputs for one batch, padded with zeros to its longest member."""
    width = max(len(encoding.ids) for encoding in encodings)
    arrays = {name: np.zeros((len(encodings), width), dtype=np.int64) for name in _INPUTS}
    for row, encoding in enumerate(encodings):
        length = len(encoding.ids)
        arrays["input_ids"][row, :length] = encoding.ids
        arrays["attention_mask"][row, :length] = encoding.attention_mask
        arrays["token_type_ids"][row, :length] = encoding.type_ids
    return arrays


_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def open_session(path: Path) -> onnxruntime.InferenceSession:
    """A CPU session that runs each call on the calling thread; `LocalProvider` runs calls side by side instead
    (onnxruntime's `run` releases the GIL and may be called from several threads at once). Measured on the 2-CPU
    machine, idle: 48 passages of 200 words, 39 passages/s on one thread, 62 with two intra-op threads, 74 with two
    calls at a time; 213 sentences of 21 words, 2.7 ms a sentence with two intra-op threads, 1.5 ms with two calls at a
    time. Earlier, at load 5: two spinning intra-op threads gave 19 passages/s against 58 on one (they spin against
    each other and against the parse workers)."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # the int8 model's harmless "initializer appears in graph inputs" warnings
    return onnxruntime.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])


def open_tokenizer(folder: Path, spec: LocalModelSpec) -> tokenizers.Tokenizer:
    """The model's tokenizer, cutting at the model's limit and padding nothing (batches are padded here)."""
    import tokenizers

    tokenizer = tokenizers.Tokenizer.from_file(str(folder / TOKENIZER_FILE))
    tokenizer.no_padding()
    tokenizer.enable_truncation(spec.max_tokens)
    return tokenizer
