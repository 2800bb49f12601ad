"""The embedded channel's fast paths give what the plain computation gives: which rows matched, and the cut to the
best `limit` rows with ties kept."""

from __future__ import annotations

import numpy as np
import pytest

from docshelf.index.embedded.bm25 import BM25Channel, Postings
from docshelf.index.embedded.namespace import best_with_ties


def _plain_cut(scores: np.ndarray, candidates: np.ndarray, limit: int) -> np.ndarray:
    if len(candidates) <= limit:
        return candidates
    kth = np.sort(scores[candidates])[len(candidates) - limit]
    kept: np.ndarray = candidates[scores[candidates] >= kth]
    return kept


@pytest.mark.parametrize("seed", range(8))
def test_the_sampled_floor_keeps_exactly_the_rows_at_or_above_the_limit_th_score(seed: int) -> None:
    rng = np.random.default_rng(seed)
    size = int(rng.integers(1, 60_000))
    # Few distinct values, so ties at the cut are common; the best rows sit where a strided sample skips them.
    scores = rng.integers(0, 40, size).astype(np.float64) / 7
    scores[rng.integers(0, size, 3) | 1] = 100.0
    candidates = np.flatnonzero(rng.random(size) < rng.uniform(0.05, 1.0))
    for limit in (1, 10, 50, 400):
        assert best_with_ties(scores, candidates, limit).tolist() == _plain_cut(scores, candidates, limit).tolist()


def test_the_cut_keeps_every_row_tied_with_the_limit_th_one() -> None:
    scores = np.array([5.0, 1.0, 3.0, 3.0, 3.0, 0.5] * 200)
    candidates = np.arange(len(scores))
    kept = best_with_ties(scores, candidates, 201)
    assert set(scores[kept].tolist()) == {5.0, 3.0} and len(kept) == 200 + 600


def _channel(rows: int, triples: list[tuple[int, int, int]]) -> BM25Channel:
    term_col, row_col, tf_col = (np.array(column, dtype=np.int64) for column in zip(*triples, strict=True))
    order = np.argsort(term_col, kind="stable")
    channel = BM25Channel()
    channel.add(np.arange(rows, dtype=np.int64), Postings.of_sorted(term_col[order], row_col[order], tf_col[order]))
    return channel


def _plain_matched(triples: list[tuple[int, int, int]], counted: set[int], rows: int) -> list[bool]:
    return [any(term in counted and row == at for term, row, _ in triples) for at in range(rows)]


@pytest.mark.parametrize("seed", range(5))
def test_matched_rows_are_those_holding_a_counted_term(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows = 40
    triples = sorted(
        {(int(rng.integers(0, 12)), int(rng.integers(0, rows)), int(rng.integers(1, 4))) for _ in range(90)}
    )
    channel = _channel(rows, triples)
    weights = {0: 1.0, 3: 2.0, 7: 1.0, 11: 0.5}
    _, matched = channel.scores(weights, rows)
    assert matched.tolist() == _plain_matched(triples, set(weights), rows)
    # A row holding only an optional term scores but is not matched.
    scores, matched = channel.scores(weights, rows, optional={7})
    assert matched.tolist() == _plain_matched(triples, {0, 3, 11}, rows)
    only_optional = [at for at in range(rows) if scores[at] > 0 and not matched[at]]
    assert all(any(term == 7 and row == at for term, row, _ in triples) for at in only_optional)
    # A term weighed 0 adds nothing to a row's score, yet the row matched it.
    scores, matched = channel.scores({0: 1.0, 3: 0.0}, rows)
    assert matched.tolist() == _plain_matched(triples, {0, 3}, rows)
