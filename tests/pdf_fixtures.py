"""Long PDFs the tests generate (reportlab): running furniture, numbered headings, two-column stretches, ruled
tables, and pages that are only an image (scans)."""

from __future__ import annotations

import io
from collections.abc import Collection

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

WIDTH, HEIGHT = A4


def long_pdf(pages: int, *, scanned: Collection[int] = (), title: str = "Procedure") -> bytes:
    """`pages` pages; the 1-based page numbers in `scanned` hold one picture and no text."""
    from PIL import Image as PilImage
    from reportlab.lib.utils import ImageReader

    picture = ImageReader(PilImage.new("RGB", (60, 80), "white"))
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for page in range(1, pages + 1):
        if page in scanned:
            pdf.drawImage(picture, 0, 0, width=WIDTH, height=HEIGHT)
            pdf.showPage()
            continue
        pdf.setFont("Helvetica", 8)
        pdf.drawString(72, HEIGHT - 30, "Field Manual - Distribution Restricted")
        pdf.drawRightString(WIDTH - 72, 30, str(page))
        if page % 4 == 1:
            pdf.setFont("Helvetica-Bold", 16)
            pdf.drawString(72, HEIGHT - 80, heading(page, title))
        pdf.setFont("Helvetica", 10)
        for x in (72, 320) if page % 3 == 0 else (72,):
            for line in range(12):
                pdf.drawString(x, HEIGHT - 120 - 14 * line, f"Step {line} of page {page} column {x} text.")
        if page % 5 == 0:
            _ruled_table(pdf, page)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def heading(page: int, title: str = "Procedure") -> str:
    """A numbered heading whose words differ from page to page (a repeated one would be a running header)."""
    word = "".join(chr(97 + (page * 7 + index * 3) % 26) for index in range(6))
    return f"{page // 4 + 1} {title} {word}"


def _ruled_table(pdf: canvas.Canvas, page: int) -> None:
    for row in range(4):
        pdf.line(72, 300 - 20 * row, 400, 300 - 20 * row)
        for col, x in enumerate((80, 200, 320)):
            pdf.drawString(x, 286 - 20 * row, f"r{row}c{col}p{page}")
    for x in (72, 190, 310, 400):
        pdf.line(x, 300, x, 240)
