"""Excel binary workbooks (`.xlsb`, [MS-XLSB]): the XLSX package with its workbook, sheets, shared strings and styles
written as record streams (parsers/sheets/xlsb_records.py). Read as XLSX is: one page per sheet, its cells as the
number formats show them (dates as dates), merged cells, then the charts and pictures drawn on it (those parts stay
XML). Formula cells show the value Excel stored. The cell budget (ParseLimits.max_sheet_cells) applies as in XLSX."""

from __future__ import annotations

import datetime as dt
import struct
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from docshelf.errors import CorruptDocumentError, DocumentError, EncryptedDocumentError
from docshelf.model import Block, Heading
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.opc import relationships, relationships_part
from docshelf.parsers.safe_zip import check_package, open_zip, read_member
from docshelf.parsers.sheets.sheet_grid import Box, CellBudget, SheetGrid
from docshelf.parsers.sheets.sheet_tables import sheet_blocks
from docshelf.parsers.sheets.sheet_values import GridCell, typed_cell
from docshelf.parsers.sheets.xlsb_records import real, records, rk_number, wide_string
from docshelf.parsers.sheets.xlsx_charts import sheet_drawings

TITLE_LEVEL = 2
WORKBOOK = "xl/workbook.bin"
MAX_ROW = 1_048_575  # Excel's last row and column, 0-based
MAX_COLUMN = 16_383

# Record types ([MS-XLSB] 2.3.2).
_ROW_HEADER = 0
_BLANK, _RK, _ERROR, _BOOL, _REAL, _STRING, _SHARED_STRING = 1, 2, 3, 4, 5, 6, 7
_FORMULA_STRING, _FORMULA_NUMBER, _FORMULA_BOOL, _FORMULA_ERROR = 8, 9, 10, 11
_SHARED_STRING_ITEM = 19
_NUMBER_FORMAT, _CELL_FORMAT = 44, 47
_WORKBOOK_PROPERTIES, _SHEET = 153, 156
_MERGED_CELLS = 176
_CELL_FORMATS_BEGIN, _CELL_FORMATS_END = 617, 618

_ERRORS = {0x00: "#NULL!", 0x07: "#DIV/0!", 0x0F: "#VALUE!", 0x17: "#REF!", 0x1D: "#NAME?", 0x24: "#NUM!", 0x2A: "#N/A"}


@dataclass
class _Styles:
    formats: list[str] = field(default_factory=list)  # by the cell's style index: its number format code
    date_1904: bool = False

    def number_format(self, style: int) -> str:
        return self.formats[style] if style < len(self.formats) else "General"


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise EncryptedDocumentError("password-protected workbook (encrypted OLE package)")
    what = f"XLSB file {filename!r}"
    check_package(data, limits, what=what, required=(WORKBOOK,))
    with open_zip(data, limits, what=what) as archive:

        def part(name: str) -> bytes | None:
            return read_member(archive, name, limits, what=what) if name in archive.NameToInfo else None

        rels = part(relationships_part(WORKBOOK))
        targets = relationships(rels, WORKBOOK, what=f"{what} workbook relationships") if rels else []
        by_id = {rel.rid: rel.target for rel in targets}
        by_kind = {rel.kind: rel.target for rel in targets}
        sheets, date_1904 = _workbook(part(WORKBOOK) or b"")
        styles = _styles(part(by_kind.get("styles", "xl/styles.bin")), date_1904)
        strings = _shared_strings(part(by_kind.get("sharedStrings", "xl/sharedStrings.bin")))
        content = ParsedContent(blocks=[], title=PurePosixPath(filename).name, page_count=max(len(sheets), 1))
        budget = CellBudget(limits.max_sheet_cells)
        for page, (name, rid) in enumerate(sheets, start=1):
            content.page_labels[page] = name
            if budget.remaining == 0:
                content.warnings.append(budget.skipped(name))
                continue
            sheet_part = by_id.get(rid, "")
            body = part(sheet_part) if sheet_part else None
            if body is None:
                content.warnings.append(f"sheet {name!r} skipped: its part {sheet_part or rid!r} is missing")
                continue
            grid = _sheet(body, strings, styles, budget, name, content.warnings)
            drawings = sheet_drawings(archive, sheet_part, page=page, warnings=content.warnings)
            if grid.is_empty() and not drawings:
                continue
            blocks: list[Block] = [Heading(text=name, level=1, page=page)]
            if not grid.is_empty():
                blocks += sheet_blocks(grid, page=page, budget=budget, title_level=TITLE_LEVEL)
            content.blocks += [*blocks, *drawings]
    content.truncation = budget.truncation(content.warnings)
    return content


def _workbook(body: bytes) -> tuple[list[tuple[str, str]], bool]:
    """The sheets in tab order, (name, relationship id), and whether dates count from 1904."""
    sheets: list[tuple[str, str]] = []
    date_1904 = False
    for kind, record in records(body):
        if kind == _WORKBOOK_PROPERTIES and len(record) >= 4:
            date_1904 = bool(struct.unpack_from("<I", record)[0] & 0x1)
        elif kind == _SHEET:
            rid, at = wide_string(record, 8)
            name, _ = wide_string(record, at)
            sheets.append((name or f"Sheet{len(sheets) + 1}", rid))
    if not sheets:
        raise CorruptDocumentError("the workbook names no sheet")
    return sheets, date_1904


def _shared_strings(body: bytes | None) -> list[str]:
    """The shared string table; a rich or phonetic string's text only."""
    if body is None:
        return []
    return [wide_string(record, 1)[0] for kind, record in records(body) if kind == _SHARED_STRING_ITEM]


def _styles(body: bytes | None, date_1904: bool) -> _Styles:
    """Each cell style's number format: its own code, or Excel's built-in one for its number."""
    from openpyxl.styles.numbers import BUILTIN_FORMATS

    styles = _Styles(date_1904=date_1904)
    if body is None:
        return styles
    codes: dict[int, str] = {}
    in_cell_formats = False
    for kind, record in records(body):
        if kind == _NUMBER_FORMAT and len(record) >= 2:
            codes[struct.unpack_from("<H", record)[0]] = wide_string(record, 2)[0]
        elif kind in (_CELL_FORMATS_BEGIN, _CELL_FORMATS_END):
            in_cell_formats = kind == _CELL_FORMATS_BEGIN
        elif kind == _CELL_FORMAT and in_cell_formats and len(record) >= 4:
            number = struct.unpack_from("<H", record, 2)[0]
            styles.formats.append(codes.get(number) or BUILTIN_FORMATS.get(number, "General"))
    return styles


def _sheet(
    body: bytes, strings: list[str], styles: _Styles, budget: CellBudget, name: str, warnings: list[str]
) -> SheetGrid:
    grid = SheetGrid()
    row = 0
    for kind, record in records(body):
        if kind == _ROW_HEADER and len(record) >= 4:
            row = struct.unpack_from("<I", record)[0]
        elif kind == _MERGED_CELLS and len(record) >= 16:
            top, bottom, left, right = struct.unpack_from("<IIII", record)
            if top <= bottom <= MAX_ROW and left <= right <= MAX_COLUMN:
                grid.merges.append(Box(top, left, bottom, right))
        elif _RK <= kind <= _FORMULA_ERROR and len(record) >= 8:
            column, style = struct.unpack_from("<II", record)
            cell = _cell(kind, record, strings, styles, style & 0xFFFFFF)
            if cell is None or row > MAX_ROW or column > MAX_COLUMN:
                continue
            if not budget.take():
                warnings.append(budget.cut(name, row))
                return grid
            grid.put(row, column, cell)
    return grid


def _cell(kind: int, record: bytes, strings: list[str], styles: _Styles, style: int) -> GridCell | None:
    try:
        if kind in (_STRING, _FORMULA_STRING):
            return typed_cell(wide_string(record, 8)[0])
        if kind == _SHARED_STRING:
            index = struct.unpack_from("<I", record, 8)[0]
            return typed_cell(strings[index]) if index < len(strings) else None
        if kind in (_BOOL, _FORMULA_BOOL):
            return typed_cell(bool(record[8]))
        if kind in (_ERROR, _FORMULA_ERROR):
            return GridCell(_ERRORS.get(record[8], "#ERROR"), "text")
        value = rk_number(struct.unpack_from("<I", record, 8)[0]) if kind == _RK else real(record, 8)
    except (IndexError, struct.error, DocumentError):  # a cell record cut short: that cell only
        return None
    return None if value is None else _number(value, styles.number_format(style), styles.date_1904)


def _number(value: float, number_format: str, date_1904: bool) -> GridCell | None:
    from openpyxl.styles.numbers import is_date_format, is_timedelta_format
    from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

    if is_timedelta_format(number_format):
        return typed_cell(from_excel(value, timedelta=True))
    if is_date_format(number_format):
        try:
            moment = from_excel(value, CALENDAR_MAC_1904 if date_1904 else CALENDAR_WINDOWS_1900)
        except (ValueError, OverflowError):
            return typed_cell(value, number_format)
        if isinstance(moment, dt.datetime | dt.date | dt.time | dt.timedelta):
            return typed_cell(moment)
    return typed_cell(value, number_format)
