"""Tables without rules: three or more consecutive rows of short cells whose columns line up.

A row's runs are cut into cells where a gap wider than a font size separates them; a run with far more room than
its characters need, and the runs of the rows next to one that had such gaps, are cut at those inside them too (TeX
writes a row as one text object, `pdf_gaps`). Consecutive rows of two or
more short cells, close together and over the same stretch of the page, make a block; the block's columns are the
x intervals its cells cover, and the empty stretches between them are gutters every row respects (a cell that
crosses one merges two columns). A row just above the block whose runs sit in two or more of those columns is its
header, even where the header cells stand closer than a font size (CJK headers set with narrow gaps). A cell
wrapped onto a line of its own (one cell, inside one column, between two rows) goes on in the row above. Prose is
kept out by cell lengths (a text column's lines are long), hanging lists by their first column (markers only),
and a column filled once is a stray label, not a column.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass

from docshelf.model import Table, TableCell
from docshelf.parsers.pdf.pdf_gaps import spacious
from docshelf.parsers.pdf.pdf_lines import ADVANCE_GAP_EM, build_lines, run_gaps, text_rows
from docshelf.parsers.pdf.pdf_paragraphs import join_lines
from docshelf.parsers.pdf.pdf_spans import Span, column_of, heading_row, heads_a_group, overlaps, spanned_columns
from docshelf.parsers.pdf.pdf_tables import PlacedTable
from docshelf.parsers.pdf.pdf_text import Run
from docshelf.scripts import no_space_script

CELL_GAP_EM = 1.0
# Runs this far apart are cells of two columns when another row has runs ending and starting at their edges (within
# EDGE_ALIGN_PT): `_cut_at_aligned_edges`.
NARROW_CELL_GAP_EM = 0.5
EDGE_ALIGN_PT = 1.5
_NUMBER = re.compile(r"[-+−(]?[$€£¥]?\d[\d,.\u202f\u00a0]*%?\)?")
MAX_CELL_CHARS = 40  # counted by `width`: a CJK character as two
MAX_MEDIAN_CELL_CHARS = 24
FLUSH_RIGHT_PT = 1.0  # cells whose right edges agree this closely are set flush right
MAX_MEDIAN_CELL_WORDS = 3  # narrow text columns side by side hold lines of four words and more
MIN_WORDED_SHARE = 0.6  # cells holding a letter or digit (not the arrows and symbols of a diagram)
MIN_ROWS = 3
MAX_ROW_PITCH_EM = 2.5  # from one row's top to the next, in font sizes
MIN_COLUMN_FILL = 2
MIN_FILLED_SHARE = 0.6
SAME_LINE_EM = 0.3
SAME_WORD_GAP_EM = 0.15  # glyphs closer than this are letters of one word
MIN_FLOWING_WORDS = 3  # a cell this long above a cell that starts in lower case is a line of prose wrapping on
MIN_FLOWING_CJK = 12  # the same in CJK characters, above a cell that starts with one
WRAP_PITCH_SHARE = 0.85  # a wrapped cell's line this much closer to its row than the next row is goes on in it
RunCutter = Callable[[Run], list[Run]]
_BULLETED = re.compile(r"^[•●○◦▪▫■□‣⁃∙◆◇►▶➢➤]\s")
_MARKER = re.compile(r"^(?:[•●○◦▪▫■□‣⁃∙·◆◇►▶✓✔➢➤\-–—*]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|[ivx]{1,4}[.)])$")


@dataclass(slots=True)
class _Row:
    runs: list[Run]
    cells: list[list[Run]]
    top: float
    bottom: float
    columns: list[int] | None = None  # a header's: the block column of each cell, which its place may not show
    spans: list[int] | None = None  # a header's: how many columns each cell heads

    @property
    def x0(self) -> float:
        return self.cells[0][0].x0

    @property
    def x1(self) -> float:
        return max(run.x1 for run in self.cells[-1])


def find_aligned_tables(
    runs: list[Run], page: int, cut: RunCutter | None = None
) -> tuple[list[PlacedTable], list[Run], list[list[Run]] | None]:
    """Tables whose columns line up without rules, the runs left outside them, and those runs' `text_rows` when no
    table took any (for `page_lines`). `cut` puts a run in pieces at its wide gaps (a row written as one text object,
    `pdf_gaps`); a run no table takes stays whole."""
    lines = text_rows([run for run in runs if not run.vertical])
    pieces = _cut_rows(lines, cut) if cut is not None else {}
    if pieces:
        rows = [_row([piece for run in line for piece in pieces.get(id(run), [run])]) for line in lines]
    else:
        rows = [_row(line) for line in lines]
    tables: list[PlacedTable] = []
    used: set[int] = set()
    index = 0
    while index < len(rows):
        end = _block_end(rows, index)
        block = _folded(rows[index:end])
        if len(block) >= MIN_ROWS:
            header = rows[index - 1] if index > 0 and id(rows[index - 1]) not in used else None
            group = rows[index - 2] if index > 1 and header is not None else None
            block, header = _cut_at_aligned_edges(block, header)
            placed = _table(block, header, page, group)
            if placed is not None:
                tables.append(placed[0])
                used.update(id(run) for row in placed[1] for run in row.runs)
                index = end
                continue
        index += 1
    if not tables:
        return [], runs, lines
    left: list[Run] = []
    for run in runs:
        parts = pieces.get(id(run), [run])
        kept = [part for part in parts if id(part) not in used]
        left.extend([run] if len(kept) == len(parts) else kept)
    return tables, left, None


def _cut_rows(lines: list[list[Run]], cut: RunCutter) -> dict[int, list[Run]]:
    """The pieces of the runs cut at their wide gaps, by the run's id: runs that are spacious, and the runs of the
    lines next to a line that was cut, within a row pitch (a table's rows stand together, and its header is often set
    as tight as text). Measuring glyphs costs a call per space, so other runs are not measured."""
    pieces: dict[int, list[Run]] = {}
    measured: set[int] = set()
    pending = [index for index, line in enumerate(lines) if any(map(spacious, line))]
    while pending:
        index = pending.pop()
        if index in measured:
            continue
        measured.add(index)
        split = False
        for run in lines[index]:
            parts = cut(run)
            if len(parts) > 1:
                pieces[id(run)] = parts
                split = True
        if split:
            pending.extend(
                other
                for other in (index - 1, index + 1)
                if 0 <= other < len(lines) and other not in measured and _near(lines[index], lines[other])
            )
    return pieces


def _near(line: list[Run], other: list[Run]) -> bool:
    """The two lines stand within a row pitch of each other."""
    size = max(run.size for run in line + other)
    return abs(min(run.top for run in line) - min(run.top for run in other)) <= MAX_ROW_PITCH_EM * size


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


def _cut_at_aligned_edges(block: list[_Row], header: _Row | None) -> tuple[list[_Row], _Row | None]:
    """The block's and its header's cells cut between two runs at least NARROW_CELL_GAP_EM apart where another row
    has two runs side by side at the same edges (within EDGE_ALIGN_PT): a column of numbers set flush right beside
    a column of text set flush left, a cell's padding apart, is two columns though the gap is narrower than
    CELL_GAP_EM (Word's and LibreOffice's tables). So is a number opening its cell and a run its glyphs' advances
    apart where another row has a number of another width ending at the same edge and a run starting at the same
    place (a spreadsheet's numbers set flush right against the text of the next column, `12` | `Acme Pumps`, two
    points apart; numbers of one width, `5 kW` over `7 kW`, show no flush-right column). Two numbers side by side,
    their glyphs apart, are two cells where another row has two numbers ending at the same two edges: columns of
    figures set flush right (a browser's table without padding sets them a point and a half apart)."""
    rows = [*block, *([header] if header is not None else [])]
    if not any(len(cell) > 1 for row in rows for cell in row.cells):
        return block, header
    seams = [
        [(left.x1, right.x0) for left, right in itertools.pairwise(row.runs) if _apart(left, right)] for row in rows
    ]
    number_cells = [
        [
            (left.x0, left.x1, right.x0)
            for left, right in itertools.pairwise(row.runs)
            if _touching_apart(left, right) and _NUMBER.fullmatch(left.text.strip())
        ]
        for row in rows
    ]
    number_seams = [
        [(left.x1, right.x1) for left, right in itertools.pairwise(row.runs) if _numbers_apart(left, right)]
        for row in rows
    ]

    def aligned(pairs_of_rows: list[list[tuple[float, float]]], number: int, first: float, second: float) -> bool:
        """Whether another row than `number` has a pair of edges at `first` and `second`."""
        return any(
            abs(other_first - first) <= EDGE_ALIGN_PT and abs(other_second - second) <= EDGE_ALIGN_PT
            for other, pairs in enumerate(pairs_of_rows)
            if other != number
            for other_first, other_second in pairs
        )

    def flush_right(number: int, start: float, end: float, next_start: float) -> bool:
        """Whether another row has a number of another width ending at `end` and a run starting at `next_start`."""
        return any(
            abs(other_end - end) <= EDGE_ALIGN_PT
            and abs(other_next - next_start) <= EDGE_ALIGN_PT
            and abs(other_start - start) > EDGE_ALIGN_PT
            for other, triples in enumerate(number_cells)
            if other != number
            for other_start, other_end, other_next in triples
        )

    def cut(number: int, row: _Row) -> _Row:
        pieces: list[list[Run]] = []
        for cell in row.cells:
            pieces.append([cell[0]])
            for left, right in itertools.pairwise(cell):
                number_first = pieces[-1] == [left] and _NUMBER.fullmatch(left.text.strip()) is not None
                if (
                    (_apart(left, right) and aligned(seams, number, left.x1, right.x0))
                    or (
                        number_first
                        and _touching_apart(left, right)
                        and flush_right(number, left.x0, left.x1, right.x0)
                    )
                    or (_numbers_apart(left, right) and aligned(number_seams, number, left.x1, right.x1))
                ):
                    pieces.append([right])
                else:
                    pieces[-1].append(right)
        return _Row(row.runs, pieces, row.top, row.bottom, row.columns)

    cut_rows = [cut(number, row) for number, row in enumerate(rows)]
    return cut_rows[: len(block)], cut_rows[-1] if header is not None else None


def _touching_apart(left: Run, right: Run) -> bool:
    """The runs' glyphs stand apart by their advances (ADVANCE_GAP_EM at least): not letters of one word."""
    return run_gaps(left, right)[1] >= ADVANCE_GAP_EM * max(left.size, right.size, 1.0)


def _numbers_apart(left: Run, right: Run) -> bool:
    """Two runs that are numbers (`1,250`, `-3.5`, `12%`), their glyphs apart by ADVANCE_GAP_EM at least."""
    return (
        _NUMBER.fullmatch(left.text.strip()) is not None
        and _NUMBER.fullmatch(right.text.strip()) is not None
        and _touching_apart(left, right)
    )


def _apart(left: Run, right: Run) -> bool:
    """The runs stand apart by their ink and by their glyphs' advances (a full-width `・` after a Latin run has
    wide side bearings, and no gap between the advances): `pdf_lines.run_gaps`."""
    return run_gaps(left, right)[1] >= NARROW_CELL_GAP_EM * max(left.size, right.size, 1.0)


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
    """The end of the run of tabular rows from `start`, close together and over the same stretch of the page; a
    wrapped cell's line between two of them (`_wraps`) goes with them."""
    if not _tabular(rows[start]):
        return start
    end = start + 1
    while end < len(rows):
        if _tabular(rows[end]) and _next_row(rows[end - 1], rows[end]):
            end += 1
        elif end + 1 < len(rows) and _wraps(rows[start:end], rows[end], rows[end + 1]):
            end += 2
        else:
            break
    return end


def _next_row(previous: _Row, row: _Row) -> bool:
    """The row stands within a row pitch below the previous one, over the same stretch of the page."""
    size = statistics.median(run.size for run in previous.runs + row.runs)
    overlap = min(previous.x1, row.x1) - max(previous.x0, row.x0)
    return row.top - previous.top <= MAX_ROW_PITCH_EM * size and overlap >= 0.5 * min(
        previous.x1 - previous.x0, row.x1 - row.x0
    )


def _wraps(block: list[_Row], line: _Row, below: _Row) -> bool:
    """Whether the one-cell line under the block is the rest of a cell of its last row: it lies inside one column
    of the block under a filled cell, a tabular row with its cells in the block's columns follows it, and it
    stands nearer the row above than the row below does (or, at the same pitch, reads on from the cell above:
    lower case, an open bracket)."""
    if len(line.cells) != 1 or not _tabular(below) or not _next_row(line, below) or not _next_row(block[-1], line):
        return False
    index = _cell_above(block, line)
    columns = _columns(block)
    in_columns = [_column_of(columns, _span(cell)) for cell in below.cells]
    if index is None or None in in_columns or len(set(in_columns)) < len(in_columns):
        return False
    nearer = line.top - block[-1].top < WRAP_PITCH_SHARE * (below.top - line.top)
    return nearer or _reads_on(_cell_text(block[-1].cells[index]), _cell_text(line.cells[0]))


def _cell_above(rows: list[_Row], line: _Row) -> int | None:
    """The index of the last row's cell in the one column of the rows that holds the line, if there is one."""
    columns = _columns(rows)
    column = _column_of(columns, (line.x0, line.x1))
    cells = [i for i, cell in enumerate(rows[-1].cells) if _column_of(columns, _span(cell)) == column]
    return cells[0] if column is not None and cells else None


def _column_of(columns: list[tuple[float, float]], span: tuple[float, float]) -> int | None:
    """The one column the span overlaps without reaching into its neighbours, if any."""
    x0, x1 = span
    inside = [i for i, (start, end) in enumerate(columns) if x0 < end and start < x1]
    if len(inside) != 1:
        return None
    index = inside[0]
    left = columns[index - 1][1] if index > 0 else float("-inf")
    right = columns[index + 1][0] if index + 1 < len(columns) else float("inf")
    return index if left < x0 and x1 < right else None


def _reads_on(above: str, text: str) -> bool:
    """The text reads as the rest of the cell above: it starts in lower case, or the cell above leaves a bracket
    open or ends on a joining mark."""
    return text[:1].islower() or above.count("(") > above.count(")") or above.endswith(("-", ",", "/", "&"))


def _folded(block: list[_Row]) -> list[_Row]:
    """The block's rows, each wrapped cell's line (a one-cell row `_block_end` let in) put into the cell above."""
    rows: list[_Row] = []
    for row in block:
        index = _cell_above(rows, row) if rows and len(row.cells) == 1 else None
        if index is None:
            rows.append(row)
            continue
        previous = rows[-1]
        cells = list(previous.cells)
        cells[index] = sorted(cells[index] + row.runs, key=lambda run: run.x0)
        rows[-1] = _Row(previous.runs + row.runs, cells, previous.top, row.bottom)
    return rows


def _span(cell: list[Run]) -> tuple[float, float]:
    return cell[0].x0, max(run.x1 for run in cell)


def _columns(rows: list[_Row]) -> list[tuple[float, float]]:
    merged: list[tuple[float, float]] = []
    spans = sorted(_span(cell) for row in rows for cell in row.cells)
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
    if block[0].top - row.top > 1.5 * pitch or row.x1 > columns[-1][1] + 3 * pitch:
        return None
    if row.x0 < columns[0][0] - pitch and not _far_left_heading(row, columns, block):
        return None
    by_column: dict[int, list[Run]] = {}
    last_of: dict[int, int] = {}
    flush_right: set[int] | None = None
    for cell in row.cells:
        placed: list[tuple[Run, int]] = []
        centred = False  # one heading centred over the columns it crosses
        for run in cell:
            inside = [i for i, (start, end) in enumerate(columns) if run.x0 < end and start < run.x1]
            if not inside:
                # Between two columns: the head of the one to its right when that column's cells end flush right
                # (a spreadsheet's numbers, right-aligned under a heading its cell sets at the left).
                flush_right = _flush_right(block, columns) if flush_right is None else flush_right
                inside = [i for i, (start, _) in enumerate(columns) if start >= run.x1][:1]
                inside = [i for i in inside if i in flush_right and (i == 0 or run.x0 >= columns[i - 1][1])]
                crossed: list[int] = []
            else:
                crossed = inside
            spanned = _centred_heading(run, columns, crossed) if len(cell) == 1 and len(inside) != 1 else None
            if spanned is not None:
                placed += [(run, spanned[0]), (run, spanned[1])]
                centred = True
                continue
            if len(inside) != 1 or width(_cell_text([run])) > MAX_CELL_CHARS:
                return None
            placed.append((run, inside[0]))
        if centred or _cuts_a_word(placed):  # one heading over two columns or more (a `colspan`)
            first, last = placed[0][1], placed[-1][1]
            if any(first <= column <= last for column in by_column):
                return None
            by_column[first] = list(cell)
            last_of[first] = last
            continue
        for run, column in placed:
            by_column.setdefault(column, []).append(run)
    if len(by_column) < 2:
        return None
    order = sorted(by_column)
    spans = [last_of.get(column, column) - column + 1 for column in order]
    return _Row(row.runs, [by_column[i] for i in order], row.top, row.bottom, order, spans if last_of else None)


def _far_left_heading(row: _Row, columns: list[tuple[float, float]], block: list[_Row]) -> bool:
    """Whether a row starting far left of the block's first column opens with the heading a spreadsheet sets at the
    left of a wide cell whose figures end flush right (its first cell ending before them)."""
    return row.cells[0][-1].x1 <= columns[0][0] and 0 in _flush_right(block, columns)


def _centred_heading(run: Run, columns: list[tuple[float, float]], crossed: list[int]) -> tuple[int, int] | None:
    """The first and last column of a heading (holding a letter or digit) centred over two columns or more, taking
    in those it crosses: over their gutter, or across them."""
    if not any(char.isalnum() for char in run.text):
        return None
    spanned = spanned_columns(run.x0, run.x1, columns)
    if spanned is None or (crossed and not spanned[0] <= crossed[0] <= crossed[-1] <= spanned[1]):
        return None
    return spanned


def _cuts_a_word(placed: list[tuple[Run, int]]) -> bool:
    """Whether runs placed in different columns meet inside a word: a letter or digit on both sides, no space
    between (a Latin heading centred over two columns, its glyphs falling on both)."""
    for (left, first), (right, second) in itertools.pairwise(placed):
        if first == second:
            continue
        end, start = left.text[-1:], right.text[:1]
        joined = end.isalnum() and start.isalnum() and not no_space_script(end) and not no_space_script(start)
        if joined and not left.written_space and right.x0 - left.x1 < SAME_WORD_GAP_EM * max(left.size, 1.0):
            return True
    return False


def _flush_right(block: list[_Row], columns: list[tuple[float, float]]) -> set[int]:
    """The columns whose cells in the block end at one x (within FLUSH_RIGHT_PT), two cells or more."""
    ends: dict[int, list[float]] = {}
    for row in block:
        for cell in row.cells:
            start, end = _span(cell)
            middle = (start + end) / 2
            column = next((i for i, (x0, x1) in enumerate(columns) if x0 <= middle <= x1), None)
            if column is not None:
                ends.setdefault(column, []).append(end)
    return {i for i, xs in ends.items() if len(xs) >= 2 and max(xs) - min(xs) <= FLUSH_RIGHT_PT}


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


def _table(
    block: list[_Row], above: _Row | None, page: int, group: _Row | None = None
) -> tuple[PlacedTable, list[_Row]] | None:
    """The block as a table with its header (the row above, or its first row regrouped), and a row of group
    headings over the header when the rows above it (`above`, and `group` above that) span its columns."""
    rows = _with_header(block, above)
    if rows is None:
        return None
    over = _headings_over_block(block, above, group)
    if over is not None:
        rows = block
    elif group is not None and above is not None and rows[0].runs is above.runs:
        over = [group]
    columns = _columns(rows[1:] if rows[0].columns is not None else rows)
    grid = _grid(rows, columns)
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
    if all(_BULLETED.match(text) for row in grid[1:] for text in row if text):
        return None  # lists side by side (a slide's two columns), every item opened by its bullet
    table_cells = [TableCell(row=r, col=c, text=text) for r, row in enumerate(grid) for c, text in enumerate(row)]
    if rows[0].spans is not None and rows[0].columns is not None:
        header = [(c, c + n - 1, grid[0][c]) for c, n in zip(rows[0].columns, rows[0].spans, strict=True)]
        table_cells = heading_row(header, len(columns)) + table_cells[len(columns) :]
    headings = _group_headings(over, rows, columns, _filled(grid[0])) if over is not None else None
    if headings is not None and over is not None:
        rows = [*over, *rows]
        headed_down = {heading.col for heading in headings if heading.rowspan == 2}
        table_cells = headings + [
            TableCell(row=cell.row + 1, col=cell.col, text=cell.text)
            for cell in table_cells
            if cell.row > 0 or cell.text or cell.col not in headed_down
        ]
    table = Table(
        cells=tuple(table_cells),
        n_rows=len(grid) + (headings is not None),
        n_cols=len(columns),
        page=page,
        header_rows=1 + (headings is not None),
    )
    x0 = min(row.x0 for row in rows)
    x1 = max(row.x1 for row in rows)
    return PlacedTable(table, x0, rows[0].top, x1, rows[-1].bottom), rows


def _grid(rows: list[_Row], columns: list[tuple[float, float]]) -> list[list[str]]:
    grid: list[list[str]] = []
    for row in rows:
        texts = ["" for _ in columns]
        for index, cell in enumerate(row.cells):
            middle = sum(_span(cell)) / 2
            if row.columns is not None:
                column = row.columns[index]
            else:
                column = next(i for i, (start, end) in enumerate(columns) if start <= middle <= end)
            texts[column] = join_lines([part for part in (texts[column], _cell_text(cell)) if part])
        grid.append(texts)
    return grid


def _filled(texts: list[str]) -> set[int]:
    return {column for column, text in enumerate(texts) if text}


def _headings_over_block(block: list[_Row], above: _Row | None, group: _Row | None) -> list[_Row] | None:
    """The rows above the block that are group headings over its first row as the header: the row above, or the
    two rows above (a heading set between them heads its column down both). None when they are not."""
    if above is None or len(block) < MIN_ROWS:
        return None
    columns = _columns(block)
    headed = _filled(_grid(block[:1], columns)[0])
    for over in ([above], [group, above]) if group is not None else ([above],):
        if _group_headings(over, block, columns, headed) is not None:
            return over
    return None


def _group_headings(
    over: list[_Row], rows: list[_Row], columns: list[tuple[float, float]], headed: set[int]
) -> list[TableCell] | None:
    """The cells of a row of group headings over the table's header (`rows[0]`; `headed`, the columns it fills):
    the rows `over` it, close above it, with fewer cells than it, one of them or more centred over two columns or
    more (a `colspan`). A heading over a column the header leaves empty heads it down both rows (a `rowspan`, set
    between the two rows or level with the group headings). None when they are not such a row."""
    header = rows[0]
    pitch = statistics.median(b.top - a.top for a, b in itertools.pairwise(rows[1:]))
    group_cells = [cell for row in over for cell in row.cells]
    if header.top - over[0].top > 1.5 * pitch or len(group_cells) >= len(header.cells):
        return None
    spans: list[Span] = []
    for cell in group_cells:
        start, end = _span(cell)
        spanned = spanned_columns(start, end, columns)
        single = column_of(start, end, columns)
        first, last = spanned if spanned is not None else (single, single)
        text = _cell_text(cell)
        if first is None or last is None or width(text) > MAX_CELL_CHARS or not any(c.isalnum() for c in text):
            return None
        if overlaps(first, last, spans) or (first == last and first in headed and len(over) > 1):
            return None
        spans.append((first, last, text))
    if not heads_a_group(spans, len(columns)):
        return None
    return heading_row(spans, len(columns), down=frozenset(range(len(columns))) - headed)
