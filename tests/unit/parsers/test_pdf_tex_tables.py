"""Tables as TeX engines write them: pdfTeX, xdvipdfmx and LuaTeX set a row of a borderless, booktabs or longtable
table as ONE text object, the space between its cells as TJ offsets (`[(Ashcombe)-5000(112)-4000(812)]TJ`), and the
cells of a table with column rules as one object each. Each PDF here is written with those operators."""

from __future__ import annotations

import io

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from docshelf.model import Paragraph, Table
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.tables import table_grid

WIDTH, HEIGHT = A4
FONT, SIZE = "Times-Roman", 10
STATIONS = [
    ["Station", "Elevation (m)", "Mean rainfall (mm)", "Record (years)"],
    ["Ashcombe", "112", "812", "20"],
    ["Brightling Down", "187", "906", "20"],
    ["Carrow Hill", "203", "934", "17"],
    ["Dunmere", "74", "741", "20"],
]
COLUMNS = (150.0, 240.0, 330.0, 440.0)
PROSE = [
    "Daily precipitation and potential evapotranspiration were obtained for the twenty years of record, and",
    "missing values were infilled from the nearest stations.",
]


def _parse(data: bytes) -> ParsedContent:
    return parse(data, filename="tex.pdf", limits=ParseLimits())


def _tj_line(pdf: canvas.Canvas, x: float, y: float, parts: list[tuple[float, str]]) -> None:
    """One text object for the whole line, each part placed at its x by a TJ offset, as pdfTeX writes a table row."""
    items: list[str] = []
    end = x
    for left, text in parts:
        if items:
            items.append(str(round(-(left - end) * 1000 / SIZE)))
        items.append("(" + text.replace("(", "\\(").replace(")", "\\)") + ")")
        end = left + stringWidth(text, FONT, SIZE)
    line = pdf.beginText(x, y)
    line.setFont(FONT, SIZE)
    line._code.append(f"[{' '.join(items)}] TJ")
    pdf.drawText(line)


def _row(pdf: canvas.Canvas, y: float, cells: list[str]) -> None:
    _tj_line(pdf, COLUMNS[0], y, list(zip(COLUMNS, cells, strict=True)))


def _tex_table_pdf(*, rules: bool) -> bytes:
    """A paragraph, a table whose rows are one text object each (booktabs rules or none), its caption below."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont(FONT, SIZE)
    pdf.drawString(72, HEIGHT - 80, PROSE[0])
    pdf.drawString(72, HEIGHT - 92, PROSE[1])
    top = HEIGHT - 120
    if rules:
        pdf.setLineWidth(0.8)
        for y in (top, top - 16, top - 16 - 4 * 13 - 6):
            pdf.line(COLUMNS[0] - 6, y, 520, y)
    for index, cells in enumerate(STATIONS):
        _row(pdf, top - 12 - index * 13 - (4 if index else 0), cells)
    pdf.drawString(190, top - 100, "Table 1: Meteorological stations used for model forcing.")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_booktabs_rows_written_as_one_text_object_each_are_cut_into_cells() -> None:
    tables = [block for block in _parse(_tex_table_pdf(rules=True)).blocks if isinstance(block, Table)]
    assert [table_grid(table) for table in tables] == [STATIONS]


def test_borderless_rows_written_as_one_text_object_each_are_a_table() -> None:
    content = _parse(_tex_table_pdf(rules=False))
    tables = [block for block in content.blocks if isinstance(block, Table)]
    assert [table_grid(table) for table in tables] == [STATIONS]
    texts = [block.text for block in content.blocks if isinstance(block, Paragraph)]
    assert not any("Ashcombe" in text for text in texts), texts


def test_a_wide_word_space_inside_a_line_of_prose_leaves_the_line_whole() -> None:
    """A loose justified line (one text object) has word spaces over an em wide: the paragraph reads as before."""
    words = ["The", "deficit", "is", "bounded", "above.", "Missing", "values", "were", "infilled."]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont(FONT, SIZE)
    for index in range(3):
        x, parts = 72.0, []
        for word in words:
            parts.append((x, word))
            x += stringWidth(word, FONT, SIZE) + (14.0 if word.endswith(".") else 6.0)
        _tj_line(pdf, 72, HEIGHT - 80 - 12 * index, parts)
    pdf.showPage()
    pdf.save()
    content = _parse(buffer.getvalue())
    assert [block.text for block in content.blocks if isinstance(block, Paragraph)] == [" ".join([" ".join(words)] * 3)]
    assert [block.kind for block in content.blocks] == ["paragraph"]


def test_a_caption_between_the_rules_of_two_stacked_tables_keeps_them_apart() -> None:
    """Two booktabs tables of one width, one above the other, the second's caption between them: two tables, the
    caption the second's (the rules of one width used to frame both tables and the caption as one)."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont(FONT, SIZE)
    first = [["Command", "Font"], ["\\textrm", "roman"], ["\\textsf", "sans serif"], ["\\texttt", "typewriter"]]
    second = [["Command", "Size"], ["\\tiny", "5 pt"], ["\\small", "9 pt"], ["\\large", "12 pt"]]
    top = HEIGHT - 100
    for index, rows in enumerate((first, second)):
        if index:
            pdf.drawString(150, top + 14, "Table 2: Font sizes.")
        for y in (top, top - 16, top - 16 - 3 * 13 - 6):
            pdf.line(140, y, 400, y)
        for r, row in enumerate(rows):
            for x, text in zip((150, 280), row, strict=True):
                pdf.drawString(x, top - 12 - r * 13 - (4 if r else 0), text)
        top -= 100
    pdf.showPage()
    pdf.save()
    content = _parse(buffer.getvalue())
    tables = [block for block in content.blocks if isinstance(block, Table)]
    assert [(table_grid(table), table.caption) for table in tables] == [(first, ""), (second, "Table 2: Font sizes.")]


def _column_ruled_pdf(body: list[list[str]], pitch: float = 13.0) -> bytes:
    """`|l|c|c|`: column rules from top to bottom, a rule above and under the header and at the bottom, none between
    the body's lines; each cell its own text object (a column rule ends TeX's text object). A cell of the body given
    as `a/b` is set on two lines."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont(FONT, SIZE)
    xs, top = (140.0, 240.0, 330.0, 420.0), HEIGHT - 100
    lines = max(len(cell.split("/")) for row in body for cell in row) if len(body) == 1 else len(body)
    bottom = top - 16 - lines * pitch - 4
    for y in (top, top - 16, bottom):
        pdf.line(xs[0], y, xs[-1], y)
    for x in xs:
        pdf.line(x, top, x, bottom)
    for x, text in zip(xs, ["Site", "2022", "2023"], strict=False):
        pdf.drawString(x + 5, top - 12, text)
    for r, row in enumerate(body):
        for x, cell in zip(xs, row, strict=False):
            for k, part in enumerate(cell.split("/")):
                pdf.drawString(x + 5, top - 28 - (r + k) * pitch, part)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_lines_of_a_column_ruled_table_without_rules_between_its_rows_are_rows() -> None:
    body = [
        ["North Beach", "Excellent", "Good"],
        ["Harbour Steps", "Poor", "Sufficient"],
        ["Sandy Point", "Good", "Excellent"],
    ]
    tables = [block for block in _parse(_column_ruled_pdf(body)).blocks if isinstance(block, Table)]
    assert [table_grid(table) for table in tables] == [[["Site", "2022", "2023"], *body]]


def test_a_cell_wrapping_in_one_column_of_a_column_ruled_table_stays_one_cell() -> None:
    body = [["North Beach", "Excellent after/the works", "Good"]]
    tables = [block for block in _parse(_column_ruled_pdf(body)).blocks if isinstance(block, Table)]
    assert [table_grid(table) for table in tables] == [
        [["Site", "2022", "2023"], ["North Beach", "Excellent after the works", "Good"]]
    ]


@pytest.mark.parametrize("rules", [True, False])
def test_a_caption_under_a_table_is_the_tables_caption(rules: bool) -> None:
    content = _parse(_tex_table_pdf(rules=rules))
    tables = [block for block in content.blocks if isinstance(block, Table)]
    assert [table.caption for table in tables] == ["Table 1: Meteorological stations used for model forcing."]
    assert [block.text for block in content.blocks if isinstance(block, Paragraph)] == [" ".join(PROSE)]


def test_a_caption_of_two_lines_above_a_table_is_its_caption_and_text_naming_the_table_is_not() -> None:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont(FONT, SIZE)
    pdf.drawString(72, HEIGHT - 80, "Table 1 lists the stations used for model forcing.")
    pdf.drawString(150, HEIGHT - 110, "Table 1: Meteorological stations used for model forcing, with their")
    pdf.drawString(150, HEIGHT - 122, "elevation and the length of their record.")
    top = HEIGHT - 130
    for y in (top, top - 16, top - 16 - 4 * 13 - 6):
        pdf.line(COLUMNS[0] - 6, y, 520, y)
    for index, cells in enumerate(STATIONS):
        _row(pdf, top - 12 - index * 13 - (4 if index else 0), cells)
    pdf.showPage()
    pdf.save()
    content = _parse(buffer.getvalue())
    tables = [block for block in content.blocks if isinstance(block, Table)]
    assert [table.caption for table in tables] == [
        "Table 1: Meteorological stations used for model forcing, with their elevation and the length of their record."
    ]
    assert [block.text for block in content.blocks if isinstance(block, Paragraph)] == [
        "Table 1 lists the stations used for model forcing."
    ]
