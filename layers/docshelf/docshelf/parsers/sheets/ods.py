"""OpenDocument spreadsheets (.ods, LibreOffice Calc and others): one page per sheet, its tables as an XLSX
workbook's are read (sheet_tables), within the same cell budget.

A cell shows the text of its paragraphs, which is what the application displayed when it saved the file (its number
format applied), typed by `office:value-type`; a value without text (written by a library) shows the value. A
repeated row or cell (`number-rows-repeated`, `number-columns-repeated`) is expanded only when it holds something:
the empty rows to a sheet's end are one element repeated a million times.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from docshelf.model import Block, Heading
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.detect import flat_mimetype
from docshelf.parsers.office.odf_charts import chart_blocks, frame_chart
from docshelf.parsers.office.odf_objects import inline_objects
from docshelf.parsers.office.odt import inline_content
from docshelf.parsers.office.opendocument import OFFICE, frame_description, read_flat, read_package
from docshelf.parsers.safe_zip import open_zip
from docshelf.parsers.sheets.number_format import general_number
from docshelf.parsers.sheets.sheet_grid import Box, CellBudget, SheetGrid
from docshelf.parsers.sheets.sheet_tables import sheet_blocks
from docshelf.parsers.sheets.sheet_values import BOOL, DATE, NUMBER, TEXT, GridCell, clean_text
from docshelf.parsers.xml_safety import local

if TYPE_CHECKING:
    from lxml import etree

TITLE_LEVEL = 2
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
_KINDS = {
    "float": NUMBER, "percentage": NUMBER, "currency": NUMBER, "date": DATE, "time": DATE, "boolean": BOOL,
    "string": TEXT,
}  # fmt: skip
_ROW_GROUPS = frozenset({"table-header-rows", "table-rows", "table-row-group"})
MAX_GROUP_DEPTH = 32
MAX_COLUMNS = 16_384  # Calc's and Excel's last column


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    if flat_mimetype(data):  # a .fods
        package = read_flat(data, what="ODS")
    else:
        with open_zip(data, limits, what="ODS") as archive:
            package = read_package(archive, limits, what="ODS")
            inline_objects(package.content, archive, limits, what="ODS")
    sheets = [node for node in package.body("spreadsheet", "ODS") if node.tag == f"{{{TABLE}}}table"]
    budget = CellBudget(limits.max_sheet_cells)
    content = ParsedContent(blocks=[], title=package.title or PurePosixPath(filename).name)
    content.page_count = max(len(sheets), 1)
    for page, sheet in enumerate(sheets, start=1):
        name = str(sheet.get(f"{{{TABLE}}}name") or f"Sheet{page}")
        content.page_labels[page] = name
        if budget.remaining == 0:
            content.warnings.append(budget.skipped(name))
            continue
        grid = _read_sheet(sheet, name, budget, content.warnings)
        charts = _charts(sheet, page)
        if grid.is_empty() and not charts:
            continue
        blocks: list[Block] = [Heading(text=name, level=1, page=page)]
        blocks.extend(sheet_blocks(grid, page=page, budget=budget, title_level=TITLE_LEVEL))
        content.blocks.extend([*blocks, *charts])
    content.truncation = budget.truncation(content.warnings)
    return content


def _charts(sheet: etree._Element, page: int) -> list[Block]:
    """The sheet's charts, after its tables as an XLSX sheet's are (their values are the sheet's own cells)."""
    found: list[Block] = []
    for frame in sheet.iter(f"{{{DRAW}}}frame"):
        chart = frame_chart(frame)
        if chart is not None:
            found += chart_blocks(chart, frame_description(frame), page=page, with_values=False)
    return found


def _read_sheet(sheet: etree._Element, name: str, budget: CellBudget, warnings: list[str]) -> SheetGrid:
    grid = SheetGrid()
    row = 0
    for element in _rows(sheet, 0):
        repeat = _count(element, "number-rows-repeated")
        cells = _cells(element)
        if not cells:
            row += repeat
            continue
        for _ in range(repeat):
            for col, cell, rows, cols in cells:
                if not budget.take():
                    warnings.append(budget.cut(name, row))
                    return grid
                grid.put(row, col, cell)
                if rows > 1 or cols > 1:
                    grid.merges.append(Box(row, col, row + rows - 1, col + cols - 1))
            row += 1
    return grid


def _rows(parent: etree._Element, depth: int) -> Iterator[etree._Element]:
    """The sheet's rows in order, through header rows and row groups."""
    for child in parent:
        name = local(child.tag)
        if name == "table-row":
            yield child
        elif name in _ROW_GROUPS and depth < MAX_GROUP_DEPTH:
            yield from _rows(child, depth + 1)


def _cells(row: etree._Element) -> list[tuple[int, GridCell, int, int]]:
    """The row's filled cells: (column, cell, rows spanned, columns spanned)."""
    found = []
    col = 0
    for element in row:
        name = local(element.tag)
        if name not in ("table-cell", "covered-table-cell"):
            continue
        repeat = _count(element, "number-columns-repeated")
        cell = _cell(element) if name == "table-cell" else None
        if cell is not None:
            rows, cols = _count(element, "number-rows-spanned"), _count(element, "number-columns-spanned")
            for at in range(col, min(col + repeat, MAX_COLUMNS)):
                found.append((at, cell, rows, cols))
        col += repeat
        if col >= MAX_COLUMNS:
            break
    return found


def _cell(element: etree._Element) -> GridCell | None:
    kind = _KINDS.get(str(element.get(f"{{{OFFICE}}}value-type") or "string"), TEXT)
    lines = [inline_content(child)[0] for child in element if local(child.tag) in ("p", "h")]
    text = clean_text("\n".join(lines))
    if not text:
        text = _value_text(element, kind)
    return GridCell(text, kind) if text else None


def _value_text(element: etree._Element, kind: str) -> str:
    """A typed value saved without its displayed text."""
    if kind == NUMBER:
        value = str(element.get(f"{{{OFFICE}}}value") or "")
        try:
            return general_number(float(value))
        except ValueError:
            return ""
    if kind == DATE:
        return str(element.get(f"{{{OFFICE}}}date-value") or element.get(f"{{{OFFICE}}}time-value") or "")
    if kind == BOOL:
        value = str(element.get(f"{{{OFFICE}}}boolean-value") or "").lower()
        return {"true": "TRUE", "false": "FALSE"}.get(value, "")
    return ""


def _count(element: etree._Element, attribute: str) -> int:
    text = str(element.get(f"{{{TABLE}}}{attribute}") or "")
    return max(1, min(int(text), 1_048_576)) if text.isdigit() else 1
