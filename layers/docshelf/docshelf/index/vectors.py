"""Chunk vectors as engines keep them: the embedding model a namespace records, int8 codes with a scale per
vector, and exact top-k by matrix product (a large namespace's embedded engine scores only the nearest inverted
lists first: index/vector_lists.py).

int8 with a per-vector scale (symmetric, max |x| -> 127) keeps a quarter of float32's memory and, on the
all-MiniLM-L6-v2 vectors and the synthetic ones of tests/unit/test_vectors.py, the same top 10 at recall >= 0.98;
float16 halves the memory only and numpy has no fast float16 product (bench/index_bench.py prints both).
The query stays float32: scores are (codes @ query) * scale, summed in float32 by BLAS over blocks of rows
(7 ms for 100k x 384 on this machine's one core, against 16 ms for a float32 matrix: a quarter of the bytes read).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from docshelf.errors import IndexBackendError
from docshelf.index.vector_model import EmbeddingModelLike, ModelMismatchError, VectorModel, model_refusal, refusals

__all__ = [
    "BoolArray",
    "EmbeddingModelLike",
    "Float32Array",
    "Int8Array",
    "ModelMismatchError",
    "StoredVectors",
    "VectorModel",
    "checked_matrix",
    "dequantized",
    "model_refusal",
    "quantized",
    "refusals",
    "scores",
    "top_rows",
]

Int8Array = npt.NDArray[np.int8]
Float32Array = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]

# Rows converted to float32 at once, into one reused buffer small enough to stay in the CPU's caches; converting
# the whole matrix at once costs several times the product (docs/evaluation.md, "Figures from code comments").
_BLOCK_ROWS = 1024


@dataclass(frozen=True, slots=True)
class StoredVectors:
    """Vectors as engines store them: int8 codes [rows, dimension] and a float32 scale per row."""

    model: VectorModel
    codes: Int8Array
    scales: Float32Array


def checked_matrix(vectors: Any, rows: int, model: VectorModel) -> Float32Array:
    """`vectors` as a float32 [rows, dimension] matrix of finite values; IndexBackendError otherwise."""
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.shape != (rows, model.dimension):
        raise IndexBackendError(f"vectors of shape {matrix.shape}, expected {(rows, model.dimension)}")
    if not bool(np.isfinite(matrix).all()):
        raise IndexBackendError("a vector holds NaN or infinity")
    return matrix


def quantized(matrix: Float32Array) -> tuple[Int8Array, Float32Array]:
    """(int8 codes, float32 scale per row): row ~= codes * scale."""
    peak = np.abs(matrix).max(axis=1) if matrix.size else np.zeros(len(matrix), dtype=np.float32)
    scales = (peak / 127.0).astype(np.float32)
    safe = np.where(scales > 0, scales, 1.0).astype(np.float32)
    codes = np.clip(np.rint(matrix / safe[:, None]), -127, 127).astype(np.int8)
    return codes, scales


def dequantized(codes: Int8Array, scales: Float32Array) -> Float32Array:
    return (codes.astype(np.float32) * scales[:, None]).astype(np.float32)


def scores(codes: Int8Array, scales: Float32Array, query: Float32Array) -> Float32Array:
    """Each row's dot product with `query` (cosine when both are normalised)."""
    out = np.empty(len(codes), dtype=np.float32)
    buffer = np.empty((min(_BLOCK_ROWS, len(codes)), codes.shape[1]), dtype=np.float32)
    for start in range(0, len(codes), _BLOCK_ROWS):
        block = codes[start : start + _BLOCK_ROWS]
        converted = buffer[: len(block)]
        np.copyto(converted, block, casting="unsafe")
        out[start : start + len(block)] = converted @ query
    return out * scales


def top_rows(
    codes: Int8Array, scales: Float32Array, query: Sequence[float], allowed: BoolArray, limit: int
) -> list[tuple[int, float]]:
    """The `limit` allowed rows of highest score, best first (ties by row), exactly (every allowed row scored)."""
    vector = np.asarray(query, dtype=np.float32)
    if vector.shape != (codes.shape[1],):
        raise IndexBackendError(f"a query vector of {vector.shape[0]} dims for vectors of {codes.shape[1]}")
    candidates = np.flatnonzero(allowed)
    if not len(candidates) or limit <= 0:
        return []
    if len(candidates) == len(codes):
        found = scores(codes, scales, vector)
    else:
        found = scores(codes[candidates], scales[candidates], vector)
    best = np.argpartition(-found, limit - 1)[:limit] if len(found) > limit else np.arange(len(found))
    return sorted(((int(candidates[i]), float(found[i])) for i in best.tolist()), key=lambda r: (-r[1], r[0]))
