"""Ruled tables: grids drawn with horizontal and vertical rules, filled with the text runs inside them.

Only ruled grids are taken (at least three horizontal rules joined by a vertical one, 2x2 cells or more,
enough of them holding text, two rules across the whole width; the horizontal rules' ends may stand in for
outer borders, and column rules reaching past them for a header band's edges). Rules drawn one cell edge at a
time are joined first; a text object spanning several cells (one object per row) is cut at the column rules
from its characters' boxes. A band between two horizontal rules whose cells all hold the same number of lines on
the same baselines holds that many rows (column rules without a rule between the rows). Everything else stays
running text, so a table's text is never emitted twice.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass

from docshelf.model import Table, TableCell
from docshelf.parsers.pdf.pdf_lines import build_lines
from docshelf.parsers.pdf.pdf_paragraphs import join_lines
from docshelf.parsers.pdf.pdf_text import Run

Rule = tuple[float, float, float, float]  # x0, top, x1, bottom
CellLine = tuple[float, float, list[str]]  # top, bottom, the texts of its fragments
RunSplitter = Callable[[Run, list[float]], "list[Run] | None"]
TOLERANCE = 2.0
SAME_POSITION = 6.0  # rules closer than this are one grid line (double rules, borders drawn as thin boxes)
MAX_RULES = 3000
MIN_FILLED_SHARE = 0.3
MIN_FILLED_CELLS = 4
FULL_WIDTH_SHARE = 0.9  # a table has at least two horizontal rules across (nearly) its whole width
MAX_CELL_CHARS = 400  # a frame around running text (a sidebar, a boxed page) is not a data table


@dataclass(slots=True)
class PlacedTable:
    table: Table
    x0: float
    top: float
    x1: float
    bottom: float


class _UnionFind:
    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, item: int) -> int:
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def union(self, a: int, b: int) -> None:
        self.parent[self.find(a)] = self.find(b)


def find_tables(
    rules: list[Rule], runs: list[Run], page: int, split: RunSplitter | None = None
) -> tuple[list[PlacedTable], list[Run]]:
    """Ruled tables on the page and the runs left outside them. `split` cuts a text object that spans several
    cells (one object per table row) at the column rules; without it such a grid is not taken as a table."""
    horizontal = horizontal_rules(rules)
    vertical, joints = _joined([r for r in rules if r[2] - r[0] <= TOLERANCE < r[3] - r[1]], vertical=True)
    if len(horizontal) < 3 or not vertical or len(rules) > MAX_RULES:
        return [], runs
    tables: list[PlacedTable] = []
    remaining = runs
    for h_group, v_group in _components(horizontal, vertical):
        placed, remaining = _grid_table(h_group, v_group, joints, remaining, page, split)
        if placed is not None:
            tables.append(placed)
    return tables, remaining


def horizontal_rules(rules: list[Rule]) -> list[Rule]:
    """The horizontal rules, collinear pieces joined."""
    return _joined([r for r in rules if r[3] - r[1] <= TOLERANCE < r[2] - r[0]], vertical=False)[0]


def _joined(rules: list[Rule], *, vertical: bool) -> tuple[list[Rule], list[float]]:
    """Collinear rules that meet or overlap become one (grid lines drawn one cell edge at a time), with the
    positions along the line where one piece ended and the next began."""
    if len(rules) > MAX_RULES:
        return rules, []
    lines: list[tuple[float, float, float]] = []  # position across, start, end
    joints: list[float] = []
    for position, start, end in sorted(
        ((r[0] + r[2]) / 2, r[1], r[3]) if vertical else ((r[1] + r[3]) / 2, r[0], r[2]) for r in rules
    ):
        if lines and position - lines[-1][0] <= TOLERANCE / 2 and start <= lines[-1][2] + TOLERANCE:
            if abs(start - lines[-1][2]) <= TOLERANCE:
                joints.append((start + lines[-1][2]) / 2)
            lines[-1] = (lines[-1][0], lines[-1][1], max(lines[-1][2], end))
        else:
            lines.append((position, start, end))
    half = TOLERANCE / 4
    if vertical:
        return [(p - half, start, p + half, end) for p, start, end in lines], joints
    return [(start, p - half, end, p + half) for p, start, end in lines], joints


def _touches(h: Rule, v: Rule) -> bool:
    return (
        v[0] - TOLERANCE <= h[2] and h[0] - TOLERANCE <= v[2] and h[1] - TOLERANCE <= v[3] and v[1] - TOLERANCE <= h[3]
    )


def _components(horizontal: list[Rule], vertical: list[Rule]) -> list[tuple[list[Rule], list[Rule]]]:
    sets = _UnionFind(len(horizontal) + len(vertical))
    for i, h in enumerate(horizontal):
        for j, v in enumerate(vertical):
            if _touches(h, v):
                sets.union(i, len(horizontal) + j)
    groups: dict[int, tuple[list[Rule], list[Rule]]] = {}
    for i, h in enumerate(horizontal):
        groups.setdefault(sets.find(i), ([], []))[0].append(h)
    for j, v in enumerate(vertical):
        groups.setdefault(sets.find(len(horizontal) + j), ([], []))[1].append(v)
    return [group for group in groups.values() if len(group[0]) >= 3 and group[1]]


def _positions(values: list[float]) -> list[float]:
    clusters: list[list[float]] = []
    for value in sorted(values):
        if clusters and value - clusters[-1][-1] <= SAME_POSITION:
            clusters[-1].append(value)
        else:
            clusters.append([value])
    return [sum(cluster) / len(cluster) for cluster in clusters]


def _grid_table(
    horizontal: list[Rule],
    vertical: list[Rule],
    joints: list[float],
    runs: list[Run],
    page: int,
    split: RunSplitter | None,
) -> tuple[PlacedTable | None, list[Run]]:
    # Open-sided tables have no outer verticals: the horizontal rules' ends are the table's sides.
    verticals = [(v[0] + v[2]) / 2 for v in vertical]
    sides = [min(h[0] for h in horizontal), max(h[2] for h in horizontal)]
    xs = _positions(verticals + [x for x in sides if min(abs(x - v) for v in verticals) > SAME_POSITION])
    closing = _open_ends(vertical, horizontal, joints)
    horizontal = horizontal + [(xs[0], y, xs[-1], y) for y in closing]
    ys = _positions([(h[1] + h[3]) / 2 for h in horizontal])
    n_rows, n_cols = len(ys) - 1, len(xs) - 1
    if n_rows < 1 or n_cols < 2 or n_rows * n_cols < 4:
        return None, runs
    spanning = sum(1 for h in horizontal if h[2] - h[0] >= FULL_WIDTH_SHARE * (xs[-1] - xs[0]))
    if spanning < 2:
        return None, runs  # boxes and connectors of a diagram, not the row lines of a table
    cells = _UnionFind(n_rows * n_cols)
    for r in range(n_rows):
        middle_y = (ys[r] + ys[r + 1]) / 2
        for c in range(n_cols):
            if c + 1 < n_cols and not _ruled(vertical, xs[c + 1], middle_y, vertical=True):
                cells.union(r * n_cols + c, r * n_cols + c + 1)
            if r + 1 < n_rows and not _ruled(horizontal, ys[r + 1], (xs[c] + xs[c + 1]) / 2, vertical=False):
                cells.union(r * n_cols + c, (r + 1) * n_cols + c)
    for x in xs[1:-1]:
        ruled_rows = sum(1 for r in range(n_rows) if _ruled(vertical, x, (ys[r] + ys[r + 1]) / 2, vertical=True))
        if ruled_rows * 2 < n_rows:
            return None, runs  # a stray vertical rule, not a column separator
    inside: list[Run] = []
    outside: list[Run] = []
    for run in runs:
        x, y = (run.x0 + run.x1) / 2, (run.top + run.bottom) / 2
        (inside if xs[0] < x < xs[-1] and ys[0] < y < ys[-1] else outside).append(run)
    framed = _framed_runs(inside, xs, vertical, split)
    if framed is None:
        return None, runs
    texts: dict[int, list[Run]] = {}
    for run in framed:
        x, y = (run.x0 + run.x1) / 2, (run.top + run.bottom) / 2
        r, c = bisect.bisect(ys, y) - 1, bisect.bisect(xs, x) - 1
        texts.setdefault(cells.find(r * n_cols + c), []).append(run)
    table = _table(cells, texts, n_rows, n_cols, page)
    if table is None:
        return None, runs
    return PlacedTable(table, xs[0], ys[0], xs[-1], ys[-1]), outside


def _open_ends(vertical: list[Rule], horizontal: list[Rule], joints: list[float]) -> list[float]:
    """Where several column rules reach past the first or last horizontal rule, their ends close the table
    and the places where they were drawn in pieces separate its rows there (a header row on a filled band)."""
    first, last = min(h[1] for h in horizontal), max(h[3] for h in horizontal)
    ends: list[float] = []
    tops = sorted(v[1] for v in vertical if v[1] < first - SAME_POSITION)
    if len(tops) >= 2:
        ends.append(tops[-2])
    bottoms = sorted((v[3] for v in vertical if v[3] > last + SAME_POSITION), reverse=True)
    if len(bottoms) >= 2:
        ends.append(bottoms[-2])
    top, bottom = min([*ends, first]), max([*ends, last])
    outside = [y for y in joints if top < y < first - SAME_POSITION or last + SAME_POSITION < y < bottom]
    return ends + [y for y in outside if sum(1 for other in outside if abs(other - y) <= TOLERANCE) >= 2]


def _framed_runs(runs: list[Run], xs: list[float], vertical: list[Rule], split: RunSplitter | None) -> list[Run] | None:
    """The runs with those spanning drawn column separators cut at them; None when text runs through a
    separator (the rules do not frame this text)."""
    result: list[Run] = []
    for run in runs:
        middle = (run.top + run.bottom) / 2
        cuts = [
            x
            for x in xs[1:-1]
            if run.x0 < x - TOLERANCE and run.x1 > x + TOLERANCE and _ruled(vertical, x, middle, vertical=True)
        ]
        if not cuts:
            result.append(run)
            continue
        pieces = split(run, cuts) if split is not None else None
        if pieces is None:
            return None
        result.extend(pieces)
    return result


def _ruled(rules: list[Rule], position: float, across: float, *, vertical: bool) -> bool:
    for x0, top, x1, bottom in rules:
        centre, start, end = ((x0 + x1) / 2, top, bottom) if vertical else ((top + bottom) / 2, x0, x1)
        if abs(centre - position) <= SAME_POSITION and start - TOLERANCE <= across <= end + TOLERANCE:
            return True
    return False


def _table(cells: _UnionFind, texts: dict[int, list[Run]], n_rows: int, n_cols: int, page: int) -> Table | None:
    spans: dict[int, tuple[int, int, int, int]] = {}
    for index in range(n_rows * n_cols):
        r, c = divmod(index, n_cols)
        root = cells.find(index)
        r0, c0, r1, c1 = spans.get(root, (r, c, r, c))
        spans[root] = (min(r0, r), min(c0, c), max(r1, r), max(c1, c))
    lines = {root: _cell_lines(texts.get(root, [])) for root in spans}
    # The header band (above the first inner rule of a table with several bands) stays one row: its cells' lines are
    # a header's words wrapping, not rows.
    split = [1 if r == 0 < n_rows - 1 else _band_rows(r, spans, lines) for r in range(n_rows)]
    starts = [sum(split[:r]) for r in range(n_rows + 1)]
    result: list[TableCell] = []
    for root, (r0, c0, r1, c1) in sorted(spans.items(), key=lambda item: item[1][:2]):
        colspan = c1 - c0 + 1
        if split[r0] > 1:  # a filled cell has a line on each of the band's rows, an empty one none
            texts_by_row = [join_lines(parts) for _, _, parts in lines[root]] or [""] * split[r0]
            result.extend(
                TableCell(row=starts[r0] + offset, col=c0, text=text, colspan=colspan)
                for offset, text in enumerate(texts_by_row)
            )
            continue
        text = join_lines([part for _, _, parts in lines[root] for part in parts])
        result.append(
            TableCell(row=starts[r0], col=c0, text=text, rowspan=starts[r1 + 1] - starts[r0], colspan=colspan)
        )
    filled = sum(1 for cell in result if cell.text)
    too_long = any(len(cell.text) > MAX_CELL_CHARS for cell in result)
    if too_long or filled < MIN_FILLED_CELLS or filled < MIN_FILLED_SHARE * len(result):
        return None
    return Table(cells=tuple(result), n_rows=starts[-1], n_cols=n_cols, page=page, header_rows=1)


def _cell_lines(runs: list[Run]) -> list[CellLine]:
    """The cell's visual lines top-down: top, bottom and the texts of the line's fragments, left to right."""
    result: list[CellLine] = []
    for line in build_lines(runs):
        if result and line.top < result[-1][1] - 0.5 * min(line.height, result[-1][1] - result[-1][0]):
            top, bottom, parts = result[-1]
            result[-1] = (min(top, line.top), max(bottom, line.bottom), [*parts, line.text])
        else:
            result.append((line.top, line.bottom, [line.text]))
    return result


def _band_rows(band: int, spans: dict[int, tuple[int, int, int, int]], lines: dict[int, list[CellLine]]) -> int:
    """How many table rows a band between two horizontal rules holds: as many as its cells' lines where every filled
    cell has that many lines, each on the same baselines as the others' (a table with column rules but no rule
    between its rows); one where a cell spans bands or the cells' lines differ (a cell wrapping in one column)."""
    in_band = [root for root, (r0, _, r1, _) in spans.items() if r0 <= band <= r1]
    if any(spans[root][0] != spans[root][2] for root in in_band):
        return 1
    filled = [lines[root] for root in in_band if lines[root]]
    count = len(filled[0]) if filled else 0
    if len(filled) < 2 or count < 2 or any(len(cell) != count for cell in filled):
        return 1
    for index in range(count):
        tops, bottoms = [cell[index][0] for cell in filled], [cell[index][1] for cell in filled]
        height = min(bottom - top for top, bottom in zip(tops, bottoms, strict=True))
        if min(bottoms) - max(tops) < 0.5 * height:
            return 1  # the cells' lines do not share baselines
    return count
