"""A delimited file that is one filled rectangle (every record the same number of fields, none empty, no blank
record): its table built straight from the records.

The sheet layout (`sheet_tables.sheet_blocks`) finds the same single table for such a file, but holds each cell
three times on the way (a grid cell, a row dict entry, a table cell); this keeps only the table's cells, so a
large CSV parses in about half the memory. Anything else returns None and takes the sheet layout.
"""

from __future__ import annotations

from collections.abc import Iterator

from docshelf.model import Table, TableCell
from docshelf.parsers.sheets.sheet_grid import CellBudget
from docshelf.parsers.sheets.sheet_tables import MAX_HEADER_ROWS, header_row_count
from docshelf.parsers.sheets.sheet_values import NUMBER, TEXT, GridCell, text_cell

# Rows whose cells header detection reads one by one; past them it only asks whether any value is not text.
_HEAD_ROWS = MAX_HEADER_ROWS + 1


def rectangular_table(records: Iterator[list[str]], budget: CellBudget) -> tuple[Table, int, int] | None:
    """(the table, rows kept, rows in the file) when the records are one filled rectangle of two columns or more;
    rows past the cell budget are counted, not kept. None for any other shape, with the budget as it was."""
    remaining = budget.remaining
    cells: list[TableCell] = []
    head: list[list[GridCell | None]] = []
    values_below_head = False
    width = 0
    kept = 0
    for row, record in enumerate(records):
        parsed = [text_cell(raw) for raw in record]
        if row == 0:
            width = len(parsed)
        if width < 2 or len(parsed) != width or any(cell is None for cell in parsed):
            budget.remaining = remaining
            return None
        if kept < row or not budget.take(width):
            continue
        kept += 1
        if row < _HEAD_ROWS:
            head.append(list(parsed))
        elif not values_below_head:
            values_below_head = any(cell is not None and cell.kind != TEXT for cell in parsed)
        cells.extend(TableCell(row=row, col=col, text=cell.text) for col, cell in enumerate(parsed) if cell)
    if kept == 0:
        budget.remaining = remaining
        return None
    return _table(cells, kept, width, head, values_below_head), kept, row + 1


def _table(
    cells: list[TableCell], rows: int, width: int, head: list[list[GridCell | None]], values_below_head: bool
) -> Table:
    """The table, its header rows found as the sheet layout finds them: from the first rows' cells, with the rows
    below them standing for one row that holds a value or not."""
    matrix = list(head)
    if rows > len(head):
        kind = NUMBER if values_below_head else TEXT
        matrix.append([GridCell("0" if values_below_head else "x", kind)] * width)
    placed = {(cell.row, cell.col): cell for cell in cells[: len(head) * width]}
    return Table(cells=tuple(cells), n_rows=rows, n_cols=width, page=1, header_rows=header_row_count(matrix, placed))
