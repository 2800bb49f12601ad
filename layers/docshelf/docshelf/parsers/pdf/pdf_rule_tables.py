"""Tables drawn with horizontal rules only (booktabs style: a top rule, a rule under the header, a bottom rule).

Between two or more long horizontal rules of the same extent, the text is cut into line fragments (a gap
wider than a font size ends a fragment, inside a text object too: TeX writes a row as one, `pdf_gaps`); a caption
between two rules separates two tables. The fragments' x coverage has empty stretches (gutters) that every
row respects. Only a region whose rows fill at least two columns on three or more rows, in short cells, is
taken: prose framed by rules (a boxed example, lined paper, two text columns between a header and a footer
rule) has long fragments or no gutter and stays running text. A line that leaves the first column empty and fills
only columns filled in the row above, nearer to it than the rows stand apart, is that row's cells wrapping on.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import statistics
from collections.abc import Callable

from docshelf.model import Table, TableCell
from docshelf.parsers.captions import CAPTION
from docshelf.parsers.pdf.pdf_gaps import roominess
from docshelf.parsers.pdf.pdf_lines import Line, build_lines, vertical_lines
from docshelf.parsers.pdf.pdf_paragraphs import join_lines
from docshelf.parsers.pdf.pdf_spans import Span, column_of, heading_row, heads_a_group, spanned_columns
from docshelf.parsers.pdf.pdf_tables import SAME_POSITION, TOLERANCE, PlacedTable, Rule, horizontal_rules
from docshelf.parsers.pdf.pdf_text import Run

MIN_RULE_WIDTH = 72.0  # one inch: shorter strokes are underlines, not table rules
MIN_ROWS = 3
MIN_COLUMN_ROWS = 3  # rows with text in two or more columns
MIN_MULTI_COLUMN_SHARE = 0.5
MAX_MEDIAN_CELL_CHARS = 30
MAX_CELL_CHARS = 120
MAX_ROWS = 80
SIDE_GAP = 24.0  # points: groups of rules at the same heights this far apart or less are one table's (`_side_by_side`)
MIN_RULES_BESIDE = 3
SAME_HEIGHTS_SHARE = 0.8
WRAP_PITCH_SHARE = 0.9  # a line this much nearer the line above than the rows' pitch wraps a row on
SAMPLED = 3  # runs measured first for gaps inside them
RunCutter = Callable[[Run], list[Run]]
_LABEL_START = re.compile(r"\s*(?:(?i:tab|fig|chart|diagram)|[图圖図表])")  # where a CAPTION line can start


def find_rule_tables(
    rules: list[Rule], runs: list[Run], page: int, grids: list[PlacedTable], cut: RunCutter | None = None
) -> tuple[list[PlacedTable], list[Run]]:
    """Tables bounded by aligned horizontal rules outside the ruled grids, and the runs left outside them. `cut` puts a
    run between the rules in pieces at its wide gaps (a row written as one text object, `pdf_gaps`)."""
    outside = [rule for rule in horizontal_rules(rules) if not any(_within(rule, grid) for grid in grids)]
    horizontal = [rule for rule in outside if rule[2] - rule[0] >= MIN_RULE_WIDTH]
    groups = _side_by_side(_aligned_groups(horizontal), _aligned_groups(outside))
    tables: list[PlacedTable] = []
    remaining = runs
    for group in (part for rules_of_width in groups for part in _apart(rules_of_width, runs)):
        placed, remaining = _rule_table(group, remaining, page, cut)
        if placed is not None:
            tables.append(placed)
    return tables, remaining


def _within(rule: Rule, grid: PlacedTable) -> bool:
    middle = (rule[1] + rule[3]) / 2
    overlaps = rule[0] < grid.x1 and grid.x0 < rule[2]
    return overlaps and grid.top - SAME_POSITION <= middle <= grid.bottom + SAME_POSITION


def _aligned_groups(rules: list[Rule]) -> list[list[Rule]]:
    """Rules with the same left and right ends (within SAME_POSITION), two or more, each group top-down."""
    groups: list[list[Rule]] = []
    for rule in sorted(rules, key=lambda r: r[1]):
        for group in groups:
            if abs(group[0][0] - rule[0]) <= SAME_POSITION and abs(group[0][2] - rule[2]) <= SAME_POSITION:
                if rule[1] - group[-1][3] > SAME_POSITION:  # double rules count once
                    group.append(rule)
                break
        else:
            groups.append([rule])
    return [group for group in groups if len(group) >= 2]


def _side_by_side(groups: list[list[Rule]], segments: list[list[Rule]]) -> list[list[Rule]]:
    """The groups, with those drawn at the same heights side by side a gutter apart (a spreadsheet underlines each
    group of columns apart) joined into one group spanning them, and so are shorter segments (`segments`: groups of
    any width) at those heights beside them, a column too narrow for MIN_RULE_WIDTH."""
    joined: list[list[Rule]] = []
    for group in sorted(groups, key=lambda g: g[0][0]):
        if joined and _beside(joined[-1], group):
            joined[-1] = _spanning(joined[-1], group)
        else:
            joined.append(group)
    result: list[list[Rule]] = []
    for group in joined:
        for segment in sorted(segments, key=lambda g: g[0][0]):
            if segment[0][2] - segment[0][0] < MIN_RULE_WIDTH and _beside(group, segment):
                group = _spanning(group, segment)
        result.append(group)
    return result


def _beside(left: list[Rule], right: list[Rule]) -> bool:
    """Whether `right` stands a gutter right of `left`, both of MIN_RULES_BESIDE rules or more, and most rules of
    the one with fewer lie at the heights of the other's."""
    gap = right[0][0] - left[0][2]
    if not 0.0 <= gap <= SIDE_GAP or min(len(left), len(right)) < MIN_RULES_BESIDE:
        return False
    fewer, more = sorted((left, right), key=len)
    matched = sum(1 for rule in fewer if any(abs(rule[1] - other[1]) <= SAME_POSITION for other in more))
    return matched >= SAME_HEIGHTS_SHARE * len(fewer)


def _spanning(left: list[Rule], right: list[Rule]) -> list[Rule]:
    """`left`'s rules drawn across both groups."""
    return [(rule[0], rule[1], right[0][2], rule[3]) for rule in left]


def _apart(rules: list[Rule], runs: list[Run]) -> list[list[Rule]]:
    """The rules of one width cut into the tables they frame: a caption line between two of them (`Table 2: …` under
    the bottom rule of one table and over the top rule of the next) lies outside any table."""
    starts = [run for run in runs if _LABEL_START.match(run.text)] if len(rules) >= 3 else []
    if not starts:
        return [rules]
    parts = [[rules[0]]]
    for above, below in itertools.pairwise(rules):
        if any(_between(run, above, below) and _starts_caption(run, runs) for run in starts):
            parts.append([])
        parts[-1].append(below)
    return [part for part in parts if len(part) >= 2]


def _starts_caption(run: Run, runs: list[Run]) -> bool:
    """Whether the run and those after it on its line read as a caption (its label and number can be runs of their
    own: `表` `5.2:`)."""
    height = run.bottom - run.top
    line = [
        other
        for other in runs
        if other.x0 >= run.x0 and min(other.bottom, run.bottom) - max(other.top, run.top) >= 0.5 * height
    ]
    return CAPTION.match(" ".join(other.text.strip() for other in sorted(line, key=lambda other: other.x0))) is not None


def _between(run: Run, above: Rule, below: Rule) -> bool:
    middle = (run.top + run.bottom) / 2
    return above[3] < middle < below[1] and above[0] - TOLERANCE <= run.x0 and run.x1 <= above[2] + TOLERANCE


def _rule_table(
    rules: list[Rule], runs: list[Run], page: int, cut: RunCutter | None
) -> tuple[PlacedTable | None, list[Run]]:
    x0, x1 = min(r[0] for r in rules) - TOLERANCE, max(r[2] for r in rules) + TOLERANCE
    top, bottom = rules[0][3], rules[-1][1]
    inside: list[Run] = []
    outside: list[Run] = []
    turned: list[Run] = []  # text turned on its side between the rules: a sheet's headings over narrow columns
    for run in runs:
        middle_y = (run.top + run.bottom) / 2
        framed = x0 <= run.x0 and run.x1 <= x1 and top < middle_y < bottom
        (turned if framed and run.vertical else inside if framed else outside).append(run)
    if not inside:
        return None, runs
    if cut is not None:
        inside = _cut(inside, cut)
    fragments = build_lines(inside)
    if any(fragment.rtl for fragment in fragments):
        return None, runs
    rows = _text_rows(fragments)
    columns = _columns(fragments)
    if not MIN_ROWS <= len(rows) <= MAX_ROWS or len(columns) < 2:
        return None, runs
    columns, spanning = _with_spanning_headings(rules, rows, columns)
    grid = _grid(rows, columns)
    cells = [text for row in grid for text in row if text]
    multi_column_rows = sum(1 for row in grid if sum(1 for text in row if text) >= 2)
    if spanning is not None and sum(1 for text in grid[0] if text) < 2 <= sum(1 for cell in spanning if cell.text):
        multi_column_rows += 1  # the header's headings span columns
    if multi_column_rows < MIN_COLUMN_ROWS or multi_column_rows < MIN_MULTI_COLUMN_SHARE * len(grid):
        return None, runs
    if statistics.median(len(text) for text in cells) > MAX_MEDIAN_CELL_CHARS or max(map(len, cells)) > MAX_CELL_CHARS:
        return None, runs
    if any(sum(1 for row in grid if row[index]) < 2 for index in range(len(columns))):
        return None, runs  # a column filled once is a stray label, not a column
    # The evidence above is taken line by line; the table's rows take in the lines that wrap them on.
    rows = _folded(rows, columns)
    grid = _grid(rows, columns)
    header_rows = _header_rows(rules, rows)
    group = _header_spans(rows, columns, grid, header_rows, one_row=spanning is not None)
    headings = _turned_headings(turned, columns, rows) if group is None else None
    if headings is None:
        outside += turned
    else:
        grid.insert(headings[0], headings[1])
        header_rows = max(header_rows, headings[0] + 1)
    table_cells = [TableCell(row=r, col=c, text=text) for r, row in enumerate(grid) for c, text in enumerate(row)]
    if group is not None:
        # A heading of the first row over a column the second leaves empty heads that column down both.
        down = {
            cell.col for cell in group if header_rows >= 2 and cell.text and cell.colspan == 1 and not grid[1][cell.col]
        }
        group = [dataclasses.replace(cell, rowspan=2) if cell.col in down and cell.text else cell for cell in group]
        table_cells = group + [
            cell for cell in table_cells if cell.row > 0 and not (cell.row == 1 and cell.col in down)
        ]
    table = Table(
        cells=tuple(table_cells),
        n_rows=len(grid),
        n_cols=len(columns),
        page=page,
        header_rows=header_rows,
    )
    return PlacedTable(table, x0, rules[0][1], x1, rules[-1][3]), outside


def _turned_headings(
    turned: list[Run], columns: list[tuple[float, float]], rows: list[list[Line]]
) -> tuple[int, list[str]] | None:
    """The headings set on their side over the columns (each vertical line in the column nearest its middle, the
    lines of one column left to right), and the index of the first row below them; None unless two columns or more
    have one."""
    if not turned:
        return None
    lines = sorted(vertical_lines(turned), key=lambda line: line.x0)
    cells = [""] * len(columns)
    for line in lines:
        middle = (line.x0 + line.x1) / 2
        index = min(range(len(columns)), key=lambda i: max(columns[i][0] - middle, middle - columns[i][1], 0.0))
        cells[index] = join_lines([cells[index], line.text]) if cells[index] else line.text
    if sum(1 for cell in cells if cell) < 2:
        return None
    bottom = max(line.bottom for line in lines)
    below = next((i for i, row in enumerate(rows) if min(line.top for line in row) >= bottom - TOLERANCE), len(rows))
    return below, cells


def _with_spanning_headings(
    rules: list[Rule], rows: list[list[Line]], columns: list[tuple[float, float]]
) -> tuple[list[tuple[float, float]], list[TableCell] | None]:
    """The columns of the rows below the first, and the first row's cells spanning them, when a heading of the
    first row crosses the gutters of the columns it heads or stands in one; else the columns and None."""
    body_columns = _columns([fragment for row in rows[1:] for fragment in row])
    if body_columns == columns:
        return columns, None
    if _header_rows(rules, rows) >= 2:
        spanning = _group_row(rows, body_columns, _grid(rows[:2], body_columns))
    else:
        spanning = _spanning_cells(rows[0], body_columns, inside_stays=True)
    return (body_columns, spanning) if spanning is not None else (columns, None)


def _header_spans(
    rows: list[list[Line]],
    columns: list[tuple[float, float]],
    grid: list[list[str]],
    header_rows: int,
    *,
    one_row: bool,
) -> list[TableCell] | None:
    """The first row's cells when its headings span columns: group headings over a second header row, or (when
    `one_row`, the columns having been taken under such headings) a one-row header's."""
    if header_rows >= 2:
        return _group_row(rows, columns, grid)
    return _spanning_cells(rows[0], columns, inside_stays=True) if one_row else None


def _grid(rows: list[list[Line]], columns: list[tuple[float, float]]) -> list[list[str]]:
    return [[_cell_text(row, start, end) for start, end in columns] for row in rows]


def _group_row(
    rows: list[list[Line]], columns: list[tuple[float, float]], grid: list[list[str]]
) -> list[TableCell] | None:
    """The first row's cells when it is a row of group headings over the header row below it (the caller checks
    that the rule under the header has both above it): fewer cells than that row, one of them or more centred over
    two columns or more but not all (`\\multicolumn`), each given the columns it spans. None when it is not."""
    if len(rows) < 3 or sum(1 for text in grid[0] if text) >= sum(1 for text in grid[1] if text):
        return None
    return _spanning_cells(rows[0], columns, inside_stays=False) or _odd_groups(rows[0], columns, grid)


def _odd_groups(row: list[Line], columns: list[tuple[float, float]], grid: list[list[str]]) -> list[TableCell] | None:
    """Group headings each centred over an odd number of columns, so over the middle one (`Top-20` over five
    datasets, then `Top-100` over the same five): each spans the columns on both sides, as many as it can, that it
    alone heads (empty in its row, headed in the row below). Two such groups or more, else None: one heading centred
    over its own column is that column's."""
    claimed = {column for fragment in row if (column := column_of(fragment.x0, fragment.x1, columns)) is not None}
    spans: list[Span] = []
    for fragment in sorted(row, key=lambda item: item.x0):
        centre = column_of(fragment.x0, fragment.x1, columns)
        if centre is None:
            return None
        reach = 0
        while all(
            0 <= column < len(columns) and column not in claimed and not grid[0][column] and grid[1][column]
            for column in (centre - reach - 1, centre + reach + 1)
        ):
            reach += 1
        claimed.update(range(centre - reach, centre + reach + 1))
        spans.append((centre - reach, centre + reach, fragment.text))
    if sum(1 for first, last, _ in spans if first < last) < 2:
        return None
    return heading_row(spans, len(columns))


def _spanning_cells(
    row: list[Line], columns: list[tuple[float, float]], *, inside_stays: bool
) -> list[TableCell] | None:
    """The row's cells with the columns each spans, when one or more spans two columns or more but not all (a text
    centred over them or, failing that, crossing the gutters between them), or a text holds one heading per column
    it crosses. With `inside_stays` a text within one column's extent heads that column whatever its place (a
    one-row header's headings are set as they like). None when no cell spans, when two overlap, or when a text heads
    no column or holds no letter or digit."""
    spans: dict[int, tuple[int, list[Line]]] = {}
    split = False
    for fragment in sorted(row, key=lambda item: item.x0):
        single = column_of(fragment.x0, fragment.x1, columns)
        spanned = None
        if not (inside_stays and single is not None and _inside(fragment, columns[single])):
            spanned = spanned_columns(fragment.x0, fragment.x1, columns) or _crossed(fragment, columns)
        if spanned is None and single is not None:
            spanned = (single, single)
        if spanned is None or not any(char.isalnum() for char in fragment.text):
            return None
        first, last = spanned
        words = _words_in_columns(fragment, columns, first, last) if first < last else None
        if words is not None:  # headings of their own columns written as one text object
            for column, word in enumerate(words, start=first):
                if column in spans or any(start <= column <= end for start, (end, _) in spans.items()):
                    return None
                spans[column] = (column, [word])
            split = True
            continue
        if first in spans and spans[first][0] == last:
            spans[first][1].append(fragment)
        elif any(start <= last and first <= end for start, (end, _) in spans.items()):
            return None
        else:
            spans[first] = (last, [fragment])
    headings = [(first, last, join_lines([f.text for f in fragments])) for first, (last, fragments) in spans.items()]
    if not split and not heads_a_group(headings, len(columns)):
        return None
    return heading_row(headings, len(columns))


def _words_in_columns(fragment: Line, columns: list[tuple[float, float]], first: int, last: int) -> list[Line] | None:
    """The fragment's words as fragments of their own, when it holds one word per column from `first` to `last` and
    each word, placed by its share of the characters, stands in its column; else None."""
    words = fragment.text.split()
    if len(words) != last - first + 1 or len(fragment.text) == 0:
        return None
    per_char = (fragment.x1 - fragment.x0) / len(fragment.text)
    pieces: list[Line] = []
    offset = 0
    for word, (start, end) in zip(words, columns[first : last + 1], strict=True):
        offset = fragment.text.index(word, offset)
        x0, x1 = fragment.x0 + offset * per_char, fragment.x0 + (offset + len(word)) * per_char
        if not start - TOLERANCE <= (x0 + x1) / 2 <= end + TOLERANCE:
            return None
        pieces.append(dataclasses.replace(fragment, text=word, x0=x0, x1=x1))
        offset += len(word)
    return pieces


def _inside(fragment: Line, column: tuple[float, float]) -> bool:
    return column[0] - TOLERANCE <= fragment.x0 and fragment.x1 <= column[1] + TOLERANCE


def _crossed(fragment: Line, columns: list[tuple[float, float]]) -> tuple[int, int] | None:
    """The first and last of the two or more columns a text overlaps, or None."""
    overlapped = [index for index, (start, end) in enumerate(columns) if fragment.x0 < end and start < fragment.x1]
    return (overlapped[0], overlapped[-1]) if len(overlapped) >= 2 else None


def _cut(runs: list[Run], cut: RunCutter) -> list[Run]:
    """The runs in pieces at their wide gaps (a table takes all the pieces; without one the whole runs stay), when one
    of the SAMPLED roomiest has such gaps: a table whose rows are each one text object shows it in its roomiest rows,
    and a page's text between rules (a contents page underlined line by line) is not measured run by run."""
    sample = sorted(runs, key=roominess, reverse=True)[:SAMPLED]
    measured = {id(run): cut(run) for run in sample if roominess(run) > 0}
    if not any(len(pieces) > 1 for pieces in measured.values()):
        return runs
    return [piece for run in runs for piece in measured.get(id(run)) or cut(run)]


def _text_rows(fragments: list[Line]) -> list[list[Line]]:
    """Fragments grouped into visual rows (vertical overlap of half the smaller height), top-down."""
    rows: list[list[Line]] = []
    row_bottom = float("-inf")
    for fragment in sorted(fragments, key=lambda f: f.top):
        if rows and fragment.top < row_bottom - 0.5 * min(fragment.height, row_bottom - rows[-1][0].top):
            rows[-1].append(fragment)
            row_bottom = max(row_bottom, fragment.bottom)
        else:
            rows.append([fragment])
            row_bottom = fragment.bottom
    return rows


def _folded(rows: list[list[Line]], columns: list[tuple[float, float]]) -> list[list[Line]]:
    """The rows with each wrapped line put into the row above: a line that leaves the first column empty, fills
    only columns the row above fills, and stands nearer the line above than the median pitch of the lines that
    start a row (those with a first cell) and no further from it than from the line below (an accent set on a
    line of its own over the next row's letter stays out)."""
    tops = [min(fragment.top for fragment in row) for row in rows]
    filled = [{i for i, (start, end) in enumerate(columns) if _cell_text(row, start, end)} for row in rows]
    starts = [tops[i] - tops[i - 1] for i in range(1, len(rows)) if 0 in filled[i]]
    if not starts:
        return rows
    pitch = statistics.median(starts)
    folded = [list(rows[0])]
    above = set(filled[0])
    for i in range(1, len(rows)):
        gap = tops[i] - tops[i - 1]
        nearer = gap < WRAP_PITCH_SHARE * pitch and (i + 1 == len(rows) or gap <= tops[i + 1] - tops[i])
        if nearer and 0 not in filled[i] and filled[i] <= above:
            folded[-1].extend(rows[i])
        else:
            folded.append(list(rows[i]))
            above = set()
        above |= filled[i]
    return folded


def _columns(fragments: list[Line]) -> list[tuple[float, float]]:
    """The x intervals covered by fragments: the empty stretches between them are the column gutters."""
    merged: list[tuple[float, float]] = []
    for start, end in sorted((fragment.x0, fragment.x1) for fragment in fragments):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _cell_text(row: list[Line], start: float, end: float) -> str:
    """The cell's fragments line by line, each line left to right: fragments set in other fonts or weights sit a
    little higher or lower on the same line and must not be read after it."""
    lines = _text_rows([f for f in row if start <= f.x0 and f.x1 <= end])
    return join_lines([part.text for line in lines for part in sorted(line, key=lambda f: f.x0)])


def _header_rows(rules: list[Rule], rows: list[list[Line]]) -> int:
    """Rows above the first inner rule (the rule under the header), or one."""
    if len(rules) < 3:
        return 1
    inner = rules[1][1]
    above = sum(1 for row in rows if max(fragment.bottom for fragment in row) <= inner + TOLERANCE)
    return above if 0 < above < len(rows) else 1
