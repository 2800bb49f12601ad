"""JATS / NLM journal articles (.nxml): title, authors, abstract, sections, figures, tables, references."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docshelf.model import Block, Heading, Image, Paragraph
from docshelf.parsers.markup.html_blocks import HtmlBlockWalker
from docshelf.parsers.markup.html_tables import table_from_element
from docshelf.parsers.markup.xml_text import mixed_text
from docshelf.parsers.xml_safety import local

if TYPE_CHECKING:
    from lxml import etree

_FLOATS = ("table-wrap", "fig", "disp-formula", "fig-group", "table-wrap-group", "supplementary-material")
_SECTION_LIKE = frozenset({"sec", "app", "ack", "glossary", "ref-list", "notes", "fn-group", "boxed-text"})
_DEFAULT_TITLES = {"ack": "Acknowledgements", "ref-list": "References", "glossary": "Glossary"}


def is_jats(root: etree._Element) -> bool:
    return local(root.tag) == "article" and any(local(child.tag) in ("front", "body") for child in root)


def _first(element: etree._Element | None, name: str) -> etree._Element | None:
    if element is None:
        return None
    return next((node for node in element.iter() if local(node.tag) == name), None)


def jats_blocks(root: etree._Element) -> tuple[str, list[Block]]:
    walker = _JatsWalker()
    meta = _first(root, "article-meta")
    title_element = _first(meta, "article-title")
    title = mixed_text(title_element) if title_element is not None else ""
    if title:
        walker.blocks.append(Heading(text=title, level=1, page=1))
    if meta is not None:
        walker.front(meta)
    for part in root:
        if local(part.tag) in ("body", "back"):
            walker.content(part, level=2)
    return title, walker.blocks


class _JatsWalker:
    def __init__(self) -> None:
        self.blocks: list[Block] = []

    def paragraph(self, text: str, *, list_level: int | None = None) -> None:
        if text:
            self.blocks.append(Paragraph(text=text, page=1, list_level=list_level))

    def front(self, meta: etree._Element) -> None:
        names = []
        for contrib in (node for node in meta.iter() if local(node.tag) == "contrib"):
            name = _first(contrib, "name")
            if name is not None:
                given, surname = _first(name, "given-names"), _first(name, "surname")
                names.append(" ".join(mixed_text(part) for part in (given, surname) if part is not None))
        self.paragraph(", ".join(name for name in names if name))
        affiliations = [mixed_text(aff, skip=("label",)) for aff in meta.iter() if local(aff.tag) == "aff" and len(aff)]
        self.paragraph("; ".join(text for text in affiliations if text))
        for abstract in (node for node in meta if local(node.tag) == "abstract"):
            abstract_title = _first(abstract, "title")
            heading = mixed_text(abstract_title) if abstract_title is not None else "Abstract"
            self.blocks.append(Heading(text=heading, level=2, page=1))
            self.content(abstract, level=3)

    def content(self, element: etree._Element, *, level: int) -> None:
        for child in element:
            name = local(child.tag)
            if name in _SECTION_LIKE:
                title = next((node for node in child if local(node.tag) == "title"), None)
                text = mixed_text(title) if title is not None else _DEFAULT_TITLES.get(name, "")
                if text:
                    self.blocks.append(Heading(text=text, level=min(level, 6), page=1))
                self.content(child, level=level + 1 if text else level)
            elif name == "p":
                self.paragraph(mixed_text(child, skip=_FLOATS))
                for node in child:
                    if local(node.tag) in _FLOATS or local(node.tag) == "list":
                        self.content_node(node, level)
            elif name == "ref":
                self.paragraph(citation_text(child), list_level=0)
            elif name in ("title", "label", "object-id"):
                continue
            else:
                self.content_node(child, level)

    def content_node(self, node: etree._Element, level: int) -> None:
        name = local(node.tag)
        if name == "table-wrap":
            self.table_wrap(node)
        elif name == "fig":
            caption = _first(node, "caption")
            label = _first(node, "label")
            text = " ".join(mixed_text(part) for part in (label, caption) if part is not None)
            if text:
                self.blocks.append(Image(page=1, caption=text, asset_ref=_graphic_ref(node)))
        elif name == "list":
            for item in (n for n in node if local(n.tag) == "list-item"):
                self.paragraph(mixed_text(item, skip=("label",)), list_level=0)
        elif name in ("disp-quote", "boxed-text", "statement", "def-list", "fig-group", "table-wrap-group"):
            self.content(node, level=level)
        elif name in ("disp-formula", "supplementary-material", "preformat", "speech", "def"):
            self.paragraph(mixed_text(node, skip=("label",)))
        else:
            self.content(node, level=level)

    def table_wrap(self, wrap: etree._Element) -> None:
        label, caption = _first(wrap, "label"), _first(wrap, "caption")
        text = " ".join(mixed_text(part) for part in (label, caption) if part is not None)
        table = _first(wrap, "table")
        parsed = table_from_element(table, _cell_text, page=1, caption=text) if table is not None else None
        if parsed is not None:
            self.blocks.append(parsed)
        elif text:
            self.paragraph(text)
        for foot in (node for node in wrap if local(node.tag) == "table-wrap-foot"):
            self.paragraph(mixed_text(foot))


def citation_text(ref: etree._Element) -> str:
    """A reference as one readable line; structured `element-citation` fields get their punctuation back."""
    citation = _first(ref, "element-citation")
    if citation is None:
        return mixed_text(ref, skip=("label",))
    fields: dict[str, str] = {}
    for node in citation:
        fields.setdefault(local(node.tag), mixed_text(node, skip=("name",)))
    authors = [
        " ".join(
            mixed_text(part) for part in (_first(name, "surname"), _first(name, "given-names")) if part is not None
        )
        for name in citation.iter()
        if local(name.tag) == "name"
    ]
    pages = "–".join(fields[key] for key in ("fpage", "lpage") if fields.get(key))
    volume = ":".join(part for part in (fields.get("volume", ""), pages) if part)
    ids = [
        f"{str(node.get('pub-id-type', 'id')).upper()}: {mixed_text(node)}"
        for node in citation
        if local(node.tag) == "pub-id"
    ]
    head = ". ".join(
        part for part in (", ".join(authors), fields.get("article-title", ""), fields.get("source", "")) if part
    )
    year = f"({fields['year']})" if fields.get("year") else ""
    text = " ".join(part for part in (head, volume, year) if part)
    return f"{text}. {', '.join(ids)}" if ids else text


def _cell_text(cell: etree._Element) -> str:
    blocks = HtmlBlockWalker().walk_content(cell)
    return "\n".join(block.text for block in blocks if block.kind != "table") or mixed_text(cell)


def _graphic_ref(node: etree._Element) -> str:
    graphic = _first(node, "graphic")
    if graphic is None:
        return ""
    return next((str(value) for key, value in graphic.attrib.items() if local(key) == "href"), "")
