"""Text you can cite from a PDF: line-end hyphens, figure text, footnotes, cells that mix weights, unruled tables
and headings of a PDF without outline — each on a generated PDF, and on the corpus file that showed it."""

from __future__ import annotations

import importlib.util
import io
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from docshelf.index.analyzer import analyze
from docshelf.model import Heading, Paragraph, Table
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.pdf.pdf import parse
from docshelf.parsers.pdf.pdf_hyphens import HYPHEN_BREAK, Vocabulary, keeps_hyphen, resolve
from docshelf.parsers.pdf.pdf_lines import Line
from docshelf.parsers.pdf.pdf_paragraphs import join_lines, paragraphs
from docshelf.tables import table_grid
from tests.unit.parsers.test_pdf_latex import handmade_pdf

WIDTH, HEIGHT = A4
REPO = Path(__file__).resolve().parents[3]
LEFT, RIGHT, COLUMN = 56.0, 312.0, 226.0

# A paper page in two columns: the left column's lines break words of both kinds at their ends, and its last line
# breaks off "mul-" at the column end above a footnote; the right column holds a drawn chart with tick labels, a
# legend and a caption, then "tiple" goes on.
LEFT_LINES = [
    "Retrieval for open-domain question answering is",
    "studied with a dual setting: the encoder of each",
    "side is trained apart, and training uses pairs of",
    "questions and passages. We study open-",
    "domain retrieval with a dual-",
    "encoder whose train-",
    "ing needs few examples. The Lucene-",
    "BM25 baseline is state-of-the-",
    "art on small sets, and the results are rep-",
    "orted for each set. When training with mul-",
]
RIGHT_LINES = [
    "tiple datasets, the smallest set benefits most",
    "from more training examples than the others.",
]
FOOTNOTE = "3The parser keeps footnotes apart from the text."
# Both kinds of line-end hyphen, as they occur in the page above.
HYPHEN_CASES = {
    "open-domain": True,
    "dual-encoder": True,
    "Lucene-BM25": True,
    "state-of-the-art": True,
    "training": False,
    "reported": False,
    "multiple": False,
}


def _parse(data: bytes) -> ParsedContent:
    return parse(data, filename="paper.pdf", limits=ParseLimits())


def _texts(content: ParsedContent) -> list[str]:
    return [block.text for block in content.blocks if isinstance(block, (Paragraph, Heading))]


def _chart(pdf: canvas.Canvas, x: float, top: float) -> None:
    """A line chart: axes, two plotted lines of eight segments, tick labels, a legend, an axis title."""
    width, height = 180.0, 110.0
    bottom = top - height
    pdf.line(x, bottom, x + width, bottom)
    pdf.line(x, bottom, x, top)
    for series in (37, 53):
        path = pdf.beginPath()
        path.moveTo(x, bottom + 10)
        for step in range(1, 9):
            path.lineTo(x + step * width / 8, bottom + 10 + (step * series % 90))
        pdf.drawPath(path, stroke=1, fill=0)
    pdf.setFont("Helvetica", 6)
    for index, label in enumerate(("40", "50", "60", "70")):
        pdf.drawString(x - 12, bottom + 5 + index * 30, label)
    for index, label in enumerate(("20", "40", "60", "80", "100")):
        pdf.drawString(x + 10 + index * 40, bottom - 9, label)
    for index, label in enumerate(("BM25", "# Train: 1k", "# Train: all")):
        pdf.drawString(x + width - 60, top - 20 - index * 9, label)
    pdf.setFont("Helvetica", 8)
    pdf.drawString(x + 50, bottom - 20, "k: number of passages")


def paper_pdf() -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Times-Roman", 10)
    pdf.drawString(LEFT, HEIGHT - 80, "Dense retrieval of passages for questions.")
    for index, line in enumerate(LEFT_LINES):  # the foot of the column, above a footnote
        pdf.drawString(LEFT, 220 - 12 * index, line)
    pdf.line(LEFT, 84, LEFT + 60, 84)
    pdf.setFont("Times-Roman", 8)
    pdf.drawString(LEFT, 72, FOOTNOTE)
    _chart(pdf, RIGHT + 20, HEIGHT - 70)
    pdf.setFont("Times-Roman", 9)
    pdf.drawString(RIGHT, HEIGHT - 225, "Figure 1: Accuracy with more training examples.")
    pdf.setFont("Times-Roman", 10)
    for index, line in enumerate(RIGHT_LINES):
        pdf.drawString(RIGHT, HEIGHT - 245 - 12 * index, line)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


@pytest.mark.parametrize(("word", "hyphen"), list(HYPHEN_CASES.items()))
def test_line_end_hyphens_keep_real_hyphens_and_rejoin_broken_words(word: str, hyphen: bool) -> None:
    text = " ".join(_texts(_parse(paper_pdf())))
    assert word in text
    if hyphen:
        assert word.replace("-", "") not in text and word.replace("-", "- ") not in text
    else:
        assert not re.search(rf"{word[:2]}\w*- ?\w*{word[-2:]}", text)


@pytest.mark.parametrize(
    ("left", "right", "vocabulary", "hyphen"),
    [
        ("train", "ing", "training data", False),
        ("mul", "tiple", "", False),
        ("re", "sults", "", False),
        ("represen", "tations", "", False),
        ("some", "thing", "something else", False),
        ("open", "domain", "open-domain tasks", True),
        ("dual", "encoder", "a dual view of the encoder", True),
        ("fine", "tuned", "fine and well tuned", True),
        ("multi", "dataset", "a multi-dataset encoder", True),
        ("Lucene", "BM25", "", True),
        ("COVID", "19", "", True),
        ("state-of-the", "art", "", True),
        ("non", "Euclidean", "", True),
        ("Gen", "Bank", "the GenBank accession and GenBank entries", False),
        ("Jean", "Pierre", "Pierre and Jean met", True),
        ("data", "base", "a database of the data base", False),
        ("under", "standing", "stand under the standing roof", False),
        ("other", "wise", "some other way, a wise one", False),
        ("can", "not", "we can do it, or not", False),
        ("X", "ray", "", True),
        ("T", "cell", "a cell count", True),
        ("follow", "up", "follow the road up", True),
        ("long", "term", "", True),
        ("Zusammen", "arbeit", "", False),
        ("Red", "field", "", False),
        ("Pa", "supat", "", False),
    ],
)
def test_the_hyphen_rule_on_both_kinds(left: str, right: str, vocabulary: str, hyphen: bool) -> None:
    assert keeps_hyphen(left, right, Vocabulary.of([vocabulary])) is hyphen
    joined = resolve(f"{left}{HYPHEN_BREAK}{right} end", Vocabulary.of([vocabulary]))
    assert joined == (f"{left}-{right} end" if hyphen else f"{left}{right} end")


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (
            ["at https://data.example.org/water/", "pumps/2021/records.csv here"],
            "at https://data.example.org/water/pumps/2021/records.csv here",
        ),
        (
            ["see www.example.org/reports/annual-", "report-2021.pdf now"],
            "see www.example.org/reports/annual-report-2021.pdf now",
        ),
        (["write to water.support@example.", "org or call"], "write to water.support@example.org or call"),
        (["in the years 2015-", "2019 and"], "in the years 2015-2019 and"),
        (["pages 12–", "19 of it"], "pages 12–19 of it"),
        (["calculated as 1-", "(mean OPG treated)"], "calculated as 1-(mean OPG treated)"),
        (["a 5-", "year plan"], "a 5-year plan"),
        (["pages 12–", "and 19"], "pages 12– and 19"),
        (["read https://example.org/", "for details"], "read https://example.org/ for details"),
        (["mail ann@example.org.", "Then wait"], "mail ann@example.org. Then wait"),
        (["the state-of-the-", "art model"], "the state-of-the-art model"),
        (["in 2015 and", "2019 again"], "in 2015 and 2019 again"),
    ],
)
def test_an_address_or_a_number_range_broken_at_the_line_end_goes_on_without_a_space(
    lines: list[str], joined: str
) -> None:
    assert join_lines(lines) == joined


def test_a_paragraph_with_an_address_broken_at_its_line_ends_reads_it_whole() -> None:
    lines = [
        "The records of the pumps are published for everyone at https://data.example.org/water/",
        "pumps/2021/service-records.csv under an open licence, and questions go to water.support@",
        "example.org or to the district office in person. Results for the years from 2015-",
        "2019 are given in the annex.",
    ]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    for index, line in enumerate(lines):  # justified: each line but the last stretched to the column width
        spare = 0.0 if index == len(lines) - 1 else 440 - pdf.stringWidth(line, "Helvetica", 10)
        pdf.drawString(LEFT, HEIGHT - 80 - 12 * index, line, charSpace=spare / (len(line) - 1))
    pdf.showPage()
    pdf.save()
    assert _texts(_parse(buffer.getvalue())) == [
        "The records of the pumps are published for everyone at https://data.example.org/water/pumps/2021/"
        "service-records.csv under an open licence, and questions go to water.support@example.org or to the "
        "district office in person. Results for the years from 2015-2019 are given in the annex."
    ]


def _raised_line(pieces: list[tuple[str, bool]], font: str, raised_size: float, after_raised: float = 0.0) -> bytes:
    """One line of 10 pt text with some pieces raised 4 pt in `raised_size`, each piece where the one before ends
    (`after_raised` points further after a raised one)."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    x = LEFT
    for text, raised in pieces:
        size = raised_size if raised else 10.0
        pdf.setFont(font, size)
        pdf.drawString(x, HEIGHT - 80 + (4 if raised else 0), text)
        x += pdf.stringWidth(text, font, size) + (after_raised if raised else 0.0)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_raised_small_runs_are_superscripts_and_a_reference_mark_leaves_its_word_searchable() -> None:
    pieces = [
        ("Hand pumps serve 200 million people", False),
        ("1", True),
        (" and fail in their first year", False),
        ("2,3", True),
        (" over 3 km", False),
        ("2", True),
        (" at 10", False),
        ("−3", True),
        (" m/s.", False),
    ]
    [text] = _texts(_parse(_raised_line(pieces, "Helvetica", 6.5)))
    assert text == "Hand pumps serve 200 million people ¹ and fail in their first year ²,³ over 3 km² at 10⁻³ m/s."
    terms = set(analyze(text))
    for query in ("people", "year", "km2", "km²"):
        assert set(analyze(query)) <= terms


def test_punctuation_after_a_reference_mark_follows_it_without_a_space() -> None:
    # TeX sets the full stop right after the mark's advance; by their ink the small digit and the stop stand over
    # 0.15 em apart, which reads as a word space (`effects ¹ .`).
    pieces = [("Flow effects", False), ("1", True), (". Pumps failed", False), ("2", True), (", twice.", False)]
    data = _raised_line(pieces, "Times-Roman", 7.0, after_raised=0.5)
    assert _texts(_parse(data)) == ["Flow effects ¹. Pumps failed ², twice."]


def test_figure_text_stays_out_of_the_body_and_its_caption_stays() -> None:
    texts = _texts(_parse(paper_pdf()))
    body = " ".join(texts)
    for label in ("# Train", "BM25 # Train", "40 50 60", "20 40 60", "k: number of passages"):
        assert label not in body
    assert "Figure 1: Accuracy with more training examples." in texts


def test_a_footnote_moves_to_the_end_of_its_page_and_the_paragraph_goes_on_across_the_column() -> None:
    texts = _texts(_parse(paper_pdf()))
    assert texts[-1] == FOOTNOTE
    paragraph = next(text for text in texts if "When training with" in text)
    assert "When training with multiple datasets, the smallest set benefits most" in paragraph


def _booktabs_pdf() -> bytes:
    """A table with three horizontal rules, a header spanning five value columns, and the best values of a row set
    in bold a tenth of a point higher, as LaTeX papers do."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    top = HEIGHT - 100
    for y in (top, top - 26, top - 80):
        pdf.line(72, y, 420, y)
    pdf.setFont("Times-Roman", 9)
    pdf.drawString(72, top - 12, "Retriever")
    pdf.drawString(230, top - 12, "Top-20 accuracy on five sets")
    rows = [
        ("BM25", ["59.1", "66.9", "55.0", "70.9", "68.8"], {4}),
        ("DPR", ["79.4", "78.8", "75.0", "89.1", "51.6"], {0, 2, 3}),
    ]
    for index, (name, values, bold) in enumerate(rows):
        baseline = top - 40 - 14 * index
        pdf.setFont("Times-Roman", 9)
        pdf.drawString(72, baseline, name)
        pdf.drawString(72, baseline - 14 * 2, f"{name} again")
        for column, value in enumerate(values):
            pdf.setFont("Times-Bold" if column in bold else "Times-Roman", 9)
            pdf.drawString(190 + 45 * column, baseline + (0.1 if column in bold else 0.0), value)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_cell_values_in_mixed_weights_keep_the_page_order() -> None:
    tables = [block for block in _parse(_booktabs_pdf()).blocks if isinstance(block, Table)]
    assert len(tables) == 1
    rows = [" ".join(row) for row in table_grid(tables[0])]
    assert any("79.4 78.8 75.0 89.1 51.6" in row for row in rows), rows
    assert any("59.1 66.9 55.0 70.9 68.8" in row for row in rows), rows


def _demo_manual() -> bytes:
    spec = importlib.util.spec_from_file_location("make_examples", REPO / "examples" / "make_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    target = io.BytesIO()
    path = Path(pytest.importorskip("tempfile").mkdtemp()) / "tx-100-manual.pdf"
    module.write_manual_pdf(path)
    target.write(path.read_bytes())
    return target.getvalue()


def test_demo_manual_title_first_numbered_headings_and_the_unruled_torque_table() -> None:
    content = _parse(_demo_manual())
    headings = [(block.text, block.level) for block in content.blocks if isinstance(block, Heading)]
    assert headings[:2] == [("TX-100 Valve Manual", 1), ("1 Overview", 1)]
    assert ("2.1 Safety notes", 2) in headings
    assert not any(text.startswith("2.1 Safety notes") for text in _texts(content) if text != "2.1 Safety notes")
    tables = [block for block in content.blocks if isinstance(block, Table)]
    assert [table_grid(table) for table in tables] == [
        [
            ["Bolt size", "Torque (Nm)", "Pattern"],
            ["M10", "45", "crosswise"],
            ["M12", "80", "crosswise"],
            ["M16", "190", "crosswise, two passes"],
        ]
    ]


def test_text_lines_beside_each_other_are_not_a_table() -> None:
    """Two columns of prose, a hanging numbered list and a key/value pair list under the table rules' limits."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    for index in range(6):
        pdf.drawString(LEFT, HEIGHT - 80 - 12 * index, f"left column prose line {index} runs on and on here")
        pdf.drawString(RIGHT, HEIGHT - 80 - 12 * index, f"right column prose line {index} goes on as well")
    for index in range(4):
        pdf.drawString(LEFT, HEIGHT - 200 - 12 * index, f"{index + 1}.")
        pdf.drawString(LEFT + 30, HEIGHT - 200 - 12 * index, "Tighten the bolts")
    pdf.showPage()
    pdf.save()
    assert not [block for block in _parse(buffer.getvalue()).blocks if isinstance(block, Table)]


@pytest.mark.corpus
def test_corpus_multi_column_paper_reads_as_the_page_shows(corpus_dir: Path) -> None:
    content = _parse((corpus_dir / "pdf" / "multi-column.pdf").read_bytes())
    texts = _texts(content)
    body = "\n".join(texts)
    rows = [" ".join(row) for block in content.blocks if isinstance(block, Table) for row in table_grid(block)]
    assert any(re.search(r"\bDPR 79\.4 78\.8 75\.0 89\.1 51\.6\b", row) for row in rows)
    for label in ("60 50 40", "# Train: 1k", "k: # of retrieved passages"):
        assert label not in body
    assert "When training with multiple datasets, TREC" in body
    assert "We explore how many training examples are needed" in body
    for word in ("dual-encoder", "open-domain", "multi-dataset", "Lucene-BM25", "state-of-the-art"):
        assert word in body
    for broken in ("dualencoder", "opendomain", "multidataset", "Lucene- BM25", "train- ing", "mul- tiple"):
        assert broken not in body
    page = [block.text for block in content.blocks if block.page == 5 and isinstance(block, Paragraph)]
    assert page[-2].startswith("8 SQuAD is limited")  # the page's footnotes come last, their marks set off
    assert page[-1].startswith("9 Lucene implementation")  # its mark is no longer read into the right column
    assert not any("SQuAD is limited" in text for text in page[:-2])


def test_dot_leader_entries_are_a_table_of_entries_and_page_numbers_column_by_column() -> None:
    """A contents page in two columns; the page labels of the left column are set apart from their leaders."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    left = [("Notices", "vii"), ("Preface", "xi"), ("1.1 Security fundamentals", "2"), ("1.2 Current state", "3")]
    right = [("Abomination", "6"), ("Arcane Horror", "6"), ("Archdemon", "7")]
    for index, (entry, page) in enumerate(left):
        pdf.drawString(LEFT, HEIGHT - 100 - 14 * index, entry + " " + ". " * ((40 - len(entry)) // 2))
        pdf.drawRightString(LEFT + 230, HEIGHT - 100 - 14 * index, page)
    for index, (entry, page) in enumerate(right):
        pdf.drawString(RIGHT, HEIGHT - 100 - 14 * index, entry + " " + ". " * ((40 - len(entry)) // 2) + page)
    pdf.showPage()
    pdf.save()
    tables = [table_grid(block) for block in _parse(buffer.getvalue()).blocks if isinstance(block, Table)]
    assert tables == [[list(pair) for pair in left], [list(pair) for pair in right]]


def test_short_lines_in_a_rounded_panel_are_text_not_a_figure() -> None:
    """A slide-like box of bullet points drawn inside a rounded rectangle (a path of curves)."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.roundRect(60, HEIGHT - 200, 260, 110, 12, stroke=1, fill=0)
    pdf.setFont("Helvetica", 11)
    bullets = ["Revenue up 12 percent", "Costs stable in Europe", "Two new plants opened", "Seal kits sold out"]
    for index, bullet in enumerate(bullets):
        pdf.drawString(72, HEIGHT - 115 - 22 * index, bullet)
    pdf.setFont("Helvetica", 11)
    pdf.drawString(72, HEIGHT - 240, "The quarter closed with every region ahead of its plan for the year.")
    pdf.showPage()
    pdf.save()
    body = " ".join(_texts(_parse(buffer.getvalue())))
    assert all(bullet in body for bullet in bullets)


@pytest.mark.parametrize("angle", [30, 45, 60])
def test_a_diagonal_watermark_stays_out_of_the_text_and_leaves_its_lines_in_order(angle: int) -> None:
    lines = [f"Line {index:02d} of the clause: the tenant shall pay the rent on day {index + 1}." for index in range(9)]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.saveState()
    pdf.setFillGray(0.85)
    pdf.translate(WIDTH / 2, HEIGHT - 200)
    pdf.rotate(angle)
    pdf.setFont("Helvetica-Bold", 72)
    pdf.drawCentredString(0, 0, "DRAFT")
    pdf.restoreState()
    pdf.setFont("Helvetica", 10)
    for index, line in enumerate(lines):
        pdf.drawString(72, HEIGHT - 72 - 13 * index, line)
    pdf.showPage()
    pdf.save()
    assert _texts(_parse(buffer.getvalue())) == [" ".join(lines)]


def test_a_stamp_in_the_margin_is_no_heading_and_the_paragraph_goes_on_across_the_page() -> None:
    """arXiv's identifier set vertically in the left margin of page 1, larger than the body, beside a paragraph
    that runs over onto page 2."""
    stamp = "arXiv:2101.01234v2 [cs.CL] 14 Feb 2021"
    lines = [
        f"the hand pumps of village {name} serve many people and fail when nobody services them" for name in "abcdefgh"
    ]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.saveState()
    pdf.translate(32, 220)
    pdf.rotate(90)
    pdf.setFont("Times-Roman", 20)
    pdf.drawString(0, 0, stamp)
    pdf.restoreState()
    pdf.setFont("Times-Bold", 12)
    pdf.drawString(72, HEIGHT - 72, "1 Introduction")
    for index, line in enumerate(lines):
        if index == 4:
            pdf.showPage()
        pdf.setFont("Times-Roman", 10)
        pdf.drawString(72, HEIGHT - 92 - 12 * (index % 4), line)
    pdf.showPage()
    pdf.save()
    content = _parse(buffer.getvalue())
    assert [(block.text, block.level) for block in content.blocks if isinstance(block, Heading)] == [
        ("1 Introduction", 1)
    ]
    assert _texts(content)[1:] == [" ".join(lines), stamp]


def _headed_pages_pdf(headers: list[str], *, header_size: float = 8) -> tuple[bytes, str]:
    """One paragraph running over every page, each page under its running header and over its page number."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    lines = []
    for page, header in enumerate(headers, start=1):
        pdf.setFont("Helvetica", header_size)
        pdf.drawString(72, HEIGHT - 40, header)
        pdf.setFont("Helvetica", 8)
        pdf.drawCentredString(WIDTH / 2, 36, str(page))
        pdf.setFont("Helvetica", 10)
        for index in range(5):
            line = f"the committee asked in sitting {'abcdefg'[page]}{'vwxyz'[index]} for evidence on the cost and"
            pdf.drawString(72, HEIGHT - 72 - 13 * index, line)
            lines.append(line)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue(), " ".join(lines)


@pytest.mark.parametrize(
    "headers",
    [
        ["ACME Corp - Internal Memo"] * 2,
        ["Annual Report 2021", "ACME Corporation"] * 2,
        [title for title in ("Installing the Pump", "Daily Operation", "Routine Service") for _ in range(2)],
    ],
    ids=["two-page-memo", "even-and-odd-pages", "chapter-headers"],
)
def test_running_headers_repeated_in_place_are_dropped_and_the_paragraph_goes_on(headers: list[str]) -> None:
    data, paragraph = _headed_pages_pdf(headers)
    assert _texts(_parse(data)) == [paragraph]


def test_a_title_larger_than_the_body_repeated_in_place_stays() -> None:
    data, _ = _headed_pages_pdf(["Results"] * 2, header_size=18)
    assert _texts(_parse(data))[0] == "Results"


def _lines_pdf(paragraphs: list[list[str]], *, font: str = "Times-Roman", paragraph_gap: float = 10) -> bytes:
    """Paragraphs of left-aligned lines 13.5 points apart, set `paragraph_gap` points further apart."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont(font, 11)
    top = HEIGHT - 72
    for paragraph in paragraphs:
        for line in paragraph:
            pdf.drawString(72, top, line)
            top -= 13.5
        top -= paragraph_gap
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_short_line_ending_a_sentence_goes_on_where_paragraphs_are_set_apart_by_a_wider_gap() -> None:
    paragraphs = [
        [
            "The inspection covered all forty-eight villages in the district and took place",
            "over three weeks in March.",
            "Each pump was opened, cleaned and tested under load, and every fault was",
            "written down on the standard form with the parts used and the time spent.",
        ],
        ["A second paragraph follows after a larger gap, as in any word processor."],
    ]
    assert _texts(_parse(_lines_pdf(paragraphs))) == [" ".join(lines) for lines in paragraphs]


def test_a_line_of_text_starting_with_a_number_is_no_numbered_title() -> None:
    """Lines of one width (a fixed-width face): the number opens a sentence, not a title line."""
    paragraph = [
        "The survey covered the wells of forty-eight villages in March.",
        "12 Wells were dry in March and the teams went back in May to",
        "see whether the rains had brought their water back by then.",
    ]
    assert _texts(_parse(_lines_pdf([paragraph], font="Courier", paragraph_gap=0))) == [" ".join(paragraph)]


def test_a_short_line_ending_inside_an_address_does_not_end_its_paragraph() -> None:
    lines = ["Questions about the records go to water.support@example.", "org or to the district office in person."]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 10)
    for index, line in enumerate(lines):  # ragged right: the first line is far short of the column's width
        pdf.drawString(LEFT, HEIGHT - 80 - 12 * index, line)
    pdf.drawString(LEFT, HEIGHT - 104, "A second paragraph sets the column to its full width, as wide as this line is.")
    pdf.showPage()
    pdf.save()
    assert _texts(_parse(buffer.getvalue()))[0] == (
        "Questions about the records go to water.support@example.org or to the district office in person."
    )


def test_a_title_in_capitals_set_in_the_body_font_is_not_run_into_its_paragraph() -> None:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Times-Roman", 11)
    lines = [
        "INTRODUCTION",
        "The survey covered 48 villages. In total the teams sampled 312 wells over two",
        "years, in both the dry and the wet season, and tested each one within six hours.",
    ]
    for index, line in enumerate(lines):
        pdf.drawString(LEFT, HEIGHT - 80 - 13.5 * index, line)
    pdf.showPage()
    pdf.save()
    assert _texts(_parse(buffer.getvalue())) == [
        "INTRODUCTION",
        "The survey covered 48 villages. In total the teams sampled 312 wells over two years, in both the dry and "
        "the wet season, and tested each one within six hours.",
    ]


def _placed_pdf(lines: Sequence[tuple[float, float, str]]) -> bytes:
    """One page of Times 11 text, each line drawn at (x, distance from the page's top)."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Times-Roman", 11)
    for x, top, text in lines:
        pdf.drawString(x, HEIGHT - top, text)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_one_line_paragraphs_set_apart_by_their_gap_stay_apart() -> None:
    """A memo's head: most paragraphs are one line, so most gaps are paragraph gaps; the lines of the one
    paragraph that wraps tell the line gap."""
    head = ["To: All staff of the Finance Department", "From: Facilities Office", "Date: 14 March 2024"]
    body = [
        "After reviewing three options, the management board chose to move the whole of the finance",
        "department to Harbour House in the first two weekends of June.",
    ]
    placed = [(LEFT, 80 + 25 * index, line) for index, line in enumerate(head)]
    placed += [(LEFT, 155 + 14 * index, line) for index, line in enumerate(body)]
    placed.append((LEFT, 194, "The new offices are ready."))
    assert _texts(_parse(_placed_pdf(placed))) == [*head, " ".join(body), "The new offices are ready."]


def test_the_paragraph_after_a_list_is_not_its_last_item() -> None:
    """One-line items with hanging indents, then a paragraph at the labels' edge, at the items' line gap."""
    opening = ["Collect the samples as follows.", "Each bottle is labelled before it is filled."]
    items = ["Rinse the bottle three times.", "Fill it to the shoulder.", "Deliver it within six hours."]
    after = [
        "Table 2 gives the monthly results for each pressure zone, and compliance with the standard",
        "was 99.7 percent across all parameters.",
    ]
    placed = [(LEFT, 80 + 24 * index, line) for index, line in enumerate(opening)]  # set apart by a gap
    for index, item in enumerate(items):
        placed += [(LEFT, 128 + 14 * index, f"{index + 1}."), (LEFT + 18, 128 + 14 * index, item)]
    placed += [(LEFT, 170 + 14 * index, line) for index, line in enumerate(after)]
    texts = _texts(_parse(_placed_pdf(placed)))
    assert texts[-4:] == [*(f"{n}. {item}" for n, item in enumerate(items, 1)), " ".join(after)]


def test_a_number_wrapped_to_the_start_of_a_line_is_no_list_item() -> None:
    lines = [
        "The nearest bus stops are on Quay Street, served every ten minutes by the routes 4, 11 and",
        "27. The station is a twelve-minute walk along the river path, which is lit at night.",
    ]
    items = [
        "1. Collect the crates from the post room from 27 May, and label every one of them with",
        "your name and your new desk number.",
        "2. Clear your desk drawers.",
    ]
    placed = [(LEFT, 80 + 14 * index, line) for index, line in enumerate(lines)]
    placed += [(LEFT, 130 + 14 * index, line) for index, line in enumerate(items)]
    assert _texts(_parse(_placed_pdf(placed))) == [" ".join(lines), " ".join(items[:2]), items[2]]


def test_a_spreadsheets_headings_over_its_right_aligned_numbers_head_their_columns() -> None:
    """A sheet printed to PDF (LibreOffice Calc): every cell's text at the left of its cell but the numbers, set flush
    right, so `Q1` stands in the gap before its column's numbers and belongs to no column by its place."""
    rows = [
        ("Department", "Item", "Q1", "Q2"),
        ("Operations", "Fuel and lubricants", "12,500", "13,100"),
        ("Operations", "Spare parts", "8,400", "7,900"),
        ("Maintenance", "Lens cleaning kits", "950", "1,020"),
        ("Administration", "Office supplies", "640", "710"),
    ]
    cells = [(56.0, 134.0), (168.0, 320.0), (321.0, 378.0), (381.0, 438.0)]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for index, row in enumerate(rows):
        y = HEIGHT - 80 - 15 * index
        for (start, end), text in zip(cells, row, strict=True):
            pdf.setFont("Helvetica-Bold" if index == 0 else "Helvetica", 11)
            if index and text[0].isdigit():
                pdf.drawRightString(end, y, text)
            else:
                pdf.drawString(start, y, text)
    pdf.showPage()
    pdf.save()
    tables = [block for block in _parse(buffer.getvalue()).blocks if isinstance(block, Table)]
    assert len(tables) == 1
    assert table_grid(tables[0]) == [list(row) for row in rows]


def _listing_pdf(body_font: str, *, space_glyphs: bool = False) -> bytes:
    """A paragraph, a three-line listing in Courier (its second line indented four places: by position, as TeX's
    verbatim sets it, or with `space_glyphs` by space glyphs before its text, as Word and browsers write it), an
    address alone in Courier, and a paragraph, all in `body_font` but the Courier lines."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    y = HEIGHT - 80
    pdf.setFont(body_font, 10)
    pdf.drawString(72, y, "Record each check with the command below, once a day:")
    listing = ["for unit in units:", "    pumpctl log --unit $unit --check oil", "done"]
    for index, line in enumerate(listing):
        pdf.setFont("Courier", 10)
        indent = 0 if space_glyphs else len(line) - len(line.lstrip())
        pdf.drawString(72 + pdf.stringWidth(" " * indent, "Courier", 10), y - 20 - 12 * index, line[indent:])
    pdf.drawString(72, y - 70, "ops@harbour.example.org")
    pdf.setFont(body_font, 10)
    pdf.drawString(72, y - 90, "Service interval: every 30 days or 500 operating hours.")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


@pytest.mark.parametrize("space_glyphs", [False, True], ids=["by-position", "by-space-glyphs"])
def test_a_listing_in_a_monospaced_font_keeps_its_lines_and_indentation(space_glyphs: bool) -> None:
    """Indentation by space glyphs was lost: PDFium gives a run's leading spaces as one, and its box starts at the
    line's left; the run's first glyph's origin tells where its text starts."""
    listing = _listing_pdf("Helvetica", space_glyphs=space_glyphs)
    blocks = [block for block in _parse(listing).blocks if isinstance(block, Paragraph)]
    assert [(block.text, block.code) for block in blocks] == [
        ("Record each check with the command below, once a day:", False),
        ("for unit in units:\n    pumpctl log --unit $unit --check oil\ndone", True),
        ("ops@harbour.example.org", False),
        ("Service interval: every 30 days or 500 operating hours.", False),
    ]


def test_a_page_set_in_a_monospaced_font_is_text_not_code() -> None:
    """A letter typed in Courier: its lines make paragraphs as any text's do."""
    blocks = [block for block in _parse(_listing_pdf("Courier")).blocks if isinstance(block, Paragraph)]
    assert not any(block.code for block in blocks)


def test_a_right_aligned_column_beside_a_left_aligned_one_a_padding_apart_is_two_columns() -> None:
    """Word's and LibreOffice's tables: numbers set flush right end a cell's padding (less than an em) before the
    next column's text, set flush left."""
    rows = [("Bolt", "Torque (Nm)", "Thread"), ("M10", "45", "coarse"), ("M12", "80", "coarse"), ("M16", "190", "fine")]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 12)
    for index, (bolt, torque, thread) in enumerate(rows):
        y = HEIGHT - 80 - 18 * index
        pdf.drawString(72, y, bolt)
        pdf.drawRightString(324.5, y, torque)
        pdf.drawString(335.5, y, thread)
    pdf.showPage()
    pdf.save()
    tables = [block for block in _parse(buffer.getvalue()).blocks if isinstance(block, Table)]
    assert [table_grid(table) for table in tables] == [[list(row) for row in rows]]


def test_columns_of_figures_set_flush_right_a_point_apart_are_columns() -> None:
    """A browser's table without cell padding: each column of figures set flush right, a point and a half from the
    figures of the column before (`1,250 980`), read as one column of two numbers a cell."""
    rows = [
        ("", "Revenue", "Cost", "Revenue", "Cost"),
        ("North", "1,250", "980", "1,310", "1,020"),
        ("South", "870", "640", "905", "660"),
        ("East and islands", "2,045", "1,730", "2,120", "1,800"),
    ]
    ends = [191.5, 227.5, 287.5, 323.5]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for index, row in enumerate(rows):
        y = HEIGHT - 100 - 16 * index
        pdf.setFont("Helvetica-Bold" if index == 0 else "Helvetica", 12)
        pdf.drawString(36, y, row[0])
        for end, text in zip(ends, row[1:], strict=True):
            pdf.drawRightString(end, y, text)
    pdf.showPage()
    pdf.save()
    tables = [block for block in _parse(buffer.getvalue()).blocks if isinstance(block, Table)]
    assert [table_grid(table) for table in tables] == [[list(row) for row in rows]]


def _placed_lines_pdf(lines: Sequence[tuple[float, str]], size: float = 11.0, leading: float = 13.5) -> bytes:
    """One line of Times-Roman a row from the top of an A4 page, each at its own left edge (an empty text: a row
    left empty; a tab: the rest of the line 18 pt right of the left edge, as a list item's text after its number)."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Times-Roman", size)
    for row, (x, text) in enumerate(lines):
        for offset, piece in zip((0.0, 18.0), text.split("\t"), strict=False):
            if piece:
                pdf.drawString(x + offset, HEIGHT - 100 - leading * row, piece)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_a_definition_list_keeps_its_terms_apart_from_their_definitions() -> None:
    """A browser's `<dl>`: each term on a line of its own, its definition indented below it, no gap between them,
    after a paragraph set apart by a gap. The term ran into its definition, and the definition's last line into the
    next term (a capital after a full stop, as ragged-right text opens its next sentence)."""
    lines = [
        (56, "The terms below are used throughout the maintenance manual of the pump and its appendices."),
        (56, ""),
        (56, "Torque wrench"),
        (96, "A tool that applies a set torque to a fastener such as a nut or a bolt, usually set in newton"),
        (96, "metres before use."),
        (56, "Crosswise pattern"),
        (96, "The order in which flange bolts are tightened: opposite bolts in turn, so that the gasket is"),
        (96, "pressed evenly."),
        (56, "Gasket"),
        (96, "A seal between two flanges."),
    ]
    assert _texts(_parse(_placed_lines_pdf(lines))) == [
        "The terms below are used throughout the maintenance manual of the pump and its appendices.",
        "Torque wrench",
        "A tool that applies a set torque to a fastener such as a nut or a bolt, usually set in newton metres"
        " before use.",
        "Crosswise pattern",
        "The order in which flange bolts are tightened: opposite bolts in turn, so that the gasket is pressed evenly.",
        "Gasket",
        "A seal between two flanges.",
    ]


def test_a_hanging_line_the_next_word_did_not_fit_on_goes_on_its_paragraph() -> None:
    """Entries set with a hanging indent in a narrow column (LaTeX's `description`): the second entry's first line
    stops short because its next word is too long for the space left, so the indented line below goes on with it."""
    lines = [
        (56, "Stupid things will not become smart"),
        (80, "because they are in a list."),
        (56, "Smart things, though, can be"),
        (80, "presented beautifully in a list."),
    ]
    assert _texts(_parse(_placed_lines_pdf(lines))) == [
        "Stupid things will not become smart because they are in a list.",
        "Smart things, though, can be presented beautifully in a list.",
    ]


def test_a_ragged_line_ending_a_sentence_goes_on_when_the_next_word_would_not_have_fitted() -> None:
    """Ragged-right text without paragraph gaps (a word processor's): a line ending a sentence stopped short of the
    right edge because the next word is too long for what is left, so the paragraph goes on; where the next word
    would have fitted, the short line ended the paragraph. The same inside a numbered item, whose lines run on at
    its text's indent. (Justified text, whose running lines all reach the edge, keeps the rule that a short line
    ending a sentence ends its paragraph: its last lines stop anywhere.)"""
    lines = [
        (56, "The pump was inspected on Monday, and its seals were replaced."),
        (56, "Afterwards the casing was flushed with clean water and refilled with fresh"),
        (56, "coolant from the store. The next inspection is due in six months."),
        (56, "All staff sign the log after each visit."),
        (56, "1.\tEfficacy of the coolant is reduced in some older pumps [6] ."),
        (74, "Infections of the circuit with algae lower it further in summer."),
        (56, "The valves on the return line were tested under load by the"),
        (56, "night shift, and two of them were found to leak at their"),
        (56, "flanges; both were tightened to the torque given in the"),
        (56, "manual and tested again before the morning shift began."),
    ]
    assert _texts(_parse(_placed_lines_pdf(lines))) == [
        "The pump was inspected on Monday, and its seals were replaced. Afterwards the casing was flushed with clean"
        " water and refilled with fresh coolant from the store. The next inspection is due in six months.",
        "All staff sign the log after each visit.",
        "1. Efficacy of the coolant is reduced in some older pumps [6] . Infections of the circuit with algae lower"
        " it further in summer.",
        "The valves on the return line were tested under load by the night shift, and two of them were found to leak"
        " at their flanges; both were tightened to the torque given in the manual and tested again before the morning"
        " shift began.",
    ]


def test_in_justified_text_a_short_line_ending_a_sentence_ends_its_paragraph_whatever_word_follows() -> None:
    """Two justified paragraphs without a gap or an indent (a paper's dataset list): the first one's last line ends
    a sentence short of the edge, and the next paragraph opens with a word too long for what is left. Every running
    line reaches the edge, so the text is not ragged: the short line ends the paragraph."""
    paragraphs = [
        [
            "WebQuestions consists of questions selected using the Google",
            "Suggest API, where the answers are entities in the Freebase",
            "knowledge base, and the questions are about entities that",
            "are popular on the web at the time of collection of the set.",
        ],
        [
            "CuratedTREC sources its questions from the TREC question",
            "answering tracks as well as various web sources, and it is",
            "intended for open-domain question answering from corpora.",
        ],
    ]
    right = 56 + 290
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    row = 0
    for lines in paragraphs:
        for index, line in enumerate(lines):
            text = pdf.beginText(56, HEIGHT - 100 - 13.5 * row)
            text.setFont("Times-Roman", 11)
            stretch = right - 56 - pdf.stringWidth(line, "Times-Roman", 11) if index < len(lines) - 1 else 0.0
            text.setWordSpace(stretch / line.count(" "))  # justified: word spaces stretched to the right edge
            text.textOut(line)
            pdf.drawText(text)
            row += 1
    pdf.showPage()
    pdf.save()
    assert _texts(_parse(buffer.getvalue())) == [" ".join(lines) for lines in paragraphs]


@pytest.mark.parametrize("note", ["small type", "body type under a rule"])
def test_a_paragraph_broken_by_a_page_goes_on_past_the_footnote_at_the_page_foot(note: str) -> None:
    """A word processor's page: a paragraph runs to the page's foot, a footnote below it (in smaller type, or in
    the body's type under the short rule Word and LibreOffice draw over notes), and the sentence goes on at the top
    of the next page. The note, moved to the end of its page's flow, stood between the two halves and kept them
    apart."""
    body = [
        "Flow rates were measured at the inlet of each pump before and after the work was",
        "done. The flow through P2 rose from 41 to 47 cubic metres per hour once",
    ]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Times-Roman", 11)
    pdf.drawString(72, HEIGHT - 100, "The pumps were inspected in March, and two of their seals were replaced.")
    for index, line in enumerate(body):
        pdf.drawString(72, 160 - 13.5 * index, line)
    if note == "small type":
        pdf.setFont("Times-Roman", 9)
    note_pieces = [(72.0, "1 Measured with a calibrated ultrasonic flow meter.")]
    next_page = "the new seal was fitted, while the other pumps kept their rates."
    _note_and_next_page(pdf, note_pieces, next_page, rule_width=None if note == "small type" else 110)
    assert _texts(_parse(buffer.getvalue())) == [
        "The pumps were inspected in March, and two of their seals were replaced.",
        " ".join(body) + " the new seal was fitted, while the other pumps kept their rates.",
        "1 Measured with a calibrated ultrasonic flow meter.",
    ]


def _note_and_next_page(
    pdf: canvas.Canvas, note: list[tuple[float, str]], next_page: str, *, rule_width: float | None
) -> None:
    """Finishes the page with a footnote at its foot (its pieces drawn at their x, in the current font), under a
    note rule `rule_width` wide from the left margin when given, and a second page opening with `next_page`."""
    if rule_width is not None:
        pdf.setLineWidth(0.5)
        pdf.line(72, 112, 72 + rule_width, 112)
    for x, text in note:
        pdf.drawString(x, 98, text)
    pdf.showPage()
    pdf.setFont("Times-Roman", 11)
    pdf.drawString(72, HEIGHT - 100, next_page)
    pdf.showPage()
    pdf.save()


def _columns_listing(kerned: bool) -> bytes:
    """A paragraph and a three-line listing in Courier 10 whose columns line up: by space glyphs, or (`kerned`) by
    TJ kerns of whole glyph advances between the words, as pdfTeX sets a verbatim's spaces (PDFium gives such a gap
    as one space)."""
    rows = [["P1", "52.1", "ok"], ["P2", "47.0", "ok"], ["P10", "9.6", "low"]]
    lines = [b"BT /F1 10 Tf 72 720 Td (Measured flow of each pump, in cubic metres per hour:) Tj ET"]
    for index, cells in enumerate(rows):
        widths = (5, 7)  # columns of 5 and 7 characters
        if kerned:
            parts = [f"({cells[0]}) {-600 * (widths[0] - len(cells[0]))} ({cells[1]}) "
                     f"{-600 * (widths[1] - len(cells[1]))} ({cells[2]})"]  # fmt: skip
            lines.append(b"BT /F2 10 Tf 72 %d Td [%s] TJ ET" % (700 - 12 * index, parts[0].encode()))
        else:
            text = cells[0].ljust(widths[0]) + cells[1].ljust(widths[1]) + cells[2]
            lines.append(b"BT /F2 10 Tf 72 %d Td (%s) Tj ET" % (700 - 12 * index, text.encode()))
    fonts = [
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
    ]
    return handmade_pdf(b"\n".join(lines), b"<< /Font << /F1 5 0 R /F2 6 0 R >> >>", fonts)


@pytest.mark.parametrize("kerned", [False, True], ids=["space-glyphs", "kerns"])
def test_a_listing_keeps_the_spaces_that_line_up_its_columns(kerned: bool) -> None:
    """A command's output in a listing (`P1  52.1 m3/h  ok`) lost its alignment: every run of spaces became one."""
    blocks = [block for block in _parse(_columns_listing(kerned)).blocks if isinstance(block, Paragraph)]
    assert [(block.text, block.code) for block in blocks] == [
        ("Measured flow of each pump, in cubic metres per hour:", False),
        ("P1   52.1   ok\nP2   47.0   ok\nP10  9.6    low", True),
    ]


def test_a_letter_typed_in_courier_keeps_single_word_spaces() -> None:
    """A page set in Courier is text, not code: the two spaces a typist leaves after a full stop, kept by a
    listing's lines, are one word space in its paragraphs."""
    lines = [b"Dear Ms Berg.  The pump in the north hall was repaired on", b"Monday.  It runs again."]
    content = b"\n".join(b"BT /F1 10 Tf 72 %d Td (%s) Tj ET" % (720 - 12 * i, line) for i, line in enumerate(lines))
    data = handmade_pdf(
        content, b"<< /Font << /F1 5 0 R >> >>", [b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"]
    )
    assert _texts(_parse(data)) == ["Dear Ms Berg. The pump in the north hall was repaired on Monday. It runs again."]


def test_lines_that_never_wrap_are_paragraphs_where_the_next_word_would_have_fitted() -> None:
    """A slide's points or a form exported to PDF: every line stops short, none wraps, and nothing but where each
    line stops sets them apart (no wider gap). A line that stopped an em short of where the next line's first word
    would have ended was broken there; the longest line, and a line the next word would not have fitted on, go on."""
    lines = [
        (56, "Revenue grew"),
        (56, "Costs fell in every quarter"),
        (56, "The board approved a new plan for the pumping stations and"),
        (56, "reservoirs"),
        (56, "Margins improved"),
        (56, "Results for the northern region"),
    ]
    assert _texts(_parse(_placed_lines_pdf(lines))) == [
        "Revenue grew",
        "Costs fell in every quarter",
        "The board approved a new plan for the pumping stations and reservoirs",
        "Margins improved",
        "Results for the northern region",
    ]


def test_short_lines_beside_wrapped_text_are_paragraphs_and_a_numbered_entry_runs_on_under_its_indent() -> None:
    """A slide's text box: short points, and a paragraph that wraps (so the box's measure shows), its last line
    ending no sentence. Each point stopped short with room for the next word, so it was broken there; a numbered
    entry whose title goes on under a hanging indent (a contents page's page number and title) was not."""
    lines = [
        (56, "Revenue grew"),
        (56, "Costs fell in every quarter"),
        (56, "The board approved a new plan for the pumping stations and the reservoirs of the"),
        (56, "northern district, to be built over the coming three years by the engineers of all"),
        (56, "the districts"),
        (56, "Margins improved"),
        (56, "162 Responding to the"),
        (74, "material issues"),
        (56, "Outlook for next year"),
    ]
    assert _texts(_parse(_placed_lines_pdf(lines))) == [
        "Revenue grew",
        "Costs fell in every quarter",
        "The board approved a new plan for the pumping stations and the reservoirs of the northern district, to be"
        " built over the coming three years by the engineers of all the districts",
        "Margins improved",
        "162 Responding to the material issues",
        "Outlook for next year",
    ]


def test_a_wrapped_paragraph_goes_on_past_a_short_line_and_a_wider_gap() -> None:
    """A word processor's page exported to PDF: inside a wrapped paragraph one line stops far short (a line break
    in the source) and the next goes on in lower case; a paragraph set in wider spacing than the others has a wider
    gap after a line that fills the measure. Both stay one paragraph: only a line short of the measure whose next
    line opens anew was broken by hand, and a line filling the measure wrapped."""
    first = [
        "The standing trustees may use an outside agency to conduct background checks on all",
        "employee applicants, and any background check should be conducted only with the",
        "written",
        "consent of the applicant and must comply with the laws of the state.",
    ]
    second = [
        "Each trustee keeps a record of the checks and of the consent given by the applicant",
        "for the time the law of the state requires, and shows it to the auditors on request.",
    ]
    placed = [(LEFT, 100 + 13.5 * row, text) for row, text in enumerate(first)]
    placed += [(LEFT, 170 + 30 * row, text) for row, text in enumerate(second)]
    assert _texts(_parse(_placed_pdf(placed))) == [" ".join(first), " ".join(second)]


def test_one_line_points_a_fifth_short_of_the_longest_are_apart() -> None:
    """Points of a slide that stop a fifth or a quarter short of its longest line, with room for the next word:
    broken there, each a paragraph."""
    lines = [
        "Costs fell in every quarter of the last two years",
        "Revenue grew in the north and in the west",
        "Margins improved",
        "Quarterly results for the northern region and for the south",
    ]
    assert _texts(_parse(_placed_lines_pdf([(56, text) for text in lines]))) == lines


def test_a_page_of_one_line_paragraphs_keeps_its_footnote_apart_under_a_rule_a_quarter_of_the_text_wide() -> None:
    """LibreOffice's export of a page of short one-line paragraphs set apart by spacing alone, with a footnote
    whose number stands a tab before its text under the rule a quarter of the text's width, and a paragraph going on
    over the page. With no wrap to learn the line gap from, the paragraph gap was taken for it and the lines ran
    together (`italic italic underline`); the rule, longer than half the page's widest line, and the note's number,
    a line of its own, were not seen as a note's, so the note stood between the paragraph's two halves."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Times-Roman", 11)
    lines = ["Bold italic underline and strikethrough text", "italic", "underline", "The rooms on the first floor are"]
    for index, text in enumerate(lines):
        pdf.drawString(72, HEIGHT - 100 - 24.7 * index, text)
    note_pieces = [(72.0, "1"), (107.0, "This is a footnote.")]
    _note_and_next_page(pdf, note_pieces, "cleaned every morning by the staff.", rule_width=(WIDTH - 144) / 4)
    assert _texts(_parse(buffer.getvalue())) == [
        *lines[:3],
        "The rooms on the first floor are cleaned every morning by the staff.",
        "1 This is a footnote.",
    ]


def test_japanese_lines_of_a_narrow_box_run_on_where_no_line_wraps() -> None:
    """Japanese breaks a line between any two characters, so a line of a box narrower than the page's widest line
    stops short with room for the next character: no hand break there, but after a line ending a sentence."""
    from tests.ja_pdf_fixtures import register_cjk_fonts, require_cjk_font

    require_cjk_font()
    register_cjk_fonts()
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("JaMincho", 12)
    pdf.drawString(72, HEIGHT - 100, "本報告書は二〇二三年度の設備点検の結果と今後の課題をまとめたものです。")
    for row, text in enumerate(["在宅勤務の上限を週", "三日に引き上げます。", "次の会議は四月です。"]):
        pdf.drawString(72, HEIGHT - 136 - 18 * row, text)
    pdf.showPage()
    pdf.save()
    assert _texts(_parse(buffer.getvalue())) == [
        "本報告書は二〇二三年度の設備点検の結果と今後の課題をまとめたものです。",
        "在宅勤務の上限を週三日に引き上げます。",
        "次の会議は四月です。",
    ]


@pytest.mark.parametrize("shift", [0.0, -600.0])
def test_lines_broken_by_hand_are_found_wherever_the_page_puts_its_origin(shift: float) -> None:
    """A page whose origin is right of its text (a mirrored page: every x below zero) has the same paragraphs: the
    longest line goes on, the shorter ones with room for the next word were broken by hand."""
    texts = ["For societal well-being", "For all of us", "For an empowered workforce and a greener", "planet"]
    lines = [
        Line(text, 46.0 + shift, 100.0 + 16 * row, 46.0 + shift + 5.5 * len(text), 111.0 + 16 * row, 11.0, False)
        for row, text in enumerate(texts)
    ]
    assert [block.text for block in paragraphs(lines, 1)] == [*texts[:2], " ".join(texts[2:])]


BOLD_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")  # Helvetica has no check box glyph


def test_a_forms_bold_fields_are_not_headings_and_its_bold_title_is() -> None:
    """A cover page in bold: a check box's option, a label and its number, a field's caption in brackets, a range
    whose blanks print as nothing ("… from to") stay text; the bold section title over a paragraph stays a heading."""
    if not BOLD_FONT.is_file():
        pytest.skip(f"{BOLD_FONT} is absent (Debian's fonts-dejavu-core)")
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    pdfmetrics.registerFont(TTFont("DejaVuBold", str(BOLD_FONT)))
    fields = [
        "☐ TRANSITION REPORT PURSUANT TO SECTION 13",
        "Commission file number: 000-30653",
        "Galaxy Gaming, Inc.",
        "(Exact name of registrant as specified in its charter)",
        "Telephone: (702) 939-3254",
        "For the transition period from to",
        "Dated between and",
    ]
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    top = A4[1] - 90
    pdf.setFont("DejaVuBold", 10)
    for at, field in enumerate(fields):
        pdf.drawCentredString(A4[0] / 2, top - 28 * at, field)
    pdf.drawString(72, top - 200, "Business Overview")
    pdf.setFont("Helvetica", 10)
    body = pdf.beginText(72, top - 222)
    body.textLines(
        [
            "The company designs and licenses casino table games and the systems that run them, and sells",
            "them to land-based and online casinos in North America, Europe and Asia under its own brands.",
        ]
    )
    pdf.drawText(body)
    pdf.showPage()
    pdf.save()
    content = _parse(buffer.getvalue())
    headings = [block.text for block in content.blocks if isinstance(block, Heading)]
    assert "Business Overview" in headings
    texts = _texts(content)
    fields_left = (
        "☐ TRANSITION REPORT",
        "Commission file number: 000-30653",
        "(Exact name",
        "Telephone:",
        "For the",
        "Dated",
    )
    for field in fields_left:
        assert any(text.startswith(field) for text in texts), field
        assert not any(heading.startswith(field) for heading in headings), field
