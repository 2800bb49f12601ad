"""The `local` provider: a small sentence-embedding model run on the CPU with onnxruntime and tokenizers.

Passages are cut at the model's own limit (256 word pieces for all-MiniLM-L6-v2, about 200 English words: the
tail of a 300-500 token chunk is not seen; `LocalProvider.truncated` counts what is cut), run one a call (see
BATCH_SIZE), pooled as the model card says (mean over the attention mask, or the first token's state) and scaled to
unit length.
"""

from __future__ import annotations

from collections.abc import Sequence
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
        self, spec: LocalModelSpec, session: onnxruntime.InferenceSession, tokenizer: tokenizers.Tokenizer
    ) -> None:
        self.spec = spec
        self.model = EmbeddingModel("local", spec.name, spec.version, spec.dimension, normalized=True)
        self._session = session
        self._tokenizer = tokenizer
        self._input_names = {item.name for item in session.get_inputs()}

    @classmethod
    def load(cls, model_id: str | None = None, *, threads: int | None = None) -> LocalProvider:
        """The model `model_id` (the default one when None) from its installed files, on `threads` CPU threads
        (when None: every usable CPU while the machine has idle capacity, else one; see `open_session`)."""
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
        return cls(spec, open_session(folder / ONNX_FILE, threads or spare_cpus()), open_tokenizer(folder, spec))

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
        for start in range(0, len(order), BATCH_SIZE):
            batch = order[start : start + BATCH_SIZE]
            inputs = padded_inputs([encodings[i] for i in batch])
            feed = {name: array for name, array in inputs.items() if name in self._input_names}
            hidden = self._session.run(None, feed)[0]
            vectors[batch] = l2_normalize(pool(hidden, inputs["attention_mask"], self.spec.pooling))
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


def open_session(path: Path, threads: int) -> onnxruntime.InferenceSession:
    """A CPU session on `threads` threads that sleep rather than spin between calls. Measured on the shared 2-CPU
    machine at load 5 (48 passages of 200 words, median of 3): 1 thread 58 passages/s, 2 spinning threads 19
    (they spin against each other and against the parse workers), 2 sleeping threads 36."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
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
