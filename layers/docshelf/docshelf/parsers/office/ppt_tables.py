"""PowerPoint 97-2003 tables, their empty and merged cells included.

A `.ppt` table is a group shape whose tertiary properties hold tableProperties; its cells are the group's
rectangles, each placed by its child anchor (a merged cell is one rectangle over several columns or rows), its
borders line shapes. `ppt2pptx` rebuilds a table only from a complete grid of cells that all hold text: a table
with an empty or merged cell, or beside other text, became text boxes that the PPTX parser read one by one. Here the
cells are placed on one grid of the edges they share, and in the converted slide the text boxes holding the
table's cells give way to a PresentationML table with its spans, where the first of them stood.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from docshelf.parsers.office.cell_edges import nearest_edge, snapped_edges
from docshelf.parsers.office.ppt_placeholders import A_NS, P_NS, shape_text, shown_text

if TYPE_CHECKING:
    from ppt2pptx.ppt import Record

RT_SPGR_CONTAINER, RT_SP_CONTAINER, RT_SP = 0xF003, 0xF004, 0xF00A
RT_FOPT, RT_TERTIARY_FOPT, RT_CHILD_ANCHOR = 0xF00B, 0xF122, 0xF00F
TABLE_PROPERTIES = 0x03A0  # tableProperties: the group is a table
RECTANGLE = 1  # OfficeArtFSP's shape type (its record's instance)
_TABLE_URI = "http://schemas.openxmlformats.org/drawingml/2006/table"
_EDGE_SHARE = 0.1  # edges nearer than this share of the smallest cell's extent are one grid edge
_MAX_POSITIONS = 20_000  # grid positions: PowerPoint's tables stay far below; a hostile file's would not


@dataclass(frozen=True, slots=True)
class PptCell:
    row: int
    col: int
    rowspan: int
    colspan: int
    paragraphs: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.paragraphs).split())


@dataclass(frozen=True, slots=True)
class PptTable:
    n_rows: int
    n_cols: int
    cells: tuple[PptCell, ...]  # in the group's order, which is the order ppt2pptx writes their text boxes in


def slide_table_list(slide: Record) -> list[PptTable]:
    """A slide's tables (its record, `ppt_placeholders.slide_records`)."""
    from ppt2pptx.ppt import descendants

    tables = [_table(record) for record in descendants(slide) if record.type == RT_SPGR_CONTAINER]
    return [table for table in tables if table is not None]


def _table(group: Record) -> PptTable | None:
    from ppt2pptx.ppt import records

    children = list(records(group.payload)) if group.version == 0xF else []
    if not children or not _is_table(children[0]):
        return None
    placed: list[tuple[tuple[int, int, int, int], tuple[str, ...]]] = []
    for shape in children[1:]:
        cell = _cell(shape)
        if cell is not None:
            placed.append(cell)
    if len(placed) < 2:
        return None
    columns = _edges([edge for (left, _, right, _), _ in placed for edge in (left, right)], axis=0, placed=placed)
    rows = _edges([edge for (_, top, _, bottom), _ in placed for edge in (top, bottom)], axis=1, placed=placed)
    if (len(rows) - 1) * (len(columns) - 1) > _MAX_POSITIONS:
        return None
    cells: list[PptCell] = []
    taken: set[tuple[int, int]] = set()
    for (left, top, right, bottom), paragraphs in placed:
        row, col = nearest_edge(rows, top), nearest_edge(columns, left)
        rowspan, colspan = max(1, nearest_edge(rows, bottom) - row), max(1, nearest_edge(columns, right) - col)
        covered = {(r, c) for r in range(row, row + rowspan) for c in range(col, col + colspan)}
        if covered & taken:  # overlapping rectangles: not a grid
            return None
        taken |= covered
        cells.append(PptCell(row, col, rowspan, colspan, paragraphs))
    return PptTable(len(rows) - 1, len(columns) - 1, tuple(cells))


def _is_table(group_shape: Record) -> bool:
    from ppt2pptx.ppt import records

    if group_shape.type != RT_SP_CONTAINER or group_shape.version != 0xF:
        return False
    for child in records(group_shape.payload):
        if child.type in (RT_FOPT, RT_TERTIARY_FOPT):
            for index in range(min(child.instance, len(child.payload) // 6)):
                if struct.unpack_from("<H", child.payload, index * 6)[0] & 0x3FFF == TABLE_PROPERTIES:
                    return True
    return False


def _cell(shape: Record) -> tuple[tuple[int, int, int, int], tuple[str, ...]] | None:
    """A rectangle's box (child anchor) and paragraphs; None for any other shape (a border line)."""
    from ppt2pptx.ppt import records

    if shape.type != RT_SP_CONTAINER or shape.version != 0xF:
        return None
    box: tuple[int, int, int, int] | None = None
    rectangle = False
    for child in records(shape.payload):
        if child.type == RT_SP:
            rectangle = child.instance == RECTANGLE
        elif child.type == RT_CHILD_ANCHOR and len(child.payload) >= 16:
            box = struct.unpack_from("<4i", child.payload)
    if not rectangle or box is None or box[2] <= box[0] or box[3] <= box[1]:
        return None
    return box, shape_text(shape)


def _edges(
    values: list[int], *, axis: int, placed: list[tuple[tuple[int, int, int, int], tuple[str, ...]]]
) -> list[int]:
    """The grid's edges along one axis, those nearer than _EDGE_SHARE of the smallest cell's extent one."""
    return snapped_edges(values, _EDGE_SHARE * min(box[axis + 2] - box[axis] for box, _ in placed))


def put_slide_tables(root: etree._Element, tables: list[PptTable]) -> bool:
    """Replaces each table's cell text boxes in a converted slide by the table; a table whose cells are not found as
    consecutive text boxes (ppt2pptx rebuilt it, or wrote its cells otherwise) is left as converted. Whether any
    was put."""
    changed = False
    for table in tables:
        shapes = _cell_shapes(root, table)
        if shapes is None:
            continue
        first = shapes[0]
        parent = first.getparent()
        if parent is None:
            continue
        parent.insert(parent.index(first), _frame(table, shapes))
        for shape in shapes:
            owner = shape.getparent()
            if owner is not None:
                owner.remove(shape)
        changed = True
    return changed


def _cell_shapes(root: etree._Element, table: PptTable) -> list[etree._Element] | None:
    """The text boxes holding the table's non-empty cells, in order and with no other text between them."""
    wanted = [cell.text for cell in table.cells if cell.text]
    if not wanted:
        return None
    texts = [(shape, shown_text(shape)) for shape in root.iter(f"{{{P_NS}}}sp")]
    texts = [(shape, text) for shape, text in texts if text]
    for start, (_, text) in enumerate(texts):
        if text == wanted[0] and [shown for _, shown in texts[start : start + len(wanted)]] == wanted:
            return [shape for shape, _ in texts[start : start + len(wanted)]]
    return None


def _frame(table: PptTable, shapes: list[etree._Element]) -> etree._Element:
    """A graphic frame holding the table, over the boxes it replaces (the PPTX parser orders shapes by place)."""
    boxes = [_box(shape) for shape in shapes]
    left, top = min(box[0] for box in boxes), min(box[1] for box in boxes)
    right, bottom = max(box[2] for box in boxes), max(box[3] for box in boxes)
    frame = etree.Element(f"{{{P_NS}}}graphicFrame", nsmap={"p": P_NS, "a": A_NS})
    non_visual = etree.SubElement(frame, f"{{{P_NS}}}nvGraphicFramePr")
    etree.SubElement(non_visual, f"{{{P_NS}}}cNvPr", id=str(90000 + len(shapes)), name="Table")
    etree.SubElement(non_visual, f"{{{P_NS}}}cNvGraphicFramePr")
    etree.SubElement(non_visual, f"{{{P_NS}}}nvPr")
    xfrm = etree.SubElement(frame, f"{{{P_NS}}}xfrm")
    etree.SubElement(xfrm, f"{{{A_NS}}}off", x=str(left), y=str(top))
    etree.SubElement(xfrm, f"{{{A_NS}}}ext", cx=str(max(1, right - left)), cy=str(max(1, bottom - top)))
    data = etree.SubElement(etree.SubElement(frame, f"{{{A_NS}}}graphic"), f"{{{A_NS}}}graphicData", uri=_TABLE_URI)
    tbl = etree.SubElement(data, f"{{{A_NS}}}tbl")
    etree.SubElement(tbl, f"{{{A_NS}}}tblPr", firstRow="1")
    grid = etree.SubElement(tbl, f"{{{A_NS}}}tblGrid")
    for _ in range(table.n_cols):
        etree.SubElement(grid, f"{{{A_NS}}}gridCol", w=str(max(1, (right - left) // table.n_cols)))
    starts = {(cell.row, cell.col): cell for cell in table.cells}
    covered = {
        (r, c): (r > cell.row, c > cell.col)
        for cell in table.cells
        for r in range(cell.row, cell.row + cell.rowspan)
        for c in range(cell.col, cell.col + cell.colspan)
    }
    for r in range(table.n_rows):
        row = etree.SubElement(tbl, f"{{{A_NS}}}tr", h=str(max(1, (bottom - top) // table.n_rows)))
        for c in range(table.n_cols):
            cell = starts.get((r, c))
            tc = etree.SubElement(row, f"{{{A_NS}}}tc")
            if cell is not None:
                if cell.rowspan > 1:
                    tc.set("rowSpan", str(cell.rowspan))
                if cell.colspan > 1:
                    tc.set("gridSpan", str(cell.colspan))
            else:
                below, right_of = covered.get((r, c), (False, False))
                if below:
                    tc.set("vMerge", "1")
                if right_of:
                    tc.set("hMerge", "1")
            _text_body(tc, cell.paragraphs if cell is not None else ())
            etree.SubElement(tc, f"{{{A_NS}}}tcPr")
    return frame


def _text_body(tc: etree._Element, paragraphs: tuple[str, ...]) -> None:
    body = etree.SubElement(tc, f"{{{A_NS}}}txBody")
    etree.SubElement(body, f"{{{A_NS}}}bodyPr")
    etree.SubElement(body, f"{{{A_NS}}}lstStyle")
    for text in paragraphs or ("",):
        paragraph = etree.SubElement(body, f"{{{A_NS}}}p")
        if text:
            etree.SubElement(etree.SubElement(paragraph, f"{{{A_NS}}}r"), f"{{{A_NS}}}t").text = text


def _box(shape: etree._Element) -> tuple[int, int, int, int]:
    offset = shape.find(f"{{{P_NS}}}spPr/{{{A_NS}}}xfrm/{{{A_NS}}}off")
    extent = shape.find(f"{{{P_NS}}}spPr/{{{A_NS}}}xfrm/{{{A_NS}}}ext")
    if offset is None or extent is None:
        return 0, 0, 0, 0
    x, y = int(offset.get("x", "0")), int(offset.get("y", "0"))
    return x, y, x + int(extent.get("cx", "0")), y + int(extent.get("cy", "0"))
