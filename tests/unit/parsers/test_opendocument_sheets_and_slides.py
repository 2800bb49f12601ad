"""OpenDocument spreadsheets (.ods) and presentations (.odp), read as XLSX workbooks and PPTX decks are."""

from __future__ import annotations

import pytest

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, EncryptedDocumentError
from docshelf.model import Heading, Image, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.detect import detect_format
from docshelf.parsers.office.odp import parse as parse_odp
from docshelf.parsers.sheets.ods import parse as parse_ods
from docshelf.tables import table_grid
from tests.support.image_fixtures import photo
from tests.support.zip_fixtures import build_zip, zip_bomb
from tests.unit.parsers.test_odt import NAMESPACES

ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"
ODP_MIME = "application/vnd.oasis.opendocument.presentation"
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
