"""PDFs in the shapes LaTeX gives them (pdfTeX's OT1 accents, report and book chapter titles, title blocks, tables
of contents, ctex and jsbook section numbers, lists), generated with reportlab, some with raw content-stream
operators where pdfTeX's own operators matter."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen import canvas

from docshelf.model import Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf import parse

WIDTH, HEIGHT = A4


def _parse(data: bytes) -> ParsedContent:
    return parse(data, filename="latex.pdf", limits=ParseLimits())


def _texts(content: ParsedContent) -> list[str]:
    return [block.text for block in content.blocks if isinstance(block, (Paragraph, Heading))]


# OT1 has no accented letters: pdfTeX draws the spacing accent, moves back and draws the letter under it. Helvetica
# re-encoded for the glyphs WinAnsi lacks (the dotless i and accents of OT1).
_OT1_CODES = {"ı": "\\200", "˚": "\\201", "ˇ": "\\202", "˝": "\\203", "¨": "\\250", "´": "\\264", "¸": "\\270"}
_OT1_WIDTHS = {"ı": 278.0, "˚": 333.0, "ˇ": 333.0, "˝": 333.0}
_SIZE = 10.0


def _ot1_font() -> str:
    if "Helvetica-OT1" not in pdfmetrics.getRegisteredFontNames():
        encoding = pdfmetrics.Encoding("OT1Test", "WinAnsiEncoding")
        for code, name in enumerate(("dotlessi", "ring", "caron", "hungarumlaut"), 128):
            encoding[code] = name
        pdfmetrics.registerEncoding(encoding)
        pdfmetrics.registerFont(pdfmetrics.Font("Helvetica-OT1", "Helvetica", "OT1Test"))
    return "Helvetica-OT1"


def _width(text: str) -> float:
    return sum(
        _OT1_WIDTHS[char] * _SIZE / 1000 if char in _OT1_WIDTHS else pdfmetrics.stringWidth(char, "Helvetica", _SIZE)
        for char in text
    )


def _string(text: str) -> str:
    return "(" + "".join(_OT1_CODES.get(char, char) for char in text) + ")"


def _kern(points: float) -> str:
    return f"{-points * 1000 / _SIZE:.1f}"  # a TJ number moves left by thousandths of the font size


def _ot1_line(pdf: canvas.Canvas, x: float, y: float, pieces: list[str | tuple[str, str]]) -> float:
    """One TJ as pdfTeX writes it: plain text, and (accent, letter) pairs drawn accent first, centred over the
    letter (`("after", accent)` draws it after the letter before it); the x after the line."""
    parts: list[str] = []
    parts_text: list[str] = []
    start = x
    for piece in pieces:
        if isinstance(piece, str):
            parts_text.append(piece[-1])
            parts.append(_string(piece))
            x += _width(piece)
            continue
        accent, letter = piece
        if accent == "after":  # an accent drawn after the letter before it, back over it
            back = (_width(parts_text[-1]) + _width(letter)) / 2
            parts += [_kern(-back), _string(letter), _kern(back - _width(letter))]
            continue
        shift = (_width(letter) - _width(accent)) / 2
        parts += [_kern(shift), _string(accent), _kern(-shift - _width(accent)), _string(letter)]
        x += _width(letter)
    text = pdf.beginText(start, y)
    text.setFont(_ot1_font(), _SIZE)
    text._code.append(f"[{' '.join(parts)}] TJ")
    pdf.drawText(text)
    return x


def _ot1_pdf() -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    y = HEIGHT - 100
    _ot1_line(
        pdf,
        72,
        y,
        ["We thank J", ("¨", "u"), "rgen, Jos", ("´", "e"), ", Garc", ("´", "ı"), "a, Fran", ("¸", "c"), "ois and"],
    )
    y -= 12
    x = _ot1_line(pdf, 72, y, ["Erd", ("˝", "o"), "s, Dvo", ("ˇ", "r"), "ak, Bj", ("¨", "o"), "rn "])
    # A capital's accent is raised: pdfTeX moves up and draws it in a text object of its own, then the word.
    _ot1_line(pdf, x + (_width("A") - _width("˚")) / 2, y + 2.5, ["˚"])
    _ot1_line(pdf, x, y, ["Astr", ("¨", "o"), "m, Zoe", ("after", "¨"), ", the"])
    y -= 12
    _ot1_line(pdf, 72, y, ["sign ", "´", " alone and the na", ("¨", "ı"), "ve reader."])
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_accents_drawn_over_their_letters_compose_into_the_accented_letters() -> None:
    assert _texts(_parse(_ot1_pdf())) == [
        "We thank Jürgen, José, García, François and Erdős, Dvořak, Björn Åström, Zoë, the sign ´ alone and the "
        "naïve reader."
    ]


def _headings(content: ParsedContent) -> list[tuple[str, int]]:
    return [(block.text, block.level) for block in content.blocks if isinstance(block, Heading)]


_BODY_LINES = [
    "The municipal fleet comprised 214 vehicles at the end of the year, of which 37 were battery",
    "electric. Scheduled maintenance was completed on time for 91 percent of the inspections, and",
    "breakdowns declined by 14 percent, largely because the oldest diesel vehicles were replaced.",
]


def _body(pdf: canvas.Canvas, y: float, font: str = "Helvetica") -> float:
    pdf.setFont(font, 10.5)
    for line in _BODY_LINES:
        pdf.drawString(72, y, line)
        y -= 13
    return y - 14


def _report_pdf() -> bytes:
    """report and book classes: `Chapter N` on a line of its own over the chapter title in a larger type; a table
    of contents whose entries have their page numbers at the right margin, without leaders."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica-Bold", 24)
    pdf.drawString(72, HEIGHT - 100, "Contents")
    y = HEIGHT - 150
    for entry, number in [
        ("Chapter 1 Executive Summary", "2"),
        ("1.1 Key Findings", "2"),
        ("1.2 Recommendations", "2"),
        ("Chapter 2 Fleet Composition", "3"),
        ("2.1 Age", "3"),
    ]:
        is_chapter = entry.startswith("Chapter")
        pdf.setFont("Helvetica-Bold" if is_chapter else "Helvetica", 10.5)
        pdf.drawString(72 if is_chapter else 90, y, entry)
        if not is_chapter:  # a section's entry: a dot leader to its page number
            leader = " ." * int((WIDTH - 180 - pdf.stringWidth(entry)) / pdf.stringWidth(" ."))
            pdf.drawString(90 + pdf.stringWidth(entry), y, leader)
        pdf.drawRightString(WIDTH - 72, y, number)
        y -= 16
    pdf.showPage()
    for chapter, title, section in [("1", "Executive Summary", "Key Findings"), ("2", "Fleet Composition", "Age")]:
        pdf.setFont("Helvetica-Bold", 20.7)
        pdf.drawString(72, HEIGHT - 120, f"Chapter {chapter}")
        pdf.setFont("Helvetica-Bold", 24.8)
        pdf.drawString(72, HEIGHT - 170, title)
        y = _body(pdf, HEIGHT - 220)
        pdf.setFont("Helvetica-Bold", 14.3)
        pdf.drawString(72, y, f"{chapter}.1 {section}")
        _body(pdf, y - 24)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_chapter_label_over_its_title_is_one_heading_and_contents_entries_are_none() -> None:
    assert _headings(_parse(_report_pdf())) == [
        ("Contents", 1),
        ("Chapter 1 Executive Summary", 1),
        ("1.1 Key Findings", 2),
        ("Chapter 2 Fleet Composition", 1),
        ("2.1 Age", 2),
    ]


_ZH_BODY = "本报告总结近三年来城市供水管网漏损控制工作的主要成果，分析当前存在的问题，并提出下一阶段的改进措施。" * 2


def _ctex_pdf() -> bytes:
    """ctex's book class: a centred chapter title, then centred section titles whose number (in the Latin font)
    stands a quad (an em and more) from the title; Chinese body text."""
    from tests.ja_pdf_fixtures import register_cjk_fonts

    register_cjk_fonts()
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("JaGothic", 24)
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 170, "第一章 概述")
    y = HEIGHT - 240
    for number, title in [("1.1", "目的"), ("1.2", "适用范围")]:
        width = (
            pdfmetrics.stringWidth(number, "Helvetica-Bold", 18)
            + 18 * 1.2
            + pdfmetrics.stringWidth(title, "JaGothic", 18)
        )
        x = (WIDTH - width) / 2
        pdf.setFont("Helvetica-Bold", 18)
        pdf.drawString(x, y, number)
        pdf.setFont("JaGothic", 18)
        pdf.drawString(x + width - pdfmetrics.stringWidth(title, "JaGothic", 18), y, title)
        y -= 34
        pdf.setFont("JaMincho", 12)
        for start in range(0, len(_ZH_BODY), 36):
            pdf.drawString(72, y, _ZH_BODY[start : start + 36])
            y -= 18
        y -= 24
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_section_number_a_quad_from_its_title_makes_one_heading_with_the_title() -> None:
    from tests.ja_pdf_fixtures import require_cjk_font

    require_cjk_font()
    assert _headings(_parse(_ctex_pdf())) == [("第一章 概述", 1), ("1.1 目的", 2), ("1.2 适用范围", 2)]


def _article_pdf() -> bytes:
    """article's title block: the title, the author and the date a little larger than the body (\\large), then
    numbered sections; a notice line starting with a number in the same type as the date."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 17)
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 100, "Groundwater Recharge of the Upper Kessel Basin")
    pdf.setFont("Helvetica", 11)
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 140, "Hannah Brightwater")
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 170, "14 March 2023")
    y = HEIGHT - 210
    for number, title in [("1", "Introduction"), ("2", "Study Area")]:
        pdf.setFont("Helvetica-Bold", 14)
        pdf.drawString(72, y, f"{number} {title}")
        y = _body(pdf, y - 22)
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, y, "24 Hour Service")
    _body(pdf, y - 20)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_date_or_a_lone_number_is_no_numbered_heading() -> None:
    content = _parse(_article_pdf())
    assert _headings(content) == [
        ("Groundwater Recharge of the Upper Kessel Basin", 1),
        ("1 Introduction", 1),
        ("2 Study Area", 1),
    ]
    assert {"14 March 2023", "24 Hour Service"} <= set(_texts(content))


def handmade_pdf(content: bytes, resources: bytes, extra: list[bytes]) -> bytes:
    """A one-page PDF written object by object (objects 5 on are `extra`)."""
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources %s >>" % resources
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        page,
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        *extra,
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def _bitmap_bullet_pdf() -> bytes:
    """pdfTeX without Type 1 symbol fonts draws itemize's bullet from a Type 3 (bitmap) font with no character for
    it: PDFium reads its code, 0x88, a control character."""
    glyph = b"1000 0 100 100 500 500 d1 300 300 m 500 300 l 500 500 l 300 500 l f"
    content = b"\n".join(
        [
            b"BT /T3 10 Tf 72 700 Td (\\210) Tj ET",
            b"BT /F1 10 Tf 84 700 Td (Wear safety glasses at all times.) Tj ET",
            b"BT /T3 10 Tf 72 686 Td (\\210) Tj ET",
            b"BT /F1 10 Tf 84 686 Td (Lab coats must be fastened.) Tj ET",
            b"BT /F1 10 Tf 72 650 Td (Spills are reported at once.) Tj ET",
            b"BT /F1 10 Tf 72 636 Td (Bins are emptied every) Tj ET",
            b"BT /T3 10 Tf 183 636 Td (\\210) Tj ET",
            b"BT /F1 10 Tf 191 636 Td (Friday.) Tj ET",
        ]
    )
    type3 = (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0]"
        b" /CharProcs << /g136 7 0 R >> /Encoding << /Type /Encoding /Differences [136 /g136] >>"
        b" /FirstChar 136 /LastChar 136 /Widths [1000] /Resources << >> >>"
    )
    return handmade_pdf(
        content,
        b"<< /Font << /F1 5 0 R /T3 6 0 R >> >>",
        [
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            type3,
            b"<< /Length %d >>\nstream\n%s\nendstream" % (len(glyph), glyph),
        ],
    )


def test_a_glyph_without_a_character_is_a_bullet_before_a_line_and_nothing_elsewhere() -> None:
    blocks = [block for block in _parse(_bitmap_bullet_pdf()).blocks if isinstance(block, Paragraph)]
    assert [block.text.removeprefix("• ") for block in blocks] == [
        "Wear safety glasses at all times.",
        "Lab coats must be fastened.",
        "Spills are reported at once. Bins are emptied every Friday.",
    ]
    assert [block.list_level is not None for block in blocks] == [True, True, False]


def _lists_pdf() -> bytes:
    """itemize and enumerate nested three deep: LaTeX's bullets (`•`, `–`, `∗`) and labels (`1.`, `(a)`, `i.`) set
    flush right before the item's text, each level indented further."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    pdf.drawString(72, HEIGHT - 80, "All personnel must observe the following procedures in the laboratory.")
    y = HEIGHT - 104
    items = [
        (0, "•", "Wear safety glasses at all times."),
        (1, "–", "Visitors are given glasses at the door."),
        (2, "∗", "Spare glasses are kept in the cabinet."),
        (0, "•", "Food and drink are prohibited."),
        (0, "1.", "Confirm that the fume hood is running."),
        (1, "(a)", "Use the grounded safety cans."),
        (2, "i.", "Use the pre-printed labels."),
        (2, "ii.", "Replace illegible labels immediately."),
        (2, "iii.", "Keep the labels dry."),
        (0, "2.", "Return stock bottles to the cabinet."),
    ]
    for level, marker, text in items:
        x = 90 + 25 * level  # the item's text; its marker ends a little before it
        pdf.setFont("Symbol" if marker == "∗" else "Helvetica", 10)  # Symbol's asteriskmath is U+2217
        pdf.drawRightString(x - 5, y, marker)
        pdf.setFont("Helvetica", 10)
        pdf.drawString(x, y, text)
        y -= 14
    pdf.drawString(72, y - 10, "Spills are reported to the supervisor without delay.")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_list_items_nest_by_their_markers_indents_and_lose_their_bullet_glyphs() -> None:
    items = [
        (block.list_level, block.text)
        for block in _parse(_lists_pdf()).blocks
        if isinstance(block, Paragraph) and block.list_level is not None
    ]
    assert items == [
        (0, "Wear safety glasses at all times."),
        (1, "Visitors are given glasses at the door."),
        (2, "Spare glasses are kept in the cabinet."),
        (0, "Food and drink are prohibited."),
        (0, "1. Confirm that the fume hood is running."),
        (1, "(a) Use the grounded safety cans."),
        (2, "i. Use the pre-printed labels."),
        (2, "ii. Replace illegible labels immediately."),
        (2, "iii. Keep the labels dry."),
        (0, "2. Return stock bottles to the cabinet."),
    ]


def _title_block_pdf() -> bytes:
    """A two-column paper's title block as \\maketitle sets it: the title with a \\thanks mark, the authors on one
    row a \\qquad apart and their affiliation centred in \\large, then the abstract and sections in bold."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    title = "Low-Cost Acoustic Monitoring of Urban Birds"
    pdf.setFont("Helvetica", 17)
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 90, title)
    pdf.setFont("Helvetica", 11)
    pdf.drawString((WIDTH + pdfmetrics.stringWidth(title, "Helvetica", 17)) / 2, HEIGHT - 84, "*")
    pdf.setFont("Helvetica", 12.5)
    names = ("Chen Wei", "Aoife Gallagher")  # centred as one row, a \qquad apart
    x = (WIDTH - sum(pdfmetrics.stringWidth(name, "Helvetica", 12.5) for name in names) - 25) / 2
    pdf.drawString(x, HEIGHT - 120, names[0])
    pdf.drawString(x + pdfmetrics.stringWidth(names[0], "Helvetica", 12.5) + 25, HEIGHT - 120, names[1])
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 136, "School of Biological Sciences, Eastbourne University")
    y = HEIGHT - 170
    for heading in ("Abstract", "1 Introduction"):
        pdf.setFont("Helvetica-Bold", 14)
        pdf.drawString(72, y, heading)
        y = _body(pdf, y - 20)
    pdf.setFont("Helvetica", 8)
    pdf.drawString(72, 60, "* Funded by the Regional Water Authority.")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_title_block_under_the_title_is_no_heading_and_the_title_loses_its_note_mark() -> None:
    content = _parse(_title_block_pdf())
    assert _headings(content) == [
        ("Low-Cost Acoustic Monitoring of Urban Birds", 1),
        ("Abstract", 2),
        ("1 Introduction", 1),
    ]
    texts = _texts(content)
    assert "School of Biological Sciences, Eastbourne University" in texts
    assert any("Chen Wei" in text for text in texts)


def test_the_lines_of_a_cjk_title_block_stay_apart() -> None:
    from tests.ja_pdf_fixtures import _mixed_width, draw_mixed, register_cjk_fonts, require_cjk_font

    require_cjk_font()
    register_cjk_fonts()
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for text, size, y in [
        ("城市供水管网漏损控制技术报告", 22, 330),
        ("市政工程研究院", 15, 390),
        ("2023年6月", 15, 432),
    ]:
        draw_mixed(pdf, (WIDTH - _mixed_width(text, "JaMincho", size)) / 2, HEIGHT - y, text, size=size)
    pdf.showPage()
    pdf.setFont("JaMincho", 12)
    for start in range(0, len(_ZH_BODY), 36):
        pdf.drawString(72, HEIGHT - 100 - start // 2, _ZH_BODY[start : start + 36])
    pdf.showPage()
    pdf.save()
    content = _parse(buffer.getvalue())
    assert _headings(content) == [("城市供水管网漏损控制技术报告", 1)]
    assert {"市政工程研究院", "2023年6月"} <= set(_texts(content))
