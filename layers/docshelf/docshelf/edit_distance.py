"""Edit distance between two terms, for spelling corrections (search/corrections.py) and the engines that propose
them."""

from __future__ import annotations


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (insert, delete, substitute, swap two adjacent letters), or limit + 1 once
    it exceeds `limit`."""
    # An edit changes the length by one at most, and the set of letters by two (a swap by none).
    if abs(len(a) - len(b)) > limit or len(set(a).symmetric_difference(b)) > 2 * limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return min(previous[-1], limit + 1)
