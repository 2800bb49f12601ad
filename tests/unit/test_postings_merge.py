from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from docshelf.index.embedded.analyzed_batch import counted
from docshelf.index.embedded.bm25 import BM25Channel, Postings


def _built(term_col: np.ndarray, row_col: np.ndarray, tf_col: np.ndarray) -> Postings:
    """Postings of unsorted triples, by a stable sort on the term."""
    order = np.argsort(term_col, kind="stable")
    return Postings.of_sorted(term_col[order], row_col[order], tf_col[order])


def _as_triples(postings: Postings) -> list[tuple[int, int, int]]:
    terms = np.repeat(postings.terms, np.diff(postings.starts))
    return list(zip(terms.tolist(), postings.rows.tolist(), postings.tfs.tolist(), strict=True))


@pytest.mark.parametrize("seed", range(6))
def test_merge_keeps_the_live_postings_in_the_order_a_build_of_all_parts_gives(seed: int) -> None:
    rng = np.random.default_rng(seed)
    parts, first_row = [], 0
    for _ in range(int(rng.integers(1, 5))):
        rows = int(rng.integers(0, 40))
        size = int(rng.integers(0, 300)) if rows else 0
        term_col = rng.integers(0, 60, size)
        row_col = first_row + rng.integers(0, max(rows, 1), size)
        parts.append(_built(term_col, row_col, rng.integers(1, 9, size)))
        first_row += rows
    alive = rng.random(first_row + 1) < (1.0 if seed == 0 else 0.6)
    all_terms = np.concatenate([np.repeat(part.terms, np.diff(part.starts)) for part in parts])
    all_rows = np.concatenate([part.rows for part in parts])
    all_tfs = np.concatenate([part.tfs for part in parts])
    keep = alive[all_rows]
    expected = _built(all_terms[keep], all_rows[keep], all_tfs[keep])
    merged = Postings.merge(parts, alive)
    assert _as_triples(merged) == _as_triples(expected)
    assert merged.terms.tolist() == expected.terms.tolist()
    assert merged.starts.tolist() == expected.starts.tolist()
    if alive.all():  # what a channel passes when no row was ever removed
        assert _as_triples(Postings.merge(parts, None)) == _as_triples(expected)


def test_merge_of_postings_whose_rows_are_all_removed_is_empty() -> None:
    part = _built(np.array([3, 1, 3]), np.array([0, 1, 1]), np.array([1, 2, 3]))
    merged = Postings.merge([part, part], np.zeros(2, dtype=np.bool_))
    assert len(merged) == 0 and len(merged.terms) == 0 and merged.starts.tolist() == [0]


def test_a_channel_keeps_few_segments_of_like_size_and_scores_as_one_segment() -> None:
    rng = np.random.default_rng(3)
    channel, single_parts, first = BM25Channel(), [], 0
    for batch in range(200):
        rows = np.arange(first, first + 5, dtype=np.int64)
        term_col = rng.integers(0, 40, 30)
        row_col = first + rng.integers(0, 5, 30)
        part = _built(term_col, row_col, np.ones(30, dtype=np.int64))
        channel.add(rows, part)
        single_parts.append(part)
        first += 5
        if batch % 7 == 0:
            channel.merge_pending()
    channel.merge_pending()
    sizes = [len(segment) for segment in channel._merged_segments()]
    factor = BM25Channel.MERGE_FACTOR
    like_sized = [sizes[at : at + factor] for at in range(len(sizes) - factor + 1)]
    assert all(max(window) >= factor * min(window) for window in like_sized), sizes
    assert len(sizes) <= 10, sizes  # 6,000 postings added in 29 merges of pending segments
    whole = BM25Channel()
    whole.add(np.arange(first, dtype=np.int64), Postings.merge(single_parts, None))
    weights = {3: 1.0, 17: 2.0, 39: 1.0}
    assert np.allclose(channel.scores(weights, first)[0], whole.scores(weights, first)[0])


# Keys of 32 bits and fewer (the first four), of 33, and of more.
_LARGEST = [
    (50_000, 8_191),
    ((1 << 19) - 1, (1 << 13) - 1),
    (7, 0),
    ((1 << 31) - 1, 1),
    (1 << 19, 1 << 13),
    (1 << 40, 5),
]


@pytest.mark.parametrize(("largest_term", "largest_position"), _LARGEST)
def test_counted_postings_are_the_distinct_pairs_by_term_then_position_with_their_counts(
    largest_term: int, largest_position: int
) -> None:
    rng = np.random.default_rng(largest_term ^ largest_position)
    positions = np.sort(rng.integers(0, largest_position + 1, 5_000))
    positions[-1] = largest_position
    term_ids = rng.choice(np.array([0, 1, largest_term // 2, largest_term]), 5_000)
    postings = counted(term_ids, positions)
    expected = sorted(Counter(zip(term_ids.tolist(), positions.tolist(), strict=True)).items())
    assert [(*pair, tf) for pair, tf in expected] == list(
        zip(postings.terms.tolist(), postings.positions.tolist(), postings.tfs.tolist(), strict=True)
    )
    assert postings.terms.dtype == postings.positions.dtype == postings.tfs.dtype == np.int64


def test_no_occurrences_count_to_no_postings() -> None:
    postings = counted(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    assert len(postings.terms) == len(postings.positions) == len(postings.tfs) == 0
