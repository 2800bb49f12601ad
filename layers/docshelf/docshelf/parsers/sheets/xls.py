"""Legacy XLS workbooks (BIFF2-BIFF8, via xlrd): one page per sheet, same table layout as XLSX.

Merged ranges and number formats need `formatting_info`, which xlrd supports for BIFF8 files; workbooks it
cannot read that way are reopened without it (plain values, no merges). Sheets load one at a time and are
released after use. The cell budget (ParseLimits.max_sheet_cells) works as for XLSX: truncate and warn.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Any

from docshelf.errors import CorruptDocumentError, DocshelfError, EncryptedDocumentError
from docshelf.model import Block, Heading
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.sheets.sheet_grid import Box, CellBudget, SheetGrid
from docshelf.parsers.sheets.sheet_tables import sheet_blocks
from docshelf.parsers.sheets.sheet_values import GridCell, typed_cell

TITLE_LEVEL = 2
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
BIFF_BOF_OPCODES = (b"\x09\x00", b"\x09\x02", b"\x09\x04", b"\x09\x08")


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    if not data.startswith(OLE_MAGIC) and not data.startswith(BIFF_BOF_OPCODES):
        return _parse_disguised_text(data, filename=filename, limits=limits)
    book = _open_book(data)
    try:
        return _read_book(book, filename=filename, limits=limits)
    except DocshelfError:
        raise
    except MemoryError:
        raise
    except Exception as exc:  # xlrd raises struct/index/assertion errors on damaged records
        raise CorruptDocumentError(f"unreadable XLS sheet: {exc}") from exc
    finally:
        book.release_resources()


def _parse_disguised_text(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    """Many exporters write tab- or comma-separated text under an .xls name; read it as such."""
    from docshelf.errors import UnsupportedFormatError
    from docshelf.parsers.sheets import delimited

    try:
        return delimited.parse(data, filename=filename, limits=limits)
    except UnsupportedFormatError as exc:
        raise CorruptDocumentError(f"not an XLS workbook (no BIFF or OLE header): {exc}") from exc


def _open_book(data: bytes) -> Any:
    import xlrd

    try:
        return xlrd.open_workbook(file_contents=data, formatting_info=True, on_demand=True, logfile=_Discard())
    except DocshelfError:
        raise
    except Exception as exc:
        if "encrypted" in str(exc).lower():
            raise EncryptedDocumentError("password-protected XLS workbook") from exc
        first_error = exc
    try:
        return xlrd.open_workbook(file_contents=data, on_demand=True, logfile=_Discard())
    except DocshelfError:
        raise
    except Exception as exc:
        if "encrypted" in str(exc).lower():
            raise EncryptedDocumentError("password-protected XLS workbook") from exc
        raise CorruptDocumentError(f"not a readable XLS workbook: {first_error}") from exc


class _Discard:
    """xlrd writes warnings about odd records to a log file; they are not the reader's business."""

    def write(self, _text: str) -> int:
        return 0

    def flush(self) -> None:
        return None


def _read_book(book: Any, *, filename: str, limits: ParseLimits) -> ParsedContent:
    budget = CellBudget(limits.max_sheet_cells)
    names = list(book.sheet_names())
    content = ParsedContent(blocks=[], title=PurePosixPath(filename).name, page_count=max(len(names), 1))
    for index, name in enumerate(names):
        page = index + 1
        content.page_labels[page] = str(name)
        if budget.remaining == 0:
            content.warnings.append(budget.skipped(name))
            continue
        sheet = book.sheet_by_index(index)
        grid = _read_sheet(book, sheet, budget, content.warnings)
        book.unload_sheet(index)
        if grid.is_empty():
            continue
        blocks: list[Block] = [Heading(text=str(name), level=1, page=page)]
        blocks.extend(sheet_blocks(grid, page=page, budget=budget, title_level=TITLE_LEVEL))
        content.blocks.extend(blocks)
    content.truncation = budget.truncation(content.warnings)
    return content


def _read_sheet(book: Any, sheet: Any, budget: CellBudget, warnings_out: list[str]) -> SheetGrid:
    grid = SheetGrid(merges=[Box(rlo, clo, rhi - 1, chi - 1) for rlo, rhi, clo, chi in sheet.merged_cells])
    formats = _number_formats(book)
    for row in range(sheet.nrows):
        types = sheet.row_types(row)
        values = sheet.row_values(row)
        for col, (cell_type, value) in enumerate(zip(types, values, strict=False)):
            cell = _grid_cell(book, sheet, row, col, cell_type, value, formats)
            if cell is None:
                continue
            if not budget.take():
                warnings_out.append(budget.cut(sheet.name, row))
                return grid
            grid.put(row, col, cell)
    return grid


def _number_formats(book: Any) -> dict[int, str]:
    format_map = getattr(book, "format_map", None) or {}
    return {
        index: str(format_map[xf.format_key].format_str)
        for index, xf in enumerate(getattr(book, "xf_list", None) or [])
        if xf.format_key in format_map
    }


def _grid_cell(
    book: Any, sheet: Any, row: int, col: int, cell_type: int, value: Any, formats: dict[int, str]
) -> GridCell | None:
    import xlrd

    if cell_type in (xlrd.XL_CELL_EMPTY, xlrd.XL_CELL_BLANK):
        return None
    if cell_type == xlrd.XL_CELL_TEXT:
        return typed_cell(value)
    if cell_type == xlrd.XL_CELL_BOOLEAN:
        return typed_cell(bool(value))
    if cell_type == xlrd.XL_CELL_ERROR:
        return GridCell(xlrd.error_text_from_code.get(value, "#ERROR"), "text")
    if cell_type == xlrd.XL_CELL_DATE:
        try:
            return typed_cell(xlrd.xldate_as_datetime(value, book.datemode))
        except (ValueError, OverflowError, xlrd.xldate.XLDateError):
            return typed_cell(float(value))
    number_format = formats.get(sheet.cell_xf_index(row, col), "General") if formats else "General"
    return typed_cell(float(value), number_format)
