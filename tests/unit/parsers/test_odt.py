from __future__ import annotations

from pathlib import Path

import pytest

from docshelf.errors import CorruptDocumentError, DocumentTooLargeError, EncryptedDocumentError
from docshelf.model import Heading, Image, Paragraph, Table
from docshelf.parsers import parse_bytes
from docshelf.parsers.base import ParseLimits
from docshelf.parsers.office.odt import parse
from docshelf.tables import table_grid
from tests.support.zip_fixtures import build_zip, zip_bomb
from tests.unit.parsers import markup_measures as measures
from tests.unit.parsers.corpus_helpers import parse_corpus_file

ODT_MIME = "application/vnd.oasis.opendocument.text"
NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
    'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" '
    'xmlns:xlink="http://www.w3.org/1999/xlink"'
)
BODY = """
<text:p text:style-name="P1">Doc title</text:p>
<text:h text:outline-level="1">Chapter</text:h>
<text:p>Hello<text:s text:c="2"/>world<text:note><text:note-citation>1</text:note-citation><text:note-body>
<text:p>note</text:p></text:note-body></text:note>.</text:p>
<text:p text:style-name="P2">Styled heading</text:p>
<text:list><text:list-item><text:p>one</text:p><text:list><text:list-item><text:p>deep</text:p></text:list-item>
</text:list></text:list-item></text:list>
<table:table><table:table-header-rows><table:table-row><table:table-cell table:number-columns-spanned="2">
<text:p>Head</text:p></table:table-cell><table:covered-table-cell/></table:table-row></table:table-header-rows>
<table:table-row><table:table-cell><text:p>a</text:p></table:table-cell><table:table-cell><text:p>b</text:p>
</table:table-cell></table:table-row></table:table>
<text:p><draw:frame><draw:image xlink:href="Pictures/1.png"/><svg:title>A duck</svg:title></draw:frame></text:p>
<text:tracked-changes><text:changed-region><text:deletion><text:p>deleted</text:p></text:deletion></text:changed-region>
</text:tracked-changes>
"""
STYLES = """<office:automatic-styles>
<style:style style:name="P1" style:family="paragraph" style:parent-style-name="Title"/>
<style:style style:name="P2" style:family="paragraph" style:parent-style-name="Heading_20_2"/>
</office:automatic-styles>"""


def odt(body: str = BODY, *, manifest: bytes = b"<manifest/>", styles: str = "", automatic: str = STYLES) -> bytes:
    content = (
        f"<office:document-content {NAMESPACES}>{automatic}"
        f"<office:body><office:text>{body}</office:text></office:body></office:document-content>"
    )
    members = {"content.xml": content.encode(), "META-INF/manifest.xml": manifest}
    if styles:
        members["styles.xml"] = f"<office:document-styles {NAMESPACES}>{styles}</office:document-styles>".encode()
    return build_zip(members, mimetype=ODT_MIME)


def test_headings_paragraphs_lists_tables_images() -> None:
    content = parse(odt(), filename="t.odt", limits=ParseLimits())
    assert content.title == "Doc title"
    blocks = content.blocks
    assert blocks[:7] == [
        Heading(text="Doc title", level=1, page=1),
        Heading(text="Chapter", level=1, page=1),
        Paragraph(text="Hello world[^1].", page=1),
        Paragraph(text="[^1]: note", page=1),
        Heading(text="Styled heading", level=2, page=1),
        Paragraph(text="one", page=1, list_level=0),
        Paragraph(text="deep", page=1, list_level=1),
    ]
    table = blocks[7]
    assert isinstance(table, Table) and table.header_rows == 1
    assert table_grid(table) == [["Head", "Head"], ["a", "b"]]
    assert blocks[8] == Image(page=1, alt_text="A duck", asset_ref="Pictures/1.png")
    assert len(blocks) == 9


def test_a_table_nested_in_a_cell_is_part_of_the_cell_text() -> None:
    """LibreOffice keeps a web page's table in a cell as a table in the cell: its text was dropped."""
    body = (
        "<table:table><table:table-row><table:table-cell><text:p>Standards:</text:p><table:table><table:table-row>"
        "<table:table-cell><text:p>JIS G 4108</text:p></table:table-cell><table:table-cell><text:p>Alloy steel bars"
        "</text:p></table:table-cell></table:table-row><table:table-row><table:table-cell><text:p>JIS G 4107"
        "</text:p></table:table-cell></table:table-row></table:table><text:p/></table:table-cell><table:table-cell>"
        "<text:p>SNB22-3</text:p></table:table-cell></table:table-row></table:table>"
    )
    table = parse(odt(body), filename="t.odt", limits=ParseLimits()).blocks[0]
    assert isinstance(table, Table)
    assert table_grid(table) == [["Standards:\nJIS G 4108 | Alloy steel bars\nJIS G 4107", "SNB22-3"]]


def test_cross_references_show_their_text_and_ruby_reads_through_its_base() -> None:
    body = (
        '<text:h text:outline-level="1"><text:bookmark-start text:name="s1"/>Payment Schedule'
        '<text:bookmark-end text:name="s1"/></text:h>'
        '<text:p>See section <text:bookmark-ref text:reference-format="text" text:ref-name="s1">Payment Schedule'
        '</text:bookmark-ref> and <text:sequence-ref text:ref-name="t1">Table 2</text:sequence-ref>.</text:p>'
        "<text:p>会場は<text:ruby><text:ruby-base>東京</text:ruby-base><text:ruby-text>とうきょう</text:ruby-text>"
        "</text:ruby>です。</text:p>"
    )
    assert parse(odt(body), filename="t.odt", limits=ParseLimits()).blocks == [
        Heading(text="Payment Schedule", level=1, page=1),
        Paragraph(text="See section Payment Schedule and Table 2.", page=1),
        Paragraph(text="会場は東京です。", page=1),
    ]


def test_notes_follow_the_block_citing_them_with_their_mark() -> None:
    def note(citation: str, text: str) -> str:
        return (
            f'<text:note text:note-class="footnote"><text:note-citation>{citation}</text:note-citation>'
            f"<text:note-body><text:p>{text}</text:p></text:note-body></text:note>"
        )

    body = (
        f"<text:p>Revenue grew{note('1', 'Source: audited accounts.')} in the north.</text:p>"
        "<table:table><table:table-row><table:table-cell>"
        f"<text:p>Costs{note('i', 'Excluding one-off items.')}</text:p></table:table-cell></table:table-row>"
        "</table:table><text:p>After.</text:p>"
    )
    blocks = parse(odt(body), filename="t.odt", limits=ParseLimits()).blocks
    assert blocks[:2] == [
        Paragraph(text="Revenue grew[^1] in the north.", page=1),
        Paragraph(text="[^1]: Source: audited accounts.", page=1),
    ]
    table = blocks[2]
    assert isinstance(table, Table) and table_grid(table) == [["Costs[^i]"]]
    assert blocks[3:] == [Paragraph(text="[^i]: Excluding one-off items.", page=1), Paragraph(text="After.", page=1)]


NUMBERING_STYLES = """<office:styles>
<text:outline-style style:name="Outline">
 <text:outline-level-style text:level="1" style:num-format="1" style:num-suffix=" "/>
 <text:outline-level-style text:level="2" style:num-format="1" text:display-levels="2"/>
 <text:outline-level-style text:level="3" style:num-format=""/>
</text:outline-style>
<text:list-style style:name="Numbering_20_123">
 <text:list-level-style-number text:level="1" loext:num-list-format="%1%." style:num-suffix="." style:num-format="1"
  xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0"/>
 <text:list-level-style-number text:level="2" style:num-prefix="(" style:num-suffix=")" style:num-format="a"/>
</text:list-style>
<text:list-style style:name="Roman"><text:list-level-style-number text:level="1" style:num-format="I"
 style:num-suffix="." text:start-value="4"/></text:list-style>
<text:list-style style:name="List_20_1"><text:list-level-style-bullet text:level="1" text:bullet-char="•"/>
</text:list-style>
</office:styles>"""
NUMBERED = """
<text:h text:outline-level="1">Introduction</text:h>
<text:h text:outline-level="2">Purpose</text:h>
<text:h text:outline-level="3">Unnumbered level</text:h>
<text:h text:outline-level="2">Scope</text:h>
<text:h text:outline-level="1">Results</text:h>
<text:h text:outline-level="1" text:is-list-header="true">Annex</text:h>
<text:list xml:id="steps" text:style-name="Numbering_20_123">
 <text:list-item><text:p>Flush the tap.</text:p></text:list-item>
 <text:list-item><text:p>Fill the bottles:</text:p><text:p>in this order</text:p>
  <text:list><text:list-item><text:p>thiosulphate</text:p></text:list-item>
  <text:list-item><text:p>metals</text:p></text:list-item></text:list></text:list-item>
</text:list>
<text:p>Then:</text:p>
<text:list text:continue-list="steps" text:style-name="Numbering_20_123">
 <text:list-item><text:p>Record the residual.</text:p></text:list-item>
 <text:list-header><text:p>A note, not a step.</text:p></text:list-header>
 <text:list-item text:start-value="9"><text:p>Deliver the samples.</text:p></text:list-item>
</text:list>
<text:list><text:list-item><text:p text:style-name="P3">From its paragraph style</text:p></text:list-item></text:list>
<text:list text:style-name="List_20_1"><text:list-item><text:p>A bullet</text:p></text:list-item></text:list>
<text:list text:style-name="Numbering_20_123">
 <text:list-item><text:number>7)</text:number><text:p>Stored label</text:p></text:list-item>
</text:list>
"""


def test_headings_and_list_items_show_their_numbers() -> None:
    # ODF stores no numbers with the text: headings count by the outline style, items by their list's style.
    roman = '<style:style style:name="P3" style:family="paragraph" style:list-style-name="Roman"/>'
    automatic = STYLES.replace("</office:automatic-styles>", f"{roman}</office:automatic-styles>")
    blocks = parse(odt(NUMBERED, styles=NUMBERING_STYLES, automatic=automatic), filename="t.odt", limits=ParseLimits())
    assert [(type(b).__name__, getattr(b, "text", ""), getattr(b, "list_level", None)) for b in blocks.blocks] == [
        ("Heading", "1 Introduction", None),
        ("Heading", "1.1 Purpose", None),
        ("Heading", "Unnumbered level", None),
        ("Heading", "1.2 Scope", None),
        ("Heading", "2 Results", None),
        ("Heading", "Annex", None),
        ("Paragraph", "1. Flush the tap.", 0),
        ("Paragraph", "2. Fill the bottles:", 0),
        ("Paragraph", "in this order", 0),
        ("Paragraph", "(a) thiosulphate", 1),
        ("Paragraph", "(b) metals", 1),
        ("Paragraph", "Then:", None),
        ("Paragraph", "3. Record the residual.", 0),
        ("Paragraph", "A note, not a step.", 0),
        ("Paragraph", "9. Deliver the samples.", 0),
        ("Paragraph", "IV. From its paragraph style", 0),
        ("Paragraph", "A bullet", 0),
        ("Paragraph", "7) Stored label", 0),
    ]


def test_code_paragraphs_keep_their_spaces_and_join_into_one_code_block() -> None:
    # pandoc writes a code block as one paragraph a line, in a style based on "Preformatted Text", its
    # indentation as text:s; ODF collapses the file's own whitespace runs.
    automatic = STYLES.replace(
        "</office:automatic-styles>",
        '<style:style style:name="P4" style:family="paragraph" style:parent-style-name="Preformatted_20_Text"/>'
        "</office:automatic-styles>",
    )
    styles = '<office:styles><style:style style:name="Preformatted_20_Text" style:family="paragraph"/></office:styles>'
    body = """<text:p>A worker claims a batch:</text:p>
<text:p text:style-name="P4">def claim(conn):</text:p>
<text:p text:style-name="P4"><text:s text:c="4"/>with   conn.transaction():</text:p>
<text:p text:style-name="P4"/>
<text:p text:style-name="P4"><text:tab/>return<text:line-break/><text:s text:c="8"/>ids</text:p>
<text:p>Done.</text:p>"""
    blocks = parse(odt(body, styles=styles, automatic=automatic), filename="t.odt", limits=ParseLimits()).blocks
    assert blocks == [
        Paragraph(text="A worker claims a batch:", page=1),
        Paragraph(text="def claim(conn):\n    with conn.transaction():\n\n\treturn\n        ids", page=1, code=True),
        Paragraph(text="Done.", page=1),
    ]


def test_encrypted_manifest_is_reported() -> None:
    manifest = (
        b'<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
        b"<manifest:file-entry><manifest:encryption-data/></manifest:file-entry></manifest:manifest>"
    )
    with pytest.raises(EncryptedDocumentError):
        parse(odt(manifest=manifest), filename="t.odt", limits=ParseLimits())


def test_zip_bomb_and_broken_packages() -> None:
    with pytest.raises(DocumentTooLargeError):
        parse(zip_bomb("content.xml", mimetype=ODT_MIME), filename="bomb.odt", limits=ParseLimits())
    with pytest.raises(CorruptDocumentError):
        parse(build_zip({"other.xml": b"<a/>"}, mimetype=ODT_MIME), filename="t.odt", limits=ParseLimits())
    with pytest.raises(CorruptDocumentError):
        parse(b"PK\x03\x04 not really a zip", filename="t.odt", limits=ParseLimits())


def test_registry_detects_odt() -> None:
    assert parse_bytes(odt(), "file.bin").parser.startswith("odt/")


@pytest.mark.corpus
def test_corpus_odt(corpus_dir: Path) -> None:
    with pytest.raises(EncryptedDocumentError):
        parse_corpus_file(corpus_dir, "odt/testODTEncrypted.odt")
    relative = "odt/text_document_01.odt"
    document = parse_corpus_file(corpus_dir, relative)
    reference = measures.groundtruth_markdown(corpus_dir, relative)
    text = measures.text_recall(measures.markdown_plain_text(reference), measures.document_text(document))
    headings = measures.heading_recall(measures.markdown_headings(reference), measures.document_headings(document))
    print(f"{relative}: text recall {text:.3f}, heading recall {headings:.3f}")
    assert text >= 0.95
    assert headings >= 0.8


def test_a_subtitle_is_a_paragraph_under_the_title_as_in_docx() -> None:
    # It was an H2, and the same document saved as DOCX gave a paragraph.
    body = """<text:p text:style-name="Title">Groundwater Monitoring Report</text:p>
    <text:p text:style-name="Subtitle">Upper Valley Aquifer</text:p><text:p>Hydrology Unit</text:p>
    <text:h text:outline-level="1">Summary</text:h>"""
    content = parse(odt(body), filename="t.odt", limits=ParseLimits())
    assert [(block.kind, block.text) for block in content.blocks if isinstance(block, Heading | Paragraph)] == [
        ("heading", "Groundwater Monitoring Report"),
        ("paragraph", "Upper Valley Aquifer"),
        ("paragraph", "Hydrology Unit"),
        ("heading", "Summary"),
    ]
    assert content.title == "Groundwater Monitoring Report"


FORMULA = (
    '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi>'
    "<msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding='StarMath 5.0'>E = m c^2</annotation></semantics>"
    "</math>"
)


def test_formula_objects_read_as_latex_where_their_frames_stand() -> None:
    # LibreOffice keeps a formula as an embedded object (its MathML in `Object 1/content.xml`, a picture beside it);
    # a flat file may hold the MathML in the frame itself. An object that is neither formula nor chart stays out.
    frame = (
        '<draw:frame text:anchor-type="as-char"><draw:object xlink:href="./{0}"/>'
        '<draw:image xlink:href="./ObjectReplacements/{0}"/></draw:frame>'
    )
    body = (
        f"<text:p>Energy is {frame.format('Object 1')} at rest.</text:p>"
        f"<text:p>Inline: <draw:frame><draw:object>{FORMULA}</draw:object></draw:frame></text:p>"
        f"<text:p>Sales chart: {frame.format('Object 2')}</text:p>"
    )
    content = f"<office:document-content {NAMESPACES}><office:body><office:text>{body}</office:text></office:body>"
    members = {
        "content.xml": (content + "</office:document-content>").encode(),
        "META-INF/manifest.xml": b"<manifest/>",
        "Object 1/content.xml": FORMULA.encode(),
        "Object 2/content.xml": f"<office:document-content {NAMESPACES}/>".encode(),
    }
    document = parse(build_zip(members, mimetype=ODT_MIME), filename="energy.odt", limits=ParseLimits())
    assert [block.text for block in document.blocks if isinstance(block, Paragraph)] == [
        "Energy is $E=mc^{2}$ at rest.",
        "Inline: $E=mc^{2}$",
        "Sales chart:",
    ]


def test_formula_objects_past_the_bound_stay_out_of_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # At most MAX_OBJECTS objects are read (here 1): the second formula's frame is left out, as before formulas.
    from docshelf.parsers.office import odf_objects

    monkeypatch.setattr(odf_objects, "MAX_OBJECTS", 1)
    frame = '<draw:frame><draw:object xlink:href="./{0}"/></draw:frame>'
    body = f"<text:p>First {frame.format('Object 1')} then {frame.format('Object 2')}.</text:p>"
    content = f"<office:document-content {NAMESPACES}><office:body><office:text>{body}</office:text></office:body>"
    members = {
        "content.xml": (content + "</office:document-content>").encode(),
        "META-INF/manifest.xml": b"<manifest/>",
        "Object 1/content.xml": FORMULA.encode(),
        "Object 2/content.xml": FORMULA.encode(),
    }
    document = parse(build_zip(members, mimetype=ODT_MIME), filename="two.odt", limits=ParseLimits())
    assert [block.text for block in document.blocks if isinstance(block, Paragraph)] == ["First $E=mc^{2}$ then ."]


def test_a_picture_in_a_table_cell_follows_its_table_as_in_docx() -> None:
    from docshelf.parsers.office.odt import parse as parse_odt_file
    from tests.support.image_fixtures import logo

    body = (
        "<table:table><table:table-row><table:table-cell><text:p>Boiler</text:p></table:table-cell>"
        '<table:table-cell><text:p><draw:frame><draw:image xlink:href="Pictures/boiler.png"/>'
        "<svg:title>The boiler</svg:title></draw:frame></text:p></table:table-cell></table:table-row></table:table>"
        "<text:p>After the table.</text:p>"
    )
    content = f"<office:document-content {NAMESPACES}><office:body><office:text>{body}</office:text></office:body>"
    data = build_zip(
        {"content.xml": (content + "</office:document-content>").encode(), "META-INF/manifest.xml": b"<m/>",
         "Pictures/boiler.png": logo((100, 50))},
        mimetype=ODT_MIME,
    )  # fmt: skip
    parsed = parse_odt_file(data, filename="t.odt", limits=ParseLimits())
    assert [block.kind for block in parsed.blocks] == ["table", "image", "paragraph"]
    image = parsed.blocks[1]
    assert isinstance(image, Image) and image.alt_text == "The boiler" and image.asset_ref in parsed.assets
