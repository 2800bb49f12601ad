"""A sparse grid of sheet cells with merged ranges, and its split into rectangular table regions.

Regions are found by recursive XY-cut: a box splits at fully empty rows, then at fully empty columns,
until neither splits it. A single empty spacer column between two parts that occupy (almost) the same
rows does not split them: that is a layout gap inside one table, not two tables side by side.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from collections.abc import Callable

    from docshelf.parsers.sheets.sheet_values import GridCell

SPACER_MAX_WIDTH = 2
SPACER_MIN_ROW_OVERLAP = 0.7


class Box(NamedTuple):
    """An inclusive, 0-based rectangle of sheet positions."""

    top: int
    left: int
    bottom: int
    right: int


class CellBudget:
    """How many more positions (filled cells and merged areas) the parser may still hold in memory."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.remaining = limit

    def take(self, count: int = 1) -> bool:
        if count > self.remaining:
            return False
        self.remaining -= count
        return True

    def skipped(self, sheet: str) -> str:
        """The warning for a sheet the budget left no room for (read back by `truncation`)."""
        return f"sheet {sheet!r} skipped: the workbook is over {self.limit} cells"

    def cut(self, sheet: str, row: int) -> str:
        """The warning for a sheet the budget ran out in, at its 0-based `row` (read back by `truncation`)."""
        return f"sheet {sheet!r} truncated at row {row + 1}: over {self.limit} cells"

    def truncation(self, warnings: list[str]) -> str:
        """What a workbook's document says it lost to the budget (`ParsedContent.truncation`): the readers'
        warnings about sheets cut or skipped for it, or "" when none was."""
        cut = [warning for warning in warnings if f"over {self.limit} cells" in warning]
        if not cut:
            return ""
        return f"kept the first {self.limit:,} cells: " + "; ".join(cut)


@dataclass(slots=True)
class SheetGrid:
    cells: dict[int, dict[int, GridCell]] = field(default_factory=dict)
    merges: list[Box] = field(default_factory=list)

    def put(self, row: int, col: int, cell: GridCell) -> None:
        self.cells.setdefault(row, {})[col] = cell

    def is_empty(self) -> bool:
        return not self.cells

    def anchor_merges(self, budget: CellBudget) -> dict[tuple[int, int], Box]:
        """Merged ranges by their top-left position, clipped to the filled area of the sheet.

        Only ranges whose anchor holds a value matter (merges of empty cells are formatting); their covered
        area counts against the budget, so a merge over a million empty cells cannot exhaust memory.
        """
        if not self.cells:
            return {}
        last_row = max(self.cells)
        last_col = max(max(cols) for cols in self.cells.values())
        anchors: dict[tuple[int, int], Box] = {}
        for box in self.merges:
            if box.left not in self.cells.get(box.top, {}):
                continue
            clipped = Box(
                box.top, box.left, min(box.bottom, max(last_row, box.top)), min(box.right, max(last_col, box.left))
            )
            area = (clipped.bottom - clipped.top + 1) * (clipped.right - clipped.left + 1)
            if area > 1 and budget.take(area - 1):
                anchors[(box.top, box.left)] = clipped
        return anchors


class Occupancy:
    """Sorted occupied columns per row, counting the whole area of merged ranges as occupied."""

    def __init__(self, grid: SheetGrid, merges: dict[tuple[int, int], Box]) -> None:
        columns: dict[int, set[int]] = {row: set(cols) for row, cols in grid.cells.items()}
        for box in merges.values():
            for row in range(box.top, box.bottom + 1):
                columns.setdefault(row, set()).update(range(box.left, box.right + 1))
        self.rows: dict[int, list[int]] = {row: sorted(cols) for row, cols in columns.items() if cols}

    def bounds(self) -> Box | None:
        if not self.rows:
            return None
        return Box(
            min(self.rows),
            min(c[0] for c in self.rows.values()),
            max(self.rows),
            max(c[-1] for c in self.rows.values()),
        )

    def columns_in(self, row: int, left: int, right: int) -> list[int]:
        cols = self.rows.get(row)
        if not cols:
            return []
        return cols[bisect_left(cols, left) : bisect_right(cols, right)]


def split_regions(
    occupancy: Occupancy,
    joins: Callable[[Box, Box], bool] | None = None,
    continues: Callable[[Box, Box], bool] | None = None,
) -> list[Box]:
    """The table regions of a sheet in reading order (top to bottom, then left to right).

    `joins(upper, lower)` may keep two row bands together across blank rows (a header band set apart from
    its data by a spacer row); the joined band is then split by columns only. `continues(upper, lower)` may
    rejoin a region to the one a single blank row above it over the same columns (a table with a spacer row
    in its body): the whole table then takes the upper part's place in the reading order.
    """
    start = occupancy.bounds()
    if start is None:
        return []
    regions: list[Box] = []
    pending = [start]
    while pending:
        box = pending.pop()
        parts = _row_bands(occupancy, box)
        if joins is not None:
            parts = _join_bands(parts, joins)
        if len(parts) == 1:
            parts = _column_groups(occupancy, parts[0])
        if len(parts) == 1:
            parts = _diagonal_split(occupancy, parts[0])
        if len(parts) == 1:
            regions.append(parts[0])
        else:
            pending.extend(reversed(parts))
    return regions if continues is None else _join_continued(occupancy, regions, continues)


def _runs(values: list[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for value in values:
        if runs and value == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], value)
        else:
            runs.append((value, value))
    return runs


def _row_bands(occupancy: Occupancy, box: Box) -> list[Box]:
    rows = [r for r in range(box.top, box.bottom + 1) if occupancy.columns_in(r, box.left, box.right)]
    bands = []
    for top, bottom in _runs(rows):
        cols = [c for r in range(top, bottom + 1) for c in occupancy.columns_in(r, box.left, box.right)]
        bands.append(Box(top, min(cols), bottom, max(cols)))
    return bands


def _join_bands(bands: list[Box], joins: Callable[[Box, Box], bool]) -> list[Box]:
    joined: list[Box] = []
    for index, band in enumerate(bands):
        if joined and joins(bands[index - 1], band):
            upper = joined[-1]
            joined[-1] = Box(upper.top, min(upper.left, band.left), band.bottom, max(upper.right, band.right))
        else:
            joined.append(band)
    return joined


def _join_continued(occupancy: Occupancy, regions: list[Box], continues: Callable[[Box, Box], bool]) -> list[Box]:
    """Each region `continues` the part just above it joined to that part's table (asking about the last part
    only, so a long table broken by many spacer rows costs one pass)."""
    joined: list[Box] = []
    below: dict[tuple[int, int, int], tuple[int, Box]] = {}  # (top, left, right) of a continuation -> table, part
    for lower in regions:
        at, part = below.pop((lower.top, lower.left, lower.right), (None, lower))
        if at is not None and _is_spacer_row(occupancy, part) and continues(part, lower):
            joined[at] = joined[at]._replace(bottom=lower.bottom)
        else:
            at = len(joined)
            joined.append(lower)
        below[(lower.bottom + 2, lower.left, lower.right)] = (at, lower)
    return joined


def _is_spacer_row(occupancy: Occupancy, upper: Box) -> bool:
    return not occupancy.columns_in(upper.bottom + 1, upper.left, upper.right)


def _column_groups(occupancy: Occupancy, box: Box) -> list[Box]:
    rows_by_col: dict[int, set[int]] = {}
    for row in range(box.top, box.bottom + 1):
        for col in occupancy.columns_in(row, box.left, box.right):
            rows_by_col.setdefault(col, set()).add(row)
    groups: list[tuple[int, int, set[int]]] = []
    for left, right in _runs(sorted(rows_by_col)):
        rows = set().union(*(rows_by_col[c] for c in range(left, right + 1)))
        if groups and _is_spacer_gap(groups[-1], left, rows):
            prev_left, _, prev_rows = groups[-1]
            groups[-1] = (prev_left, right, prev_rows | rows)
        else:
            groups.append((left, right, rows))
    return [Box(min(rows), left, max(rows), right) for left, right, rows in groups]


def _is_spacer_gap(previous: tuple[int, int, set[int]], left: int, rows: set[int]) -> bool:
    _, prev_right, prev_rows = previous
    if left - prev_right - 1 > SPACER_MAX_WIDTH:
        return False
    return len(prev_rows & rows) / len(prev_rows | rows) >= SPACER_MIN_ROW_OVERLAP


def _diagonal_split(occupancy: Occupancy, box: Box) -> list[Box]:
    """Split two blocks touching only at a corner: the rows above some boundary use columns all left (or all
    right) of the columns used below it, with no empty row or column between the blocks."""
    rows: list[int] = []
    spans: list[tuple[int, int]] = []
    for row in range(box.top, box.bottom + 1):
        cols = occupancy.columns_in(row, box.left, box.right)
        if cols:
            rows.append(row)
            spans.append((cols[0], cols[-1]))
    above = _running_extent(spans)
    below = _running_extent(spans[::-1])[::-1]
    for k in range(1, len(spans)):
        (up_left, up_right), (low_left, low_right) = above[k - 1], below[k]
        if up_right < low_left or low_right < up_left:
            return [Box(box.top, up_left, rows[k - 1], up_right), Box(rows[k], low_left, box.bottom, low_right)]
    return [box]


def _running_extent(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    extents: list[tuple[int, int]] = []
    for left, right in spans:
        if extents:
            left, right = min(left, extents[-1][0]), max(right, extents[-1][1])
        extents.append((left, right))
    return extents
