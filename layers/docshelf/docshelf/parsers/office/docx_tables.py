"""WordprocessingML tables (w:tbl) to typed tables: gridSpan/vMerge/hMerge spans and repeated header rows."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from lxml import etree

from docshelf.model import Table, TableCell
from docshelf.parsers.office.docx_numbering import int_val, w, w_val

# Elements that may wrap rows or cells without changing the table's structure.
_WRAPPERS = frozenset({w("sdt"), w("sdtContent"), w("customXml"), w("ins"), w("moveTo")})
_FALSE = ("0", "false", "off")

CellText = Callable[[etree._Element], str]


@dataclass(slots=True)
class _CellBuilder:
    row: int
    col: int
    text: str
    rowspan: int = 1
    colspan: int = 1


def children(element: etree._Element, tag: str) -> Iterator[etree._Element]:
    """Direct children named `tag`, looking through content controls and revision wrappers."""
    for child in element:
        if child.tag == tag:
            yield child
        elif child.tag in _WRAPPERS:
            yield from children(child, tag)


def _on(element: etree._Element | None) -> bool:
    return element is not None and (w_val(element) or "true").lower() not in _FALSE


def _header_rows(rows: list[etree._Element]) -> int:
    count = 0
    for row in rows:
        tr_pr = row.find(w("trPr"))
        if tr_pr is None or not _on(tr_pr.find(w("tblHeader"))):
            break
        count += 1
    return count or min(1, len(rows))


class _Grid:
    def __init__(self) -> None:
        self.cells: list[_CellBuilder] = []
        self._column_owner: dict[int, _CellBuilder] = {}
        self.n_cols = 0

    def add_row(self, row_index: int, row: etree._Element, cell_text: CellText) -> None:
        tr_pr = row.find(w("trPr"))
        col = int_val(tr_pr.find(w("gridBefore")), 0) if tr_pr is not None else 0
        col = col or 0
        previous: _CellBuilder | None = None
        for tc in children(row, w("tc")):
            tc_pr = tc.find(w("tcPr"))
            span = max(1, int_val(tc_pr.find(w("gridSpan")), 1) or 1) if tc_pr is not None else 1
            v_merge = tc_pr.find(w("vMerge")) if tc_pr is not None else None
            h_merge = tc_pr.find(w("hMerge")) if tc_pr is not None else None
            if h_merge is not None and w_val(h_merge) != "restart" and previous is not None:
                previous.colspan += span
                col += span
                continue
            owner = self._column_owner.get(col)
            continues = v_merge is not None and w_val(v_merge) != "restart"
            if continues and owner is not None and owner.row + owner.rowspan == row_index and owner.colspan == span:
                owner.rowspan += 1
                previous = owner
            else:
                previous = _CellBuilder(row=row_index, col=col, text=cell_text(tc), colspan=span)
                self.cells.append(previous)
                self._column_owner[col] = previous
            col += span
        self.n_cols = max(self.n_cols, col)


def convert_table(tbl: etree._Element, cell_text: CellText, *, page: int) -> Table | None:
    """The typed table, or None when it has no text at all."""
    rows = list(children(tbl, w("tr")))
    grid = _Grid()
    for row_index, row in enumerate(rows):
        grid.add_row(row_index, row, cell_text)
    if not any(cell.text.strip() for cell in grid.cells):
        return None
    cells = tuple(TableCell(c.row, c.col, c.text, c.rowspan, c.colspan) for c in grid.cells)
    return Table(cells=cells, n_rows=len(rows), n_cols=grid.n_cols, page=page, header_rows=_header_rows(rows))


def table_as_text(tbl: etree._Element, cell_text: CellText) -> str:
    """A nested table flattened for its parent cell: one line per row, cells separated by ' | '."""
    lines = []
    for row in children(tbl, w("tr")):
        texts = [" ".join(cell_text(tc).split()) for tc in children(row, w("tc"))]
        if any(texts):
            lines.append(" | ".join(texts))
    return "\n".join(lines)
