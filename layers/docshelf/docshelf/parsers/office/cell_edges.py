"""One grid of column (or row) edges from the cells of a table whose rows each keep their own edges (Word's rows,
PowerPoint's cell rectangles): edges nearer than a tolerance are one, and each cell edge takes the nearest."""

from __future__ import annotations

from collections.abc import Iterable


def snapped_edges(values: Iterable[int], tolerance: float) -> list[int]:
    """The distinct edges in order, each more than `tolerance` past the one before (the first of a close run kept)."""
    edges: list[int] = []
    for value in sorted(set(values)):
        if not edges or value - edges[-1] > tolerance:
            edges.append(value)
    return edges


def nearest_edge(edges: list[int], value: int) -> int:
    """The index of the edge nearest `value`."""
    return min(range(len(edges)), key=lambda index: abs(edges[index] - value))
