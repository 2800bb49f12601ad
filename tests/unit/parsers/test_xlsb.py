"""Excel binary workbooks (.xlsb): read as XLSX is — a page per sheet, cells as their number formats show them,
merged cells, drawings — from workbooks written record by record (tests/unit/parsers/xlsb_fixtures.py)."""

from __future__ import annotations

import io
import random
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from docshelf.config import ParseLimits
from docshelf.errors import CorruptDocumentError, DocumentError
from docshelf.model import Heading, Image, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.detect import detect_format
from docshelf.parsers.sheets.xlsb_records import records, rk_number
from tests.unit.parsers.xlsb_fixtures import Sheet, Value, record, xlsb

ROWS: list[list[Value]] = [
    ["Bolt size", "Torque (Nm)", "Checked", "Delivered", "Price", "Share", "Cure time"],
    ["M10", 45, True, ("date", 46000.0), ("money", 1234.5), ("percent", 0.125), ("duration", 1.5)],
    ["M12", 80.5, False, ("date", 46001.5), ("money", 99.0), ("percent", 0.5), ("time", 0.75)],
    ["M16", ("rk100", 19050), None, ("error", 0x07), ("formula", "see note"), 2**40, ("error", 0x2A)],
]
FORMATS = {"date": "mm-dd-yy", "money": '"$"#,##0.00', "percent": "0.00%", "duration": "[h]:mm", "time": "h:mm"}


def as_xlsx(rows: list[list[Value]]) -> bytes:
    """The same cells written by openpyxl as an XLSX workbook, each with its number format."""
    from openpyxl.utils.datetime import from_excel

    book = Workbook()
    sheet = book.active
    sheet.title = "Torque"
    errors = {0x07: "#DIV/0!", 0x2A: "#N/A"}
    for r, row in enumerate(rows, start=1):
        for c, value in enumerate(row, start=1):
            if isinstance(value, tuple):
                kind, inner = value
                if kind == "error":
                    sheet.cell(r, c, errors[int(inner)])
                elif kind in ("formula", "rk100"):
                    sheet.cell(r, c, str(inner) if kind == "formula" else int(inner) / 100)
                else:
                    moment = from_excel(float(inner), timedelta=kind == "duration")
                    cell = sheet.cell(r, c, moment if kind in ("date", "time", "duration") else float(inner))
                    cell.number_format = FORMATS[kind]
            elif value is not None:
                sheet.cell(r, c, value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def tables(data: bytes, name: str) -> list[list[list[str]]]:
    """Each table's rows of texts, a spanning cell's text at every position it covers."""
    found = []
    for table in (block for block in parse_bytes(data, name).blocks() if isinstance(block, Table)):
        rows = [[""] * table.n_cols for _ in range(table.n_rows)]
        for cell in table.cells:
            for row in range(cell.row, cell.row + cell.rowspan):
                for col in range(cell.col, cell.col + cell.colspan):
                    rows[row][col] = cell.text
        found.append(rows)
    return found


def test_a_binary_workbook_reads_as_the_same_workbook_saved_as_xlsx() -> None:
    data = xlsb(Sheet("Torque", ROWS, chart_picture=True), Sheet("Notes", [["Seal kit SK-7 fits the PX-9."]]))
    assert detect_format(data, "torque.xlsb") == "xlsb" and detect_format(data, "export.bin") == "xlsb"
    assert tables(data, "torque.xlsb")[0] == tables(as_xlsx(ROWS), "torque.xlsx")[0]
    document = parse_bytes(data, "torque.xlsb")
    assert [(page.number, page.label) for page in document.pages] == [(1, "Torque"), (2, "Notes")]
    assert [b.text for b in document.blocks() if isinstance(b, Heading)] == ["Torque", "Notes"]
    assert tables(data, "torque.xlsb")[0][1] == [
        "M10",
        "45",
        "TRUE",
        "2025-12-09",
        "$1,234.50",
        "12.50%",
        "1 day, 12:00:00",
    ]
    assert tables(data, "torque.xlsb")[0][3][:4] == ["M16", "190.5", "", "#DIV/0!"]
    pictures = [b for b in document.blocks() if isinstance(b, Image)]
    assert [(p.page, p.alt_text) for p in pictures] == [(1, "Pump PX-9 cutaway")]


def test_dates_count_from_1904_when_the_workbook_says_so_and_merged_cells_span() -> None:
    rows: list[list[Value]] = [["Quarter", "Region", "Units"], ["Q1", "North", 10], [None, "South", 12]]
    data = xlsb(Sheet("Sales", [*rows, ["Shipped", ("date", 366.0), None]], merges=[(1, 2, 0, 0)]), date_1904=True)
    grid = tables(data, "sales.xlsb")[0]
    assert grid[-1][:2] == ["Shipped", "1905-01-01"]  # 1900-12-31 counted from 1900
    assert [row[0] for row in grid[1:3]] == ["Q1", "Q1"]  # the merged Q1 holds both rows, as XLSX reads a merge


def test_the_cell_budget_keeps_the_first_cells_and_says_so() -> None:
    rows: list[list[Value]] = [[f"r{r}c{c}" for c in range(10)] for r in range(50)]
    document = parse_bytes(xlsb(Sheet("Big", rows), Sheet("Later", [["never read"]])), "big.xlsb",
                           limits=ParseLimits(max_sheet_cells=200))  # fmt: skip
    assert document.truncation and "over 200 cells" in " ".join(document.warnings)
    assert "sheet 'Later' skipped" in " ".join(document.warnings)


def test_record_headers_and_rk_numbers_as_the_specification_writes_them() -> None:
    assert record(0x94, b"x" * 200)[:4] == bytes([0x94, 0x01, 0xC8, 0x01])  # a 2-byte type, a 2-byte size
    assert list(records(record(156, b"ab") + record(0, b""))) == [(156, b"ab"), (0, b"")]
    assert rk_number(0x3FF00000) == 1.0 and rk_number((-7 << 2 | 0x2) & 0xFFFFFFFF) == -7
    assert rk_number((1234 << 2) | 0x3) == 12.34
    with pytest.raises(CorruptDocumentError):
        list(records(record(5, b"12345678")[:-1]))


def test_damaged_binary_workbooks_end_as_a_status_never_an_escaping_error() -> None:
    data = xlsb(Sheet("Torque", ROWS))
    with pytest.raises(DocumentError):
        parse_bytes(data[: len(data) // 2], "cut.xlsb")
    rng = random.Random(7)
    parts = {
        info.filename: zipfile.ZipFile(io.BytesIO(data)).read(info)
        for info in zipfile.ZipFile(io.BytesIO(data)).infolist()
    }
    outcomes = set()
    for _ in range(300):
        damaged = dict(parts)
        name = rng.choice([n for n in parts if n.endswith(".bin")])
        body = bytearray(damaged[name])
        for _ in range(rng.randint(1, 8)):
            body[rng.randrange(len(body))] = rng.randrange(256)
        damaged[name] = bytes(body[: rng.randint(len(body) // 2, len(body))] if rng.random() < 0.3 else body)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as package:
            for part, content in damaged.items():
                package.writestr(part, content)
        try:
            parse_bytes(out.getvalue(), "damaged.xlsb")
            outcomes.add("read")
        except DocumentError as exc:
            outcomes.add(exc.code)
    assert "read" in outcomes and "parser_error" not in outcomes


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_reads_the_test_writers_workbooks_as_docshelf_does(tmp_path: Path) -> None:
    """The fixture writer checked by an independent reader: LibreOffice's CSV of the workbook holds the values."""
    plain: list[list[Value]] = [
        ["Bolt size", "Torque (Nm)", "Checked"],
        ["M10", 45, True],
        ["M16", ("rk100", 19050), False],
    ]
    (tmp_path / "plain.xlsb").write_bytes(xlsb(Sheet("Torque", plain)))
    subprocess.run(
        ["soffice", "--headless", "--convert-to", "csv", "--outdir", str(tmp_path), str(tmp_path / "plain.xlsb")],
        check=True, capture_output=True, timeout=180,
    )  # fmt: skip
    csv_rows = [line.split(",") for line in (tmp_path / "plain.csv").read_text().splitlines()]
    assert csv_rows == tables((tmp_path / "plain.xlsb").read_bytes(), "plain.xlsb")[0]
