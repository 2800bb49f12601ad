from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

import docx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_BREAK
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn
from docx.shared import Inches

from docshelf.errors import CorruptDocumentError, DocumentError, DocumentTooLargeError
from docshelf.model import Block, Heading, Image, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.office.docx import parse
from docshelf.tables import block_text, table_grid
from tests.unit.parsers.markup_measures import (
    cell_f1,
    document_headings,
    document_table_cells,
    groundtruth_markdown,
    heading_recall,
    markdown_headings,
    markdown_plain_text,
    markdown_table_cells,
    text_recall,
)
from tests.unit.parsers.ooxml_fixtures import corpus_files, grid_text, png_bytes, saved_bytes, zip_bomb

if TYPE_CHECKING:
    from docx.text.paragraph import Paragraph as DocxParagraph

Document = docx.document.Document


def parse_doc(document: Document) -> ParsedContent:
    return parse(saved_bytes(document), filename="t.docx", limits=ParseLimits())


def kinds(blocks: list[Block]) -> list[str]:
    return [block.kind for block in blocks]


def test_body_keeps_source_order_and_skips_empty_paragraphs() -> None:
    document = docx.Document()
    document.add_paragraph("Before the table.")
    document.add_paragraph("")
    table = document.add_table(rows=2, cols=2)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"r{r}c{c}"
    document.add_paragraph("   ")
    document.add_paragraph("After the table.")
    content = parse_doc(document)
    assert kinds(content.blocks) == ["paragraph", "table", "paragraph"]
    assert [b.text for b in content.blocks if not isinstance(b, Table)] == ["Before the table.", "After the table."]
    assert all(block.page == 1 for block in content.blocks)
    assert content.page_count == 1


def test_a_subtitle_based_on_the_title_style_is_a_paragraph_under_the_title() -> None:
    # pandoc's reference.docx bases Subtitle on Title: `Upper Valley Aquifer` became a second H1.
    document = docx.Document()
    document.styles["Subtitle"].base_style = document.styles["Title"]
    document.add_paragraph("Groundwater Monitoring Report", style="Title")
    document.add_paragraph("Upper Valley Aquifer", style="Subtitle")
    document.add_paragraph("Hydrology Unit")
    document.add_heading("Summary", level=1)
    content = parse_doc(document)
    assert [(block.kind, block.text) for block in content.blocks if isinstance(block, Heading | Paragraph)] == [
        ("heading", "Groundwater Monitoring Report"),
        ("paragraph", "Upper Valley Aquifer"),
        ("paragraph", "Hydrology Unit"),
        ("heading", "Summary"),
    ]
    assert content.title == "Groundwater Monitoring Report"


def test_headings_from_styles_based_on_chain_and_outline_levels() -> None:
    document = docx.Document()
    document.add_paragraph("Annual report", style="Title")
    document.add_heading("Overview", level=1)
    document.add_heading("Scope", level=2)
    document.add_heading("Details", level=3)
    custom = document.styles.add_style("Fancy Section", WD_STYLE_TYPE.PARAGRAPH)
    custom.base_style = document.styles["Heading 2"]
    document.add_paragraph("Inherited level", style="Fancy Section")
    outlined = document.add_paragraph("Outline level four")
    outlined._p.get_or_add_pPr().append(parse_xml(f'<w:outlineLvl {nsdecls("w")} w:val="3"/>'))
    body_level = document.add_paragraph("Body text in a heading style", style="Heading 1")
    body_level._p.get_or_add_pPr().append(parse_xml(f'<w:outlineLvl {nsdecls("w")} w:val="9"/>'))
    content = parse_doc(document)
    headings = [(b.text, b.level) for b in content.blocks if isinstance(b, Heading)]
    assert headings == [
        ("Annual report", 1),
        ("Overview", 1),
        ("Scope", 2),
        ("Details", 3),
        ("Inherited level", 2),
        ("Outline level four", 4),
    ]
    assert content.blocks[-1] == Paragraph(text="Body text in a heading style", page=1)
    assert content.title == "Annual report"


def test_code_paragraphs_keep_their_indentation_and_join_into_one_code_block() -> None:
    # pandoc's "Source Code" paragraph (lines split by w:br), and Word's one paragraph a line in a style based on
    # "HTML Preformatted", with an empty line between: each a code block, its leading spaces kept.
    document = docx.Document()
    document.add_paragraph("A worker claims a batch:")
    source = document.styles.add_style("Source Code", WD_STYLE_TYPE.PARAGRAPH)
    pandoc = document.add_paragraph("def claim(conn):", style=source)
    pandoc.add_run().add_break()
    pandoc.add_run("    with conn.transaction():")
    pandoc.add_run().add_break()
    pandoc.add_run("        return   rows  ")
    document.add_paragraph("Configuration:")
    preformatted = document.styles.add_style("HTML Preformatted", WD_STYLE_TYPE.PARAGRAPH)
    mine = document.styles.add_style("My Listing", WD_STYLE_TYPE.PARAGRAPH)
    mine.base_style = preformatted
    for line in ["[defaults]", "    station = BREST", "", "\tunits = metric"]:
        document.add_paragraph(line, style=mine)
    document.add_paragraph("Done.")
    blocks = parse_doc(document).blocks
    assert blocks == [
        Paragraph(text="A worker claims a batch:", page=1),
        Paragraph(text="def claim(conn):\n    with conn.transaction():\n        return   rows", page=1, code=True),
        Paragraph(text="Configuration:", page=1),
        Paragraph(text="[defaults]\n    station = BREST\n\n\tunits = metric", page=1, code=True),
        Paragraph(text="Done.", page=1),
    ]


def test_list_items_have_levels_and_numbered_labels() -> None:
    document = docx.Document()
    document.add_paragraph("Intro")
    document.add_paragraph("apples", style="List Bullet")
    document.add_paragraph("green ones", style="List Bullet 2")
    document.add_paragraph("first step", style="List Number")
    document.add_paragraph("second step", style="List Number")
    content = parse_doc(document)
    items = [(b.text, b.list_level) for b in content.blocks if isinstance(b, Paragraph)]
    assert items == [
        ("Intro", None),
        ("apples", 0),
        ("green ones", 1),
        ("1. first step", 0),
        ("2. second step", 0),
    ]


def _merged_table(document: Document) -> None:
    table = document.add_table(rows=3, cols=3)
    texts = [["Region", "Q1", "Q2"], ["North", "10", "20"], ["South", "30", "40"]]
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = texts[r][c]
    table.cell(1, 1).merge(table.cell(1, 2)).text = "10-20"
    table.cell(1, 0).merge(table.cell(2, 0)).text = "North and South"
    header = table.rows[0]._tr.get_or_add_trPr()
    header.append(parse_xml(f"<w:tblHeader {nsdecls('w')}/>"))


def test_merged_cells_become_spans_and_header_row_is_kept() -> None:
    document = docx.Document()
    _merged_table(document)
    (table,) = parse_doc(document).blocks
    assert isinstance(table, Table)
    assert (table.n_rows, table.n_cols, table.header_rows) == (3, 3, 1)
    by_position = {(cell.row, cell.col): cell for cell in table.cells}
    assert by_position[(1, 0)].text == "North and South"
    assert (by_position[(1, 0)].rowspan, by_position[(1, 0)].colspan) == (2, 1)
    assert (by_position[(1, 1)].text, by_position[(1, 1)].colspan) == ("10-20", 2)
    assert (2, 0) not in by_position
    assert table_grid(table) == [
        ["Region", "Q1", "Q2"],
        ["North and South", "10-20", "10-20"],
        ["North and South", "30", "40"],
    ]


def test_nested_table_text_stays_in_its_cell() -> None:
    document = docx.Document()
    outer = document.add_table(rows=1, cols=2)
    outer.cell(0, 0).text = "Outer"
    inner = outer.cell(0, 1).add_table(rows=2, cols=2)
    for r, row in enumerate(inner.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"in{r}{c}"
    (table,) = parse_doc(document).blocks
    assert isinstance(table, Table)
    assert table_grid(table) == [["Outer", "in00 | in01\nin10 | in11"]]


def test_image_with_alt_text_and_dimensions_in_place() -> None:
    document = docx.Document()
    document.add_paragraph("Look at this:")
    document.add_picture(io.BytesIO(png_bytes()), width=Inches(2), height=Inches(1))
    doc_pr = document.element.body.find(".//" + qn("wp:docPr"))
    doc_pr.set("descr", "A red square")
    document.add_paragraph("Figure 1: the square")
    blocks = parse_doc(document).blocks
    assert kinds(blocks) == ["paragraph", "image", "paragraph"]
    assert blocks[1] == Image(page=1, alt_text="A red square", width=192, height=96)


def test_page_breaks_move_blocks_to_later_pages() -> None:
    document = docx.Document()
    document.add_paragraph("First page")
    document.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    document.add_paragraph("Second page")
    content = parse_doc(document)
    assert [(b.text, b.page) for b in content.blocks if isinstance(b, Paragraph)] == [
        ("First page", 1),
        ("Second page", 2),
    ]
    assert content.page_count == 2


def test_deleted_revisions_are_dropped_and_text_boxes_are_read() -> None:
    document = docx.Document()
    paragraph = document.add_paragraph("Kept ")
    paragraph._p.append(
        parse_xml(f'<w:del {nsdecls("w")} w:id="1" w:author="a"><w:r><w:delText>removed</w:delText></w:r></w:del>')
    )
    paragraph._p.append(
        parse_xml(f'<w:ins {nsdecls("w")} w:id="2" w:author="a"><w:r><w:t>inserted</w:t></w:r></w:ins>')
    )
    box = document.add_paragraph()
    box._p.append(
        parse_xml(
            f'<w:r {nsdecls("w")} xmlns:v="urn:schemas-microsoft-com:vml"><w:pict><v:shape><v:textbox><w:txbxContent>'
            "<w:p><w:r><w:t>Inside the box</w:t></w:r></w:p>"
            "</w:txbxContent></v:textbox></v:shape></w:pict></w:r>"
        )
    )
    texts = [block.text for block in parse_doc(document).blocks if isinstance(block, Paragraph)]
    assert texts == ["Kept inserted", "Inside the box"]


def test_ruby_reads_through_its_base_and_hidden_runs_are_dropped() -> None:
    document = docx.Document()
    document.add_paragraph("会場は")._p.append(
        parse_xml(
            f'<w:r {nsdecls("w")}><w:ruby><w:rubyPr><w:hps w:val="10"/></w:rubyPr>'
            "<w:rt><w:r><w:t>とうきょう</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>東京</w:t></w:r></w:rubyBase>"
            "</w:ruby></w:r>"
        )
    )
    document.paragraphs[0].add_run("です。")
    paragraph = document.add_paragraph("Visible part. ")
    paragraph.add_run("HIDDEN drafting note").font.hidden = True
    paragraph.add_run(" Shown again.").font.hidden = False
    texts = [block.text for block in parse_doc(document).blocks if isinstance(block, Paragraph)]
    assert texts == ["会場は東京です。", "Visible part. Shown again."]


def _add_notes(document: Document, kind: str, texts: dict[str, str]) -> None:
    """A footnotes or endnotes part holding Word's two separator notes and the given notes by id."""
    notes = "".join(
        f'<w:{kind} w:id="{note_id}"><w:p><w:r><w:{kind}Ref/></w:r><w:r><w:t xml:space="preserve"> {text}</w:t></w:r>'
        f"</w:p></w:{kind}>"
        for note_id, text in texts.items()
    )
    xml = (
        f'<w:{kind}s {nsdecls("w")}><w:{kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
        f'</w:{kind}><w:{kind} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:t>cont.</w:t></w:r></w:p>'
        f"</w:{kind}>{notes}</w:{kind}s>"
    )
    content_type = f"application/vnd.openxmlformats-officedocument.wordprocessingml.{kind}s+xml"
    part = Part(PackURI(f"/word/{kind}s.xml"), content_type, xml.encode(), document.part.package)
    document.part.relate_to(part, RELATIONSHIP_TYPE.FOOTNOTES if kind == "footnote" else RELATIONSHIP_TYPE.ENDNOTES)


def _cite(paragraph: DocxParagraph, kind: str, note_id: str) -> None:
    paragraph._p.append(parse_xml(f'<w:r {nsdecls("w")}><w:{kind}Reference w:id="{note_id}"/></w:r>'))


def test_notes_follow_the_block_citing_them_numbered_in_citation_order() -> None:
    document = docx.Document()
    _add_notes(document, "footnote", {"5": "Source: audited accounts FY2023.", "2": "Second note."})
    _add_notes(document, "endnote", {"1": "Excluding one-off items."})
    first = document.add_paragraph("Revenue grew.")
    _cite(first, "footnote", "5")
    first.add_run(" Strongly.")
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Costs"
    _cite(table.cell(0, 1).paragraphs[0], "endnote", "1")
    _cite(document.add_paragraph("Margins held."), "footnote", "2")
    _cite(document.add_paragraph("No such note."), "footnote", "9")
    blocks = parse_doc(document).blocks
    texts = [grid_text([block]) for block in blocks]
    assert texts == [
        "Revenue grew.[^1] Strongly.",
        "[^1]: Source: audited accounts FY2023.",
        "Costs\n[^i]",
        "[^i]: Excluding one-off items.",
        "Margins held.[^2]",
        "[^2]: Second note.",
        "No such note.",
    ]


def test_broken_packages_are_corrupt() -> None:
    data = saved_bytes(docx.Document())
    with pytest.raises(CorruptDocumentError):
        parse(data[: len(data) // 2], filename="cut.docx", limits=ParseLimits())
    with pytest.raises(CorruptDocumentError):
        parse(b"PK\x03\x04 not really a zip", filename="junk.docx", limits=ParseLimits())


def test_zip_bombs_are_too_large_before_parsing() -> None:
    with pytest.raises(DocumentTooLargeError):
        parse(zip_bomb("word/document.xml", 40 * 1024 * 1024), filename="bomb.docx", limits=ParseLimits())
    small = ParseLimits(max_decompressed_bytes=1000)
    with pytest.raises(DocumentTooLargeError):
        parse(saved_bytes(docx.Document()), filename="t.docx", limits=small)


# --- the real corpus -------------------------------------------------------------------------------------------

GROUNDTRUTH = ["docx/word_sample.docx", "docx/word_tables.docx", "docx/unit_test_headers_numbered.docx"]
FAILURES = {"docx/testWORD_truncated.docx": "corrupt", "docx/testWORD_protected_passtika.docx": "encrypted"}


@pytest.mark.corpus
def test_every_corpus_docx_parses_or_fails_with_its_code(corpus_dir: Path) -> None:
    files = corpus_files(corpus_dir, "docx")
    assert len(files) >= 9
    for relative in files:
        data = (corpus_dir / relative).read_bytes()
        if relative in FAILURES:
            with pytest.raises(DocumentError) as caught:
                parse_bytes(data, Path(relative).name)
            assert caught.value.code == FAILURES[relative], relative
            continue
        document = parse_bytes(data, Path(relative).name)
        blocks = document.blocks()
        assert len(blocks) >= 5, relative
        texts = [block.text for block in blocks if isinstance(block, Heading | Paragraph)]
        assert all(text.strip() and text != "None" for text in texts), relative


@pytest.mark.corpus
def test_long_handbook_keeps_its_outline(corpus_dir: Path) -> None:
    document = parse_bytes((corpus_dir / "docx/handbook-872p.docx").read_bytes(), "handbook-872p.docx")
    outline = document.outline()
    assert len(outline) >= 250
    assert outline[0].text.startswith("CHAPTER 1")
    assert {heading.level for heading in outline} >= {1, 2, 3}
    assert len(document.pages) > 40


@pytest.mark.corpus
def test_chinese_docx_has_headings_tables_lists_and_pages(corpus_dir: Path) -> None:
    document = parse_bytes((corpus_dir / "docx/mineru_docx_01_zh.docx").read_bytes(), "mineru_docx_01_zh.docx")
    blocks = document.blocks()
    assert len(document.outline()) >= 27
    assert sum(isinstance(block, Table) for block in blocks) >= 8
    assert any(isinstance(b, Paragraph) and b.list_level == 3 for b in blocks)
    assert any(b.text.startswith("1 这是第一章标题") for b in document.outline())
    assert len(document.pages) == 15  # docProps/app.xml says 15


@pytest.mark.corpus
@pytest.mark.parametrize("relative", GROUNDTRUTH)
def test_docx_matches_the_reference_conversion(corpus_dir: Path, relative: str) -> None:
    document = parse_bytes((corpus_dir / relative).read_bytes(), Path(relative).name)
    markdown = groundtruth_markdown(corpus_dir, relative)
    text = text_recall(markdown_plain_text(markdown), grid_text(document.blocks()))
    headings = heading_recall(markdown_headings(markdown), document_headings(document))
    cells = cell_f1(markdown_table_cells(markdown), document_table_cells(document))
    print(f"{relative}: text recall {text:.3f}, heading recall {headings:.3f}, table cell F1 {cells:.3f}")
    assert text >= 0.95
    assert headings >= 0.8
    assert cells >= 0.9


def test_table_of_contents_lines_are_not_body_text() -> None:
    document = docx.Document()
    for name in ("TOC Heading", "toc 1", "toc 2", "table of figures"):
        if name not in [style.name for style in document.styles]:
            document.styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
    document.add_paragraph("Contents", style="TOC Heading")
    document.add_paragraph("Introduction\t1", style="toc 1")
    document.add_paragraph("Scope\t1", style="toc 2")
    document.add_paragraph("Figure 1: Layout\t2", style="table of figures")
    document.add_heading("Introduction", level=1)
    document.add_paragraph("The policy covers every site.")
    content = parse_doc(document)
    assert [block.text for block in content.blocks if isinstance(block, Heading | Paragraph)] == [
        "Introduction",
        "The policy covers every site.",
    ]


def test_a_worksheet_embedded_as_an_object_is_read_after_its_paragraph() -> None:
    """Word keeps a worksheet pasted as an object as a workbook package beside a preview picture Word draws."""
    from openpyxl import Workbook

    from tests.unit.parsers.ooxml_fixtures import docx_with_objects

    book = Workbook()
    sheet = book.active
    for row in (("Bolt size", "Torque (Nm)"), ("M10", 45), ("M12", 80)):
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    data = docx_with_objects([("The torque table", out.getvalue(), "Excel.Sheet.12")], suffix="xlsx")
    blocks = list(parse_bytes(data, "report.docx").blocks())
    assert [block.kind for block in blocks] == ["paragraph", "table"]
    assert blocks[0].text == "The torque table holds."  # type: ignore[union-attr]
    assert table_grid(blocks[1]) == [["Bolt size", "Torque (Nm)"], ["M10", "45"], ["M12", "80"]]  # type: ignore[arg-type]
    unreadable = docx_with_objects([("A damaged one", b"PK\x03\x04 not a workbook", "Excel.Sheet.12")], suffix="xlsx")
    assert [block_text(b) for b in parse_bytes(unreadable, "report.docx").blocks()] == ["A damaged one holds."]
