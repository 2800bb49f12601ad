from __future__ import annotations

from docshelf.batching import sized_batches


def test_batches_keep_order_and_stay_within_size_and_count() -> None:
    sizes = [3, 4, 2, 9, 1, 1, 1, 5]
    assert list(sized_batches(sizes, int, 7)) == [[3, 4], [2], [9], [1, 1, 1], [5]]  # 9 alone: over the budget
    assert list(sized_batches(sizes, int, 100, max_items=3)) == [[3, 4, 2], [9, 1, 1], [1, 5]]
    assert list(sized_batches([], int, 7)) == []
