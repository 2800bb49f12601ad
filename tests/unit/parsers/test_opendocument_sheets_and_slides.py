"""OpenDocument spreadsheets (.ods), presentations (.odp) and drawings (.odg), read as XLSX workbooks and PPTX decks
are."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, EncryptedDocumentError
from docshelf.model import Block, Heading, Image, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.detect import detect_format
from docshelf.parsers.office.odp import parse as parse_odp
from docshelf.parsers.sheets.ods import parse as parse_ods
from docshelf.tables import block_text, table_grid
from tests.support.image_fixtures import photo
from tests.support.zip_fixtures import build_zip, zip_bomb
from tests.unit.parsers.test_legacy_office import SOFFICE, _soffice
from tests.unit.parsers.test_odt import NAMESPACES

ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"
ODP_MIME = "application/vnd.oasis.opendocument.presentation"
ODT_MIME = "application/vnd.oasis.opendocument.text"
SPACES = NAMESPACES + (
    ' xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"'
    ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"'
)


def package(kind: str, body: str, mimetype: str, **members: bytes) -> bytes:
    content = f"<office:document-content {SPACES}><office:body><office:{kind}>{body}</office:{kind}></office:body>"
    return build_zip(
        {"content.xml": (content + "</office:document-content>").encode(), "META-INF/manifest.xml": b"<m/>", **members},
        mimetype=mimetype,
    )


def cell(text: str, kind: str = "string", **attributes: str) -> str:
    extra = "".join(f' {name.replace("_", ":", 1).replace("_", "-")}="{value}"' for name, value in attributes.items())
    return f'<table:table-cell office:value-type="{kind}"{extra}><text:p>{text}</text:p></table:table-cell>'


def test_each_sheet_is_a_page_of_tables_with_the_values_as_shown() -> None:
    sheets = (
        '<table:table table:name="Budget"><table:table-column table:number-columns-repeated="3"/>'
        f"<table:table-header-rows><table:table-row>{cell('Item')}{cell('Cost')}{cell('Due')}</table:table-row>"
        "</table:table-header-rows>"
        f"<table:table-row>{cell('Pump')}{cell('1,250.00 €', 'currency', office_value='1250')}"
        f"{cell('03/04/26', 'date', office_date_value='2026-04-03')}</table:table-row>"
        f"<table:table-row>{cell('Seals', table_number_columns_spanned='2')}<table:covered-table-cell/>"
        '<table:table-cell office:value-type="boolean" office:boolean-value="true"/></table:table-row>'
        '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/>'
        "</table:table-row></table:table>"
        '<table:table table:name="Empty"><table:table-row><table:table-cell/></table:table-row></table:table>'
        f'<table:table table:name="Notes"><table:table-row>{cell("Checked<text:line-break/>twice")}</table:table-row>'
        "</table:table>"
    )
    content = parse_ods(package("spreadsheet", sheets, ODS_MIME), filename="b.ods", limits=ParseLimits())
    assert content.page_count == 3 and content.page_labels == {1: "Budget", 2: "Empty", 3: "Notes"}
    headings = [(block.text, block.page) for block in content.blocks if isinstance(block, Heading)]
    assert headings == [("Budget", 1), ("Notes", 3)]
    tables = [block for block in content.blocks if isinstance(block, Table)]
    assert table_grid(tables[0]) == [
        ["Item", "Cost", "Due"], ["Pump", "1,250.00 €", "03/04/26"], ["Seals", "Seals", "TRUE"],
    ]  # fmt: skip
    assert content.blocks[-1] == Paragraph(text="Checked\ntwice", page=3)  # one cell alone is a paragraph


def test_a_repeated_row_with_values_is_expanded_within_the_cell_budget() -> None:
    sheet = (
        '<table:table table:name="S"><table:table-row table:number-rows-repeated="1000000">'
        f"{cell('x', table_number_columns_repeated='1000')}</table:table-row></table:table>"
    )
    content = parse_ods(
        package("spreadsheet", sheet, ODS_MIME), filename="b.ods", limits=ParseLimits(max_sheet_cells=5000)
    )
    assert content.truncation.startswith("kept the first 5,000 cells")


def test_slides_are_pages_with_titles_text_tables_pictures_and_notes() -> None:
    picture = photo()
    slides = f"""
<draw:page draw:name="page1">
  <draw:frame presentation:class="title"><draw:text-box><text:p>Pump maintenance</text:p></draw:text-box></draw:frame>
  <draw:frame presentation:class="subtitle"><draw:text-box><text:p>Field guide</text:p></draw:text-box></draw:frame>
  <draw:frame presentation:class="footer"><draw:text-box><text:p>ACME confidential</text:p></draw:text-box></draw:frame>
</draw:page>
<draw:page draw:name="page2">
  <draw:frame presentation:class="title"><draw:text-box><text:p>Checks</text:p></draw:text-box></draw:frame>
  <draw:frame presentation:class="outline"><draw:text-box><text:list><text:list-item><text:p>Seals</text:p>
    </text:list-item><text:list-item><text:p>Bearings</text:p></text:list-item></text:list></draw:text-box></draw:frame>
  <draw:g><draw:custom-shape><text:p>A note in a shape</text:p></draw:custom-shape></draw:g>
  <draw:frame><table:table><table:table-row>{cell("Part")}{cell("Torque")}</table:table-row>
    <table:table-row>{cell("M10")}{cell("45 Nm")}</table:table-row></table:table>
    <draw:image xlink:href="Pictures/table-fallback.png"/></draw:frame>
  <draw:frame><draw:image xlink:href="Pictures/pump.png"/><svg:title>The pump</svg:title></draw:frame>
  <presentation:notes><draw:page-thumbnail/><draw:frame presentation:class="notes"><draw:text-box>
    <text:p>Say the torque twice.</text:p><text:p>Then stop.</text:p></draw:text-box></draw:frame></presentation:notes>
</draw:page>"""
    data = package("presentation", slides, ODP_MIME, **{"Pictures/pump.png": picture})
    content = parse_odp(data, filename="d.odp", limits=ParseLimits())
    assert content.title == "Pump maintenance" and content.page_count == 2
    assert content.page_labels == {1: "Slide 1", 2: "Slide 2"}
    blocks = content.blocks
    assert blocks[:6] == [
        Heading(text="Pump maintenance", level=1, page=1),
        Heading(text="Field guide", level=2, page=1),
        Heading(text="Checks", level=1, page=2),
        Paragraph(text="Seals", page=2, list_level=0),
        Paragraph(text="Bearings", page=2, list_level=0),
        Paragraph(text="A note in a shape", page=2),
    ]
    assert isinstance(blocks[6], Table) and table_grid(blocks[6]) == [["Part", "Torque"], ["M10", "45 Nm"]]
    assert isinstance(blocks[7], Image) and blocks[7].alt_text == "The pump" and blocks[7].page == 2
    assert blocks[8:] == [
        Paragraph(text="Speaker notes: Say the torque twice.", page=2),
        Paragraph(text="Then stop.", page=2),
    ]
    assert len(content.assets) == 1  # the table's picture of itself is no picture of the slide


@pytest.mark.parametrize(
    ("kind", "mimetype", "name"), [("spreadsheet", ODS_MIME, "b.ods"), ("presentation", ODP_MIME, "d.odp")]
)
def test_detected_and_refused_like_any_opendocument_file(kind: str, mimetype: str, name: str) -> None:
    data = package(kind, "", mimetype)
    assert detect_format(data, "upload.bin") == name.rsplit(".", 1)[1]
    manifest = b"<m><manifest:encryption-data xmlns:manifest='urn:x'/></m>"
    with pytest.raises(EncryptedDocumentError):
        parse_bytes(package(kind, "", mimetype, **{"META-INF/manifest.xml": manifest}), name)
    with pytest.raises(DocumentTooLargeError):
        parse_bytes(zip_bomb("content.xml", mimetype=mimetype), name)
    with pytest.raises(CorruptDocumentError):
        parse_bytes(build_zip({"META-INF/manifest.xml": b"<m/>"}, mimetype=mimetype), name)


def flat(kind: str, body: str, mimetype: str) -> bytes:
    """A flat OpenDocument file: the package's meta and body in one office:document (`.fodt`, `.fods`, `.fodp`)."""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document {SPACES} office:version="1.3" '
        f'office:mimetype="{mimetype}"><office:meta><dc:title>Flat title</dc:title></office:meta>'
        f"<office:body><office:{kind}>{body}</office:{kind}></office:body></office:document>"
    ).encode()


@pytest.mark.parametrize(
    ("kind", "mimetype", "fmt"),
    [
        ("text", "application/vnd.oasis.opendocument.text", "odt"),
        ("spreadsheet", ODS_MIME, "ods"),
        ("presentation", ODP_MIME, "odp"),
    ],
)
def test_a_flat_opendocument_file_reads_as_its_package_does(kind: str, mimetype: str, fmt: str) -> None:
    """LibreOffice's flat XML formats: they read as generic XML before (its settings' values as paragraphs)."""
    body = {
        "text": f'<text:h text:outline-level="1">Pumps</text:h><text:p>Check the seals.<draw:frame>'
        f"<draw:image><office:binary-data>{photo().hex() and __import__('base64').b64encode(photo()).decode()}"
        "</office:binary-data></draw:image><svg:title>A pump</svg:title></draw:frame></text:p>",
        "spreadsheet": f'<table:table table:name="Parts"><table:table-row>{cell("Seal")}{cell("4", "float")}'
        "</table:table-row></table:table>",
        "presentation": '<draw:page><draw:frame presentation:class="title"><draw:text-box><text:p>Pumps</text:p>'
        "</draw:text-box></draw:frame></draw:page>",
    }[kind]
    data = flat(kind, body, mimetype)
    assert detect_format(data, "upload.xml") == fmt and detect_format(data, "upload") == fmt
    flat_document = parse_bytes(data, f"flat.fo{fmt[-1]}")
    packaged = parse_bytes(package(kind, body, mimetype), f"packaged.{fmt}")
    assert [(b.kind, getattr(b, "text", "")) for b in flat_document.blocks() if b.kind != "image"] == [
        (b.kind, getattr(b, "text", "")) for b in packaged.blocks() if b.kind != "image"
    ]
    if kind == "text":  # its picture is inline data, the package's a member it lacks here
        assert [block.kind for block in flat_document.blocks()] == ["heading", "paragraph", "image"]


CHART_SPACE = 'xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0"'
CHART = f"""<office:chart><chart:chart {CHART_SPACE} chart:class="chart:bar">
<chart:title><text:p>Torque by bolt size</text:p></chart:title><chart:legend/>
<chart:plot-area><chart:axis chart:dimension="x"><chart:title><text:p>Bolt</text:p></chart:title></chart:axis>
<chart:axis chart:dimension="y"><chart:title><text:p>Nm</text:p></chart:title></chart:axis>
<chart:series chart:class="chart:bar"/><chart:series chart:class="chart:line"/></chart:plot-area>
<table:table table:name="local-table"><table:table-header-rows><table:table-row>{cell("")}{cell("Torque (Nm)")}
{cell("Preload (kN)")}</table:table-row></table:table-header-rows><table:table-rows>
<table:table-row>{cell("M10")}{cell("45", "float")}{cell("20", "float")}</table:table-row>
<table:table-row>{cell("M12")}{cell("80", "float")}{cell("30", "float")}</table:table-row></table:table-rows>
</table:table></chart:chart></office:chart>"""
CHART_OBJECT = (
    f"<office:document-content {SPACES} {CHART_SPACE}><office:body>{CHART}</office:body></office:document-content>"
)
CHART_FRAME = (
    '<draw:frame draw:name="Chart 1"><draw:object xlink:href="./Object 1"><loext:p xmlns:loext="urn:x"/>'
    '</draw:object><draw:image xlink:href="./ObjectReplacements/Object 1"/></draw:frame>'
)
DESCRIBED = "Bar and line chart of Torque (Nm), Preload (kN) (axes: Bolt, Nm)"
VALUES = [["", "Torque (Nm)", "Preload (kN)"], ["M10", "45", "20"], ["M12", "80", "30"]]


def _chart_of(blocks: list[Block]) -> tuple[Image, list[list[str]] | None]:
    at = next(index for index, block in enumerate(blocks) if isinstance(block, Image))
    image, following = blocks[at], blocks[at + 1] if at + 1 < len(blocks) else None
    assert isinstance(image, Image)
    return image, table_grid(following) if isinstance(following, Table) else None


def test_a_chart_in_a_text_document_or_a_slide_is_described_then_its_values_follow() -> None:
    from docshelf.parsers.office.odt import parse as parse_odt

    objects = {"Object 1/content.xml": CHART_OBJECT.encode(), "ObjectReplacements/Object 1": b"SVM1 not a picture"}
    text = package("text", f"<text:p>Torque values:{CHART_FRAME}</text:p><text:p>After.</text:p>", ODT_MIME, **objects)
    slides = package("presentation", f"<draw:page>{CHART_FRAME}</draw:page>", ODP_MIME, **objects)
    for content in (parse_odt(text, filename="t.odt", limits=ParseLimits()),
                    parse_odp(slides, filename="d.odp", limits=ParseLimits())):  # fmt: skip
        image, values = _chart_of(content.blocks)
        assert (image.caption, image.alt_text, values) == ("Torque by bolt size", DESCRIBED, VALUES)
        assert not content.assets  # the chart's picture of itself (a metafile here) is not its picture
    flat_text = flat("text", f"<text:p>Inline:<draw:frame><draw:object><office:document>{CHART}"
                             f"</office:document></draw:object></draw:frame></text:p>", ODT_MIME)  # fmt: skip
    image, values = _chart_of(list(parse_bytes(flat_text, "flat.fodt").blocks()))
    assert (image.caption, values) == ("Torque by bolt size", VALUES)


def test_a_sheets_chart_follows_its_tables_without_repeating_their_values() -> None:
    body = (
        f'<table:table table:name="Torque"><table:shapes>{CHART_FRAME}</table:shapes>'
        f"<table:table-row>{cell('Bolt')}{cell('Torque (Nm)')}</table:table-row>"
        f"<table:table-row>{cell('M10')}{cell('45', 'float')}</table:table-row></table:table>"
    )
    data = package("spreadsheet", body, ODS_MIME, **{"Object 1/content.xml": CHART_OBJECT.encode()})
    blocks = parse_ods(data, filename="b.ods", limits=ParseLimits()).blocks
    assert [block.kind for block in blocks] == ["heading", "table", "image"]
    image, values = _chart_of(blocks)
    assert (image.caption, image.alt_text, image.page, values) == ("Torque by bolt size", DESCRIBED, 1, None)


def test_a_flat_text_documents_formulas_are_latex_as_a_packaged_ones_are() -> None:
    from tests.unit.parsers.test_odt import FORMULA

    data = flat("text", f"<text:p>Energy is <draw:frame><draw:object>{FORMULA}</draw:object></draw:frame>.</text:p>",
                ODT_MIME)  # fmt: skip
    assert [getattr(block, "text", "") for block in parse_bytes(data, "energy.fodt").blocks()] == [
        "Energy is $E=mc^{2}$."
    ]


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) converts the generated files")
def test_charts_libreoffice_saved_from_a_workbook_and_a_deck_are_read(tmp_path: Path) -> None:
    import openpyxl
    import pptx
    from openpyxl.chart import BarChart, Reference
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    book = openpyxl.Workbook()
    sheet = book.active
    for row in [("Bolt", "Torque (Nm)"), ("M10", 45), ("M12", 80), ("M16", 190)]:
        sheet.append(row)
    chart = BarChart()
    chart.title, chart.x_axis.title, chart.y_axis.title = "Torque by bolt size", "Bolt", "Nm"
    chart.add_data(Reference(sheet, min_col=2, min_row=1, max_row=4), titles_from_data=True)
    chart.set_categories(Reference(sheet, min_col=1, min_row=2, max_row=4))
    sheet.add_chart(chart, "D2")
    book.save(str(tmp_path / "torque.xlsx"))
    blocks = list(parse_bytes(_soffice(tmp_path, "torque.xlsx", "ods"), "torque.ods").blocks())
    assert [block.kind for block in blocks] == ["heading", "table", "image"]
    image = blocks[2]
    assert isinstance(image, Image) and image.caption == "Torque by bolt size"
    assert image.alt_text == "Bar chart of Torque (Nm) (axes: Bolt, Nm)"

    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Seal wear"
    values = CategoryChartData()  # type: ignore[no-untyped-call]
    values.categories = ["Q1", "Q2"]
    values.add_series("Worn seals", (3, 7))  # type: ignore[no-untyped-call]
    drawn = slide.shapes.add_chart(XL_CHART_TYPE.LINE, Inches(1), Inches(2), Inches(6), Inches(4), values).chart
    drawn.has_title = True
    drawn.chart_title.text_frame.text = "Seals replaced"
    deck.save(str(tmp_path / "wear.pptx"))
    blocks = list(parse_bytes(_soffice(tmp_path, "wear.pptx", "odp"), "wear.odp").blocks())
    image, table = _chart_of(blocks)
    assert isinstance(blocks[0], Heading) and blocks[0].text == "Seal wear" and image.caption == "Seals replaced"
    assert image.alt_text.startswith("Line chart of Worn seals") and table == [
        ["", "Worn seals"],
        ["Q1", "3"],
        ["Q2", "7"],
    ]


def test_a_slides_formula_is_latex_of_its_own_packaged_or_flat() -> None:
    from tests.unit.parsers.test_odt import FORMULA

    frame = CHART_FRAME.replace(' draw:name="Chart 1"', "")  # the same object and picture, holding a formula
    title = '<draw:frame presentation:class="title"><draw:text-box><text:p>Energy</text:p></draw:text-box></draw:frame>'
    packaged = package("presentation", f"<draw:page>{title}{frame}</draw:page>", ODP_MIME,
                       **{"Object 1/content.xml": FORMULA.encode()})  # fmt: skip
    inline = f"<draw:page>{title}<draw:frame><draw:object>{FORMULA}</draw:object></draw:frame></draw:page>"
    for blocks in (parse_odp(packaged, filename="e.odp", limits=ParseLimits()).blocks,
                   list(parse_bytes(flat("presentation", inline, ODP_MIME), "e.fodp").blocks())):  # fmt: skip
        assert [(block.kind, getattr(block, "text", "")) for block in blocks] == [
            ("heading", "Energy"), ("paragraph", "$$E=mc^{2}$$"),
        ]  # fmt: skip


ODG_MIME = "application/vnd.oasis.opendocument.graphics"


def _frame(text: str, x: str, y: str) -> str:
    return f'<draw:frame svg:x="{x}" svg:y="{y}"><draw:text-box><text:p>{text}</text:p></draw:text-box></draw:frame>'


def test_a_drawing_is_read_page_by_page_its_shapes_where_they_stand() -> None:
    """LibreOffice Draw keeps shapes in the order they were drawn: the page is read top to bottom, left to right."""
    page = (
        "<draw:page>" + _frame("Tank T2", "2cm", "10cm") + _frame("Pump room layout", "2cm", "2cm")
        + '<draw:custom-shape svg:x="9cm" svg:y="5cm"><text:p>Inlet valve PX-9</text:p></draw:custom-shape>'
        + _frame("North wall", "2cm", "5cm") + "</draw:page>"
        + "<draw:page>" + _frame("Outlet pipes", "2cm", "2cm") + "</draw:page>"
    )  # fmt: skip
    data = package("drawing", page, ODG_MIME)
    assert detect_format(data, "plan.odg") == "odg" and detect_format(data, "upload") == "odg"
    document = parse_bytes(data, "plan.odg")
    assert [(page.number, page.label, [block_text(b) for b in page.blocks]) for page in document.pages] == [
        (1, "Page 1", ["Pump room layout", "North wall", "Inlet valve PX-9", "Tank T2"]),
        (2, "Page 2", ["Outlet pipes"]),
    ]  # fmt: skip


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) draws the file")
def test_a_drawing_libreoffice_draw_saves_is_read(tmp_path: Path) -> None:
    from reportlab.pdfgen import canvas

    drawing = canvas.Canvas(str(tmp_path / "plan.pdf"))
    drawing.drawString(72, 760, "Pump room layout")
    drawing.rect(70, 500, 200, 100)
    drawing.drawString(80, 550, "Tank T2")
    drawing.drawString(72, 700, "Inlet valve PX-9 on the north wall.")
    drawing.showPage()
    drawing.drawString(72, 760, "Outlet pipes.")
    drawing.save()
    subprocess.run(
        ["soffice", "--headless", "--infilter=draw_pdf_import", "--convert-to", "odg", "--outdir", str(tmp_path),
         str(tmp_path / "plan.pdf")],
        check=True, capture_output=True, timeout=240, env={**os.environ, "HOME": str(tmp_path)},
    )  # fmt: skip
    document = parse_bytes((tmp_path / "plan.odg").read_bytes(), "plan.odg")
    assert [[block_text(b) for b in page.blocks] for page in document.pages] == [
        ["Pump room layout", "Inlet valve PX-9 on the north wall.", "Tank T2"], ["Outlet pipes."],
    ]  # fmt: skip
