"""Running headers, footers and page numbers as producers set them: four to a row (a slide's footline), and the
numbers at a page's edge that are text."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from reportlab.lib.pagesizes import LETTER
from reportlab.pdfgen import canvas

from docshelf.model import Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf import parse

BODY = 10.9  # LaTeX's 10pt class, magnified as pdfTeX sets it
PITCH = 13.6


@dataclass
class Text:
    text: str
    x: float
    baseline: float  # from the top of the page
    size: float = BODY
    align: str = "left"  # or "right", "centre": x is then the right edge or the middle


def _parse(data: bytes) -> ParsedContent:
    return parse(data, filename="book.pdf", limits=ParseLimits())


def _paragraphs(content: ParsedContent) -> list[str]:
    return [block.text for block in content.blocks if isinstance(block, Paragraph)]


def _headings(content: ParsedContent) -> list[str]:
    return [block.text for block in content.blocks if isinstance(block, Heading)]


def _pdf(pages: list[list[Text]], size: tuple[float, float]) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=size)
    for items in pages:
        for item in items:
            pdf.setFont("Times-Roman", item.size)
            y = size[1] - item.baseline
            if item.align == "right":
                pdf.drawRightString(item.x, y, item.text)
            elif item.align == "centre":
                pdf.drawCentredString(item.x, y, item.text)
            else:
                pdf.drawString(item.x, y, item.text)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _slides(*, headline: bool) -> bytes:
    """Beamer's Madrid theme: a footline of author, title, date and slide number on one row; with a navigation
    bar of the sections atop every slide."""
    width, height = 362.835, 272.126
    pages: list[list[Text]] = []
    titles = ["Agenda", "Throughput and Service Levels", "Staffing and Overtime", "Capital Projects", "Next Steps"]
    for number, title in enumerate(titles, start=1):
        items = [Text(title, 9, 20, 14.3)]
        items += [
            Text(f"Point {number}.{index} about the {title.lower()} of the centre", 33, 115 + 16 * index)
            for index in range(3)
        ]
        items += [
            Text("Priya Raman (Logistics Division)", 16.4, 270, 6),
            Text("Quarterly Operations Update", 181.4, 270, 6, "centre"),
            Text("October 2023", 278.8, 270, 6),
            Text(f"{number} / 5", 357.2, 270, 6, "right"),
        ]
        if headline:
            items += [
                Text(name, 10 + 80 * index, 6, 5)
                for index, name in enumerate(("Overview", "Figures", "People", "Plans"))
            ]
        pages.append(items)
    return _pdf(pages, (width, height))


@pytest.mark.parametrize("headline", [False, True], ids=["footline", "footline-and-headline"])
def test_a_slide_footline_of_four_fragments_on_one_row_is_dropped_whole(headline: bool) -> None:
    content = _parse(_slides(headline=headline))
    texts = " ".join(block.text for block in content.blocks if isinstance(block, (Heading, Paragraph)))
    for furniture in ("Priya Raman", "Quarterly Operations", "October 2023", "/ 5", "Overview", "Figures", "Plans"):
        assert furniture not in texts
    assert "Point 3.2 about the staffing and overtime of the centre" in texts


def test_body_numbers_at_a_page_edge_stay() -> None:
    """A chapter's number opening each page, a short sentence ending in a number set apart at the foot of each page,
    and a row of figures in the bottom tenth of each page are text, though they repeat in place."""
    pages = []
    for number in range(1, 5):
        items = [Text(str(number + 1), 102, 160, 30)]
        items += [
            Text(f"Line {index} of page {number} in the body of the report", 102, 220 + PITCH * index)
            for index in range(30)
        ]
        items.append(Text(f"The count at station {number} was 42", 102, 676))
        items += [Text(figure, x, 760) for figure, x in (("731", 250), ("845", 330), ("962", 410))]
        pages.append(items)
    content = _parse(_pdf(pages, LETTER))
    texts = [block.text for block in content.blocks if isinstance(block, (Heading, Paragraph))]
    for number in range(1, 5):
        assert str(number + 1) in texts
        assert f"The count at station {number} was 42" in " ".join(texts)
    assert " ".join(texts).count("731") == 4
