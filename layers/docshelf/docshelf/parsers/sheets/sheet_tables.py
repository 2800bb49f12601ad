"""Blocks of one sheet: table regions become Table blocks with spans and header rows; title rows above a
table become a Heading, note rows below it Paragraphs, and regions that are only loose text become Paragraphs.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import dropwhile

from docshelf.model import Block, Heading, Paragraph, Table, TableCell
from docshelf.parsers.sheets.sheet_grid import Box, CellBudget, Occupancy, SheetGrid, split_regions
from docshelf.parsers.sheets.sheet_values import TEXT, GridCell, is_year

MAX_HEADER_ROWS = 3
MAX_DETACHED_HEADER_GAP = 1
MIN_HEADER_FILL = 0.5
NOTE_MIN_COLUMNS = 3
MAX_TITLE_CHARS = 120


def sheet_blocks(grid: SheetGrid, *, page: int, budget: CellBudget, title_level: int) -> list[Block]:
    """Blocks of a sheet in reading order; `title_level` is the heading level given to a table's title row."""
    merges = grid.anchor_merges(budget)
    occupancy = Occupancy(grid, merges)
    layout = _Layout(grid, merges, occupancy)
    blocks: list[Block] = []
    for box in split_regions(occupancy, joins=layout.is_detached_header, continues=layout.continues_table):
        blocks.extend(layout.region_blocks(box, page=page, title_level=title_level))
    return blocks


@dataclass(slots=True)
class _Lone:
    """A row band holding a single text cell (possibly merged over several rows and columns)."""

    cell: GridCell
    last_row: int
    merged_across: bool


class _Layout:
    def __init__(self, grid: SheetGrid, merges: dict[tuple[int, int], Box], occupancy: Occupancy) -> None:
        self.grid = grid
        self.merges = merges
        self.occupancy = occupancy

    def anchors(self, row: int, left: int, right: int) -> list[tuple[int, GridCell]]:
        cells = self.grid.cells.get(row, {})
        return sorted((col, cell) for col, cell in cells.items() if left <= col <= right)

    def rows_in(self, box: Box) -> list[int]:
        return [r for r in range(box.top, box.bottom + 1) if self.occupancy.columns_in(r, box.left, box.right)]

    def is_detached_header(self, header: Box, data: Box) -> bool:
        """A short band of titles or column labels one blank row above the table it belongs to."""
        if not 0 < data.top - header.bottom - 1 <= MAX_DETACHED_HEADER_GAP:
            return False
        if header.bottom - header.top + 1 > MAX_HEADER_ROWS:
            return False
        if all(self.lone_cell(r, header) for r in range(header.top, header.bottom + 1)):
            return len(self.anchors(data.top, data.left, data.right)) >= 2
        overlap = min(header.right, data.right) - max(header.left, data.left) + 1
        if overlap < (data.right - data.left + 1) * MIN_HEADER_FILL:
            return False
        header_cells = [
            cell for r in range(header.top, header.bottom + 1) for _, cell in self.anchors(r, header.left, header.right)
        ]
        first_data = [cell for _, cell in self.anchors(data.top, data.left, data.right)]
        return (
            len(header_cells) >= 2
            and all(cell.kind == TEXT for cell in header_cells)
            and len(first_data) >= 2
            and any(cell.kind != TEXT for cell in first_data)
        )

    def continues_table(self, upper: Box, lower: Box) -> bool:
        """A band one blank row below a table that goes on with it: the table's body rows (below its leading
        label rows) hold values, and the band holds only kinds its columns already hold there — a band
        starting with its own labels, or with columns of other kinds, is another table. A title or note
        row on either side of the gap ends the table."""
        upper_rows, lower_rows = self.rows_in(upper), self.rows_in(lower)
        body = list(dropwhile(lambda row: self.is_label_row(row, upper), upper_rows))
        if not body or self.lone_cell(upper_rows[-1], upper) or self.is_label_row(lower_rows[0], lower):
            return False
        kinds: dict[int, set[str]] = {}
        for row in body:
            for col, cell in self.anchors(row, upper.left, upper.right):
                kinds.setdefault(col, set()).add(cell.kind)
        if all(column <= {TEXT} for column in kinds.values()):
            return False
        return all(
            cell.kind in kinds.get(col, set())
            for row in lower_rows
            for col, cell in self.anchors(row, lower.left, lower.right)
        )

    def is_label_row(self, row: int, box: Box) -> bool:
        return _is_label_row([cell for _, cell in self.anchors(row, box.left, box.right)])

    def lone_cell(self, row: int, box: Box) -> _Lone | None:
        anchors = self.anchors(row, box.left, box.right)
        if len(anchors) != 1 or anchors[0][1].kind != TEXT:
            return None
        col, cell = anchors[0]
        merge = self.merges.get((row, col))
        right, last_row = (merge.right, merge.bottom) if merge else (col, row)
        if self.occupancy.columns_in(row, box.left, box.right) != list(range(col, right + 1)):
            return None
        return _Lone(cell, min(last_row, box.bottom), right > col)

    def region_blocks(self, box: Box, *, page: int, title_level: int) -> list[Block]:
        rows = self.rows_in(box)
        width = len({c for r in rows for c in self.occupancy.columns_in(r, box.left, box.right)})
        titles: list[str] = []
        start = 0
        while width >= 2 and start < len(rows) and (lone := self.lone_cell(rows[start], box)) is not None:
            titles.append(lone.cell.text)
            start = next((i for i, r in enumerate(rows) if r > lone.last_row), len(rows))
        notes: list[str] = []
        end = len(rows)
        while width >= 2 and end - 1 > start and (lone := self.lone_cell(rows[end - 1], box)) is not None:
            if lone.last_row != rows[end - 1] or not (lone.merged_across or width >= NOTE_MIN_COLUMNS):
                break
            notes.insert(0, lone.cell.text)
            end -= 1
        body = rows[start:end]
        if not self._is_table(body, box):
            cells = [cell.text for r in rows for _, cell in self.anchors(r, box.left, box.right)]
            return [Paragraph(text=text, page=page) for text in cells]
        blocks: list[Block] = []
        if titles and len(titles[0]) <= MAX_TITLE_CHARS:
            blocks.append(Heading(text=titles.pop(0), level=title_level, page=page))
        if titles:
            blocks.extend(Paragraph(text=text, page=page) for text in titles)
        blocks.append(self.table(body, box, page=page))
        blocks.extend(Paragraph(text=text, page=page) for text in notes)
        return blocks

    def _is_table(self, body: list[int], box: Box) -> bool:
        if not body:
            return False
        if any(len(self.anchors(r, box.left, box.right)) >= 2 for r in body):
            return True
        column = [cell for r in body for _, cell in self.anchors(r, box.left, box.right)]
        return len(body) >= 2 and column[0].kind == TEXT and any(cell.kind != TEXT for cell in column[1:])

    def _spans(self, row: int, col: int, row_index: dict[int, int], col_index: dict[int, int]) -> tuple[int, int]:
        """Span of a merged anchor counted in kept rows and columns (blank spacer rows/columns are dropped)."""
        merge = self.merges.get((row, col))
        if merge is None:
            return 1, 1
        rowspan = sum(1 for r in range(row, merge.bottom + 1) if r in row_index)
        colspan = sum(1 for c in range(col, merge.right + 1) if c in col_index)
        return max(rowspan, 1), max(colspan, 1)

    def table(self, body: list[int], box: Box, *, page: int) -> Table:
        cols = sorted({c for r in body for c in self.occupancy.columns_in(r, box.left, box.right)})
        row_index = {r: i for i, r in enumerate(body)}
        col_index = {c: j for j, c in enumerate(cols)}
        matrix: list[list[GridCell | None]] = [[None] * len(cols) for _ in body]
        placed: dict[tuple[int, int], TableCell] = {}
        covered: set[tuple[int, int]] = set()
        for r in body:
            for c, cell in self.anchors(r, box.left, box.right):
                i, j = row_index[r], col_index[c]
                rowspan, colspan = self._spans(r, c, row_index, col_index)
                placed[(i, j)] = TableCell(row=i, col=j, text=cell.text, rowspan=rowspan, colspan=colspan)
                matrix[i][j] = cell
                if rowspan > 1 or colspan > 1:  # a cell of its own is in `placed`: a set of millions saved
                    covered.update((i + di, j + dj) for di in range(rowspan) for dj in range(colspan))
        cells = [
            placed.get((i, j)) or TableCell(row=i, col=j, text="")
            for i in range(len(body))
            for j in range(len(cols))
            if (i, j) in placed or (i, j) not in covered
        ]
        return Table(
            cells=tuple(cells),
            n_rows=len(body),
            n_cols=len(cols),
            page=page,
            header_rows=header_row_count(matrix, placed),
        )


def header_row_count(matrix: list[list[GridCell | None]], placed: dict[tuple[int, int], TableCell]) -> int:
    """Leading rows that label the columns: text (or year) cells above rows holding values.

    A table made only of text takes its first row as the header when that row is filled and its labels
    are distinct, the usual convention of CSV files and hand-made sheets.
    """
    n_rows = len(matrix)
    if n_rows < 2 or not matrix[0]:
        return 0
    labels = 0
    while labels < min(MAX_HEADER_ROWS, n_rows - 1) and _is_label_row(matrix[labels]):
        labels += 1
    if labels == 0:
        return 0
    has_values = any(cell is not None and cell.kind != TEXT for row in matrix[labels:] for cell in row)
    if not has_values:
        first = [cell.text for cell in matrix[0] if cell is not None]
        if len(set(first)) != len(first):
            return 0
        labels = 1
    n_cols = len(matrix[0])
    filled = {col for (i, j), cell in placed.items() if i < labels for col in range(j, j + cell.colspan)}
    if len(filled) < n_cols * MIN_HEADER_FILL:
        return 0
    extended = max([labels, *(i + cell.rowspan for (i, _), cell in placed.items() if i < labels)])
    return min(extended, n_rows - 1)


def _is_label_row(row: list[GridCell | None]) -> bool:
    cells = [cell for cell in row if cell is not None]
    if not cells or not all(cell.kind == TEXT or is_year(cell) for cell in cells):
        return False
    return len(cells) >= 2 or cells[0].kind == TEXT
