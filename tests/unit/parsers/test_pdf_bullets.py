"""List bullets drawn as shapes or set a tab stop away from their items (pdf_marks)."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.parsers.pdf.pdf_marks import with_bullets
from docshelf.parsers.pdf.pdf_paragraphs import is_list_item
from docshelf.parsers.pdf.pdf_text import Run
from tests.ja_pdf_fixtures import register_cjk_fonts, require_cjk_font

WIDTH, HEIGHT = A4
ITEMS = ["Cap summer irrigation licences at 2022 volumes.", "Install loggers in six wells.", "Publish the data."]


def _blocks(data: bytes) -> list[Paragraph]:
    return [
        block for block in parse(data, filename="t.pdf", limits=ParseLimits()).blocks if isinstance(block, Paragraph)
    ]


def _page(draw_bullet: str) -> bytes:
    """A paragraph, three items, a paragraph; each item's bullet drawn as `draw_bullet` says."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, HEIGHT - 80, "The board agreed three actions for the coming year.")
    for index, item in enumerate(ITEMS):
        baseline = HEIGHT - 104 - 15 * index
        if draw_bullet == "disc":  # Chromium: a filled circle, no text
            pdf.circle(80, baseline + 3.5, 1.9, stroke=0, fill=1)
        elif draw_bullet == "glyph":  # Word and LibreOffice: a bullet glyph, the item's text at a tab stop
            pdf.drawString(72, baseline, "•")
        elif draw_bullet == "circle":  # Chromium's bullet of a nested list: a circle's outline
            pdf.circle(80, baseline + 3.5, 1.9, stroke=1, fill=0)
        elif draw_bullet == "checkbox":  # a form's empty box: no bullet
            pdf.rect(78, baseline + 1.5, 4, 4, stroke=1, fill=0)
        elif draw_bullet == "stars":  # a rating: a row of dots before each line
            for star in range(5):
                pdf.circle(60 + 6 * star, baseline + 3.5, 1.9, stroke=0, fill=1)
        pdf.drawString(72 + 24, baseline, item)
    pdf.drawString(72, HEIGHT - 160, "The next review is due in March.")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_bullets_drawn_as_shapes_make_list_items() -> None:
    blocks = _blocks(_page("disc"))
    assert [(block.text, block.list_level) for block in blocks[1:4]] == [(item, 0) for item in ITEMS]
    assert blocks[4].text == "The next review is due in March."


def test_a_circles_outline_is_a_bullet_and_an_empty_box_is_not() -> None:
    blocks = _blocks(_page("circle"))
    assert [(block.text, block.list_level) for block in blocks[1:4]] == [(item, 0) for item in ITEMS]
    assert not any(block.list_level is not None for block in _blocks(_page("checkbox")))


def test_a_bullet_glyph_a_tab_stop_away_opens_its_item() -> None:
    blocks = _blocks(_page("glyph"))
    assert [(block.text, block.list_level) for block in blocks] == [
        ("The board agreed three actions for the coming year.", None),
        *((item, 0) for item in ITEMS),
        ("The next review is due in March.", None),
    ]


def test_a_row_of_dots_is_no_bullet() -> None:
    blocks = _blocks(_page("stars"))
    assert not any("•" in block.text for block in blocks)


def test_symbol_font_bullets_read_as_bullets() -> None:
    """Word exports its bullets as Symbol's U+F0B7 (private use), the item's text a tab stop away."""
    bullet = Run("\uf0b7", 72.0, 100.0, 76.0, 111.0, 11.0, False, font="Symbol")
    item = Run("Do not come into the office.", 90.0, 100.0, 240.0, 111.0, 11.0, False)
    runs = with_bullets([bullet, item], [])
    assert bullet.text == "• " and bullet.x1 >= 90.0 - 0.25 * 11.0
    assert runs == [bullet, item]


def test_a_bullet_right_before_a_cjk_item_opens_it() -> None:
    assert is_list_item("•基幹業務システム")
    assert not is_list_item("·基幹")


def test_bold_items_whose_bullets_touch_their_text_are_items_without_the_glyph() -> None:
    """Bullets right before CJK items set larger than the text: list items (never headings), the glyph gone."""
    require_cjk_font()
    register_cjk_fonts()
    items = ["最初のバージョン", "いくつかバグを修正", "抄録環境を実装"]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("JaGothic", 10.5)
    pdf.drawString(72, HEIGHT - 80, "この文書の履歴を以下に示します。変更点は版ごとにまとめています。")
    for index, item in enumerate(items):
        baseline = HEIGHT - 104 - 15 * index
        pdf.setFont("Helvetica-Bold", 14)
        pdf.drawString(84, baseline, "•")
        pdf.setFont("JaGothic", 14)
        pdf.drawString(84 + pdf.stringWidth("•", "Helvetica-Bold", 14), baseline, item)
    pdf.showPage()
    pdf.save()
    blocks = parse(buffer.getvalue(), filename="t.pdf", limits=ParseLimits()).blocks
    assert [(type(block).__name__, getattr(block, "text", "")) for block in blocks[1:]] == [
        ("Paragraph", item) for item in items
    ]


def test_a_number_a_tab_away_from_its_item_opens_it_after_a_paragraph() -> None:
    """Word and LibreOffice set a numbered item's number, then its text at a tab stop: two fragments. The first
    item ran into the paragraph above it, the page's widest line, a line's gap away (LibreOffice's geometry)."""
    rows = [
        (72, "This guide covers the TX-100 pump. Follow every step in order, and log each one."),
        (86, "1.", 108, "Check the oil level."),
        (120, "–", 144, "Use the dipstick."),
        (120, "–", 144, "Top up with SAE 30 if low."),
        (86, "2.", 108, "Inspect the belts."),
        (86, "3.", 108, "Tighten the bolts to 45 Nm."),
    ]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 12)
    for index, row in enumerate(rows):
        baseline = HEIGHT - 160 - (0 if index == 0 else 24 + 15.8 * (index - 1))
        for x, text in zip(row[::2], row[1::2], strict=True):
            pdf.drawString(float(x), baseline, str(text))
    pdf.showPage()
    pdf.save()
    assert [block.text for block in _blocks(buffer.getvalue())] == [
        "This guide covers the TX-100 pump. Follow every step in order, and log each one.",
        "1. Check the oil level.",
        "Use the dipstick.",
        "Top up with SAE 30 if low.",
        "2. Inspect the belts.",
        "3. Tighten the bolts to 45 Nm.",
    ]


def test_two_bulleted_lists_side_by_side_are_read_list_after_list_not_as_a_table() -> None:
    """A slide's two-content layout exported to PDF (LibreOffice Impress, as `sample-presentation.pptx` prints): a
    heading and a list of two levels in each half. Their items line up row by row, so they were read as one table of
    `● Topic 1 | ● Details 1` cells; every cell opening with a bullet tells lists, which read one after the other."""
    halves = [
        (32, "Pumps", ["Seals", "Inspect the faces", "Bearings", "Grease them"]),
        (300, "Valves", ["Flanges", "Tighten crosswise", "Actuators", "Test the stroke"]),
    ]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for x, title, items in halves:
        pdf.setFont("Helvetica", 18)
        pdf.drawString(x, HEIGHT - 110, title)
        for index, item in enumerate(items):
            nested = index % 2 == 1
            size, bullet, indent = (14, "○", 47) if nested else (18, "●", 9)
            baseline = HEIGHT - 146 - 34 * index
            pdf.setFont("Helvetica", size)
            pdf.drawString(x + indent, baseline, bullet)
            pdf.drawString(x + indent + 27, baseline, item)
    pdf.showPage()
    pdf.save()
    content = parse(buffer.getvalue(), filename="t.pdf", limits=ParseLimits())
    assert not any(isinstance(block, Table) for block in content.blocks)
    texts = [block.text for block in content.blocks if isinstance(block, (Heading, Paragraph))]
    assert texts == ["Pumps", *halves[0][2], "Valves", *halves[1][2]]


def test_a_round_bullet_leaves_an_item_that_is_alone_in_its_list() -> None:
    """A list of one item (a word processor's bullet before one line, an ODT list whose other items are numbered):
    its `•` stayed in the text (`- • Establish …`), since a glyph on one item alone may be content. A round bullet
    never is; a first-level asterisk alone still marks a note as written."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, HEIGHT - 80, "The board agreed one action for the coming year.")
    pdf.drawString(72, HEIGHT - 104, "•")
    pdf.drawString(90, HEIGHT - 104, "Install loggers in six wells.")
    pdf.drawString(72, HEIGHT - 128, "The next review is due in March.")
    pdf.drawString(72, HEIGHT - 152, "*")
    pdf.drawString(90, HEIGHT - 152, "Figures are rounded to the nearest whole unit.")
    pdf.showPage()
    pdf.save()
    blocks = _blocks(buffer.getvalue())
    assert [(block.text, block.list_level) for block in blocks] == [
        ("The board agreed one action for the coming year.", None),
        ("Install loggers in six wells.", 0),
        ("The next review is due in March.", None),
        ("* Figures are rounded to the nearest whole unit.", 0),
    ]
