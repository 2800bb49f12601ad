"""Visio drawings (`.vsdx`, macro-enabled and template too): a page per drawing page, named by its heading, then the
text of its shapes in reading order (top to bottom, then left to right, by the shapes' pins; a group's shapes where
the group stands), then what the connectors join (`Start → Check pressure`, with a connector's own label), which
is what a flowchart or a network diagram says and no shape's text holds."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docshelf.errors import CorruptDocumentError
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.opc import relationships, relationships_part
from docshelf.parsers.safe_zip import open_zip, read_member
from docshelf.parsers.xml_safety import local, parse_xml

if TYPE_CHECKING:
    import zipfile

    from lxml import etree

RELATIONSHIP = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PAGES = "visio/pages/pages.xml"
MAX_SHAPES = 50_000  # a page's, through its groups
MAX_DEPTH = 32


@dataclass
class _Shape:
    ident: str
    text: str
    x: float
    y: float
    ends: dict[str, str] = field(default_factory=dict)  # a connector's "BeginX"/"EndX" -> the shape it is glued to
    children: list[_Shape] = field(default_factory=list)  # a group's shapes, their pins relative to the group


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    with open_zip(data, limits, what="Visio") as archive:
        if PAGES not in archive.namelist():
            raise CorruptDocumentError("Visio package without visio/pages/pages.xml")
        pages = parse_xml(read_member(archive, PAGES, limits, what="Visio"), what="Visio pages.xml").getroot()
        targets = _relationships(archive, limits)
        content = ParsedContent(blocks=[], page_count=0)
        for page in (node for node in pages if local(node.tag) == "Page"):
            if str(page.get("Background", "0")) == "1":  # a background page: what other pages show behind them
                continue
            rel = next((node for node in page if local(node.tag) == "Rel"), None)
            member = targets.get(str(rel.get(f"{{{RELATIONSHIP}}}id", ""))) if rel is not None else None
            if member is None or member not in archive.namelist():
                continue
            content.page_count += 1
            number = content.page_count
            name = str(page.get("Name") or page.get("NameU") or f"Page {number}")
            content.page_labels[number] = name
            tree = parse_xml(read_member(archive, member, limits, what="Visio"), what=f"Visio {member}").getroot()
            content.blocks += _page_blocks(tree, name, number)
    content.page_count = max(content.page_count, 1)
    return content


def _relationships(archive: zipfile.ZipFile, limits: ParseLimits) -> dict[str, str]:
    """pages.xml's relationship ids -> the page parts they name."""
    rels = relationships_part(PAGES)
    if rels not in archive.namelist():
        return {}
    found = relationships(read_member(archive, rels, limits, what="Visio"), PAGES, what="Visio pages.xml.rels")
    return {rel.rid: rel.target for rel in found}


def _page_blocks(page: etree._Element, name: str, number: int) -> list[Block]:
    top = next((node for node in page if local(node.tag) == "Shapes"), None)
    shapes = list(_in_reading_order(_collect(top, [0], 0) if top is not None else []))
    by_id = {shape.ident: shape for shape in shapes}
    for connect in (node for node in page.iter() if local(node.tag) == "Connect"):
        connector = by_id.get(str(connect.get("FromSheet", "")))
        if connector is not None and str(connect.get("FromCell", "")) in ("BeginX", "EndX"):
            connector.ends[str(connect.get("FromCell"))] = str(connect.get("ToSheet", ""))
    blocks: list[Block] = [Heading(text=name, level=1, page=number)]
    blocks += [Paragraph(text=shape.text, page=number) for shape in shapes if shape.text and not shape.ends]
    for connector in shapes:
        begin, end = by_id.get(connector.ends.get("BeginX", "")), by_id.get(connector.ends.get("EndX", ""))
        if begin is not None and end is not None and begin.text and end.text:
            label = f" ({connector.text})" if connector.text else ""
            blocks.append(Paragraph(text=f"{begin.text} → {end.text}{label}", page=number, list_level=0))
        elif connector.ends and connector.text:  # a labelled connector glued at one end only
            blocks.append(Paragraph(text=connector.text, page=number))
    return blocks


def _in_reading_order(shapes: list[_Shape]) -> Iterator[_Shape]:
    """Top to bottom (Visio's y grows upwards), then left to right; a group's own shapes right after it."""
    for shape in sorted(shapes, key=lambda shape: (-shape.y, shape.x)):
        yield shape
        yield from _in_reading_order(shape.children)


def _collect(parent: etree._Element, count: list[int], depth: int) -> list[_Shape]:
    """The shapes under `parent`, each group's below it; `count` holds how many were read (at most MAX_SHAPES)."""
    found: list[_Shape] = []
    for node in parent:
        if local(node.tag) != "Shape" or count[0] >= MAX_SHAPES:
            continue
        count[0] += 1
        cells = {str(cell.get("N")): str(cell.get("V", "")) for cell in node if local(cell.tag) == "Cell"}
        text = next((child for child in node if local(child.tag) == "Text"), None)
        shape = _Shape(str(node.get("ID", "")), _text(text), _number(cells.get("PinX")), _number(cells.get("PinY")))
        inner = next((child for child in node if local(child.tag) == "Shapes"), None)
        if inner is not None and depth < MAX_DEPTH:
            shape.children = _collect(inner, count, depth + 1)
        found.append(shape)
    return found


def _text(node: etree._Element | None) -> str:
    if node is None:
        return ""
    return " ".join("".join(str(part) for part in node.itertext()).split())


def _number(value: str | None) -> float:
    try:
        return float(value) if value else 0.0
    except ValueError:
        return 0.0
