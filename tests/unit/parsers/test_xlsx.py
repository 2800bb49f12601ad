from __future__ import annotations

import datetime as dt
import io
import zipfile
from typing import TYPE_CHECKING

import pytest
from openpyxl import Workbook

from docshelf.errors import CorruptDocumentError, DocumentError, DocumentTooLargeError, EncryptedDocumentError
from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.sheets.xlsx import parse
from docshelf.tables import table_grid

from .sheet_measures import cell_f1, reference_text, text_recall

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path


def _xlsx(workbook: Workbook) -> bytes:
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _tables(blocks: Sequence[object]) -> list[Table]:
    return [block for block in blocks if isinstance(block, Table)]


def test_sheets_are_pages_with_heading_tables_and_typed_values() -> None:
    workbook = Workbook()
    sales = workbook.active
    sales.title = "Sales"
    sales.append(["Region", "Units", "Share", "Date", "Open"])
    sales.append(["North", 12, 0.25, dt.datetime(2024, 3, 1), True])
    sales.append(["South", 7.5, 0.125, dt.datetime(2024, 3, 2, 14, 30), False])
    sales["C2"].number_format = "0%"
    sales["C3"].number_format = "0.0%"
    workbook.create_sheet("Empty")
    notes = workbook.create_sheet("Notes")
    notes["C4"] = "Only text here"

    content = parse(_xlsx(workbook), filename="book.xlsx", limits=ParseLimits())

    assert content.page_count == 3
    assert content.page_labels == {1: "Sales", 2: "Empty", 3: "Notes"}
    assert content.blocks[0] == Heading(text="Sales", level=1, page=1)
    table = content.blocks[1]
    assert isinstance(table, Table) and table.page == 1 and table.header_rows == 1
    assert table_grid(table) == [
        ["Region", "Units", "Share", "Date", "Open"],
        ["North", "12", "25%", "2024-03-01", "TRUE"],
        ["South", "7.5", "12.5%", "2024-03-02 14:30:00", "FALSE"],
    ]
    assert content.blocks[2:] == [Heading(text="Notes", level=1, page=3), Paragraph(text="Only text here", page=3)]


def test_numbers_show_what_excel_shows_for_their_format() -> None:
    workbook = Workbook()
    sheet = workbook.active
    for value, number_format in [
        (1234567.5, "$#,##0.00"),
        (1234567, "#,##0"),
        (0.125, "0%"),
        (0.0125, "0.0%"),
        (2.675, "0.00"),
        (6.022e23, "0.00E+00"),
        (-1234, "#,##0;[Red](#,##0)"),
        (-1234.5, "#,##0.00"),
        (0, '_(* #,##0_);_(* \\(#,##0\\);_(* "—"_);_(@_)'),
        (5, '"USD "0.00'),
        (5, "#,##0.00 [$€-407]"),
        (1234567, '#,##0,"K"'),
        (1.5, "0.0#"),
        (45000.5, "[>100]0.0;0"),  # a condition is not rendered: the General form stays
    ]:
        sheet.append(["x", value])
        sheet.cell(row=sheet.max_row, column=2).number_format = number_format

    (table,) = _tables(parse(_xlsx(workbook), filename="n.xlsx", limits=ParseLimits()).blocks)

    assert [row[1] for row in table_grid(table)] == [
        "$1,234,567.50",
        "1,234,567",
        "13%",
        "1.3%",
        "2.68",
        "6.02E+23",
        "(1,234)",
        "-1,234.50",
        "—",
        "USD 5.00",
        "5.00 €",
        "1,235K",
        "1.5",
        "45000.5",
    ]


def test_merged_cells_become_spans_and_multi_row_headers() -> None:
    workbook = Workbook()
    sheet = workbook.active
    sheet["B2"] = "Item"
    sheet.merge_cells("B2:B3")
    sheet["C2"] = "Quarter"
    sheet.merge_cells("C2:D2")
    sheet["C3"], sheet["D3"] = "Q1", "Q2"
    sheet.append([None, "Bolts", 10, 11])
    sheet.append([None, "Nuts", 20, 21])

    (table,) = _tables(parse(_xlsx(workbook), filename="m.xlsx", limits=ParseLimits()).blocks)

    assert (table.n_rows, table.n_cols, table.header_rows) == (4, 3, 2)
    starts = {(cell.row, cell.col): cell for cell in table.cells}
    assert (starts[(0, 0)].text, starts[(0, 0)].rowspan) == ("Item", 2)
    assert (starts[(0, 1)].text, starts[(0, 1)].colspan) == ("Quarter", 2)
    assert (1, 0) not in starts and (0, 2) not in starts
    assert table_grid(table)[2] == ["Bolts", "10", "11"]


def test_sub_tables_title_rows_and_tables_not_at_a1() -> None:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Report"
    sheet["C3"] = "Ducks per year"
    sheet["C4"], sheet["D4"] = "Year", "Ducks"
    sheet["C5"], sheet["D5"] = 2019, 120
    sheet["C6"], sheet["D6"] = 2020, 135
    sheet["H4"], sheet["I4"], sheet["J4"] = "a", "b", "c"  # side by side, different height
    sheet["H5"], sheet["I5"], sheet["J5"] = 1, 2, 3
    sheet["C10"], sheet["D10"] = "Name", "City"  # below an empty row: a separate all-text table
    sheet["C11"], sheet["D11"] = "Ann", "Oslo"

    blocks = parse(_xlsx(workbook), filename="r.xlsx", limits=ParseLimits()).blocks

    assert blocks[:2] == [Heading(text="Report", level=1, page=1), Heading(text="Ducks per year", level=2, page=1)]
    tables = _tables(blocks)
    assert [table_grid(t) for t in tables] == [
        [["Year", "Ducks"], ["2019", "120"], ["2020", "135"]],
        [["a", "b", "c"], ["1", "2", "3"]],
        [["Name", "City"], ["Ann", "Oslo"]],
    ]
    assert [t.header_rows for t in tables] == [1, 1, 1]


def test_a_blank_row_inside_a_table_does_not_split_it() -> None:
    workbook = Workbook()
    sheet = workbook.active
    for row in [
        ["Region", "Q1", "Q2"],
        ["North", 10, 11],
        ["South", 20, 21],
        [],  # a spacer row inside the table: the rows below keep its header
        ["East", 30, 31],
        ["West", 40, 41],
        [],  # a new header row over the same columns: another table
        ["Product", "Units", "Price"],
        ["Bolts", 5, 0.5],
    ]:
        sheet.append(row)
    sheet["F1"], sheet["G1"], sheet["F2"], sheet["G2"] = "Manager", "Region", "Alice", "North"

    tables = _tables(parse(_xlsx(workbook), filename="b.xlsx", limits=ParseLimits()).blocks)

    assert [table_grid(t) for t in tables] == [
        [
            ["Region", "Q1", "Q2"],
            ["North", "10", "11"],
            ["South", "20", "21"],
            ["East", "30", "31"],
            ["West", "40", "41"],
        ],
        [["Manager", "Region"], ["Alice", "North"]],
        [["Product", "Units", "Price"], ["Bolts", "5", "0.5"]],
    ]
    assert [t.header_rows for t in tables] == [1, 1, 1]


def _calculated(data: bytes, values: dict[str, str]) -> bytes:
    """The workbook with each formula of `values` given the cached value Excel would have saved."""
    source, buffer = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename.startswith("xl/worksheets/"):
                for formula, value in values.items():
                    content = content.replace(
                        f"<f>{formula}</f><v></v>".encode(), f"<f>{formula}</f><v>{value}</v>".encode()
                    )
            target.writestr(item, content)
    return buffer.getvalue()


def test_formulas_without_a_computed_value_show_their_formula_with_a_warning() -> None:
    workbook = Workbook()
    sheet = workbook.active
    for row in [
        ["Item", "Cost", "Share"],
        ["Rent", 1200, "=B2/B4"],
        ["Staff", 5400, "=B3/B4"],
        ["Total", "=SUM(B2:B3)"],
    ]:
        sheet.append(row)
    never_calculated = _xlsx(workbook)

    content = parse(never_calculated, filename="f.xlsx", limits=ParseLimits())
    (table,) = _tables(content.blocks)
    assert table_grid(table)[1:] == [
        ["Rent", "1200", "=B2/B4"],
        ["Staff", "5400", "=B3/B4"],
        ["Total", "=SUM(B2:B3)", ""],
    ]
    assert content.warnings == [
        "formula cells without a computed value (the workbook was never calculated): 3, shown as their formulas"
    ]

    content = parse(_calculated(never_calculated, {"SUM(B2:B3)": "6600"}), filename="f.xlsx", limits=ParseLimits())
    (table,) = _tables(content.blocks)
    assert table_grid(table)[3] == ["Total", "6600", ""]
    assert content.warnings[0].endswith(": 2, shown as their formulas")

    calculated = _calculated(never_calculated, {"SUM(B2:B3)": "6600", "B2/B4": "0.18", "B3/B4": "0.82"})
    content = parse(calculated, filename="f.xlsx", limits=ParseLimits())
    assert [row[1:] for row in table_grid(_tables(content.blocks)[0])[1:]] == [
        ["1200", "0.18"],
        ["5400", "0.82"],
        ["6600", ""],
    ]
    assert content.warnings == []


def test_cell_budget_truncates_with_a_warning() -> None:
    workbook = Workbook()
    sheet = workbook.active
    for row in range(50):
        sheet.append([f"r{row}", row])
    workbook.create_sheet("Later")["A1"] = "never read"

    content = parse(_xlsx(workbook), filename="big.xlsx", limits=ParseLimits(max_sheet_cells=20))

    (table,) = _tables(content.blocks)
    assert table.n_rows == 10
    assert any("truncated" in w for w in content.warnings) and any("skipped" in w for w in content.warnings)
    assert content.truncation.startswith("kept the first 20 cells: sheet 'Sheet' truncated at row 11")
    assert "'Later' skipped" in content.truncation


def test_zip_bomb_and_garbage_are_rejected() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", "<workbook/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (8 * 1024 * 1024))
    with pytest.raises(DocumentTooLargeError):
        parse(buffer.getvalue(), filename="bomb.xlsx", limits=ParseLimits())
    with pytest.raises(CorruptDocumentError):
        parse(b"PK\x03\x04 not really a zip", filename="bad.xlsx", limits=ParseLimits())


CORPUS_XLSX = [
    "xlsx_01.xlsx", "xlsx_06_edge_cases_.xlsx", "2023-half-year-analyses-by-segment.xlsx", "vodafone.xlsx",
    "xlsx-subtable-cases.xlsx", "easyexcel_t04_zh.xlsx", "testEXCEL_phonetic_ja.xlsx",
]  # fmt: skip


@pytest.mark.corpus
@pytest.mark.parametrize("name", CORPUS_XLSX)
def test_corpus_workbooks_parse(corpus_dir: Path, name: str) -> None:
    document = parse_bytes((corpus_dir / "xlsx" / name).read_bytes(), name)
    assert any(block.kind == "table" for block in document.blocks())
    assert all(page.label for page in document.pages)


@pytest.mark.corpus
def test_corpus_encrypted_workbook(corpus_dir: Path) -> None:
    with pytest.raises(EncryptedDocumentError):
        parse_bytes((corpus_dir / "xlsx" / "password_protected.xlsx").read_bytes(), "password_protected.xlsx")
    with pytest.raises(DocumentError) as error:
        parse((corpus_dir / "xlsx" / "password_protected.xlsx").read_bytes(), filename="p.xlsx", limits=ParseLimits())
    assert error.value.code == "encrypted"


@pytest.mark.corpus
def test_corpus_phonetic_runs_do_not_pollute_text(corpus_dir: Path) -> None:
    document = parse_bytes((corpus_dir / "xlsx" / "testEXCEL_phonetic_ja.xlsx").read_bytes(), "ja.xlsx")
    table = next(block for block in document.blocks() if isinstance(block, Table))
    assert table_grid(table)[1][1] == "豊田"  # the furigana トヨ/タ is not appended


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["xlsx_01.xlsx", "xlsx_06_edge_cases_.xlsx"])
def test_corpus_against_groundtruth(corpus_dir: Path, name: str) -> None:
    document = parse_bytes((corpus_dir / "xlsx" / name).read_bytes(), name)
    reference = corpus_dir / "groundtruth" / "xlsx" / f"{name}.docling.json"
    recall, f1 = text_recall(document, reference_text(reference)), cell_f1(document, reference)
    print(f"{name}: text recall {recall:.3f}, cell F1 {f1:.3f}")
    assert recall >= 0.95
    assert f1 >= 0.9
