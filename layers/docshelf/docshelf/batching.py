"""Items cut into consecutive batches by a size budget."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def sized_batches(
    items: Iterable[T], size_of: Callable[[T], int], max_size: int, max_items: int | None = None
) -> Iterator[list[T]]:
    """Consecutive runs of the items, each within `max_size` (summed `size_of`) and `max_items`; an item
    larger than `max_size` makes a batch of its own."""
    batch: list[T] = []
    size = 0
    for item in items:
        item_size = size_of(item)
        if batch and (size + item_size > max_size or len(batch) == max_items):
            yield batch
            batch, size = [], 0
        batch.append(item)
        size += item_size
    if batch:
        yield batch
