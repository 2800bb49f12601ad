"""Tables without rules: three or more consecutive rows of short cells whose columns line up.

A row's runs are cut into cells where a gap wider than a font size separates them. Consecutive rows of two or
more short cells, close together and over the same stretch of the page, make a block; the block's columns are the
x intervals its cells cover, and the empty stretches between them are gutters every row respects (a cell that
crosses one merges two columns). A row just above the block whose runs sit in two or more of those columns is its
header, even where the header cells stand closer than a font size (CJK headers set with narrow gaps). Prose is
kept out by cell lengths (a text column's lines are long), hanging lists by their first column (markers only),
and a column filled once is a stray label, not a column.
"""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass

from docshelf.model import Table, TableCell
from docshelf.parsers.pdf.pdf_lines import build_lines, text_rows
from docshelf.parsers.pdf.pdf_paragraphs import join_lines
from docshelf.parsers.pdf.pdf_tables import PlacedTable
from docshelf.parsers.pdf.pdf_text import Run
from docshelf.scripts import no_space_script

CELL_GAP_EM = 1.0
MAX_CELL_CHARS = 40  # counted by `width`: a CJK character as two
MAX_MEDIAN_CELL_CHARS = 24
MAX_MEDIAN_CELL_WORDS = 3  # narrow text columns side by side hold lines of four words and more
MIN_WORDED_SHARE = 0.6  # cells holding a letter or digit (not the arrows and symbols of a diagram)
MIN_ROWS = 3
MAX_ROW_PITCH_EM = 2.5  # from one row's top to the next, in font sizes
MIN_COLUMN_FILL = 2
MIN_FILLED_SHARE = 0.6
SAME_LINE_EM = 0.3
MIN_FLOWING_WORDS = 3  # a cell this long above a cell that starts in lower case is a line of prose wrapping on
MIN_FLOWING_CJK = 12  # the same in CJK characters, above a cell that starts with one
_MARKER = re.compile(r"^(?:[•●○◦▪▫■□‣⁃∙·◆◇►▶✓✔➢➤\-–—*]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|[ivx]{1,4}[.)])$")


@dataclass(slots=True)
class _Row:
    runs: list[Run]
    cells: list[list[Run]]
    top: float
    bottom: float

    @property
    def x0(self) -> float:
        return self.cells[0][0].x0

    @property
    def x1(self) -> float:
        return max(run.x1 for run in self.cells[-1])


def find_aligned_tables(runs: list[Run], page: int) -> tuple[list[PlacedTable], list[Run]]:
    """Tables whose columns line up without rules, and the runs left outside them."""
    rows = [_row(row) for row in text_rows([run for run in runs if not run.vertical])]
    tables: list[PlacedTable] = []
    used: set[int] = set()
    index = 0
    while index < len(rows):
        end = _block_end(rows, index)
        if end - index >= MIN_ROWS:
            block = rows[index:end]
            header = rows[index - 1] if index > 0 and id(rows[index - 1]) not in used else None
            placed = _table(block, header, page)
            if placed is not None:
                tables.append(placed[0])
                used.update(id(run) for row in placed[1] for run in row.runs)
                index = end
                continue
        index += 1
    if not tables:
        return [], runs
    return tables, [run for run in runs if id(run) not in used]


def _row(runs: list[Run]) -> _Row:
    if len(runs) == 1:
        return _Row(runs, [runs], runs[0].top, runs[0].bottom)
    ordered = sorted(runs, key=lambda run: run.x0)
    cells: list[list[Run]] = []
    right = 0.0
    for run in ordered:
        if cells and run.x0 - right <= CELL_GAP_EM * max(run.size, cells[-1][-1].size, 1.0):
            cells[-1].append(run)
        else:
            cells.append([run])
            right = run.x1
        right = max(right, run.x1)
    return _Row(ordered, cells, min(run.top for run in runs), max(run.bottom for run in runs))


def width(text: str) -> int:
    """Characters counted as they fill a line: a CJK character as two."""
    return sum(2 if no_space_script(char) else 1 for char in text)


def _cell_text(cell: list[Run]) -> str:
    return join_lines([line.text for line in build_lines(cell)])


def _tabular(row: _Row) -> bool:
    """Two or more short cells on one line: their tops or their bottoms agree (lines of a page's separate text
    blocks that merely overlap stand at any height)."""
    if len(row.cells) < 2 or any(sum(width(run.text.strip()) for run in cell) > MAX_CELL_CHARS for cell in row.cells):
        return False
    tops = [min(run.top for run in cell) for cell in row.cells]
    bottoms = [max(run.bottom for run in cell) for cell in row.cells]
    size = statistics.median(run.size for run in row.runs)
    return min(max(tops) - min(tops), max(bottoms) - min(bottoms)) <= SAME_LINE_EM * size


def _block_end(rows: list[_Row], start: int) -> int:
    """The end of the run of tabular rows from `start`, close together and over the same stretch of the page."""
    if not _tabular(rows[start]):
        return start
    end = start + 1
    while end < len(rows) and _tabular(rows[end]):
        previous, row = rows[end - 1], rows[end]
        size = statistics.median(run.size for run in previous.runs + row.runs)
        overlap = min(previous.x1, row.x1) - max(previous.x0, row.x0)
        if row.top - previous.top > MAX_ROW_PITCH_EM * size or overlap < 0.5 * min(
            previous.x1 - previous.x0, row.x1 - row.x0
        ):
            break
        end += 1
    return end


def _columns(rows: list[_Row]) -> list[tuple[float, float]]:
    merged: list[tuple[float, float]] = []
    spans = sorted((cell[0].x0, max(run.x1 for run in cell)) for row in rows for cell in row.cells)
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _header(row: _Row, columns: list[tuple[float, float]], block: list[_Row]) -> _Row | None:
    """The row above the block, its runs regrouped by the block's columns, when it fills two or more of them and
    stands no further above than the block's own row pitch allows."""
    pitch = statistics.median(b.top - a.top for a, b in itertools.pairwise(block))
    if block[0].top - row.top > 1.5 * pitch or row.x0 < columns[0][0] - pitch or row.x1 > columns[-1][1] + 3 * pitch:
        return None
    by_column: dict[int, list[Run]] = {}
    for run in row.runs:
        inside = [i for i, (start, end) in enumerate(columns) if run.x0 < end and start < run.x1]
        if len(inside) != 1 or width(_cell_text([run])) > MAX_CELL_CHARS:
            return None
        by_column.setdefault(inside[0], []).append(run)
    if len(by_column) < 2:
        return None
    return _Row(row.runs, [by_column[i] for i in sorted(by_column)], row.top, row.bottom)


def _flows(grid: list[list[str]], column: int) -> bool:
    """Whether the column reads as a column of text: two or more of its cells continue the sentence above."""
    flowing = 0
    above = ""
    for row in grid:
        text = row[column]
        if not text:
            continue
        ended = above.endswith((".", "!", "?", ":", ";", "。", "．", "！", "？"))
        latin = text[0].islower() and len(above.split()) >= MIN_FLOWING_WORDS
        cjk = no_space_script(text[0]) and width(above) >= 2 * MIN_FLOWING_CJK
        if (latin or cjk) and not ended:
            flowing += 1
        above = text
    return flowing >= 2


def _with_header(block: list[_Row], above: _Row | None) -> list[_Row] | None:
    """The block's rows with its header: its first row regrouped by the columns of the rows below, where one of
    its cells spans two of them (header cells set closer than a font size), or else the row above the block."""
    columns = _columns(block)
    body_columns = _columns(block[1:])
    if len(block) > MIN_ROWS - 1 and len(body_columns) > len(columns):
        header = _header(block[0], body_columns, block[1:])
        if header is not None:
            return [header, *block[1:]]
    if len(columns) < 2:
        return None
    header = _header(above, columns, block) if above is not None else None
    return [header, *block] if header is not None else block


def _table(block: list[_Row], above: _Row | None, page: int) -> tuple[PlacedTable, list[_Row]] | None:
    rows = _with_header(block, above)
    if rows is None:
        return None
    columns = _columns(rows)
    grid: list[list[str]] = []
    for row in rows:
        texts = ["" for _ in columns]
        for cell in row.cells:
            middle = (cell[0].x0 + max(run.x1 for run in cell)) / 2
            column = next(i for i, (start, end) in enumerate(columns) if start <= middle <= end)
            texts[column] = join_lines([part for part in (texts[column], _cell_text(cell)) if part])
        grid.append(texts)
    cells = [text for row in grid for text in row if text]
    if statistics.median(width(text) for text in cells) > MAX_MEDIAN_CELL_CHARS:
        return None
    if statistics.median(len(text.split()) for text in cells) > MAX_MEDIAN_CELL_WORDS:
        return None
    if sum(1 for text in cells if any(char.isalnum() for char in text)) < MIN_WORDED_SHARE * len(cells):
        return None
    if any(sum(1 for row in grid if row[c]) < MIN_COLUMN_FILL for c in range(len(columns))):
        return None
    if len(cells) < MIN_FILLED_SHARE * len(grid) * len(columns) or any(_flows(grid, c) for c in range(len(columns))):
        return None
    first_column = [row[0] for row in grid[1:] if row[0]]
    if first_column and all(_MARKER.match(text) for text in first_column):
        return None  # a list with hanging markers, not a table
    table = Table(
        cells=tuple(TableCell(row=r, col=c, text=text) for r, row in enumerate(grid) for c, text in enumerate(row)),
        n_rows=len(grid),
        n_cols=len(columns),
        page=page,
        header_rows=1,
    )
    x0 = min(row.x0 for row in rows)
    x1 = max(row.x1 for row in rows)
    return PlacedTable(table, x0, rows[0].top, x1, rows[-1].bottom), rows
