"""The embedded index's inverted lists: a large namespace's semantic channel scores the rows of the lists nearest
the query; recall against exact scoring stays high, filters hold, small or filtered-down sets stay exact."""

from __future__ import annotations

import numpy as np

from docshelf.index.embedded.vector_rows import VectorRows
from docshelf.index.vector_lists import EXACT_BELOW, list_count, probe_count
from docshelf.index.vectors import StoredVectors, VectorModel, quantized, top_rows
from tests.embedding_fakes import FakeModel
from tests.unit.test_vectors import clustered

DIMENSION = 64
MODEL = VectorModel.of(FakeModel(dimension=DIMENSION))
ROWS = EXACT_BELOW + 10_000


def _rows(matrix: np.ndarray) -> VectorRows:
    rows = VectorRows(MODEL)
    codes, scales = quantized(matrix)
    rows.put(0, StoredVectors(MODEL, codes, scales))
    return rows


def _exact(rows: VectorRows, query: np.ndarray, allowed: np.ndarray, limit: int = 10) -> list[tuple[int, float]]:
    return top_rows(rows._codes[: rows.size], rows._scales[: rows.size], query.tolist(), allowed, limit)


def test_list_and_probe_counts_grow_with_the_rows() -> None:
    assert list_count(100) == 16 and list_count(100_000) == 316 and list_count(10**8) == 1024
    assert probe_count(16) == 8 and probe_count(316) == 39


def test_a_large_namespace_keeps_the_exact_top_10() -> None:
    matrix = clustered(ROWS, DIMENSION)
    rows = _rows(matrix)
    every = np.ones(ROWS, dtype=np.bool_)
    recalls = []
    for query in clustered(40, DIMENSION, seed=4):
        listed = rows.rank(query.tolist(), every, 10)
        exact = _exact(rows, query, every)
        assert [score for _, score in listed] == sorted((score for _, score in listed), reverse=True)
        recalls.append(len({r for r, _ in listed} & {r for r, _ in exact}) / 10)
    assert rows._lists is not None and rows._lists.trained_rows == ROWS  # the lists were used
    assert float(np.mean(recalls)) >= 0.9


def test_filters_hold_and_few_allowed_rows_are_scored_exactly() -> None:
    rows = _rows(clustered(ROWS, DIMENSION))
    query = clustered(1, DIMENSION, seed=9)[0]
    half = np.zeros(ROWS, dtype=np.bool_)
    half[::2] = True
    assert all(row % 2 == 0 for row, _ in rows.rank(query.tolist(), half, 10))
    few = np.zeros(ROWS, dtype=np.bool_)
    few[: EXACT_BELOW - 1] = True
    assert rows.rank(query.tolist(), few, 10) == _exact(rows, query, few)


def test_rows_given_new_vectors_are_placed_again() -> None:
    rows = _rows(clustered(ROWS, DIMENSION))
    every = np.ones(ROWS, dtype=np.bool_)
    query = clustered(1, DIMENSION, seed=11)[0]
    rows.rank(query.tolist(), every, 10)  # the lists exist and every row is placed
    codes, scales = quantized(query[None, :])
    rows.put(123, StoredVectors(MODEL, codes, scales))
    assert rows.rank(query.tolist(), every, 1)[0][0] == 123


def test_the_same_vectors_give_the_same_lists() -> None:
    matrix = clustered(ROWS, DIMENSION)
    every = np.ones(ROWS, dtype=np.bool_)
    query = clustered(1, DIMENSION, seed=12)[0].tolist()
    assert _rows(matrix).rank(query, every, 20) == _rows(matrix).rank(query, every, 20)


def test_lists_are_trained_again_once_the_rows_double() -> None:
    matrix = clustered(3 * ROWS, DIMENSION)
    rows = _rows(matrix[:ROWS])
    every = np.ones(3 * ROWS, dtype=np.bool_)
    query = matrix[5].tolist()
    rows.rank(query, every, 10)
    codes, scales = quantized(matrix[ROWS:])
    rows.put(ROWS, StoredVectors(MODEL, codes, scales))
    assert rows.rank(query, every, 1)[0][0] == 5
    assert rows._lists is not None and rows._lists.trained_rows == 3 * ROWS
