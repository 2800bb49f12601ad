"""Group headings over a PDF table's header (`Q1` over `Units` and `Revenue`): cells spanning the columns they are
centred over, in a booktabs table and in a table without rules, where a heading set between the two header rows
heads its column down both; a title centred over the whole table stays its caption. A one-row header's heading over
two columns of numbers spans them, and headings written as one text object are cut at the columns they head."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from docshelf.model import Paragraph, Table
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.parsers.pdf.pdf_spans import spanned_columns
from docshelf.tables import table_grid

WIDTH, HEIGHT = A4
LEFT = 72.0
NAME_END, COLUMN_ENDS = 150.0, (220.0, 290.0, 360.0, 430.0)  # right edges of the four number columns
BODY = [
    ("North", ("1,200", "36,000", "1,650", "49,500")),
    ("South", ("980", "29,400", "1,010", "30,300")),
    ("East", ("1,430", "42,900", "1,480", "44,400")),
    ("West", ("760", "22,800", "820", "24,600")),
]
PITCH = 16.0


def _table_page(*, rules: bool, region_between: bool = False, title: str = "") -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    pdf.drawString(LEFT, HEIGHT - 80, "Sales rose in every region in the second quarter of the year.")
    top = HEIGHT - 130
    if title:
        pdf.drawCentredString((LEFT + COLUMN_ENDS[-1]) / 2, top + PITCH, title)
    if rules:
        pdf.line(LEFT, top + 12, COLUMN_ENDS[-1], top + 12)
    for label, (first, last) in (("Q1", (0, 1)), ("Q2", (2, 3))):
        start = COLUMN_ENDS[first] - 36
        pdf.drawCentredString((start + COLUMN_ENDS[last]) / 2, top, label)
    pdf.drawString(LEFT, top - PITCH / 2 if region_between else top - PITCH, "Region")
    for index, heading in enumerate(("Units", "Revenue", "Units", "Revenue")):
        pdf.drawRightString(COLUMN_ENDS[index], top - PITCH, heading)
    if rules:
        pdf.line(LEFT, top - PITCH - 5, COLUMN_ENDS[-1], top - PITCH - 5)
    for row, (name, values) in enumerate(BODY):
        y = top - PITCH * (row + 2)
        pdf.drawString(LEFT, y, name)
        for index, value in enumerate(values):
            pdf.drawRightString(COLUMN_ENDS[index], y, value)
    if rules:
        pdf.line(LEFT, y - 6, COLUMN_ENDS[-1], y - 6)
    pdf.drawString(LEFT, y - 40, "Revenue follows units closely because prices did not change.")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _only_table(data: bytes) -> Table:
    content = parse(data, filename="sales.pdf", limits=ParseLimits())
    (table,) = [block for block in content.blocks if isinstance(block, Table)]
    return table


def test_booktabs_group_headings_span_the_columns_they_are_centred_over() -> None:
    table = _only_table(_table_page(rules=True))
    grid = table_grid(table)
    assert grid[0] == ["", "Q1", "Q1", "Q2", "Q2"]
    assert grid[1] == ["Region", "Units", "Revenue", "Units", "Revenue"]
    assert grid[2] == ["North", "1,200", "36,000", "1,650", "49,500"]
    assert table.header_rows == 2
    assert [cell.colspan for cell in table.cells if cell.text in {"Q1", "Q2"}] == [2, 2]


def test_group_headings_over_a_table_without_rules_and_a_heading_between_the_rows() -> None:
    table = _only_table(_table_page(rules=False, region_between=True))
    grid = table_grid(table)
    assert grid[0] == ["Region", "Q1", "Q1", "Q2", "Q2"]
    assert grid[1] == ["Region", "Units", "Revenue", "Units", "Revenue"]
    assert grid[-1] == ["West", "760", "22,800", "820", "24,600"]
    assert table.header_rows == 2
    (region,) = [cell for cell in table.cells if cell.text == "Region"]
    assert (region.row, region.rowspan) == (0, 2)


def test_a_title_centred_over_the_whole_table_is_no_group_heading() -> None:
    data = _table_page(rules=False, title="Sales by region")
    content = parse(data, filename="sales.pdf", limits=ParseLimits())
    texts = [block.text for block in content.blocks if isinstance(block, Paragraph)]
    grids = [table_grid(block) for block in content.blocks if isinstance(block, Table)]
    assert grids[0][0] == ["", "Q1", "Q1", "Q2", "Q2"]
    assert not any("Sales by region" in text for grid in grids for row in grid for text in row)
    assert any("Sales by region" in text for text in texts)


def test_spanned_columns_needs_the_heading_centred_over_two_columns_or_more() -> None:
    columns = [(72.0, 110.0), (184.0, 220.0), (254.0, 290.0), (324.0, 360.0)]
    assert spanned_columns(195.0, 209.0, columns) is None  # centred over its own column
    assert spanned_columns(230.0, 244.0, columns) == (1, 2)
    assert spanned_columns(300.0, 314.0, columns) == (2, 3)
    assert spanned_columns(80.0, 100.0, columns) is None


def _one_row_header_page() -> bytes:
    """A booktabs table (DPR's Table 1): `Train` centred over two columns of numbers; on the next page a table whose
    header is one text object `Top-5 Top-20 Top-100` over three columns."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    top = HEIGHT - 100
    pdf.line(LEFT, top, 430, top)
    pdf.drawString(LEFT, top - 12, "Dataset")
    pdf.drawCentredString((240 - 30 + 300) / 2, top - 12, "Train")
    pdf.drawRightString(360, top - 12, "Dev")
    pdf.drawRightString(430, top - 12, "Test")
    pdf.line(LEFT, top - 17, 430, top - 17)
    rows = [
        ("Natural Questions", "79,168", "58,880", "8,757", "3,610"),
        ("TriviaQA", "78,785", "60,413", "8,837", "11,313"),
    ]
    rows += [("SQuAD", "78,713", "70,096", "8,886", "10,570")]
    for index, (name, *values) in enumerate(rows):
        y = top - 31 - 14 * index
        pdf.drawString(LEFT, y, name)
        for value, right in zip(values, (240, 300, 360, 430), strict=True):
            pdf.drawRightString(right, y, value)
    pdf.line(LEFT, y - 6, 430, y - 6)
    pdf.showPage()
    pdf.setFont("Helvetica", 10)
    top = HEIGHT - 100
    header = "Top-5 Top-20 Top-100"
    pdf.line(LEFT, top, 430, top)
    pdf.drawString(LEFT, top - 12, "Type")
    pdf.drawString(250, top - 12, header)
    centres, offset = [], 250.0
    for word in header.split():
        centres.append(offset + stringWidth(word, "Helvetica", 10) / 2)
        offset += stringWidth(word + " ", "Helvetica", 10)
    pdf.line(LEFT, top - 17, 430, top - 17)
    for index, (name, *values) in enumerate([("Random", "47.0", "64.3", "77.8"), ("BM25", "50.0", "63.3", "74.8")]):
        y = top - 31 - 14 * index
        pdf.drawString(LEFT, y, name)
        for value, centre in zip(values, centres, strict=True):
            pdf.drawCentredString(centre, y, value)
    pdf.drawString(LEFT, y - 14, "Gold")
    for value, centre in zip(("42.6", "63.1", "78.3"), centres, strict=True):
        pdf.drawCentredString(centre, y - 14, value)
    pdf.line(LEFT, y - 20, 430, y - 20)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_one_row_header_spans_its_columns_and_one_object_of_headings_is_cut_at_them() -> None:
    content = parse(_one_row_header_page(), filename="dpr.pdf", limits=ParseLimits())
    first, second = [table_grid(block) for block in content.blocks if isinstance(block, Table)]
    assert first[0] == ["Dataset", "Train", "Train", "Dev", "Test"]
    assert first[1] == ["Natural Questions", "79,168", "58,880", "8,757", "3,610"]
    assert second[0] == ["Type", "Top-5", "Top-20", "Top-100"]
    assert second[1] == ["Random", "47.0", "64.3", "77.8"]


def _odd_groups_page(groups: tuple[str, ...]) -> bytes:
    """A booktabs table whose first header row holds `Model` and one heading centred over each group of three
    dataset columns (over the middle one), the second row the datasets."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    top = HEIGHT - 100
    rights = [170.0 + 45.0 * index for index in range(6)]
    pdf.line(LEFT, top, 460, top)
    pdf.drawString(LEFT, top - 12, "Model")
    for index, group in enumerate(groups):
        pdf.drawCentredString(rights[3 * index + 1] - 10, top - 12, group)
    for index, name in enumerate(("NQ", "TQA", "WQ") * 2):
        pdf.drawRightString(rights[index], top - 26, name)
    pdf.line(LEFT, top - 31, 460, top - 31)
    for row, name in enumerate(("BM25", "DPR", "Hybrid")):
        y = top - 45 - 14 * row
        pdf.drawString(LEFT, y, name)
        for index, right in enumerate(rights):
            pdf.drawRightString(right, y, f"{50 + row * 7 + index}.{index}")
    pdf.line(LEFT, y - 6, 460, y - 6)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_groups_centred_over_odd_numbers_of_columns_span_them_all() -> None:
    table = _only_table(_odd_groups_page(("Top-20", "Top-100")))
    grid = table_grid(table)
    assert grid[0] == ["Model", "Top-20", "Top-20", "Top-20", "Top-100", "Top-100", "Top-100"]
    assert grid[1] == ["Model", "NQ", "TQA", "WQ", "NQ", "TQA", "WQ"]
    assert grid[2][:2] == ["BM25", "50.0"]


def test_one_heading_over_its_own_column_is_that_column_s() -> None:
    grid = table_grid(_only_table(_odd_groups_page(("Top-20",))))
    assert grid[0][1:4] == ["", "Top-20", ""]


def _glyph_by_glyph_header_page() -> bytes:
    """A table without rules, as a browser prints it: one glyph per text object, `Training` centred over two
    columns of numbers (a `colspan`), so that its glyphs fall on both."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    pdf.drawString(LEFT, HEIGHT - 80, "The datasets used for training, with the number of questions in each split.")
    top = HEIGHT - 120
    rights = (250.0, 310.0, 370.0, 430.0)

    def glyphs(text: str, x: float, y: float) -> None:
        for char in text:
            pdf.drawString(x, y, char)
            x += stringWidth(char, "Helvetica", 10)

    glyphs("Dataset", LEFT, top)
    gutter_middle = (rights[0] + rights[1] - stringWidth("58,880", "Helvetica", 10)) / 2
    glyphs("Training", gutter_middle - stringWidth("Training", "Helvetica", 10) / 2, top)
    glyphs("Dev", rights[2] - stringWidth("Dev", "Helvetica", 10), top)
    glyphs("Test", rights[3] - stringWidth("Test", "Helvetica", 10), top)
    rows = [
        ("Natural Questions", "79,168", "58,880", "8,757", "3,610"),
        ("TriviaQA", "78,785", "60,413", "8,837", "11,313"),
        ("WebQuestions", "3,417", "2,474", "361", "2,032"),
        ("SQuAD", "78,713", "70,096", "8,886", "10,570"),
    ]
    for index, (name, *values) in enumerate(rows):
        y = top - 16 * (index + 1)
        glyphs(name, LEFT, y)
        for value, right in zip(values, rights, strict=True):
            glyphs(value, right - stringWidth(value, "Helvetica", 10), y)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_heading_over_two_columns_drawn_glyph_by_glyph_stays_one_word_over_both() -> None:
    table = _only_table(_glyph_by_glyph_header_page())
    grid = table_grid(table)
    assert grid[0] == ["Dataset", "Training", "Training", "Dev", "Test"]
    assert grid[1] == ["Natural Questions", "79,168", "58,880", "8,757", "3,610"]


def test_a_heading_centred_over_two_columns_of_a_table_without_rules_spans_them() -> None:
    heading = "Training"  # crossing both columns' extents (in their gutter alone it heads the right one: a sheet's)
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    pdf.drawString(LEFT, HEIGHT - 80, "The datasets used for training, with the number of questions in each split.")
    top, rights = HEIGHT - 120, (250.0, 310.0, 370.0, 430.0)
    pdf.drawString(LEFT, top, "Dataset")
    pdf.drawCentredString((rights[0] + rights[1] - stringWidth("58,880", "Helvetica", 10)) / 2, top, heading)
    pdf.drawRightString(rights[2], top, "Dev")
    pdf.drawRightString(rights[3], top, "Test")
    rows = [
        ("Natural Questions", "79,168", "58,880", "8,757", "3,610"),
        ("TriviaQA", "78,785", "60,413", "8,837", "11,313"),
        ("SQuAD", "78,713", "70,096", "8,886", "10,570"),
    ]
    for index, (name, *values) in enumerate(rows):
        y = top - 16 * (index + 1)
        pdf.drawString(LEFT, y, name)
        for value, right in zip(values, rights, strict=True):
            pdf.drawRightString(right, y, value)
    pdf.showPage()
    pdf.save()
    grid = table_grid(_only_table(buffer.getvalue()))
    assert grid[0] == ["Dataset", heading, heading, "Dev", "Test"]
    assert grid[1] == ["Natural Questions", "79,168", "58,880", "8,757", "3,610"]


@pytest.mark.corpus
def test_corpus_dpr_tables_have_a_column_per_number_under_spanning_headings(corpus_dir: Path) -> None:
    content = parse((corpus_dir / "pdf" / "multi-column.pdf").read_bytes(), filename="dpr.pdf", limits=ParseLimits())
    grids = [table_grid(block) for block in content.blocks if isinstance(block, Table)]
    rows = [row for grid in grids for row in grid]
    assert ["Dataset", "Train", "Train", "Dev", "Test"] in rows
    assert ["Natural Questions", "79,168", "58,880", "8,757", "3,610"] in rows
    assert ["Type", "#N", "IB", "Top-5", "Top-20", "Top-100"] in rows
    assert ["Training", "Model", "NQ", "TriviaQA", "WQ", "TREC", "SQuAD"] in rows
    assert ["Training", "Retriever", *["Top-20"] * 5, *["Top-100"] * 5] in rows
