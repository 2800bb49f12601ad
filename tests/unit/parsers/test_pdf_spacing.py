"""Where spaces go between glyphs and text objects, on PDFs laid out the way their producers write them: Chromium's
print to PDF (a text object per glyph, placed by its advance; a word per object, ending with its space, in a justified
line), ghostscript's ps2pdf (word spaces made by character spacing inside an object, no space glyph)."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from docshelf.model import Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.parsers.pdf.pdf_lines import build_lines
from docshelf.parsers.pdf.pdf_text import Run
from tests.ja_pdf_fixtures import register_cjk_fonts, require_cjk_font

WIDTH, HEIGHT = A4


def _parse(data: bytes) -> ParsedContent:
    return parse(data, filename="spacing.pdf", limits=ParseLimits())


def _texts(data: bytes) -> list[str]:
    return [block.text for block in _parse(data).blocks if isinstance(block, (Paragraph, Heading))]


def _glyph_objects(pdf: canvas.Canvas, x: float, y: float, text: str, font: str, size: float) -> None:
    """One text object per glyph at the pen position the advances give, as Chromium prints; a space is only a
    move of the pen."""
    for char in text:
        if char != " ":
            obj = pdf.beginText(x, y)
            obj.setFont(font, size)
            obj.textOut(char)
            pdf.drawText(obj)
        x += pdf.stringWidth(char, font, size)


def test_glyphs_drawn_one_object_each_join_by_their_advances_whatever_their_ink() -> None:
    """Courier's narrow glyphs (`i`, `l`, `.`, `(`) stand a fifth of an em from their neighbours by their ink."""
    lines = [
        "def claim(conn, shard, worker_id, batch=50):",
        "The settings live in queue.toml on every host.",
    ]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for index, line in enumerate(lines):
        _glyph_objects(pdf, 72, HEIGHT - 100 - 14 * index, line, "Courier", 10)
    pdf.showPage()
    pdf.save()
    assert _texts(buffer.getvalue()) == [" ".join(lines)]


def test_cjk_glyphs_drawn_one_object_each_gain_no_spaces() -> None:
    require_cjk_font()
    register_cjk_fonts()
    line = "在宅勤務の上限を週三日に引き上げます。"
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    _glyph_objects(pdf, 72, HEIGHT - 100, line, "JaMincho", 10.5)
    pdf.showPage()
    pdf.save()
    assert _texts(buffer.getvalue()) == [line]


def _run(text: str, x0: float, x1: float, advance: tuple[float, float] | None, size: float = 12.0) -> Run:
    return Run(text, x0, 100.0, x1, 112.0, size, False, advance=advance)


def test_a_dot_leader_and_a_smaller_mark_keep_the_ink_rule() -> None:
    """A leader's last dot advances up to the page number it leads to, and a footnote mark set right after a number
    is no digit of it: both are set off by their ink, as before advances were known."""
    leader = [
        _run("The Black Vials ", 85.0, 162.0, (85.0, 158.6)),
        _run(".........", 166.0, 277.5, (165.1, 278.4)),
        _run("118", 280.2, 295.6, (278.8, 296.3)),
    ]
    assert [line.text for line in build_lines(leader)] == ["The Black Vials ......... 118"]
    number = _run("except Well 14.", 72.0, 150.0, (72.0, 150.4))
    mark = Run("2", 151.9, 98.0, 155.0, 104.0, 8.0, False, advance=(150.4, 156.0))
    assert [line.text for line in build_lines([number, mark])] == ["except Well 14. ²"]


def _ps2pdf_line(pdf: canvas.Canvas, y: float, pieces: list[tuple[str, float]], font: str, size: float) -> None:
    """A line as ghostscript's ps2pdf writes one: a `Tj` per piece placed by `Td`, a word space inside a piece
    made by character spacing (`3.7 Tc (dan) Tj` for "d a n"), no space glyph."""
    text = pdf.beginText(72, y)
    text.setFont(font, size)
    pen = start = 0.0
    for piece, spacing in pieces:
        text._code.append(f"{pen - start:.3f} 0 Td {spacing:.3f} Tc ({piece}) Tj")
        start = pen
        pen += pdf.stringWidth(piece, font, size) + spacing * (len(piece) - 1)
    text._code.append("0 Tc")
    pdf.drawText(text)


def test_word_spaces_made_by_character_spacing_are_spaces() -> None:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    space = pdf.stringWidth(" ", "Times-Roman", 12) + 0.7
    pieces = [
        ("The committee appro", 0.0),
        ("ve", -0.18),
        ("dan", space),
        ("ew procedure for the chair", 0.0),
        (",t", space),
        ("he bursar and the hall.", 0.0),
    ]
    _ps2pdf_line(pdf, HEIGHT - 100, pieces, "Times-Roman", 12)
    # An object with spaces of its own sets its words apart with them: its character spacing spaces its letters
    # out (an OCR layer fitting a word to the scan's), and no space goes between them.
    _ps2pdf_line(pdf, HEIGHT - 130, [("Members were", 0.0), (" present", 2.0)], "Times-Roman", 12)
    pdf.showPage()
    pdf.save()
    assert _texts(buffer.getvalue()) == [
        "The committee approved a new procedure for the chair, the bursar and the hall. Members were present"
    ]


def test_cjk_text_spaced_out_by_character_spacing_gains_no_spaces() -> None:
    require_cjk_font()
    register_cjk_fonts()
    line = "在宅勤務の上限を週三日に引き上げます。"
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    text = pdf.beginText(72, HEIGHT - 100)
    text.setFont("JaMincho", 10.5)
    text.setCharSpace(4.0)  # a third of an em between the characters of one object
    text.textOut(line)
    pdf.drawText(text)
    pdf.showPage()
    pdf.save()
    assert _texts(buffer.getvalue()) == [line]


FONT, SIZE, COLUMN, GUTTER = "Times-Roman", 11.0, 110.0, 16.0
LEFT_TEXT = (
    "The society will install two more rainwater tanks before the summer, bringing the total to nine. Members "
    "are reminded that hosepipes may only be used before eight in the morning."
)
RIGHT_TEXT = (
    "The water company has agreed to read our meter every quarter instead of twice a year, so that future leaks "
    "are found sooner and repaired within the week."
)


def _broken(text: str, pdf: canvas.Canvas) -> list[list[str]]:
    lines: list[list[str]] = [[]]
    for word in text.split():
        if lines[-1] and pdf.stringWidth(" ".join([*lines[-1], word]), FONT, SIZE) > COLUMN:
            lines.append([])
        lines[-1].append(word)
    return lines


def _justified_column(pdf: canvas.Canvas, x: float, text: str, *, justify: bool = True) -> float:
    """A column as Chromium prints a justified paragraph: a text object per word ending with its space (none after
    a line's last word), the spaces stretched alike to fill the line. Returns the widest space."""
    lines = _broken(text, pdf)
    widest = 0.0
    for number, words in enumerate(lines):
        space = pdf.stringWidth(" ", FONT, SIZE)
        if justify and number < len(lines) - 1 and len(words) > 1:
            space += (COLUMN - pdf.stringWidth(" ".join(words), FONT, SIZE)) / (len(words) - 1)
        widest = max(widest, space)
        pen = x
        for index, word in enumerate(words):
            last = index == len(words) - 1
            pdf.setFont(FONT, SIZE)
            pdf.drawString(pen, HEIGHT - 100 - 14 * number, word if last and justify else word + " ")
            pen += pdf.stringWidth(word, FONT, SIZE) + space
    return widest


def _two_columns(*, justify: bool) -> tuple[bytes, float]:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    widest = _justified_column(pdf, 72, LEFT_TEXT, justify=justify)
    widest = max(widest, _justified_column(pdf, 72 + COLUMN + GUTTER, RIGHT_TEXT, justify=justify))
    pdf.showPage()
    pdf.save()
    return buffer.getvalue(), widest


def test_words_of_a_justified_line_in_a_narrow_column_stay_one_line() -> None:
    """Justification stretches word spaces to two font sizes, wider than the gutter (which stays a gutter)."""
    data, widest = _two_columns(justify=True)
    assert widest > GUTTER > SIZE
    assert _texts(data) == [LEFT_TEXT, RIGHT_TEXT]


def test_ragged_columns_whose_lines_end_with_a_space_stay_apart() -> None:
    """Word writes the space at the end of each line; a column's lines, ragged or not, never run into the next."""
    assert _texts(_two_columns(justify=False)[0]) == [LEFT_TEXT, RIGHT_TEXT]


def test_a_title_with_a_label_at_the_margin_stays_apart_from_the_label() -> None:
    """A title whose space is written and a label set two and a half ems after it, over body lines that run across
    the gap: the body is another paragraph, in another font, and tells nothing of the title's line."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    title = "The History of the Chantry: Chapter 1 "
    pdf.setFont("Helvetica-Bold", 12)
    pdf.drawString(72, HEIGHT - 80, title)
    pdf.drawString(72 + pdf.stringWidth(title, "Helvetica-Bold", 12) + 30, HEIGHT - 80, "Same as in DAO")
    pdf.setFont("Times-Roman", 12)
    body = [
        "When a pride demon takes control of the body of a mage, the result is an abomination whose ",
        "power grows with every soul it claims, and the templars are sworn to destroy it before the ",
        "village around the tower learns what walks among them in the dark of the winter nights.",
    ]
    for index, line in enumerate(body):
        pdf.drawString(72, HEIGHT - 100 - 14 * index, line)
    pdf.showPage()
    pdf.save()
    texts = _texts(buffer.getvalue())
    assert title.strip() in texts and "Same as in DAO" in texts
