"""Spreadsheets printed to PDF: a column of numbers set flush right against the text of the next column, a cell's
padding (two points) apart, is two columns."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from docshelf.model import Table
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.tables import table_to_markdown

WIDTH, HEIGHT = A4
PADDING = 2.0


def _sheet(rows: list[tuple[str, str, str, str]], *, first_column: float = 72, number_end: float = 200) -> bytes:
    """A sheet as Calc prints it: each cell its own text object; the second column's numbers end flush right at
    `number_end`, the third column starts PADDING after it, the fourth is a right-aligned price."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for index, (item, quantity, supplier, price) in enumerate(rows):
        font = "Helvetica-Bold" if index == 0 else "Helvetica"
        y = HEIGHT - 100 - 15 * index
        pdf.setFont(font, 10)
        pdf.drawString(first_column, y, item)
        if index == 0:
            pdf.drawString(number_end - 40, y, quantity)
        else:
            pdf.drawString(number_end - stringWidth(quantity, font, 10), y, quantity)
        pdf.drawString(number_end + PADDING, y, supplier)
        pdf.drawString(380 - stringWidth(price, font, 10), y, price)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _tables(data: bytes) -> list[str]:
    content = parse(data, filename="sheet.pdf", limits=ParseLimits())
    return [table_to_markdown(block) for block in content.blocks if isinstance(block, Table)]


def test_numbers_flush_right_against_the_next_columns_text_are_a_column_of_their_own() -> None:
    rows = [
        ("Item", "Qty", "Supplier", "Unit price"),
        ("Impeller", "12", "Acme Pumps", "145.50"),
        ("Bearing", "340", "Nordic Parts", "12.25"),
        ("Seal kit", "56", "Acme Pumps", "38.00"),
        ("Motor 5 kW", "3", "Volt GmbH", "1,890.00"),
    ]
    assert _tables(_sheet(rows)) == [
        "\n".join(
            [
                "| Item | Qty | Supplier | Unit price |",
                "|---|---|---|---|",
                "| Impeller | 12 | Acme Pumps | 145.50 |",
                "| Bearing | 340 | Nordic Parts | 12.25 |",
                "| Seal kit | 56 | Acme Pumps | 38.00 |",
                "| Motor 5 kW | 3 | Volt GmbH | 1,890.00 |",
            ]
        )
    ]


def test_numbers_of_one_width_before_a_word_stay_in_their_cell() -> None:
    # `5 kW` over `7 kW` over `3 kW`: the same edges in every row, but no number of another width ends there, so no
    # flush-right column shows; the cell stays whole.
    rows = [
        ("Item", "Power", "Supplier", "Unit price"),
        ("Pump A", "5", "kW rated", "145.50"),
        ("Pump B", "7", "kW rated", "12.25"),
        ("Pump C", "3", "kW rated", "38.00"),
    ]
    [table] = _tables(_sheet(rows))
    assert "| 5 kW rated |" in table


FIGURES = [
    ("Zone NA", "12,553", "2,713", "2,632", "(81)", "(29)", "(337)"),
    ("Zone EUR", "9,467", "1,570", "1,373", "(197)", "(5)", "(414)"),
    ("Zone AOA", "9,060", "2,068", "1,985", "(83)", "(49)", "(259)"),
    ("Zone GC", "2,548", "422", "418", "(4)", "(2)", "(83)"),
    ("Total", "46,293", "7,904", "7,351", "(553)", "(110)", "(1,722)"),
]
GROUPS = [(60, 300), (312, 460), (472, 530)]  # the row rules of each group of columns, a gutter apart
COLUMN_ENDS = [160, 220, 280, 380, 440, 525]
PAD_WIDTH = 24.0


def _figures_sheet() -> bytes:
    """A financial sheet laid out as Calc prints one: each figure right-aligned after a padding space and followed
    by a space, columns set equally far apart, a rule over the table and under each row drawn group by group (the
    last group narrower than an inch), and a heading turned on its side, one glyph per object."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.saveState()
    pdf.translate(COLUMN_ENDS[0] - 4, HEIGHT - 150)
    pdf.rotate(90)
    y = 0.0
    for char in "Sales (a)":
        pdf.setFont("Helvetica", 7)
        pdf.drawString(y, 0, char)
        y += stringWidth(char, "Helvetica", 7)
    pdf.restoreState()
    for index, (label, *figures) in enumerate(FIGURES):
        y = HEIGHT - 170 - 14 * index
        pdf.setFont("Helvetica", 8)
        pdf.drawString(62, y, label)
        for figure, end in zip(figures, COLUMN_ENDS, strict=True):
            text = pdf.beginText(end - stringWidth(" " + figure, "Helvetica", 8) - PAD_WIDTH, y)
            text.setFont("Helvetica", 8)
            text.setWordSpace(PAD_WIDTH)  # one space as wide as the padding, as Calc sets it
            text.textOut(" " + figure)
            text.setWordSpace(0)
            text.textOut(" ")
            pdf.drawText(text)
        pdf.setLineWidth(0.5)
        for start, stop in GROUPS:
            pdf.line(start, y - 3, stop, y - 3)
            if index == 0:
                pdf.line(start, y + 11, stop, y + 11)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_sheet_of_figures_reads_a_cell_per_figure_and_its_turned_heading_as_words() -> None:
    content = parse(_figures_sheet(), filename="segments.pdf", limits=ParseLimits())
    tables = [block for block in content.blocks if isinstance(block, Table)]
    assert [table_to_markdown(table).splitlines()[2:] for table in tables] == [
        ["| " + " | ".join(row) + " |" for row in FIGURES[1:]]
    ]
    assert table_to_markdown(tables[0]).splitlines()[0] == "| " + " | ".join(FIGURES[0]) + " |"
    texts = [block.text for block in content.blocks if not isinstance(block, Table)]
    assert "Sales (a)" in texts


SOFFICE = shutil.which("soffice")


@pytest.mark.corpus
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) prints the corpus workbook")
def test_a_financial_workbook_printed_by_calc_reads_a_cell_per_figure(corpus_dir: Path, tmp_path: Path) -> None:
    # Calc pads each right-aligned figure with a space as wide as its cell (the figure's box reaching over the cell
    # before it), sets columns of one width equally far apart, underlines each group of columns apart (the last
    # narrower than an inch) and turns the headings on their side, a glyph per object: the figures of a row ran
    # together in one cell (`12,138 2,284 1,829`), the last column fell out of the table, the headings read
    # `S a l e s ( a )` in a paragraph after the tables.
    shutil.copy(corpus_dir / "xlsx" / "2023-half-year-analyses-by-segment.xlsx", tmp_path / "segments.xlsx")
    env = {**os.environ, "HOME": str(tmp_path)}
    subprocess.run(
        [str(SOFFICE), "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path), str(tmp_path / "segments.xlsx")],
        check=True, capture_output=True, env=env, timeout=240,
    )  # fmt: skip
    content = parse((tmp_path / "segments.pdf").read_bytes(), filename="segments.pdf", limits=ParseLimits())
    rows = [
        line for block in content.blocks if isinstance(block, Table) for line in table_to_markdown(block).splitlines()
    ]
    assert "| Zone NA | 12,138 | 2,284 | 1,829 | (455) | (33) | (41) | (348) |" in rows
    assert "| Total | 46,293 | 7,904 | 7,351 | (553) | (110) | (262) | (1,722) |" in rows
    headings = [row for row in rows if "| Sales (a) | Underlying Trading operating profit (b) |" in row]
    assert len(headings) == 2  # the 2022 and 2023 tables' turned headings, each a header row
    assert headings[0].endswith("| of which restructuring costs | Depreciation and amortization |")


SHEET_VALUES = [("12", "145", "9,060"), ("340", "12", "2,068"), ("56", "38", "1,985"), ("3", "1,890", "418")]


def test_headings_at_the_left_of_wide_cells_head_the_figures_flush_right_below_them() -> None:
    # Each heading starts at its cell's left edge, each figure ends at the right edge: `first` stands far left of
    # the first column of figures, `second` and `third` in the gutters before theirs.
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    for index, heading in enumerate(["first", "second", "third"]):
        pdf.drawString(60 + 90 * index, HEIGHT - 100, heading)
    for row, values in enumerate(SHEET_VALUES, start=1):
        for index, value in enumerate(values):
            pdf.drawString(146 + 90 * index - stringWidth(value, "Helvetica", 10), HEIGHT - 100 - 14 * row, value)
    pdf.showPage()
    pdf.save()
    [table] = _tables(buffer.getvalue())
    assert table.splitlines()[:3] == ["| first | second | third |", "|---|---|---|", "| 12 | 145 | 9,060 |"]
