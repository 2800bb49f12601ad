"""Tables as TeX engines write them: pdfTeX, xdvipdfmx and LuaTeX set a row of a borderless, booktabs or longtable
table as ONE text object, the space between its cells as TJ offsets (`[(Ashcombe)-5000(112)-4000(812)]TJ`), and the
cells of a table with column rules as one object each. Each PDF here is written with those operators."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from docshelf.model import Paragraph, Table
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.tables import table_grid

WIDTH, HEIGHT = A4
FONT, SIZE = "Times-Roman", 10


def _parse(data: bytes) -> ParsedContent:
    return parse(data, filename="tex.pdf", limits=ParseLimits())


def test_a_caption_between_the_rules_of_two_stacked_tables_keeps_them_apart() -> None:
    """Two booktabs tables of one width, one above the other, the second's caption between them: two tables, and the
    caption is text (the rules of one width used to frame both tables and the caption as one)."""
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
    assert [table_grid(block) for block in content.blocks if isinstance(block, Table)] == [first, second]
    assert "Table 2: Font sizes." in [block.text for block in content.blocks if isinstance(block, Paragraph)]
