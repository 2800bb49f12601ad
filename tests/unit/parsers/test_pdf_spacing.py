"""Where spaces go between glyphs and text objects, on PDFs laid out the way their producers write them: Chromium's
print to PDF (a text object per glyph, placed by its advance; a word per object, ending with its space, in a justified
line), ghostscript's ps2pdf (word spaces made by character spacing inside an object, no space glyph)."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from docshelf.model import Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.parsers.pdf.pdf_lines import build_lines
from docshelf.parsers.pdf.pdf_text import Run
from tests.ja_pdf_fixtures import register_cjk_fonts, require_cjk_font
from tests.unit.parsers.test_pdf_latex import handmade_pdf

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
        "The committee approved a new procedure for the chair, the bursar and the hall.",
        "Members were present",
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


def _raised_glyphs(pdf: canvas.Canvas, x: float, y: float, text: str, size: float) -> float:
    """A browser's `<sup>`: the text at `font-size: smaller` (0.83 of the body) on a baseline raised by a third of
    the body size, a text object per glyph; the pen position after it."""
    small = round(size * 0.83, 2)
    _glyph_objects(pdf, x, y + size / 3, text, "Times-Roman", small)
    pdf.setFont("Times-Roman", size)
    return x + float(pdf.stringWidth(text, "Times-Roman", small))


def test_a_browsers_superscript_after_a_number_is_no_more_digits_of_it() -> None:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    x, y = 72.0, HEIGHT - 100
    pdf.setFont("Times-Roman", 12)
    pdf.drawString(x, y, "In 1998")
    x = _raised_glyphs(pdf, x + pdf.stringWidth("In 1998", "Times-Roman", 12), y, "2", 12)
    pdf.drawString(x, y, " the lamp was electrified, and the unit is N/mm")
    x += pdf.stringWidth(" the lamp was electrified, and the unit is N/mm", "Times-Roman", 12)
    _raised_glyphs(pdf, x, y, "2", 12)
    pdf.showPage()
    pdf.save()
    assert _texts(buffer.getvalue()) == ["In 1998² the lamp was electrified, and the unit is N/mm²"]


def test_a_browsers_bracketed_reference_marks_keep_their_digits_and_brackets() -> None:
    """Wikipedia's `<sup>[12]</sup>` printed by a browser: brackets reach below their raised baseline, so their ink
    is hardly raised; the mark stays `[12]`, not half superscript (`[¹²]`), and a raised word stays a word."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    x, y = 72.0, HEIGHT - 100
    pdf.setFont("Times-Roman", 12)
    for words, mark in (("The diving ducks make up the tribe Aythyini.", "[12]"), (" It was first named", "[note 1]")):
        pdf.drawString(x, y, words)
        x = _raised_glyphs(pdf, x + pdf.stringWidth(words, "Times-Roman", 12), y, mark, 12)
    pdf.showPage()
    pdf.save()
    assert _texts(buffer.getvalue()) == ["The diving ducks make up the tribe Aythyini.[12] It was first named[note 1]"]


def test_a_raised_note_mark_in_cjk_letters_stays_as_written() -> None:
    """A translator's note mark `(訳注1)` set small and raised (pLaTeX): its digit is not made superscript while its
    brackets and letters cannot be (`(訳注¹⁾`)."""
    require_cjk_font()
    register_cjk_fonts()
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    x, y = 72.0, HEIGHT - 100
    body = "この冊子は日本語に訳したものです"
    text = pdf.beginText(x, y)
    text.setFont("JaMincho", 10)
    text.textOut(body)
    pdf.drawText(text)
    x += pdf.stringWidth(body, "JaMincho", 10)
    for part, font in (("(", "Times-Roman"), ("訳注", "JaMincho"), ("1)", "Times-Roman")):
        mark = pdf.beginText(x, y + 3.5)
        mark.setFont(font, 7)
        mark.textOut(part)
        pdf.drawText(mark)
        x += pdf.stringWidth(part, font, 7)
    pdf.showPage()
    pdf.save()
    assert _texts(buffer.getvalue()) == [body + "(訳注1)"]


def _justified_words(pdf: canvas.Canvas, y: float, words: list[str], width: float, size: float = 12.0) -> None:
    """A justified line as a browser prints it: a text object per word, each but the last ending with its space,
    the words spread over `width`; a word `^n` is a raised mark standing right after the word before it."""
    marks = {index - 1: word[1:] for index, word in enumerate(words) if word.startswith("^")}
    words = [word for word in words if not word.startswith("^")]
    ends = [pdf.stringWidth(word, "Times-Roman", size) for word in words]
    ends = [
        end + pdf.stringWidth(marks.get(index, ""), "Times-Roman", round(size * 0.83, 2))
        for index, end in enumerate(ends)
    ]
    spare = (width - sum(ends)) / max(1, len(words) - 1)
    x = 72.0
    for index, word in enumerate(words):
        obj = pdf.beginText(x, y)
        obj.setFont("Times-Roman", size)
        obj.textOut(word if index == len(words) - 1 or index in marks else word + " ")
        pdf.drawText(obj)
        if index in marks:
            _raised_glyphs(pdf, x + pdf.stringWidth(word, "Times-Roman", size), y, marks[index], size)
        x += ends[index] + spare


def test_a_stretched_word_space_after_a_raised_mark_does_not_break_the_line() -> None:
    """The space after a `<sup>` is written nowhere; in a justified line the gap after the mark is a word space
    stretched like the others, not a column."""
    lines = [
        "The keeper of the northern lighthouse recorded the",
        "year. ^1 Narrow justified columns stretch their word spaces",
        "a great deal, especially where long words such as",
        "characterisation fall at the end of a line and leave",
    ]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for index, line in enumerate(lines):
        _justified_words(pdf, HEIGHT - 100 - 14 * index, line.split(), 350.0)
    pdf.showPage()
    pdf.save()
    expected = " ".join(lines).replace(" ^1", " ¹")
    assert _texts(buffer.getvalue()) == [expected]


def _outside_bmp_pdf(line: str) -> bytes:
    """A line of glyphs drawn one text object each (Helvetica), and on a line below a glyph of a Type 3 font whose
    ToUnicode map reads it as U+10400, a character outside the BMP (a UTF-16 pair)."""
    objects: list[bytes] = []
    x = 72.0
    for char in line:
        if char != " ":
            escaped = char.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            objects.append(b"BT /F1 10 Tf %.3f 700 Td (%s) Tj ET" % (x, escaped.encode("latin-1")))
        x += stringWidth(char, "Helvetica", 10)
    objects.append(b"BT /T3 10 Tf 72 660 Td (\\210) Tj ET")
    glyph = b"1000 0 100 100 500 500 d1 100 100 m 500 100 l 500 500 l 100 500 l f"
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T3 def /CMapType 2 def"
        b" 1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <88> <D801DC00> endbfchar"
        b" endcmap CMapName currentdict /CMap defineresource pop end end"
    )
    type3 = (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0]"
        b" /CharProcs << /g136 7 0 R >> /Encoding << /Type /Encoding /Differences [136 /g136] >>"
        b" /FirstChar 136 /LastChar 136 /Widths [1000] /Resources << >> /ToUnicode 8 0 R >>"
    )
    return handmade_pdf(
        b"\n".join(objects),
        b"<< /Font << /F1 5 0 R /T3 6 0 R >> >>",
        [
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            type3,
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(glyph), glyph),
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap),
        ],
    )


def test_a_character_outside_the_bmp_leaves_the_rest_of_its_page_spaced_by_advances() -> None:
    """PDFium lists a character outside the BMP as its two UTF-16 halves, so the page's text is not one to one with
    its character list; the whole page was then read without character ranges, and glyphs drawn one object each
    lost their advances (`def c l a im`)."""
    line = "def claim(conn, shard, worker_id, batch=50):"
    assert _texts(_outside_bmp_pdf(line)) == [line, "\U00010400"]


def test_a_letter_spaced_heading_drawn_a_glyph_an_object_reads_as_its_words() -> None:
    """CSS `letter-spacing: 4pt` on a 15 pt title, printed by a browser: every letter stands a quarter em from the
    next, a word space that much wider; PDFium's text puts a space after every letter."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    x = 72.0
    for char in "Steels and Alloys:":
        if char != " ":
            obj = pdf.beginText(x, HEIGHT - 80)
            obj.setFont("Helvetica-Bold", 15)
            obj.textOut(char)
            pdf.drawText(obj)
        x += pdf.stringWidth(char, "Helvetica-Bold", 15) + 4.0
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, HEIGHT - 110, "Chemical composition of the grades, their standards and their properties.")
    pdf.showPage()
    pdf.save()
    assert _texts(buffer.getvalue())[0] == "Steels and Alloys:"


def test_raised_back_links_drawn_a_glyph_an_object_keep_their_spaces() -> None:
    """A Wikipedia reference printed by a browser: `^` and its back-links `a b c d e f`, each a raised bold italic
    letter in a link of its own, a word space apart. Evenly spaced single letters once read as a letter-spaced word
    (`^ abcdef`); raised letters are marks."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    y = HEIGHT - 100
    pdf.setFont("Helvetica", 10.5)
    pdf.drawString(72, y, "^")
    x = 72 + pdf.stringWidth("^ ", "Helvetica", 10.5)
    for letter in "abcdef":
        obj = pdf.beginText(x, y + 3.5)
        obj.setFont("Helvetica-BoldOblique", 8.7)
        obj.textOut(letter)
        pdf.drawText(obj)
        x += pdf.stringWidth(letter + " ", "Helvetica-BoldOblique", 8.7)
    pdf.setFont("Helvetica", 10.5)
    pdf.drawString(x, y, "Carboneras, Carlos (1992). Family Anatidae. Lynx Edicions.")
    pdf.showPage()
    pdf.save()
    assert _texts(buffer.getvalue()) == ["^ a b c d e f Carboneras, Carlos (1992). Family Anatidae. Lynx Edicions."]


def _font(descriptor: int, name: bytes, stem: int, flags: int) -> list[bytes]:
    """A TrueType font (not embedded) and its descriptor, object `descriptor`, with its stem width as written."""
    angle = -12 if flags & 64 else 0
    return [
        b"<< /Type /Font /Subtype /TrueType /BaseFont /%s /FirstChar 32 /LastChar 126 /FontDescriptor %d 0 R"
        b" /Encoding /WinAnsiEncoding >>" % (name, descriptor),
        b"<< /Type /FontDescriptor /FontName /%s /Flags %d /FontBBox [-1000 -300 2000 1000] /ItalicAngle %d"
        b" /Ascent 900 /Descent -240 /CapHeight 700 /StemV %d >>" % (name, flags, angle, stem),
    ]


def test_an_oblique_face_whose_stem_reads_heavy_is_not_bold() -> None:
    """Chromium (Skia) measures an oblique face's stem across its slant: DejaVuSans-Oblique is written with StemV
    122, which PDFium reads as weight 610. A reference wrapping onto a line set wholly in it was cut into two
    paragraphs, the italic one taken for bold; a face named bold (or named nothing) still goes by its weight."""
    content = b"\n".join(
        [
            b"BT /F1 11 Tf 72 700 Td (Ducks feed on grasses, aquatic plants, fish, insects and small amphibians, and)"
            b" Tj ET",
            b"BT /F2 11 Tf 72 686 Td (Carboneras, Family Anatidae, Lynx Edicions, 1992.) Tj ET",
            b"BT /F3 11 Tf 72 640 Td (Breeding) Tj ET",
            b"BT /F1 11 Tf 72 620 Td (Most ducks have a wide flat bill adapted to dredging.) Tj ET",
        ]
    )
    fonts = [
        *_font(6, b"DejaVuSans", 45, 32),
        *_font(8, b"DejaVuSans-Oblique", 122, 96),
        *_font(10, b"F3Heavy", 140, 32),
    ]
    resources = b"<< /Font << /F1 5 0 R /F2 7 0 R /F3 9 0 R >> >>"
    blocks = _parse(handmade_pdf(content, resources, fonts)).blocks
    assert [(type(block).__name__, block.text) for block in blocks if isinstance(block, (Heading, Paragraph))] == [
        (
            "Paragraph",
            "Ducks feed on grasses, aquatic plants, fish, insects and small amphibians, and Carboneras, Family"
            " Anatidae, Lynx Edicions, 1992.",
        ),
        ("Heading", "Breeding"),
        ("Paragraph", "Most ducks have a wide flat bill adapted to dredging."),
    ]


def _runs_over_spaces(pdf: canvas.Canvas, x: float, y: float, runs: list[str], font: str, size: float) -> None:
    """Each run its own text object ending with its space glyph, the next run placed where the run's letters end
    (over that space), as LibreOffice writes a word whose parts differ in format."""
    for run in runs:
        obj = pdf.beginText(x, y)
        obj.setFont(font, size)
        obj.textOut(run + " ")
        pdf.drawText(obj)
        x += pdf.stringWidth(run, font, size)


def test_a_word_written_in_runs_drawn_over_their_space_glyphs_stays_one_word() -> None:
    # The first line: `unde` `r` `line`, each with a space glyph the next is drawn over. The second: the same runs
    # with their spaces' advance kept, three words.
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    _runs_over_spaces(pdf, 72, HEIGHT - 100, ["Always unde", "r", "line the warnings."], "Helvetica", 11)
    x = 72.0
    for run in ["Never unde", "r", "line notes."]:
        pdf.setFont("Helvetica", 11)
        pdf.drawString(x, HEIGHT - 140, run + " ")
        x += pdf.stringWidth(run + " ", "Helvetica", 11)
    pdf.showPage()
    pdf.save()
    text = " ".join(_texts(buffer.getvalue()))
    assert text == "Always underline the warnings. Never unde r line notes."


def test_a_text_box_over_another_on_its_row_keeps_both_words_whole() -> None:
    """LibreOffice's PDF of a slide whose text box stands over a table cell on the same row: the cell's run starts
    80 pt left of where the box's run ends, and PDFium writes no space between them (the corpus' `testPPT_various`:
    `Here is a text boxRow 1 column 1`). A run starting an em or more left of the end of the one before is another
    object over it; a kerned pair or a glyph's overhang overlaps by a fraction of an em and still joins."""
    box = _run("Here is a text box", 251.5, 347.2, (250.4, 347.6), size=11.0)
    cell = _run("Row 1 column 1", 265.6, 351.5, (264.5, 352.5), size=11.0)
    assert [line.text for line in build_lines([box, cell])] == ["Here is a text box Row 1 column 1"]
    kerned = [_run("Wa", 72.0, 84.0, (72.0, 84.5), size=11.0), _run("ter", 83.2, 97.0, (83.4, 97.2), size=11.0)]
    assert [line.text for line in build_lines(kerned)] == ["Water"]
    symbol = [_run("Barlas O", 72.0, 118.0, (72.0, 118.0), size=11.0), _run("∗", 110.0, 116.0, (110.0, 116.0), 11.0)]
    assert [line.text for line in build_lines(symbol)] == ["Barlas O∗"]
