"""A namespace's chunk vectors by row: int8 codes and a scale each (index/vectors.py), grown by doubling so that
many single-document writes do not copy the matrix each time."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from docshelf.index.vector_lists import EXACT_BELOW, InvertedLists, list_count, top_rows_listed, trained_centroids
from docshelf.index.vectors import BoolArray, Float32Array, Int8Array, StoredVectors, VectorModel, top_rows


class VectorRows:
    """Vectors of one model by namespace row; a row added without vectors has none (scale 0, never ranked)."""

    def __init__(self, model: VectorModel) -> None:
        self.model = model
        self._codes: Int8Array = np.zeros((0, model.dimension), dtype=np.int8)
        self._scales: Float32Array = np.zeros(0, dtype=np.float32)
        self._present: BoolArray = np.zeros(0, dtype=np.bool_)
        self._lists: InvertedLists | None = None  # made once EXACT_BELOW rows have vectors (vector_lists.py)
        self.size = 0

    def _reserve(self, size: int) -> None:
        if len(self._scales) >= size:
            return
        capacity = max(size, 2 * len(self._scales), 1024)
        codes = np.zeros((capacity, self.model.dimension), dtype=np.int8)
        codes[: self.size] = self._codes[: self.size]
        scales = np.zeros(capacity, dtype=np.float32)
        scales[: self.size] = self._scales[: self.size]
        present = np.zeros(capacity, dtype=np.bool_)
        present[: self.size] = self._present[: self.size]
        self._codes, self._scales, self._present = codes, scales, present

    def put(self, first: int, vectors: StoredVectors) -> None:
        """The vectors of rows `first`, `first + 1`, ... (rows before `first` not yet given have none)."""
        end = first + len(vectors.scales)
        self._reserve(end)
        self._codes[first:end] = vectors.codes
        self._scales[first:end] = vectors.scales
        self._present[first:end] = True
        self.size = max(self.size, end)
        if self._lists is not None:
            self._lists.forget(first, end)

    def compact(self) -> None:
        """Drop the spare capacity (up to as much again as the rows) once a build is over."""
        if len(self._scales) > self.size:
            self._codes = self._codes[: self.size].copy()
            self._scales = self._scales[: self.size].copy()
            self._present = self._present[: self.size].copy()

    def rows(self, rows: Sequence[int] | np.ndarray) -> StoredVectors:
        index = np.asarray(rows, dtype=np.int64)
        return StoredVectors(self.model, self._codes[index], self._scales[index])

    def present(self, size: int) -> BoolArray:
        """Which of the first `size` rows have vectors."""
        flags = np.zeros(size, dtype=np.bool_)
        known = min(size, self.size)
        flags[:known] = self._present[:known]
        return flags

    def rank(self, query: Sequence[float], allowed: BoolArray, limit: int) -> list[tuple[int, float]]:
        """Rows of `allowed` (a mask over namespace rows) with vectors, best first: from the inverted lists when
        at least EXACT_BELOW rows are allowed, else every allowed row scored."""
        size = min(len(allowed), self.size)
        mask = allowed[:size] & self._present[:size]
        vector = np.asarray(query, dtype=np.float32)
        if limit > 0 and vector.shape == (self.model.dimension,) and int(mask.sum()) >= EXACT_BELOW:
            found = top_rows_listed(self._listed(size), self._codes[:size], self._scales[:size], vector, mask, limit)
            if found is not None:
                return found
        return top_rows(self._codes[:size], self._scales[:size], query, mask, limit)

    def _listed(self, size: int) -> InvertedLists:
        """The inverted lists of rows 0..size, trained again once the rows with vectors have doubled."""
        present = int(self._present[:size].sum())
        if self._lists is None or present > 2 * self._lists.trained_rows:
            rows = np.flatnonzero(self._present[:size])
            centroids = trained_centroids(self._codes[rows], self._scales[rows], list_count(present))
            self._lists = InvertedLists(centroids, present)
        self._lists.place(self._codes[:size], self._scales[:size])
        return self._lists

    def memory_bytes(self) -> int:
        return int(self._codes.nbytes + self._scales.nbytes + self._present.nbytes)
