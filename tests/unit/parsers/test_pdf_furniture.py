"""Running headers, footers and page numbers as producers set them: four to a row (a slide's footline), beyond
the top and bottom tenth of the page (LaTeX's default margins), alone on a blank page, and the numbers at a page's
edge that are text."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import docx
import pytest
from docx.oxml.ns import qn
from reportlab.lib.pagesizes import A4, LETTER
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


SUBJECTS = ("the regional authority", "our field team", "the sediment survey", "each sampling campaign")
VERBS = ("quantified", "reviewed", "documented", "reconsidered", "evaluated")
OBJECTS = ("the turbidity at", "the nitrogen load of", "the chlorophyll at", "the phosphate peak of")


def _body(counts: list[int]) -> tuple[list[list[str]], str]:
    """Lines of one paragraph for pages holding `counts` lines each; each page but the last ends in `labo-`, its
    word going on atop the next page (`ratories`). Also the paragraph as it reads."""
    pages: list[list[str]] = []
    words: list[str] = []
    for page, count in enumerate(counts):
        lines = []
        for index in range(count):
            line = (
                f"{SUBJECTS[index % 4]} {VERBS[(index + page) % 5]} {OBJECTS[(index + 2 * page) % 4]} station"
                f" {page + 1}{index:02} and the"
            ).split()
            words += line
            if index == 0 and page > 0:
                line = ["ratories", *line]
            if index == count - 1 and page < len(counts) - 1:
                line = [*line, "labo-"]
                words.append("laboratories")
            lines.append(" ".join(line))
        pages.append(lines)
    pages[-1][-1] += " end."
    return pages, " ".join(words) + " end."


def _latex_pages(counts: list[int], *, first_top: float, left: float) -> tuple[list[list[Text]], str]:
    """Pages of LaTeX's default text block: the paragraph's lines from `first_top` on, PITCH apart."""
    body, paragraph = _body(counts)
    return [
        [Text(line, left, first_top + PITCH * index) for index, line in enumerate(lines)] for lines in body
    ], paragraph


def _article() -> tuple[bytes, str]:
    """article, letter paper: the page number centred at 88% of the page's height, under ragged bottoms."""
    pages, paragraph = _latex_pages([40, 38, 40, 12], first_top=139, left=133)
    for number, items in enumerate(pages, start=1):
        items.append(Text(str(number), 306, 699, align="centre"))
    return _pdf(pages, LETTER), paragraph


def _one_page_article() -> tuple[bytes, str]:
    """article, letter paper, one page: its number 1 at 88% of the height, with no other page to repeat it."""
    pages, paragraph = _latex_pages([30], first_top=139, left=133)
    pages[0].append(Text("1", 306, 699, align="centre"))
    return _pdf(pages, LETTER), paragraph


def _book_headings() -> tuple[bytes, str]:
    """book with `headings`, letter paper: even pages carry the page number and the chapter at 12.6% of the
    height, odd pages the section (a different one each time) and the page number; the chapter's first page
    has its number centred at 88% of the height."""
    pages, paragraph = _latex_pages([27, 40, 40, 40, 40, 20], first_top=310, left=102)
    for number, items in enumerate(pages, start=1):
        if number == 1:
            items[:0] = [Text("Chapter 1", 102, 218, 20.7), Text("Introduction", 102, 268, 24.8)]
            items.append(Text("1", 280, 694.5, align="centre"))
            continue
        for item in items:
            item.baseline -= 310 - 139
        if number % 2 == 0:
            items += [Text(str(number), 102, 108), Text("CHAPTER 1. INTRODUCTION", 459, 108, align="right")]
        else:
            section = ("SCOPE OF THE REPORT", "STRUCTURE OF THE PROGRAMME", "STATION NETWORK")[number // 2 - 1]
            items += [Text(f"1.{number // 2}. {section}", 102, 108), Text(str(number), 459, 108, align="right")]
    return _pdf(pages, LETTER), paragraph


def _jsbook() -> tuple[bytes, str]:
    """jsbook, A4: the page number alone atop the page, at 11% of its height, right on odd pages, left on even."""
    pages, paragraph = _latex_pages([50, 50, 50, 30], first_top=140, left=61)
    for number, items in enumerate(pages, start=1):
        items.append(Text(str(number), 534, 99.7, align="right") if number % 2 else Text(str(number), 61, 99.7))
    return _pdf(pages, A4), paragraph


@pytest.mark.parametrize(
    "build",
    [_article, _one_page_article, _book_headings, _jsbook],
    ids=["article", "one-page-article", "book-headings", "jsbook"],
)
def test_page_numbers_and_running_headers_in_latex_default_margins_are_dropped(
    build: Callable[[], tuple[bytes, str]],
) -> None:
    data, paragraph = build()
    content = _parse(data)
    assert _paragraphs(content) == [paragraph]
    assert all("CHAPTER 1." not in text and "1.1." not in text for text in _headings(content))


def _book_with_blank_pages(*, numbers_in_header: bool) -> bytes:
    """book with `geometry` margins and openright: a chapter ending on an odd page leaves the even page after it
    blank but for its running header (the page number beside it, or at the foot of the other pages)."""
    chapters = [("Introduction", "SCOPE OF THE REPORT"), ("Sampling Design", "STATION NETWORK")]
    pages: list[list[Text]] = []
    for chapter, (title, section) in enumerate(chapters, start=1):
        body, _ = _body([30, 50, 20])
        header = f"CHAPTER {chapter}. {title.upper()}"
        for index, lines in enumerate(body):
            number = len(pages) + 1
            top = 253 if index == 0 else 84
            items = [Text(line, 71, top + PITCH * offset) for offset, line in enumerate(lines)]
            if index == 0:
                items += [Text(f"Chapter {chapter}", 72, 160, 20.7), Text(title, 72, 210, 24.8)]
                items.append(Text(str(number), 297, 798, align="centre"))
            elif number % 2 == 0:
                items.append(Text(header, 525, 51, align="right"))
            else:
                items.append(Text(f"{chapter}.1. {section}", 71, 51))
            if index > 0 and numbers_in_header:
                items.append(
                    Text(str(number), 71, 51) if number % 2 == 0 else Text(str(number), 524, 51, align="right")
                )
            elif index > 0:
                items.append(Text(str(number), 297, 798, align="centre"))
            pages.append(items)
        blank = [Text(header, 525, 51, align="right")]
        if numbers_in_header:
            blank.append(Text(str(len(pages) + 1), 71, 51))
        pages.append(blank)
    return _pdf(pages, A4)


@pytest.mark.parametrize("numbers_in_header", [True, False], ids=["number-in-header", "header-alone"])
def test_a_running_header_alone_on_a_blank_page_is_dropped(numbers_in_header: bool) -> None:
    content = _parse(_book_with_blank_pages(numbers_in_header=numbers_in_header))
    texts = [block.text for block in content.blocks if isinstance(block, (Heading, Paragraph))]
    assert not [text for text in texts if "CHAPTER" in text]
    assert "Chapter 2 Sampling Design" in _headings(content)  # the label and its title: one heading
    if numbers_in_header:  # an odd page's section, printed once, goes with the page number beside it
        assert not [text for text in texts if ".1. " in text]


def test_a_footnote_number_at_the_same_place_on_each_page_is_no_page_number() -> None:
    """Word and LibreOffice set a footnote's number a tab stop before its text: on pages 1 and 2 the `1` and `2`
    stand at one place in the bottom band, counting the pages in step, and are not page numbers."""
    notes = ["Certificates are retained for seven years.", "Residuals were measured on site."]
    pages = [
        [
            Text(f"Paragraph {number} of the body text runs here, citing its note.{number}", 72, 100),
            Text(str(number), 72, 768, size=9),
            Text(notes[number - 1], 88, 768, size=9),
            Text(f"Page {number} of 2", 297, 790, size=9, align="centre"),
        ]
        for number in (1, 2)
    ]
    texts = _paragraphs(_parse(_pdf(pages, A4)))
    assert texts[-1] == f"2 {notes[1]}"
    assert f"1 {notes[0]}" in texts
    assert not any("Page" in text for text in texts)


@pytest.mark.parametrize("stamp", ["12/6/26, 7:57 AM", "06.12.26, 07:57", "2026/12/06 7:57"])
def test_what_a_browser_prints_around_a_one_page_web_page_is_dropped(stamp: str) -> None:
    """Chromium's header (the time of printing, the page's title) and footer (its address, the page count) at 8 pt;
    one page, so nothing repeats. A date in the body, or an address alone on a body line, stays."""
    width, _ = LETTER
    page = [
        Text(stamp, 24.9, 22.5, size=8.0),
        Text("Harbour notices", width / 2, 22.5, size=8.0, align="centre"),
        Text("Harbour notices", 34.0, 60.0, size=17.4),
        Text("The harbour office reopens on 12/6/26, 7:57 AM local time.", 33.0, 90.0, size=12.0),
        Text("https://harbour.example.org/notices", 33.0, 110.0, size=12.0),
        Text("file:///home/user/notices.html", 24.2, 775.0, size=8.0),
        Text("1/1", 587.3, 775.0, size=8.0, align="right"),
    ]
    content = _parse(_pdf([page], LETTER))
    assert _headings(content) == ["Harbour notices"]
    assert _paragraphs(content) == [
        "The harbour office reopens on 12/6/26, 7:57 AM local time. https://harbour.example.org/notices"
    ]


@pytest.mark.corpus
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) exports the document")
def test_a_footnote_a_tab_after_its_number_over_the_footer_is_kept(corpus_dir: Path, tmp_path: Path) -> None:
    """LibreOffice's export of a Word file sets a footnote's text a tab after its number (3.3 of its font sizes): on
    page 1, over the page's footer, the `1` read as the page's own number and the note's words went with it."""
    source = docx.Document(str(corpus_dir / "docx" / "testWORD_various.docx"))
    body = source.element.body
    for element in list(body)[1:]:  # the paragraph citing the note, then running text filling the page
        if element.tag != qn("w:sectPr"):
            body.remove(element)
    for _ in range(6):
        source.add_paragraph("The operators compare the flow readings with the design curve before each shift. " * 4)
    source.save(str(tmp_path / "notes.docx"))
    subprocess.run(
        ["soffice", "--headless", "--convert-to", "pdf", "--outdir", str(tmp_path), str(tmp_path / "notes.docx")],
        check=True, capture_output=True, env={**os.environ, "HOME": str(tmp_path)}, timeout=240,
    )  # fmt: skip
    texts = _paragraphs(_parse((tmp_path / "notes.pdf").read_bytes()))
    assert "1 This is a footnote." in texts
    assert not any("footer text" in text for text in texts)
