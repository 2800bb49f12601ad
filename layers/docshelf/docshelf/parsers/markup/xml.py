"""XML parser: safe parsing, then JATS articles, USPTO patents, XHTML, or generic text extraction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.errors import CorruptDocumentError
from docshelf.model import Block, Heading, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.markup.xml_deep import DEEP_WARNING, DEPTH_ERROR, deep_xml_blocks
from docshelf.parsers.markup.xml_jats import is_jats, jats_blocks
from docshelf.parsers.markup.xml_text import cals_table, mixed_text
from docshelf.parsers.markup.xml_uspto import ROOTS as PATENT_ROOTS
from docshelf.parsers.markup.xml_uspto import patent_blocks
from docshelf.parsers.xml_safety import local, parse_xml

if TYPE_CHECKING:
    from lxml import etree

XHTML_NS = "http://www.w3.org/1999/xhtml"
_TITLE_NAMES = frozenset({"title", "heading", "head", "subject", "caption", "name"})
_SECTION_NAMES = frozenset({"section", "sect", "sec", "chapter", "part", "article", "div"})


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    try:
        tree = parse_xml(data)
    except CorruptDocumentError as exc:
        if DEPTH_ERROR not in str(exc):
            raise
        return ParsedContent(blocks=deep_xml_blocks(data), page_count=1, warnings=[DEEP_WARNING])
    root = tree.getroot()
    if isinstance(root.tag, str) and root.tag.startswith(f"{{{XHTML_NS}}}"):
        from docshelf.parsers.markup import html

        return html.parse(data, filename=filename, limits=limits)
    if is_jats(root):
        title, blocks = jats_blocks(root)
    elif local(root.tag) in PATENT_ROOTS:
        title, blocks = patent_blocks(root)
    else:
        title, blocks = "", generic_blocks(root)
    return ParsedContent(blocks=blocks, page_count=1, title=title)


def generic_blocks(root: etree._Element) -> list[Block]:
    """Elements holding text directly become paragraphs (title-like names become headings by depth)."""
    blocks: list[Block] = []

    def visit(element: etree._Element, sections: int) -> None:
        name = local(element.tag)
        if not name:
            return
        if name == "tgroup" or (name == "table" and any(local(n.tag) == "tgroup" for n in element)):
            table = cals_table(element, page=1)
            if table is not None:
                blocks.append(table)
                return
        if _has_own_text(element):
            text = mixed_text(element)
            if text and name in _TITLE_NAMES and len(text) < 300:
                blocks.append(Heading(text=text.replace("\n", " "), level=min(sections + 1, 6), page=1))
            elif text:
                blocks.append(Paragraph(text=text, page=1))
            return
        nested = sections + (1 if name in _SECTION_NAMES else 0)
        for child in element:
            visit(child, nested)

    visit(root, 0)
    return blocks


def _has_own_text(element: etree._Element) -> bool:
    if element.text and element.text.strip():
        return True
    return any(child.tail and child.tail.strip() for child in element)
