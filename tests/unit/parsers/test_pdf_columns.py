"""Two columns closer than a font size, as LaTeX sets them (`\\columnsep` 10 pt at 11 pt type), and the raised
marks of their lines — each on a generated PDF whose geometry reproduces what real papers showed."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from docshelf.model import Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf import parse

WIDTH, HEIGHT = A4
LEFT, COLUMN, GUTTER = 56.0, 239.0, 10.0
RIGHT = LEFT + COLUMN + GUTTER
SIZE, LEADING = 11.0, 13.6
BODY, BOLD = "Times-Roman", "Times-Bold"

# The abstract in the left column: justified lines, one of which ends in a hyphen protruding into the gutter.
ABSTRACT = [
    "Passive acoustic monitoring offers an affordable comple-",
    "ment to traditional point counts for estimating the diversity",
    "of urban bird communities. We deployed forty inexpensive",
    "recorders across a city of three hundred thousand people",
    "and classified the recordings with an open neural network.",
    "Species richness estimated acoustically agreed closely with",
    "expert surveys, although nocturnal and rarely vocalizing",
    "species were underrepresented in the acoustic records of",
    "every season, which the discussion takes up again.",
]
FOOTNOTE = "The ideal size of a passage depends on the reader as much as on the retriever."
# The related work in the right column, under a heading larger than the body line it faces.
RELATED = [
    "Early approaches to document understanding relied on",
    "handcrafted heuristics that identified headings by their",
    "typographical prominence. Subsequent work introduced",
    "probabilistic models of page layout, notably conditional",
    "random fields trained on manually annotated collections,",
    "and transformer models have since been applied to the",
    "joint modelling of visual and textual features, achieving",
    "remarkable accuracy at considerable computational cost,",
    "which few archives can afford for millions of pages.",
]


def _justified(pdf: canvas.Canvas, x: float, y: float, line: str, width: float, *, size: float = SIZE) -> None:
    """One line as pdfTeX writes it (one text object), stretched by its word spaces to `width`."""
    spare = width - pdf.stringWidth(line, BODY, size)
    pdf.setFont(BODY, size)
    pdf.drawString(x, y, line, wordSpace=spare / max(1, line.count(" ")))


def _column(pdf: canvas.Canvas, x: float, top: float, lines: list[str], *, protrude: float = 0.0) -> None:
    for index, line in enumerate(lines):
        y = top - LEADING * index
        if index == len(lines) - 1:
            pdf.setFont(BODY, SIZE)
            pdf.drawString(x, y, line)
        elif line.endswith("-"):  # microtype lets the hyphen stand out into the gutter
            _justified(pdf, x, y, line, COLUMN + protrude)
        else:
            _justified(pdf, x, y, line, COLUMN)


def _marked(pdf: canvas.Canvas, x: float, y: float, words: str, mark: str, after: str) -> None:
    """`words`, then a footnote mark raised as LaTeX raises it (7 pt, 0.36 em up), then `after`."""
    pdf.setFont(BODY, SIZE)
    pdf.drawString(x, y, words)
    x += pdf.stringWidth(words, BODY, SIZE)
    pdf.setFont(BODY, 7)
    pdf.drawString(x + 0.3, y + 0.36 * SIZE, mark)
    x += pdf.stringWidth(mark, BODY, 7) + 0.3
    pdf.setFont(BODY, SIZE)
    pdf.drawString(x, y, after)


def two_column_paper() -> bytes:
    """The first page of a paper set as LaTeX's twocolumn article at 11 pt: a title across the page, a short heading
    in each column on the row under it, then the columns 10 pt apart."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont(BOLD, 17)
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 80, "Acoustic Monitoring of Urban Bird Populations")
    pdf.setFont(BOLD, 14)
    pdf.drawString(LEFT, HEIGHT - 120, "Abstract")
    pdf.drawString(RIGHT, HEIGHT - 120, "2 Background")
    top = HEIGHT - 142
    _column(pdf, LEFT, top, ABSTRACT, protrude=1.7)
    pdf.setFont(BOLD, 12)
    pdf.drawString(RIGHT, top, "2.1 Related Work")
    _column(pdf, RIGHT, top - 18, RELATED)
    # Lower down, the left column's paragraph ends in a footnote mark on a line without ascenders, and the right
    # column's heading stands between two lines of the left column, the second of which carries a mark.
    low = top - 14 * LEADING
    _justified(pdf, LEFT, low, "The slope of the pipeline is roughly twice that of the", COLUMN)
    _justified(pdf, LEFT, low - LEADING, "baseline, which is attributable to the geometric analysis of", COLUMN)
    _marked(pdf, LEFT, low - 2 * LEADING, "every page", "2", ".")
    lower = low - 4 * LEADING
    _justified(pdf, LEFT, lower, "Justified paragraphs break words at their ends, and multi-", COLUMN)
    _justified(pdf, LEFT, lower - LEADING, "column layouts interleave passages of un-", COLUMN)
    _marked(pdf, LEFT, lower - 2 * LEADING, "related text when it is extracted naively", "1", ".")
    pdf.setFont(BOLD, 12)
    pdf.drawString(RIGHT, lower - LEADING - 5.5, "3.1 Glyph Aggregation")  # 0.4 of a line below `un-`
    _column(pdf, RIGHT, lower - 3 * LEADING, RELATED[:5])
    pdf.line(LEFT, 84, LEFT + 60, 84)  # the footnote at the foot of the left column opens with its raised mark
    pdf.setFont(BODY, 6)
    pdf.drawString(LEFT, 72 + 3.2, "3")
    pdf.setFont(BODY, 9)
    pdf.drawString(LEFT + pdf.stringWidth("3", BODY, 6), 72, FOOTNOTE)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _parse(data: bytes) -> ParsedContent:
    return parse(data, filename="paper.pdf", limits=ParseLimits())


def _texts(content: ParsedContent) -> list[str]:
    return [block.text for block in content.blocks if isinstance(block, (Paragraph, Heading))]


def test_columns_closer_than_a_font_size_are_read_one_after_the_other() -> None:
    texts = _texts(_parse(two_column_paper()))
    abstract = " ".join(ABSTRACT).replace("comple- ment", "complement")
    related = " ".join(RELATED)
    assert abstract in texts  # no line of the right column inside it, the protruding hyphen rejoined
    assert any(text.startswith(related) for text in texts)
    assert texts.index(abstract) < next(i for i, text in enumerate(texts) if text.startswith(related))


def test_headings_facing_each_other_across_the_gutter_stay_apart() -> None:
    content = _parse(two_column_paper())
    headings = [block.text for block in content.blocks if isinstance(block, Heading)]
    for heading in ("Abstract", "2 Background", "2.1 Related Work", "3.1 Glyph Aggregation"):
        assert heading in headings
    assert not any("Abstract" in text and "Background" in text for text in _texts(content))


def test_a_raised_mark_stays_on_its_line_even_over_a_line_without_ascenders() -> None:
    texts = _texts(_parse(two_column_paper()))
    assert any(text.endswith("attributable to the geometric analysis of every page ².") for text in texts)
    assert "2" not in texts


def test_a_note_is_set_off_from_the_raised_mark_opening_it() -> None:
    assert f"3 {FOOTNOTE}" in _texts(_parse(two_column_paper()))


def test_a_mark_stays_in_its_column_beside_a_heading_across_the_gutter() -> None:
    texts = _texts(_parse(two_column_paper()))
    assert "1" not in texts
    assert any(
        "multi-column layouts interleave passages of unrelated text when it is extracted naively ¹." in text
        for text in texts
    )


def test_labels_a_little_apart_from_their_items_are_no_columns() -> None:
    """A numbered list whose labels stand half an em from their items, in one column: no gutter between them."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    items = ["Close the inlet valve of the pump.", "Drain the housing into a bucket.", "Remove the six cover bolts."]
    items += ["Lift the cover and check the seal.", "Fit a new seal if it is cracked."]
    _justified(pdf, LEFT, HEIGHT - 80, "Before the seal is replaced, the pump is taken out of service", 440)
    pdf.setFont(BODY, SIZE)
    pdf.drawString(LEFT, HEIGHT - 80 - LEADING, "as follows:")
    for index, item in enumerate(items):
        y = HEIGHT - 80 - LEADING * (index + 2)
        pdf.drawRightString(LEFT + 20, y, f"{index + 1}.")
        pdf.drawString(LEFT + 20 + 0.5 * SIZE, y, item)
    pdf.showPage()
    pdf.save()
    texts = _texts(_parse(buffer.getvalue()))
    assert [text for text in texts if text[:1].isdigit()] == [f"{i + 1}. {item}" for i, item in enumerate(items)]


def test_a_column_whose_first_line_stands_higher_is_read_after_the_column_beside_it() -> None:
    """A browser's CSS columns under a title and a paragraph: the paragraph's top margin pushes the first column's
    first line a line below the second column's (which goes on mid-paragraph), so that line stands alone in its band
    between the text above and the columns."""
    intro = ["The keeper of the northern lighthouse recorded", "the lamp hours every night of the year."]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont(BODY, 24)
    pdf.drawString(LEFT, HEIGHT - 50, "Lighthouse inspection report")
    _column(pdf, LEFT, HEIGHT - 80, intro)
    top = HEIGHT - 80 - LEADING * 4
    _column(pdf, LEFT, top - LEADING, ABSTRACT)
    _column(pdf, RIGHT, top, RELATED)
    pdf.showPage()
    pdf.save()
    assert _texts(_parse(buffer.getvalue())) == [
        "Lighthouse inspection report",
        " ".join(intro),
        " ".join(ABSTRACT).replace("comple- ment", "complement"),
        " ".join(RELATED),
    ]


def test_an_overfull_line_reaching_into_the_gutter_stays_in_its_column() -> None:
    """LaTeX could not break an address, and its line runs 7 pt into the 10 pt gutter: the gutter found on the page
    stops at that row. Read as a band across the page, it sent the right column's first lines before it and the
    left column's lines below it after them."""
    address = "https://www.ncbi.nlm.nih.gov/pmc/articles/PMC3562259/"
    size = SIZE * (COLUMN + 7) / canvas.Canvas(io.BytesIO()).stringWidth(address, BODY, SIZE)
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont(BOLD, 17)
    pdf.drawCentredString(WIDTH / 2, HEIGHT - 80, "Acoustic Monitoring of Urban Bird Populations")
    top = HEIGHT - 120
    _column(pdf, LEFT, top, [*ABSTRACT[:4], "and classified the recordings."])
    pdf.setFont(BODY, size)
    pdf.drawString(LEFT, top - 5 * LEADING, address)
    _column(pdf, LEFT, top - 6 * LEADING, ABSTRACT[5:])
    _column(pdf, RIGHT, top, RELATED + RELATED[:3])
    pdf.showPage()
    pdf.save()
    texts = _texts(_parse(buffer.getvalue()))
    assert texts[0] == "Acoustic Monitoring of Urban Bird Populations"
    left = " ".join([*ABSTRACT[:4], "and classified the recordings.", address, *ABSTRACT[5:]])
    assert " ".join(texts[1:-1]).replace("comple- ment", "complement") == left.replace("comple- ment", "complement")
    assert texts[-1] == " ".join(RELATED + RELATED[:3])
