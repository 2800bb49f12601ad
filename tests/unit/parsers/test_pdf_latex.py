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
