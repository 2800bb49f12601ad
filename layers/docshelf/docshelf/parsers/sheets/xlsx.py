"""XLSX workbooks (openpyxl, read-only streaming): one page per sheet, tables with merged cells and headers.

Memory stays bounded by ParseLimits.max_sheet_cells: the workbook holds at most that many filled cells (merged
areas included). When the budget runs out, the sheet being read is truncated at that row, later sheets are
skipped, and both are reported in the warnings — partial content is more useful than none for a huge export.

A workbook written by a library (openpyxl, pandas) and never opened in Excel holds formulas without computed
values: those cells show their formula (`=SUM(B2:B3)`) rather than nothing, and a warning counts them.
"""

from __future__ import annotations

import io
import warnings
from pathlib import PurePosixPath
from typing import Any

from docshelf.errors import CorruptDocumentError, DocshelfError, EncryptedDocumentError
from docshelf.model import Block, Heading, Image
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.safe_zip import check_package
from docshelf.parsers.sheets.sheet_grid import CellBudget, SheetGrid
from docshelf.parsers.sheets.sheet_package import SheetPart, read_sheet_part
from docshelf.parsers.sheets.sheet_tables import sheet_blocks
from docshelf.parsers.sheets.sheet_values import NUMBER, GridCell, typed_cell
from docshelf.parsers.sheets.xlsx_charts import sheet_drawings

TITLE_LEVEL = 2


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        raise EncryptedDocumentError("password-protected workbook (encrypted OLE package)")
    check_package(data, limits, what=f"XLSX file {filename!r}")  # before openpyxl inflates anything
    workbook = _open_workbook(data, data_only=True)
    formulas = _Formulas(data)
    try:
        return _read_workbook(workbook, formulas, filename=filename, limits=limits)
    except DocshelfError:
        raise
    except MemoryError:
        raise
    except Exception as exc:  # openpyxl raises anything from KeyError to its own errors on a broken part
        raise CorruptDocumentError(f"unreadable worksheet: {exc}") from exc
    finally:
        workbook.close()
        formulas.close()


def _open_workbook(data: bytes, *, data_only: bool) -> Any:
    from openpyxl import load_workbook

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return load_workbook(io.BytesIO(data), read_only=True, data_only=data_only, keep_links=False)
    except DocshelfError:
        raise
    except MemoryError:
        raise
    except Exception as exc:
        raise CorruptDocumentError(f"not a readable XLSX workbook: {exc}") from exc


def _read_workbook(workbook: Any, formulas: _Formulas, *, filename: str, limits: ParseLimits) -> ParsedContent:
    budget = CellBudget(limits.max_sheet_cells)
    content = ParsedContent(blocks=[], title=_title(workbook, filename))
    sheets = list(workbook.worksheets)
    content.page_count = max(len(sheets), 1)
    for page, sheet in enumerate(sheets, start=1):
        content.page_labels[page] = str(sheet.title)
        if budget.remaining == 0:
            content.warnings.append(budget.skipped(sheet.title))
            continue
        grid, valueless = _read_sheet(sheet, budget, content.warnings)
        part = _sheet_part(workbook, sheet, find_formulas=valueless)
        formulas.show(grid, page - 1, part.uncached_formulas, budget)
        grid.merges = part.merges
        drawings = _drawings(workbook, sheet, page=page, warnings=content.warnings)
        if grid.is_empty() and not drawings:
            continue
        blocks: list[Block] = [Heading(text=str(sheet.title), level=1, page=page)]
        if not grid.is_empty():
            blocks.extend(sheet_blocks(grid, page=page, budget=budget, title_level=TITLE_LEVEL))
        blocks.extend(drawings)
        content.blocks.extend(blocks)
    if formulas.shown:
        content.warnings.append(
            f"formula cells without a computed value (the workbook was never calculated): {formulas.shown}, "
            "shown as their formulas"
        )
    content.truncation = budget.truncation(content.warnings)
    return content


def _read_sheet(sheet: Any, budget: CellBudget, warnings_out: list[str]) -> tuple[SheetGrid, bool]:
    """The sheet's values, and whether some cell of its XML has none (a styled blank, or a formula never
    calculated: only then is the sheet XML searched for the latter)."""
    from openpyxl.cell.read_only import EMPTY_CELL

    grid = SheetGrid()
    valueless = False
    sheet.reset_dimensions()  # declared dimensions are often wrong; read the rows actually present
    for row_number, row in enumerate(sheet.rows):
        for col_number, cell in enumerate(row):
            value = getattr(cell, "value", None)
            if value is None:
                valueless = valueless or cell is not EMPTY_CELL
                continue
            grid_cell = typed_cell(value, getattr(cell, "number_format", None) or "General")
            if grid_cell is None:
                continue
            if not budget.take():
                warnings_out.append(budget.cut(sheet.title, row_number))
                return grid, valueless
            grid.put(row_number, col_number, grid_cell)
    return grid, valueless


def _sheet_part(workbook: Any, sheet: Any, *, find_formulas: bool) -> SheetPart:
    path = getattr(sheet, "_worksheet_path", None)
    archive = getattr(workbook, "_archive", None)
    if not path or archive is None:
        return SheetPart()
    with archive.open(path) as source:
        return read_sheet_part(source, find_formulas=find_formulas)


class _Formulas:
    """The formulas of cells saved without a computed value, read from a second load of the workbook that
    keeps formulas; it is opened only when a sheet has such cells, so a calculated workbook is read once."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.workbook: Any = None
        self.shown = 0

    def show(self, grid: SheetGrid, index: int, positions: set[tuple[int, int]], budget: CellBudget) -> None:
        """Put the formula of each of `positions` (0-based) of sheet `index` into its grid, of the value kind:
        it stands for the value it computes."""
        if not positions:
            return
        if self.workbook is None:
            self.workbook = _open_workbook(self.data, data_only=False)
        sheet = self.workbook.worksheets[index]
        sheet.reset_dimensions()
        last_row = max(row for row, _ in positions) + 1
        for row_number, row in enumerate(sheet.iter_rows(max_row=last_row)):
            for col_number, cell in enumerate(row):
                formula = _formula(cell) if (row_number, col_number) in positions else None
                if formula and budget.take():
                    grid.put(row_number, col_number, GridCell(formula, NUMBER))
                    self.shown += 1

    def close(self) -> None:
        if self.workbook is not None:
            self.workbook.close()


def _formula(cell: Any) -> str | None:
    value = getattr(cell, "value", None)
    text = getattr(value, "text", value)  # an array formula keeps its text in `.text`
    return text if isinstance(text, str) and text.startswith("=") else None


def _drawings(workbook: Any, sheet: Any, *, page: int, warnings: list[str]) -> list[Image]:
    path = getattr(sheet, "_worksheet_path", None)
    archive = getattr(workbook, "_archive", None)
    if not path or archive is None:
        return []
    return sheet_drawings(archive, path, page=page, warnings=warnings)


def _title(workbook: Any, filename: str) -> str:
    declared = getattr(getattr(workbook, "properties", None), "title", None)
    if isinstance(declared, str) and declared.strip():
        return declared.strip()
    return PurePosixPath(filename).name
