"""Headings made by formatting alone: the rule over typed blocks, and through the DOCX, RTF, ODT and HTML parsers."""

from __future__ import annotations

from typing import TYPE_CHECKING

import docx
from docx.shared import Pt

from docshelf.model import Block, Heading, Image, Paragraph, Table, TableCell
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.formatted_headings import Look, formatted_headings
from docshelf.parsers.markup.html import parse as parse_html
from docshelf.parsers.office.docx import parse
from docshelf.parsers.office.docx_styles import StyleSheet
from docshelf.parsers.office.odt import parse as parse_odt
from docshelf.parsers.office.odt_looks import FO
from docshelf.parsers.office.rtf import parse as parse_rtf
from tests.support.zip_fixtures import build_zip
from tests.unit.parsers.ooxml_fixtures import saved_bytes
from tests.unit.parsers.test_odt import NAMESPACES, ODT_MIME

if TYPE_CHECKING:
    import pytest

BODY = Look(11.0, False)
BOLD = Look(11.0, True)
LARGE = Look(16.0, False)
PROSE = "The pump is inspected every month; its seals and bearings are replaced when they wear."


def paragraphs(*lines: tuple[str, Look]) -> tuple[list[Block], dict[int, Look]]:
    return [Paragraph(text=text, page=1) for text, _ in lines], {i: look for i, (_, look) in enumerate(lines)}


def heading_texts(blocks: list[Block]) -> list[tuple[str, int]]:
    return [(block.text, block.level) for block in blocks if isinstance(block, Heading)]


def test_a_bold_line_leading_into_prose_is_a_heading_and_a_larger_one_above_it_a_level_higher() -> None:
    blocks, looks = paragraphs(
        ("Maintenance", LARGE), (PROSE, BODY), ("Daily checks", BOLD), (PROSE, BODY), ("Yearly checks", BOLD),
        (PROSE, BODY), ("Repairs", LARGE), (PROSE, BODY),
    )  # fmt: skip
    assert heading_texts(formatted_headings(blocks, looks)) == [
        ("Maintenance", 1), ("Daily checks", 2), ("Yearly checks", 2), ("Repairs", 1),
    ]  # fmt: skip


def test_a_bold_line_between_short_lines_stays_text() -> None:
    """A formatting demo (`italic` / `bold` / `underline`), and a bold line before a label."""
    blocks, looks = paragraphs(("italic", BODY), ("bold", BOLD), ("underline", BODY), (PROSE, BODY))
    assert heading_texts(formatted_headings(blocks, looks)) == []


def test_lines_set_alike_one_after_another_are_no_headings_but_the_last_may_be() -> None:
    """An address block set large: only its last line leads into the letter."""
    blocks, looks = paragraphs(("ACME Pumps Ltd", LARGE), ("12 Harbour Road", LARGE), ("Dear customer", LARGE),
                               (PROSE, BODY))  # fmt: skip
    assert heading_texts(formatted_headings(blocks, looks)) == [("Dear customer", 1)]


def test_a_bold_line_before_a_table_a_picture_or_a_list_is_a_heading() -> None:
    table = Table(cells=(TableCell(0, 0, "M10"), TableCell(0, 1, "45")), n_rows=1, n_cols=2, page=1)
    blocks: list[Block] = [
        Paragraph("Torque values", 1), table, Paragraph("Wiring", 1), Image(page=1, alt_text="diagram"),
        Paragraph("Parts", 1), Paragraph("a seal", 1, list_level=0), Paragraph(PROSE, 1),
    ]  # fmt: skip
    looks = {0: BOLD, 2: BOLD, 4: BOLD, 6: BODY}
    assert heading_texts(formatted_headings(blocks, looks)) == [("Torque values", 1), ("Wiring", 1), ("Parts", 1)]


def test_sentences_labels_form_fields_and_contents_lines_are_never_headings() -> None:
    lines = [
        "Do not open the cover while the pump runs.", "Note:", "Commission file number: 000-30653",
        "(Exact name of registrant as specified in its charter)", "Introduction\t3", "Scope ........ 4",
        " ".join(["word"] * 20), "2024", "Table 1. Torque values", "Figure 2 Pump housing", "表 3 点検項目",
    ]  # fmt: skip
    for line in lines:
        blocks, looks = paragraphs((line, BOLD), (PROSE, BODY))
        assert heading_texts(formatted_headings(blocks, looks)) == [], line


def test_bold_says_nothing_where_half_the_body_is_bold_but_a_larger_size_still_does() -> None:
    blocks, looks = paragraphs(("Scope", LARGE), (PROSE, BOLD), (PROSE, BOLD), ("Terms", BOLD), (PROSE, BODY))
    assert heading_texts(formatted_headings(blocks, looks)) == [("Scope", 1)]
    looks[2] = BODY  # now a bold line among plain prose
    assert heading_texts(formatted_headings(blocks, looks)) == [("Scope", 1), ("Terms", 2)]


def test_a_document_with_headings_of_its_own_is_left_as_it_is_and_under_a_title_levels_start_at_two() -> None:
    styled: list[Block] = [Heading("A", 1, 1), Paragraph("Scope", 1), Paragraph(PROSE, 1), Heading("B", 2, 1)]
    assert formatted_headings(styled, {1: BOLD, 2: BODY}) == styled
    titled: list[Block] = [Heading("Manual", 1, 1), Paragraph("Scope", 1), Paragraph(PROSE, 1)]
    assert heading_texts(formatted_headings(titled, {1: BOLD, 2: BODY})) == [("Manual", 1), ("Scope", 2)]


def test_a_cover_that_heads_only_headings_stands_level_with_the_chapters() -> None:
    """Cover lines larger than every chapter title do not make each chapter a section of the cover."""
    cover, chapter = Look(28.0, True), Look(18.0, True)
    blocks, looks = paragraphs(
        ("Handbook for", cover), ("Standing Trustees", Look(24.0, True)), ("Chapter 1 Introduction", chapter),
        (PROSE, BODY), ("Purpose", BOLD), (PROSE, BODY), ("Chapter 2 Administration", chapter), (PROSE, BODY),
    )  # fmt: skip
    assert heading_texts(formatted_headings(blocks, looks)) == [
        ("Handbook for", 1), ("Standing Trustees", 1), ("Chapter 1 Introduction", 1), ("Purpose", 2),
        ("Chapter 2 Administration", 1),
    ]  # fmt: skip


def _bold(document: docx.document.Document, text: str, size: float | None = None) -> None:
    run = document.add_paragraph().add_run(text)
    run.bold = True
    if size is not None:
        run.font.size = Pt(size)


def test_docx_headings_typed_bold_or_large_in_the_normal_style_are_headings() -> None:
    document = docx.Document()
    _bold(document, "Maintenance Guide", 18)
    document.add_paragraph("Prepared by the plant engineering team for operators of the TX line.")
    _bold(document, "Daily checks")
    document.add_paragraph(PROSE)
    styled_bold = document.styles.add_style("Callout", 1)  # a paragraph style of its own that sets bold
    styled_bold.font.bold = True
    document.add_paragraph("Yearly checks", style="Callout")
    document.add_paragraph(PROSE)
    document.add_paragraph("Formats")
    _bold(document, "bold")
    document.add_paragraph("underline")
    _bold(document, "Torque table")
    document.add_table(rows=1, cols=2).cell(0, 0).text = "M10"
    blocks = parse(saved_bytes(document), filename="t.docx", limits=ParseLimits()).blocks
    assert heading_texts(blocks) == [
        ("Maintenance Guide", 1), ("Daily checks", 2), ("Yearly checks", 2), ("Torque table", 2),
    ]  # fmt: skip
    assert [block.text for block in blocks if isinstance(block, Paragraph)][3:6] == ["Formats", "bold", "underline"]


def test_docx_bold_lines_stay_text_in_a_document_with_heading_styles() -> None:
    document = docx.Document()
    document.add_heading("Maintenance", level=1)
    document.add_paragraph(PROSE)
    _bold(document, "Daily checks")
    document.add_paragraph(PROSE)
    document.add_heading("Repairs", level=1)
    blocks = parse(saved_bytes(document), filename="t.docx", limits=ParseLimits()).blocks
    assert heading_texts(blocks) == [("Maintenance", 1), ("Repairs", 1)]


def test_docx_bold_switched_off_in_a_run_or_a_character_style_counts() -> None:
    document = docx.Document()
    strong = document.styles.add_style("Loud", 2)  # a character style that sets bold
    strong.font.bold = True
    document.add_paragraph().add_run("Inspection", style="Loud")
    document.add_paragraph(PROSE)
    mixed = document.add_paragraph()
    mixed.add_run("Half ").bold = True
    mixed.add_run("bold").bold = False
    document.add_paragraph(PROSE)
    blocks = parse(saved_bytes(document), filename="t.docx", limits=ParseLimits()).blocks
    assert heading_texts(blocks) == [("Inspection", 1)]


def test_rtf_headings_typed_bold_or_large_are_headings_and_cjk_text_reads_its_associated_size() -> None:
    rtf = (
        rb"{\rtf1\ansi{\fonttbl{\f0 Arial;}{\f1\fcharset128 MS Mincho;}}\fs22"
        rb"\pard\plain\fs36\b Maintenance Guide\par"
        rb"\pard\plain\fs22 The pump is inspected every month; its seals are replaced when they wear.\par"
        rb"\pard\plain\fs22{\b Daily checks}\par"
        rb"\pard\plain\fs22 Check the seals and the bearings for wear every day before the first run.\par"
        rb"\pard\plain\fs22 italic\par\pard\plain\fs22\b bold\b0\par\pard\plain\fs22 underline\par"
        rb"\pard\plain\fs22{\dbch\f1\afs36\ab \u28857?\u26908?}\par"
        rb"\pard\plain\fs22{\dbch\f1 \u27611?\u26085?\u12290?}\par}"
    )
    blocks = list(parse_rtf(rtf, filename="t.rtf", limits=ParseLimits()).blocks)
    assert heading_texts(blocks) == [("Maintenance Guide", 1), ("Daily checks", 2), ("点検", 1)]
    assert [block.text for block in blocks if isinstance(block, Paragraph)][2:5] == ["italic", "bold", "underline"]


ODT_STYLES = """<office:automatic-styles>
<style:style style:name="Big" style:family="paragraph" style:parent-style-name="Standard">
<style:text-properties fo:font-size="150%"/></style:style>
<style:style style:name="Strong" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>
</office:automatic-styles>"""
ODT_DEFAULTS = """<office:styles>
<style:default-style style:family="paragraph"><style:text-properties fo:font-size="11pt"/></style:default-style>
<style:style style:name="Standard" style:family="paragraph"/>
</office:styles>"""


def test_odt_headings_typed_bold_or_large_through_spans_and_parent_styles_are_headings() -> None:
    body = f"""
    <text:p text:style-name="Big">Maintenance Guide</text:p>
    <text:p text:style-name="Standard">{PROSE}</text:p>
    <text:p text:style-name="Standard"><text:span text:style-name="Strong">Daily checks</text:span></text:p>
    <text:p text:style-name="Standard">{PROSE}</text:p>
    <text:p text:style-name="Standard"><text:span text:style-name="Strong">Half</text:span> bold</text:p>
    <text:p text:style-name="Standard">{PROSE}</text:p>
    """
    namespaces = NAMESPACES.replace("xmlns:xlink=", f'xmlns:fo="{FO}" xmlns:xlink=')
    data = build_zip(
        {
            "content.xml": f"<office:document-content {namespaces}>{ODT_STYLES}<office:body><office:text>{body}"
            "</office:text></office:body></office:document-content>".encode(),
            "styles.xml": f"<office:document-styles {namespaces}>{ODT_DEFAULTS}</office:document-styles>".encode(),
            "META-INF/manifest.xml": b"<manifest/>",
        },
        mimetype=ODT_MIME,
    )
    blocks = list(parse_odt(data, filename="t.odt", limits=ParseLimits()).blocks)
    assert heading_texts(blocks) == [("Maintenance Guide", 1), ("Daily checks", 2)]


def test_html_headings_typed_bold_or_large_as_a_word_processor_saves_them_are_headings() -> None:
    page = f"""<html><body>
    <p><font size="5"><b>Maintenance Guide</b></font></p><p>{PROSE}</p>
    <p style="font-weight:bold">Daily checks</p><p>{PROSE}</p>
    <p><b><span style="font-size:14pt">Yearly checks</span></b></p><p>{PROSE}</p>
    <p><strong>Note:</strong> the seals wear faster in salt air.</p><p>{PROSE}</p>
    <p><b>Half</b> bold</p><p>{PROSE}</p>
    </body></html>"""
    blocks = list(parse_html(page.encode(), filename="t.html", limits=ParseLimits()).blocks)
    assert heading_texts(blocks) == [("Maintenance Guide", 1), ("Daily checks", 3), ("Yearly checks", 2)]
    with_headings = page.replace("<body>", "<body><h1>Manual</h1><h2>Scope</h2>")
    blocks = list(parse_html(with_headings.encode(), filename="t.html", limits=ParseLimits()).blocks)
    assert heading_texts(blocks) == [("Manual", 1), ("Scope", 2)]


def test_html_headings_set_by_the_page_style_sheet_classes_are_headings() -> None:
    """Google Docs exports text formatted by hand as spans whose classes the page's `<style>` sets; Word's "Save as
    HTML" sets its paragraph styles by `p.MsoTitle` rules."""
    google = f"""<html><head><style type="text/css">ol{{margin:0;padding:0}}table td,table th{{padding:0}}
    .c3{{padding-top:0pt;margin:0}}.c1{{font-weight:700;font-size:16pt;font-family:"Arial"}}
    .c5{{color:#000000;font-weight:700;font-size:11pt}}.c0{{font-weight:400;font-size:11pt;font-family:"Arial"}}
    .doc-content{{max-width:468pt}}</style></head><body class="c7 doc-content">
    <p class="c3"><span class="c1">Maintenance Guide</span></p><p class="c3"><span class="c0">{PROSE}</span></p>
    <p class="c3"><span class="c5">Daily checks</span></p><p class="c3"><span class="c0">{PROSE}</span></p>
    <p class="c3"><span class="c5">Note:</span><span class="c0"> the seals wear faster in salt air.</span></p>
    <p class="c3"><span class="c5">Yearly checks</span></p><p class="c3"><span class="c0">{PROSE}</span></p>
    </body></html>"""
    blocks = list(parse_html(google.encode(), filename="t.html", limits=ParseLimits()).blocks)
    assert heading_texts(blocks) == [("Maintenance Guide", 1), ("Daily checks", 2), ("Yearly checks", 2)]
    word = f"""<html><head><style><!-- p.MsoNormal, li.MsoNormal {{font-size:11.0pt;font-family:"Calibri"}}
    p.MsoTitle {{font-size:28.0pt;font-family:"Calibri Light"}} --></style></head><body>
    <p class="MsoTitle">Pump Manual</p><p class="MsoNormal">{PROSE}</p>
    <p class="MsoNormal"><b>Daily checks</b></p><p class="MsoNormal">{PROSE}</p></body></html>"""
    blocks = list(parse_html(word.encode(), filename="t.html", limits=ParseLimits()).blocks)
    assert heading_texts(blocks) == [("Pump Manual", 1), ("Daily checks", 2)]


def test_numbered_lines_under_numbered_headings_typed_bold_are_still_headings() -> None:
    """Bold chapters do not make the plain numbered articles under them text: formatting is no heading style."""
    document = docx.Document()
    chapters = {"第1章 総則": ("第1条（目的）", "第2条（適用範囲）"), "第2章 勤務": ("第3条（勤務時間）",)}
    for chapter, articles in chapters.items():
        _bold(document, chapter, 14)
        for article in articles:
            document.add_paragraph(article)
            document.add_paragraph("この規則は、従業員の労働条件を定めるものである。")
    blocks = parse(saved_bytes(document), filename="t.docx", limits=ParseLimits()).blocks
    assert heading_texts(blocks) == [
        ("第1章 総則", 1), ("第1条（目的）", 2), ("第2条（適用範囲）", 2), ("第2章 勤務", 1), ("第3条（勤務時間）", 2),
    ]  # fmt: skip


def test_numbered_lines_in_an_unstyled_rtf_or_odt_are_headings_as_in_docx_and_html() -> None:
    rtf = (
        rb"{\rtf1\ansi\pard\plain 1. Introduction\par\pard\plain The pump is inspected every month.\par"
        rb"\pard\plain 1.1 Scope\par\pard\plain It covers the TX-100 and the TX-200 pumps.\par"
        rb"\pard\plain 2. Maintenance\par\pard\plain Replace the seal every 2,000 hours.\par}"
    )
    expected = [("1. Introduction", 1), ("1.1 Scope", 2), ("2. Maintenance", 1)]
    assert heading_texts(list(parse_rtf(rtf, filename="t.rtf", limits=ParseLimits()).blocks)) == expected
    body = "".join(f"<text:p>{line}</text:p>" for line in rtf.decode().split(r"\pard\plain ")[1:])
    body = body.replace(r"\par", "").replace("}", "")
    content = f"<office:document-content {NAMESPACES}><office:body><office:text>{body}</office:text></office:body>"
    data = build_zip(
        {"content.xml": (content + "</office:document-content>").encode(), "META-INF/manifest.xml": b"<manifest/>"},
        mimetype=ODT_MIME,
    )
    assert heading_texts(list(parse_odt(data, filename="t.odt", limits=ParseLimits()).blocks)) == expected


def test_a_docx_with_headings_of_its_own_never_reads_its_runs_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Styled documents pay nothing for formatted headings: the style sheet is never asked how a run is set."""

    def refuse(*_: object) -> tuple[bool, float]:
        raise AssertionError("a styled document's looks were read")

    monkeypatch.setattr(StyleSheet, "run_bold_and_size", refuse)
    document = docx.Document()
    document.add_heading("Maintenance", level=1)
    _bold(document, "Daily checks")
    document.add_paragraph(PROSE)
    document.add_heading("Repairs", level=1)
    blocks = parse(saved_bytes(document), filename="t.docx", limits=ParseLimits()).blocks
    assert heading_texts(blocks) == [("Maintenance", 1), ("Repairs", 1)]
