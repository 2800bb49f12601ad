"""Header cells that span columns: a group heading (`Q1` over `Units` and `Revenue`) set centred over the columns
it heads, as booktabs' `\\multicolumn{2}{c}`, a browser's `colspan` and a spreadsheet's merged cells place it."""

from __future__ import annotations

from docshelf.model import TableCell

SPAN_CENTRE_SHARE = 0.1  # a centred heading's middle lies this share of the spanned width from the span's middle
SPAN_CENTRE_PT = 3.0  # or this close, for narrow spans
SPAN_EDGE_PT = 2.0

Interval = tuple[float, float]
Span = tuple[int, int, str]  # a heading's first and last column, and its text


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


def overlaps(first: int, last: int, spans: list[Span]) -> bool:
    """Whether columns `first` to `last` meet a span's."""
    return any(start <= last and first <= end for start, end, _ in spans)


def heads_a_group(spans: list[Span], n_columns: int) -> bool:
    """Whether a span covers two columns or more but not all (a heading centred over the whole table is its
    caption)."""
    return any(first < last and last - first + 1 < n_columns for first, last, _ in spans)


def heading_row(spans: list[Span], n_columns: int, down: frozenset[int] = frozenset()) -> list[TableCell]:
    """A table's first row: each span's heading over its columns (down both header rows where its one column is in
    `down`), an empty cell in every column none covers."""
    cells = [
        TableCell(
            row=0,
            col=first,
            text=text,
            colspan=last - first + 1,
            rowspan=2 if first == last and first in down else 1,
        )
        for first, last, text in spans
    ]
    covered = {column for first, last, _ in spans for column in range(first, last + 1)}
    cells += [TableCell(row=0, col=column, text="") for column in range(n_columns) if column not in covered]
    return sorted(cells, key=lambda cell: cell.col)
