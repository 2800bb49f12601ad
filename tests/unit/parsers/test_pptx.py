from __future__ import annotations

import copy
import io
from pathlib import Path
from typing import Any

import pptx
import pytest
from lxml import etree
from pptx.chart.data import CategoryChartData, XyChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.enum.shapes import PP_PLACEHOLDER
from pptx.opc.package import Part
from pptx.opc.packuri import PackURI
from pptx.oxml.ns import qn
from pptx.util import Emu, Inches

from docshelf.errors import CorruptDocumentError, DocumentError, DocumentTooLargeError
from docshelf.model import Block, Heading, Image, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.office.pptx import parse
from docshelf.parsers.office.pptx_numbering import scheme_label
from docshelf.parsers.ooxml_charts import read_chart
from docshelf.tables import table_grid
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

TITLE_AND_CONTENT = 1
TITLE_ONLY = 5
BLANK = 6


def parse_deck(presentation: Any) -> ParsedContent:
    return parse(saved_bytes(presentation), filename="t.pptx", limits=ParseLimits())


def texts(blocks: list[Block]) -> list[str]:
    return [block.text for block in blocks if isinstance(block, Heading | Paragraph)]


def test_one_page_per_slide_with_title_heading_and_bullet_levels() -> None:
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[TITLE_AND_CONTENT])
    slide.shapes.title.text = "Quarterly results"
    body = slide.placeholders[1].text_frame
    body.text = "Revenue grew"
    detail = body.add_paragraph()
    detail.text = "mostly in Europe"
    detail.level = 1
    second = presentation.slides.add_slide(presentation.slide_layouts[TITLE_ONLY])
    second.shapes.title.text = "Next steps"
    content = parse_deck(presentation)
    assert content.blocks == [
        Heading(text="Quarterly results", level=1, page=1),
        Paragraph(text="Revenue grew", page=1, list_level=0),
        Paragraph(text="mostly in Europe", page=1, list_level=1),
        Heading(text="Next steps", level=1, page=2),
    ]
    assert content.page_count == 2
    assert content.page_labels == {1: "Slide 1", 2: "Slide 2"}
    assert content.title == "Quarterly results"


def test_text_boxes_follow_reading_order_not_creation_order() -> None:
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[BLANK])
    slide.shapes.add_textbox(Inches(1), Inches(5), Inches(4), Inches(1)).text_frame.text = "bottom"
    slide.shapes.add_textbox(Inches(5), Inches(1), Inches(3), Inches(1)).text_frame.text = "top right"
    # Slightly lower than its right-hand neighbour, but on the same line: read first.
    slide.shapes.add_textbox(Inches(1), Inches(1) + Emu(20000), Inches(3), Inches(1)).text_frame.text = "top left"
    assert texts(parse_deck(presentation).blocks) == ["top left", "top right", "bottom"]


def test_footer_and_date_placeholders_are_skipped_but_a_text_box_at_the_bottom_is_kept() -> None:
    presentation = pptx.Presentation()
    for number in (1, 2):
        slide = presentation.slides.add_slide(presentation.slide_layouts[TITLE_ONLY])
        slide.shapes.title.text = f"Topic {number}"
        for furniture in slide.slide_layout.placeholders:
            if furniture.placeholder_format.type in (PP_PLACEHOLDER.FOOTER, PP_PLACEHOLDER.DATE):
                slide.shapes._spTree.append(copy.deepcopy(furniture._element))
        for placeholder in slide.placeholders:
            if placeholder.placeholder_format.type == PP_PLACEHOLDER.FOOTER:
                placeholder.text_frame.text = "ACME Confidential"
            elif placeholder.placeholder_format.type == PP_PLACEHOLDER.DATE:
                placeholder.text_frame.text = "12/03/2024"
    slide.shapes.add_textbox(Inches(1), Inches(7), Inches(4), Inches(0.4)).text_frame.text = "Source: survey 2024"
    assert texts(parse_deck(presentation).blocks) == ["Topic 1", "Topic 2", "Source: survey 2024"]


def _add_furniture(slide: Any, kind: PP_PLACEHOLDER, text: str = "", field: str = "") -> None:
    """A copy of the layout's footer, date or slide-number placeholder holding `text` or a field of type `field`."""
    layout = next(p for p in slide.slide_layout.placeholders if p.placeholder_format.type == kind)
    slide.shapes._spTree.append(copy.deepcopy(layout._element))
    frame = next(p for p in slide.placeholders if p.placeholder_format.type == kind).text_frame
    frame.text = text
    if field:
        paragraph = frame.paragraphs[0]._p
        run = etree.SubElement(paragraph, qn("a:fld"), id="{B6F15528-21DE-4FAA-801E-634DDDAF4B2B}", type=field)
        etree.SubElement(run, qn("a:t")).text = "3/12/2024" if field.startswith("datetime") else "2"


def test_a_date_on_one_slide_is_content_but_repeated_footers_and_fields_are_furniture() -> None:
    # pandoc puts the `date:` of its source in the title slide's date placeholder: it was dropped (`Q3 2024`).
    presentation = pptx.Presentation()
    title_slide = presentation.slides.add_slide(presentation.slide_layouts[0])
    title_slide.shapes.title.text = "Quarterly Sales Review"
    _add_furniture(title_slide, PP_PLACEHOLDER.DATE, "Q3 2024")
    for number in (1, 2):
        slide = presentation.slides.add_slide(presentation.slide_layouts[TITLE_ONLY])
        slide.shapes.title.text = f"Topic {number}"
        _add_furniture(slide, PP_PLACEHOLDER.FOOTER, "ACME Confidential")
        _add_furniture(slide, PP_PLACEHOLDER.DATE, field="datetime1")
        _add_furniture(slide, PP_PLACEHOLDER.SLIDE_NUMBER, field="slidenum")
    assert texts(parse_deck(presentation).blocks) == ["Quarterly Sales Review", "Q3 2024", "Topic 1", "Topic 2"]


def _numbered(paragraph: Any, scheme: str | None, start: int | None = None) -> None:
    properties = paragraph._p.get_or_add_pPr()
    if scheme is not None:
        auto_number = etree.SubElement(properties, qn("a:buAutoNum"), type=scheme)
        if start is not None:
            auto_number.set("startAt", str(start))


def test_auto_numbered_paragraphs_carry_the_numbers_powerpoint_draws() -> None:
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[TITLE_AND_CONTENT])
    frame = slide.placeholders[1].text_frame
    items = [
        ("Plan", 0, "arabicPeriod", None),
        ("Scope", 1, "alphaLcParenR", None),
        ("", 1, "alphaLcParenR", None),  # an empty paragraph shows no number and counts none
        ("Budget", 1, "alphaLcParenR", None),
        ("Build", 0, "arabicPeriod", None),
        ("Code", 1, "alphaLcParenR", None),  # a new run under the next top-level item
        ("Ship", 0, "arabicPeriod", None),
        ("Then, in phase two:", 0, None, None),  # a paragraph without a number ends the run
        ("Review", 0, "romanUcParenBoth", 4),
        ("Retire", 0, "romanUcParenBoth", 4),  # the same startAt repeated continues the run
    ]
    for index, (text, level, scheme, start) in enumerate(items):
        paragraph = frame.paragraphs[0] if index == 0 else frame.add_paragraph()
        paragraph.text, paragraph.level = text, level
        _numbered(paragraph, scheme, start)
    assert texts(parse_deck(presentation).blocks) == [
        "1. Plan",
        "a) Scope",
        "b) Budget",
        "2. Build",
        "a) Code",
        "3. Ship",
        "Then, in phase two:",
        "(IV) Review",
        "(V) Retire",
    ]


@pytest.mark.parametrize(
    ("scheme", "value", "label"),
    [
        ("arabicParenR", 2, "2)"),
        ("arabicPlain", 3, "3"),
        ("alphaUcPeriod", 27, "AA."),
        ("romanLcPeriod", 9, "ix."),
        ("alphaLcParenBoth", 3, "(c)"),
        ("circleNumDbPlain", 3, "\u2462"),
        ("ea1JpnKorPeriod", 3, "3."),  # a scheme not drawn here keeps its number
    ],
)
def test_auto_number_schemes(scheme: str, value: int, label: str) -> None:
    assert scheme_label(scheme, value) == label


DIAGRAM_NS = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
DRAWING_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _diagram_point(model_id: str, text: str, kind: str | None = None) -> str:
    typed = f' type="{kind}"' if kind else ""
    body = f"<dgm:t><a:bodyPr/><a:p><a:r><a:t>{text}</a:t></a:r></a:p></dgm:t>" if text else ""
    return f'<dgm:pt modelId="{model_id}"{typed}>{body}</dgm:pt>'


def _add_smartart(presentation: Any, slide: Any, points: str, connections: str) -> None:
    """A SmartArt graphic frame, its data, layout, style and colour parts, and the drawing PowerPoint caches."""
    namespaces = f'xmlns:dgm="{DIAGRAM_NS}" xmlns:a="{DRAWING_NS}"'
    data = f"<dgm:dataModel {namespaces}><dgm:ptLst>{points}</dgm:ptLst><dgm:cxnLst>{connections}</dgm:cxnLst>"
    drawing = (
        '<dsp:drawing xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram"'
        f' xmlns:a="{DRAWING_NS}"><dsp:spTree><dsp:sp><dsp:txBody><a:p><a:r><a:t>Discover needs</a:t></a:r></a:p>'
        "</dsp:txBody></dsp:sp></dsp:spTree></dsp:drawing>"
    )
    parts = {
        "dm": ("diagramData", "diagramData", data + "</dgm:dataModel>"),
        "lo": ("diagramLayout", "diagramLayout", f"<dgm:layoutDef {namespaces}/>"),
        "qs": ("diagramQuickStyle", "diagramStyle", f"<dgm:styleDef {namespaces}/>"),
        "cs": ("diagramColors", "diagramColors", f"<dgm:colorsDef {namespaces}/>"),
        "drawing": ("diagramDrawing", "diagramDrawing", drawing),
    }
    ids = {}
    for key, (relationship, content, xml) in parts.items():
        content_type = f"application/vnd.openxmlformats-officedocument.drawingml.{content}+xml"
        part = Part(
            PackURI(f"/ppt/diagrams/{relationship}1.xml"), content_type, presentation.part.package, xml.encode()
        )
        ids[key] = slide.part.relate_to(part, f"{RELATIONSHIPS}/{relationship}")
    slide.shapes._spTree.append(
        etree.fromstring(
            f'<p:graphicFrame xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"'
            f' xmlns:a="{DRAWING_NS}" xmlns:r="{RELATIONSHIPS}"><p:nvGraphicFramePr><p:cNvPr id="10" name="Diagram 1"/>'
            '<p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="914400" y="1828800"/>'
            f'<a:ext cx="7315200" cy="3657600"/></p:xfrm><a:graphic><a:graphicData uri="{DIAGRAM_NS}">'
            f'<dgm:relIds xmlns:dgm="{DIAGRAM_NS}" r:dm="{ids["dm"]}" r:lo="{ids["lo"]}" r:qs="{ids["qs"]}"'
            f' r:cs="{ids["cs"]}"/></a:graphicData></a:graphic></p:graphicFrame>'
        )
    )


def test_smartart_node_texts_are_list_items_nested_by_the_data_model() -> None:
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[TITLE_ONLY])
    slide.shapes.title.text = "Our process"
    points = "".join(
        [
            _diagram_point("0", "", "doc"),
            _diagram_point("1", "Discover needs"),
            _diagram_point("2", "Interview users"),
            _diagram_point("3", "Deliver value"),
            _diagram_point("4", "not shown", "parTrans"),
            _diagram_point("5", "not shown", "sibTrans"),
            _diagram_point("6", "", "pres"),
        ]
    )
    tree = '<dgm:cxn modelId="c1" srcId="0" destId="1"/><dgm:cxn modelId="c2" srcId="1" destId="2"/>'
    tree += '<dgm:cxn modelId="c3" srcId="0" destId="3"/><dgm:cxn modelId="c4" type="presOf" srcId="1" destId="6"/>'
    _add_smartart(presentation, slide, points, tree)
    assert parse_deck(presentation).blocks == [
        Heading(text="Our process", level=1, page=1),
        Paragraph(text="Discover needs", page=1, list_level=0),  # once: the cached drawing is not read
        Paragraph(text="Interview users", page=1, list_level=1),
        Paragraph(text="Deliver value", page=1, list_level=0),
    ]

    flat = pptx.Presentation()
    slide = flat.slides.add_slide(flat.slide_layouts[BLANK])
    _add_smartart(flat, slide, _diagram_point("1", "Discover needs") + _diagram_point("2", "Design solution"), "")
    assert [(block.text, block.list_level) for block in parse_deck(flat).blocks if isinstance(block, Paragraph)] == [
        ("Discover needs", 0),
        ("Design solution", 0),
    ]


def test_a_chart_is_an_image_described_in_words_then_its_cached_values_as_a_table() -> None:
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[TITLE_ONLY])
    slide.shapes.title.text = "Sales"
    data = CategoryChartData()  # type: ignore[no-untyped-call]
    data.categories = ["North", "South"]
    for name, values in (("FY2023", (120, 95)), ("FY2024", (130, 90.5))):
        data.add_series(name, values)  # type: ignore[no-untyped-call]
    chart = slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(2), Inches(6), Inches(4), data)
    chart.chart.has_title = True
    chart.chart.chart_title.text_frame.text = "Sales by region"
    points = XyChartData()  # type: ignore[no-untyped-call]
    measured = points.add_series("Latency")  # type: ignore[no-untyped-call]
    measured.add_data_point(10, 4.5)
    measured.add_data_point(20, 7)
    scatter = slide.shapes.add_chart(XL_CHART_TYPE.XY_SCATTER, Inches(1), Inches(6), Inches(3), Inches(1), points)
    scatter._element.find(".//" + qn("p:cNvPr")).set("descr", "Latency against load")

    blocks = parse_deck(presentation).blocks
    images = [block for block in blocks if isinstance(block, Image)]
    assert [(image.caption, image.alt_text) for image in images] == [
        ("Sales by region", "Bar chart of FY2023, FY2024"),
        ("", "Latency against load"),  # untitled; the author's description rather than the words
    ]
    tables = [table_grid(block) for block in blocks if isinstance(block, Table)]
    assert tables == [
        [["", "FY2023", "FY2024"], ["North", "120", "130"], ["South", "95", "90.5"]],
        [["", "Latency"], ["10", "4.5"], ["20", "7"]],
    ]
    assert [block.kind for block in blocks] == ["heading", "image", "table", "image", "table"]


def test_chart_values_keep_their_index_and_the_innermost_of_multi_level_categories() -> None:
    chart = (
        b'<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart><c:plotArea>'
        b"<c:lineChart><c:ser><c:tx><c:v>Visits</c:v></c:tx><c:cat><c:multiLvlStrRef><c:multiLvlStrCache>"
        b'<c:lvl><c:pt idx="0"><c:v>Jan</c:v></c:pt><c:pt idx="1"><c:v>Feb</c:v></c:pt><c:pt idx="2"><c:v>Mar</c:v>'
        b'</c:pt></c:lvl><c:lvl><c:pt idx="0"><c:v>Q1</c:v></c:pt></c:lvl></c:multiLvlStrCache></c:multiLvlStrRef>'
        b'</c:cat><c:val><c:numRef><c:numCache><c:pt idx="0"><c:v>5</c:v></c:pt><c:pt idx="2"><c:v>8</c:v></c:pt>'
        b"</c:numCache></c:numRef></c:val></c:ser></c:lineChart></c:plotArea></c:chart></c:chartSpace>"
    )
    rows = read_chart(etree.fromstring(chart)).value_rows()
    assert rows == [["", "Visits"], ["Jan", "5"], ["Feb", ""], ["Mar", "8"]]


def test_table_merged_cells_become_spans() -> None:
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[BLANK])
    table = slide.shapes.add_table(3, 3, Inches(1), Inches(1), Inches(6), Inches(2)).table
    values = [["Name", "Q1", "Q2"], ["A", "1", "2"], ["B", "3", "4"]]
    for r in range(3):
        for c in range(3):
            table.cell(r, c).text = values[r][c]
    table.cell(1, 1).merge(table.cell(2, 2))
    (block,) = parse_deck(presentation).blocks
    assert isinstance(block, Table)
    assert (block.n_rows, block.n_cols, block.header_rows) == (3, 3, 1)
    origin = next(cell for cell in block.cells if (cell.row, cell.col) == (1, 1))
    assert (origin.rowspan, origin.colspan) == (2, 2)
    assert len(block.cells) == 9 - 3
    assert table_grid(block)[2] == ["B", origin.text, origin.text]


def test_group_shapes_are_read_recursively() -> None:
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[BLANK])
    group = slide.shapes.add_group_shape()
    group.shapes.add_textbox(Inches(1), Inches(1), Inches(2), Inches(1)).text_frame.text = "grouped one"
    inner = group.shapes.add_group_shape()
    inner.shapes.add_textbox(Inches(1), Inches(3), Inches(2), Inches(1)).text_frame.text = "grouped deeper"
    assert texts(parse_deck(presentation).blocks) == ["grouped one", "grouped deeper"]


def test_picture_alt_text_and_speaker_notes() -> None:
    presentation = pptx.Presentation()
    slide = presentation.slides.add_slide(presentation.slide_layouts[TITLE_ONLY])
    slide.shapes.title.text = "Architecture"
    picture = slide.shapes.add_picture(io.BytesIO(png_bytes()), Inches(1), Inches(2), Inches(2), Inches(1))
    picture._element.find(".//" + qn("p:cNvPr")).set("descr", "Diagram of the pipeline")
    slide.notes_slide.notes_text_frame.text = "Mention the queue.\nThen the index."
    blocks = parse_deck(presentation).blocks
    assert blocks == [
        Heading(text="Architecture", level=1, page=1),
        Image(page=1, alt_text="Diagram of the pipeline", width=192, height=96),
        Paragraph(text="Speaker notes: Mention the queue.", page=1),
        Paragraph(text="Then the index.", page=1),
    ]


def test_broken_and_oversized_packages() -> None:
    data = saved_bytes(pptx.Presentation())
    with pytest.raises(CorruptDocumentError):
        parse(data[: len(data) // 3], filename="cut.pptx", limits=ParseLimits())
    with pytest.raises(DocumentTooLargeError):
        parse(zip_bomb("ppt/presentation.xml", 40 * 1024 * 1024), filename="bomb.pptx", limits=ParseLimits())


# --- the real corpus -------------------------------------------------------------------------------------------


@pytest.mark.corpus
def test_every_corpus_pptx_parses_with_content(corpus_dir: Path) -> None:
    files = corpus_files(corpus_dir, "pptx")
    assert len(files) >= 5
    for relative in files:
        try:
            document = parse_bytes((corpus_dir / relative).read_bytes(), Path(relative).name)
        except DocumentError as exc:  # pragma: no cover - a failure message that names the file
            pytest.fail(f"{relative}: {exc.code}: {exc}")
        block_texts = texts(document.blocks())
        assert block_texts, relative
        assert all(text.strip() and text != "None" for text in block_texts), relative


@pytest.mark.corpus
def test_malformed_pptx_keeps_its_readable_content(corpus_dir: Path) -> None:
    name = "fake-power-point-malformed.pptx"
    document = parse_bytes((corpus_dir / "pptx" / name).read_bytes(), name)
    # its one slide's date placeholder is the deck's text, not furniture repeated on every slide
    assert texts(document.blocks()) == ["Test Slide", "Problem Date Placeholder"]
    assert document.outline()[0].text == "Test Slide"


@pytest.mark.corpus
def test_sample_presentation_lists_and_table(corpus_dir: Path) -> None:
    name = "sample-presentation.pptx"
    document = parse_bytes((corpus_dir / "pptx" / name).read_bytes(), name)
    assert len(document.pages) == 4
    levels = [b.list_level for b in document.pages[1].blocks if isinstance(b, Paragraph)]
    assert levels == [None, 0, 1, 1, 2, 0]
    (table,) = [b for b in document.pages[3].blocks if isinstance(b, Table)]
    assert table_grid(table)[1] == ["1", "A1", "B1", "C1"]


@pytest.mark.corpus
def test_pptx_matches_the_reference_conversion(corpus_dir: Path) -> None:
    relative = "pptx/powerpoint_sample.pptx"
    document = parse_bytes((corpus_dir / relative).read_bytes(), Path(relative).name)
    markdown = groundtruth_markdown(corpus_dir, relative)
    # The reference leaves speaker notes out; compare recall only, so the notes do not count against us.
    text = text_recall(markdown_plain_text(markdown), grid_text(document.blocks()))
    headings = heading_recall(markdown_headings(markdown), document_headings(document))
    cells = cell_f1(markdown_table_cells(markdown), document_table_cells(document))
    print(f"{relative}: text recall {text:.3f}, heading recall {headings:.3f}, table cell F1 {cells:.3f}")
    assert text >= 0.95
    assert headings >= 0.8
    assert cells >= 0.9


PRESENTATION_MAIN = b"application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"


@pytest.mark.parametrize(
    ("main_type", "name"),
    [
        ("application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml", "show.ppsx"),
        ("application/vnd.openxmlformats-officedocument.presentationml.template.main+xml", "template.potx"),
        ("application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml", "show.ppsm"),
    ],
)
def test_a_slide_show_or_template_is_read_as_a_presentation(main_type: str, name: str) -> None:
    """PowerPoint types a .ppsx's or .potx's main part as a slide show's or template's, which python-pptx refuses."""
    import zipfile

    presentation = pptx.Presentation()
    presentation.slides.add_slide(presentation.slide_layouts[TITLE_ONLY]).shapes.title.text = "Safety briefing"
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(saved_bytes(presentation))) as source, zipfile.ZipFile(buffer, "w") as target:
        for member in source.infolist():
            content = source.read(member)
            if member.filename == "[Content_Types].xml":
                content = content.replace(PRESENTATION_MAIN, main_type.encode())
            target.writestr(member, content)
    data = buffer.getvalue()
    assert main_type.encode() in zipfile.ZipFile(io.BytesIO(data)).read("[Content_Types].xml")
    with pytest.raises(ValueError, match="not a PowerPoint file"):
        pptx.Presentation(io.BytesIO(data))
    assert texts(parse_bytes(data, name).blocks()) == ["Safety briefing"]


def test_a_worksheet_and_an_equation_embedded_as_objects_on_a_slide_are_read() -> None:
    from openpyxl import Workbook
    from pptx.enum.shapes import PROG_ID

    from docshelf.tables import block_text
    from tests.unit.parsers.ole_fixtures import compound_file
    from tests.unit.parsers.test_mtef import RECORDS, native

    book = Workbook()
    for row in (("Bolt size", "Torque (Nm)"), ("M10", 45), ("M12", 80)):
        book.active.append(row)
    workbook = io.BytesIO()
    book.save(workbook)
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Torque"
    slide.shapes.add_ole_object(io.BytesIO(workbook.getvalue()), PROG_ID.XLSX, Inches(1), Inches(2))
    equation = compound_file({"Equation Native": native(b"\x0a", RECORDS[0][0])})
    slide.shapes.add_ole_object(
        io.BytesIO(equation), "Equation.3", Inches(1), Inches(5), icon_file=io.BytesIO(png_bytes())
    )
    out = io.BytesIO()
    deck.save(out)
    blocks = list(parse_bytes(out.getvalue(), "deck.pptx").blocks())
    assert [(block.kind, block_text(block)) for block in blocks] == [
        ("heading", "Torque"),
        ("table", "| Bolt size | Torque (Nm) |\n|---|---|\n| M10 | 45 |\n| M12 | 80 |"),
        ("paragraph", r"$$x=\frac{a}{b}$$"),
    ]  # fmt: skip
