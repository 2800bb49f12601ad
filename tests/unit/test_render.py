"""HTML rendering keeps what Markdown cannot: merged table cells, header rows and captions."""

from __future__ import annotations

import lxml.html

from docshelf.model import Document, Heading, Image, Page, Paragraph, Source, Table, TableCell
from docshelf.render import document_to_html, document_to_markdown
from docshelf.tables import table_to_html

SPANNED = Table(
    cells=(
        TableCell(0, 0, "Part", rowspan=2),
        TableCell(0, 1, "Pressure", colspan=2),
        TableCell(1, 1, "min"),
        TableCell(1, 2, "max"),
        TableCell(2, 0, "TX-100 <valve>"),
        TableCell(2, 1, "5"),
        TableCell(2, 2, "200 & more"),
    ),
    n_rows=3,
    n_cols=3,
    page=1,
    header_rows=2,
    caption="Ratings",
)


def test_table_to_html_keeps_spans_headers_caption_and_escapes() -> None:
    table = lxml.html.fragment_fromstring(table_to_html(SPANNED))
    assert table.tag == "table" and table.findtext("caption") == "Ratings"
    rows = table.findall("tr")
    assert [[cell.tag for cell in row] for row in rows] == [["th", "th"], ["th", "th"], ["td", "td", "td"]]
    assert rows[0][0].get("rowspan") == "2" and rows[0][1].get("colspan") == "2"
    assert [cell.text for cell in rows[2]] == ["TX-100 <valve>", "5", "200 & more"]
    assert "&lt;valve&gt;" in table_to_html(SPANNED)


def document() -> Document:
    blocks = (
        Heading("Valves", level=1, page=1),
        Paragraph("Check <seals> yearly.", page=1),
        Paragraph("first", page=1, list_level=0),
        Paragraph("nested", page=1, list_level=1),
        SPANNED,
        Image(page=2, alt_text="diagram", asset_ref="assets/a.png"),
    )
    pages = (Page(1, blocks[:5]), Page(2, blocks[5:], label="ii"))
    source = Source(uri="v.docx", filename="v.docx", media_type="x", size_bytes=1, sha256="0")
    return Document(source=source, title="Valves & seals", pages=pages, parser="docx/3")


def test_document_to_html_is_a_page_with_every_block() -> None:
    rendered = document_to_html(document())
    page = lxml.html.document_fromstring(rendered)
    assert page.findtext(".//title") == "Valves & seals"
    found = page.find("body")
    assert found is not None
    body = [child for child in found if isinstance(child.tag, str)]  # page markers are comments
    assert [child.tag for child in body] == ["h1", "p", "ul", "table", "img"]
    assert body[1].text == "Check <seals> yearly."
    assert [item.text for item in body[2]] == ["first", "nested"]
    assert body[3][0].tag == "caption" and body[3][1][0].get("rowspan") == "2"
    assert body[4].get("src") == "assets/a.png" and body[4].get("alt") == "diagram"
    assert "<!-- page 2 (ii) -->" in rendered


def test_markdown_cannot_show_the_spans_html_keeps() -> None:
    markdown = document_to_markdown(document())
    assert "| Part | Pressure | Pressure |" in markdown  # the span repeated into each position it covers


def test_numbered_items_keep_their_own_numbers_as_markdown_markers() -> None:
    """An item whose text opens with its number (`1.`, as every parser keeps it) is an ordered item as written, not
    a bullet holding a list (`- 1. …`); items nested in it indent past its marker, as CommonMark nests them."""
    blocks = (
        Paragraph("1. Close the valve.", page=1, list_level=0),
        Paragraph("Check the seal.", page=1, list_level=1),
        Paragraph("10. Open the valve.", page=1, list_level=0),
        Paragraph("2) Tighten crosswise.", page=1, list_level=1),
        Paragraph("Bolts", page=1, list_level=0),
        Paragraph("M12", page=1, list_level=1),
    )
    source = Source(uri="v.md", filename="v.md", media_type="x", size_bytes=1, sha256="0")
    markdown = document_to_markdown(Document(source=source, title="v", pages=(Page(1, blocks),), parser="md/1"))
    assert markdown.split("\n\n") == [
        "1. Close the valve.",
        "   - Check the seal.",
        "10. Open the valve.",
        "    2) Tighten crosswise.",
        "- Bolts",
        "  - M12\n",
    ]
