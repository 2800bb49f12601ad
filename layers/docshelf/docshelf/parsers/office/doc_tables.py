"""Word 97-2003 tables with their merged cells: each row's cell edges and merge flags (sprmTDefTable, kept with
the row's end mark) placed on one grid of column edges.

Word keeps a table as rows of cells, each row its own edges: a cell spanning two columns of the row above is one
wider cell (LibreOffice writes merges so), or cells flagged as merged with the one before (horzMerge); a cell
merged with the one above is flagged in each row below the first (vertMerge) and holds no text of its own.
"""

from __future__ import annotations

import itertools
import struct
from dataclasses import dataclass

from docshelf.model import Table, TableCell
from docshelf.parsers.office.cell_edges import nearest_edge, snapped_edges
from docshelf.tables import table_from_rows

_TC80_SIZE = 20
_EDGE_TOLERANCE = 20  # twips (1 pt): edges Word rounded apart in different rows are one column edge
_MAX_COLUMNS = 255  # Word's tables have at most 63; rows whose edges never meet are not one grid
_HORZ_MERGED = (2, 3)  # horzMerge: merged with the cell before (1 starts such a run)
_VERT_MERGED = 1  # vertMerge: merged with the cell above (3 starts such a run)


@dataclass(frozen=True, slots=True)
class CellShape:
    left: int  # twips
    right: int
    horz_merge: int = 0
    vert_merge: int = 0


def row_cells(operand: bytes) -> tuple[CellShape, ...]:
    """The cells of a row from sprmTDefTable's operand (after its size): the count, the count + 1 edges, then a
    TC80 of 20 bytes per cell (Word may store fewer: the rest are plain). Empty when the operand is cut short."""
    if not operand:
        return ()
    count = operand[0]
    edges_end = 1 + 2 * (count + 1)
    if count == 0 or len(operand) < edges_end:
        return ()
    edges = struct.unpack_from(f"<{count + 1}h", operand, 1)
    cells: list[CellShape] = []
    for index in range(count):
        at = edges_end + index * _TC80_SIZE
        flags = int.from_bytes(operand[at : at + 2], "little") if at + 2 <= len(operand) else 0
        cells.append(CellShape(edges[index], edges[index + 1], flags & 0x3, (flags >> 5) & 0x3))
    return tuple(cells)


@dataclass(slots=True)
class _Cell:
    row: int
    col: int
    text: str
    colspan: int
    rowspan: int = 1


def word_table(rows: list[list[str]], shapes: list[tuple[CellShape, ...]], *, page: int, header_rows: int = 1) -> Table:
    """The table of `rows` (each row's cell texts) placed by `shapes` (each row's cells as sprmTDefTable gives
    them). When some row's shape does not match its cells (a nested table's cells among them, a row without
    properties, cells out of order), the table is read as plain rows."""
    if [len(shape) for shape in shapes] != [len(row) or -1 for row in rows] or not all(map(_in_order, shapes)):
        return table_from_rows(rows, page=page, header_rows=header_rows)
    edges = snapped_edges(
        (edge for shape in shapes for cell in shape for edge in (cell.left, cell.right)), _EDGE_TOLERANCE
    )
    if len(edges) - 1 > _MAX_COLUMNS:
        return table_from_rows(rows, page=page, header_rows=header_rows)
    placed: list[_Cell] = []
    above: dict[int, _Cell] = {}  # by first column: the cell a vertically merged cell below it continues
    for r, (texts, shape) in enumerate(zip(rows, shapes, strict=True)):
        before: _Cell | None = None
        for text, cell in zip(texts, shape, strict=True):
            first, last = nearest_edge(edges, cell.left), nearest_edge(edges, cell.right)
            colspan = max(1, last - first)
            owner = above.get(first)
            if cell.horz_merge in _HORZ_MERGED and before is not None:
                before.colspan = first + colspan - before.col
                before.text = _joined(before.text, text)
                continue
            continues = cell.vert_merge == _VERT_MERGED and owner is not None and owner.row + owner.rowspan == r
            if continues and owner is not None and owner.colspan == colspan:
                owner.rowspan += 1
                owner.text = _joined(owner.text, text)
                before = owner
                continue
            before = _Cell(r, first, text, colspan)
            placed.append(before)
            above[first] = before
    n_cols = max(1, len(edges) - 1)
    cells = tuple(TableCell(c.row, c.col, c.text, c.rowspan, min(c.colspan, n_cols - c.col)) for c in placed)
    return Table(cells=cells, n_rows=len(rows), n_cols=n_cols, page=page, header_rows=min(header_rows, len(rows)))


def _in_order(shape: tuple[CellShape, ...]) -> bool:
    """Whether a row's cells stand left to right, each wider than nothing (a damaged file's may not)."""
    return all(cell.left < cell.right for cell in shape) and all(
        right.left >= left.right - _EDGE_TOLERANCE for left, right in itertools.pairwise(shape)
    )


def _joined(first: str, second: str) -> str:
    return f"{first} {second}" if first and second else first or second
