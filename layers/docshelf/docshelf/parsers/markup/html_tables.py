"""HTML-style tables (`table/tr/td` with rowspan/colspan, also used by JATS) into Table blocks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from lxml import etree

from docshelf.model import Table, TableCell

MAX_COLSPAN = 1000
MAX_ROWSPAN = 65534
# Grid positions the spans of one table may cover; past it, spans count as 1 (the text is kept).
MAX_SPAN_AREA = 250_000
_SECTIONS = {"thead", "tbody", "tfoot"}

CellText = Callable[[etree._Element], str]


def local_name(element: etree._Element) -> str:
    tag = element.tag
    if not isinstance(tag, str):
        return ""
    return tag.rsplit("}", 1)[-1].lower()


@dataclass(slots=True)
class RawCell:
    row: int
    col: int
    text: str
    rowspan: int
    colspan: int


def table_rows(table: etree._Element) -> Iterator[tuple[etree._Element, bool]]:
    """The table's own rows (not those of nested tables), each with whether it sits in a thead."""
    for child in table:
        name = local_name(child)
        if name == "tr":
            yield child, False
        elif name in _SECTIONS:
            for row in child:
                if local_name(row) == "tr":
                    yield row, name == "thead"


def _span(element: etree._Element, attribute: str, upper: int) -> int:
    raw = str(element.get(attribute, "1")).strip()
    digits = "".join(ch for ch in raw.split(".")[0] if ch.isdigit())
    return max(1, min(int(digits), upper)) if digits else 1


def table_from_element(table: etree._Element, cell_text: CellText, *, page: int, caption: str = "") -> Table | None:
    """Lay the cells out on a grid (honouring spans), drop empty rows and columns; None if no cell has text."""
    cells: list[RawCell] = []
    occupied: set[tuple[int, int]] = set()
    header_flags: list[bool] = []
    rows = list(table_rows(table))
    for r, (row, in_thead) in enumerate(rows):
        col = 0
        all_th = True
        has_cell = False
        for element in row:
            name = local_name(element)
            if name not in ("td", "th"):
                continue
            has_cell = True
            all_th = all_th and name == "th"
            while (r, col) in occupied:
                col += 1
            rowspan = min(_span(element, "rowspan", MAX_ROWSPAN), len(rows) - r)
            colspan = _span(element, "colspan", MAX_COLSPAN)
            if len(occupied) + rowspan * colspan > MAX_SPAN_AREA:
                rowspan = colspan = 1
            cells.append(RawCell(r, col, cell_text(element).strip(), rowspan, colspan))
            for dr in range(rowspan if rowspan > 1 else 1):
                for dc in range(colspan):
                    occupied.add((r + dr, col + dc))
            col += colspan
        header_flags.append(in_thead or (has_cell and all_th))
    if not any(cell.text for cell in cells):
        return None
    n_rows = len(header_flags)
    for cell in cells:
        cell.rowspan = max(1, min(cell.rowspan, n_rows - cell.row))
    n_cols = max(cell.col + cell.colspan for cell in cells)
    header_rows = 0
    while header_rows < n_rows and header_flags[header_rows]:
        header_rows += 1
    return compact_table(cells, n_rows, n_cols, header_rows=header_rows, page=page, caption=caption)


def compact_table(
    cells: list[RawCell], n_rows: int, n_cols: int, *, header_rows: int, page: int, caption: str
) -> Table:
    """A Table without the rows and columns where every covering cell is empty (layout spacers)."""
    used_rows: set[int] = set()
    used_cols: set[int] = set()
    for cell in cells:
        if cell.text:
            used_rows.update(range(cell.row, cell.row + cell.rowspan))
            used_cols.update(range(cell.col, cell.col + cell.colspan))
    row_map = {old: new for new, old in enumerate(sorted(used_rows))}
    col_map = {old: new for new, old in enumerate(sorted(used_cols))}
    kept: list[TableCell] = []
    for cell in cells:
        rows = [row_map[r] for r in range(cell.row, cell.row + cell.rowspan) if r in row_map]
        cols = [col_map[c] for c in range(cell.col, cell.col + cell.colspan) if c in col_map]
        if rows and cols:
            kept.append(TableCell(rows[0], cols[0], cell.text, rowspan=len(rows), colspan=len(cols)))
    kept = _drop_covered(kept)
    return Table(
        cells=tuple(sorted(kept, key=lambda c: (c.row, c.col))),
        n_rows=len(row_map),
        n_cols=len(col_map),
        page=page,
        header_rows=sum(1 for r in range(header_rows) if r in row_map),
        caption=caption,
    )


def _drop_covered(cells: list[TableCell]) -> list[TableCell]:
    """An empty cell whose start position is covered by another cell's span (malformed HTML) is dropped."""
    covered: set[tuple[int, int]] = set()
    result: list[TableCell] = []
    for cell in sorted(cells, key=lambda c: (not c.text, c.row, c.col)):
        if (cell.row, cell.col) in covered:
            continue
        result.append(cell)
        covered.update(
            (r, c) for r in range(cell.row, cell.row + cell.rowspan) for c in range(cell.col, cell.col + cell.colspan)
        )
    return result
