"""From a model's token states to one unit-length vector a text."""

from __future__ import annotations

import numpy as np


def pool(hidden: np.ndarray, attention_mask: np.ndarray, pooling: str) -> np.ndarray:
    """[batch, tokens, dimension] states to [batch, dimension]: the mean over real tokens, or the first token."""
    if pooling == "cls":
        return hidden[:, 0, :].astype(np.float32)
    mask = attention_mask[:, :, None].astype(np.float32)
    summed = (hidden * mask).sum(axis=1)
    counts = np.clip(mask.sum(axis=1), 1e-9, None)
    result: np.ndarray = (summed / counts).astype(np.float32)
    return result


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    result: np.ndarray = (vectors / np.clip(norms, 1e-12, None)).astype(np.float32)
    return result
