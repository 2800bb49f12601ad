"""Header cells that span columns: a group heading (`Q1` over `Units` and `Revenue`) set centred over the columns
it heads, as booktabs' `\\multicolumn{2}{c}`, a browser's `colspan` and a spreadsheet's merged cells place it."""

from __future__ import annotations

SPAN_CENTRE_SHARE = 0.1  # a centred heading's middle lies this share of the spanned width from the span's middle
SPAN_CENTRE_PT = 3.0  # or this close, for narrow spans
SPAN_EDGE_PT = 2.0

Interval = tuple[float, float]


def spanned_columns(x0: float, x1: float, columns: list[Interval]) -> tuple[int, int] | None:
    """The first and last of two or more neighbouring columns the text from x0 to x1 is centred over, lying within
    their extent: the run of columns whose middle is nearest its own. None when it heads one column or none."""
    middle = (x0 + x1) / 2
    single = column_of(x0, x1, columns)
    if single is not None and abs(middle - sum(columns[single]) / 2) <= SPAN_CENTRE_PT:
        return None  # centred over its own column
    best: tuple[float, int, int] | None = None
    for first in range(len(columns)):
        for last in range(first + 1, len(columns)):
            start, end = columns[first][0], columns[last][1]
            if x0 < start - SPAN_EDGE_PT or x1 > end + SPAN_EDGE_PT:
                continue
            off = abs(middle - (start + end) / 2)
            if off > max(SPAN_CENTRE_PT, SPAN_CENTRE_SHARE * (end - start)):
                continue
            if best is None or (off, last - first) < best[:2]:
                best = (off, last - first, first)
    return (best[2], best[2] + int(best[1])) if best is not None else None


def column_of(x0: float, x1: float, columns: list[Interval]) -> int | None:
    """The one column the text from x0 to x1 overlaps, or None."""
    inside = [index for index, (start, end) in enumerate(columns) if x0 < end and start < x1]
    return inside[0] if len(inside) == 1 else None
