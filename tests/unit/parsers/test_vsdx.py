"""Visio drawings (.vsdx): a page per drawing page, its shapes' text in reading order, then what connectors join."""

from __future__ import annotations

import pytest

from docshelf.errors import CorruptDocumentError
from docshelf.model import Heading, Paragraph
from docshelf.parsers import parse_bytes
from docshelf.parsers.detect import detect_format
from tests.support.zip_fixtures import build_zip

VISIO = "http://schemas.microsoft.com/office/visio/2012/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_REL = "http://schemas.openxmlformats.org/package/2006/relationships"


def shape(ident: int, text: str, x: float, y: float, inner: str = "") -> str:
    label = f"<Text><cp IX='0'/>{text}</Text>" if text else ""
    nested = f"<Shapes>{inner}</Shapes>" if inner else ""
    return f"<Shape ID='{ident}' Type='Shape'><Cell N='PinX' V='{x}'/><Cell N='PinY' V='{y}'/>{label}{nested}</Shape>"


def connector(ident: int, text: str, begin: int, end: int) -> tuple[str, str]:
    glue = "".join(
        f"<Connect FromSheet='{ident}' FromCell='{cell}' ToSheet='{to}'/>"
        for cell, to in [("BeginX", begin), ("EndX", end)]
    )
    return shape(ident, text, 0, 0), glue


def drawing(pages: list[tuple[str, str, str, bool]]) -> bytes:
    """(name, shapes, connects, is a background page) each."""
    listed = "".join(
        f"<Page ID='{n}' Name='{name}' Background='{int(background)}'><Rel r:id='rId{n}'/></Page>"
        for n, (name, _, _, background) in enumerate(pages, start=1)
    )
    members = {
        "[Content_Types].xml": b"<Types/>",
        "visio/document.xml": f"<VisioDocument xmlns='{VISIO}'/>".encode(),
        "visio/pages/pages.xml": f"<Pages xmlns='{VISIO}' xmlns:r='{REL}'>{listed}</Pages>".encode(),
        "visio/pages/_rels/pages.xml.rels": (
            f"<Relationships xmlns='{PACKAGE_REL}'>"
            + "".join(f"<Relationship Id='rId{n}' Target='page{n}.xml'/>" for n in range(1, len(pages) + 1))
            + "</Relationships>"
        ).encode(),
    }
    for n, (_, shapes, connects, _) in enumerate(pages, start=1):
        members[f"visio/pages/page{n}.xml"] = (
            f"<PageContents xmlns='{VISIO}'><Shapes>{shapes}</Shapes><Connects>{connects}</Connects></PageContents>"
        ).encode()
    return build_zip(members)


def test_a_flowchart_reads_top_to_bottom_then_what_its_connectors_join() -> None:
    arrows = [connector(10, "", 1, 2), connector(11, "yes", 2, 3), connector(12, "no", 2, 4)]
    group = shape(5, "", 6.0, 1.0, shape(6, "Legend", 0.5, 1.0) + shape(7, "Valve: V-12", 0.5, 0.4))
    shapes = (
        shape(3, "Open valve V-12", 2.0, 4.0) + shape(1, "Start", 4.0, 10.0) + shape(4, "Call the supervisor", 6.0, 4.0)
        + shape(2, "Pressure above 6 bar?", 4.0, 7.0) + group + "".join(s for s, _ in arrows)
    )  # fmt: skip
    data = drawing(
        [("Pump start", shapes, "".join(g for _, g in arrows), False), ("Back", shape(1, "ACME", 1, 1), "", True)]
    )
    assert detect_format(data, "upload.bin") == "vsdx"
    document = parse_bytes(data, "start.vsdx")
    assert len(document.pages) == 1 and document.pages[0].label == "Pump start"  # the background page left out
    shown = [
        (type(block).__name__, block.text) for block in document.blocks() if isinstance(block, Heading | Paragraph)
    ]
    assert shown == [
        ("Heading", "Pump start"),
        ("Paragraph", "Start"),
        ("Paragraph", "Pressure above 6 bar?"),
        ("Paragraph", "Open valve V-12"),
        ("Paragraph", "Call the supervisor"),
        ("Paragraph", "Legend"),
        ("Paragraph", "Valve: V-12"),
        ("Paragraph", "Start → Pressure above 6 bar?"),
        ("Paragraph", "Pressure above 6 bar? → Open valve V-12 (yes)"),
        ("Paragraph", "Pressure above 6 bar? → Call the supervisor (no)"),
    ]


def test_a_package_without_pages_is_refused() -> None:
    data = build_zip({"visio/document.xml": f"<VisioDocument xmlns='{VISIO}'/>".encode()})
    with pytest.raises(CorruptDocumentError, match="pages\\.xml"):
        parse_bytes(data, "empty.vsdx")


def test_a_page_that_expands_past_the_limit_is_too_large() -> None:
    from docshelf.errors import DocumentTooLargeError
    from docshelf.parsers.base import ParseLimits
    from docshelf.parsers.office.vsdx import parse

    bomb = build_zip({"visio/document.xml": b"<VisioDocument/>", "visio/pages/pages.xml": b"\0" * (16 * 1024 * 1024)})
    with pytest.raises(DocumentTooLargeError, match="zip bomb"):
        parse(bomb, filename="bomb.vsdx", limits=ParseLimits(max_decompressed_bytes=1024 * 1024))
