"""USPTO patent XML (us-patent-application / us-patent-grant, ST.36-like): title, abstract, description, claims."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.model import Block, Heading, Image, Paragraph
from docshelf.parsers.markup.xml_text import cals_table, mixed_text
from docshelf.parsers.xml_safety import local

if TYPE_CHECKING:
    from lxml import etree

ROOTS = frozenset({"us-patent-application", "us-patent-grant", "patent-application-publication", "patent-document"})
_INLINE_SKIP = ("tables", "maths")


def patent_blocks(root: etree._Element) -> tuple[str, list[Block]]:
    title_element = next((node for node in root.iter() if local(node.tag) == "invention-title"), None)
    title = mixed_text(title_element) if title_element is not None else ""
    blocks: list[Block] = []
    if title:
        blocks.append(Heading(text=title, level=1, page=1))
    for section, heading in (("abstract", "Abstract"), ("description", ""), ("claims", "Claims")):
        for element in (node for node in root.iter() if local(node.tag) == section):
            if heading:
                blocks.append(Heading(text=heading, level=2, page=1))
            _walk(element, blocks)
    return title, blocks


def _walk(element: etree._Element, blocks: list[Block]) -> None:
    for child in element:
        name = local(child.tag)
        if name == "heading":
            text = mixed_text(child)
            level = int(child.get("level", "1")) if str(child.get("level", "1")).isdigit() else 1
            if text:
                blocks.append(Heading(text=text, level=min(level + 1, 6), page=1))
        elif name in ("p", "claim"):
            text = mixed_text(child, skip=_INLINE_SKIP)
            if text:
                blocks.append(Paragraph(text=text, page=1))
            _embedded(child, blocks)
        elif name == "tables":
            _embedded(child, blocks, include_self=True)
        elif name in ("figure", "img"):
            _figure(child, blocks)
        else:
            _walk(child, blocks)


def _embedded(element: etree._Element, blocks: list[Block], *, include_self: bool = False) -> None:
    """Tables inside a paragraph come after its text."""
    for node in element.iter():
        if local(node.tag) == "tables" and (include_self or node is not element):
            for table in (t for t in node.iter() if local(t.tag) == "table"):
                parsed = cals_table(table, page=1)
                if parsed is not None:
                    blocks.append(parsed)


def _figure(element: etree._Element, blocks: list[Block]) -> None:
    for img in (node for node in element.iter() if local(node.tag) == "img"):
        alt = str(img.get("alt") or "").strip()
        if alt:
            blocks.append(Image(page=1, alt_text=alt, asset_ref=str(img.get("file", ""))))
