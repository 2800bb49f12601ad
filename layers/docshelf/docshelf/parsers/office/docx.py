"""DOCX parser: the body in source order (paragraphs, tables, pictures), headings from styles and outline levels,
each footnote and endnote right after the block citing it."""

from __future__ import annotations

import io
import itertools
import re
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.exceptions import OpcError
from docx.opc.package import OpcPackage
from lxml import etree

from docshelf.assets.collect import AssetCollector
from docshelf.errors import CorruptDocumentError
from docshelf.model import Block, Heading, Image, Paragraph
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.formatted_headings import Look, formatted_headings, reads_formatting
from docshelf.parsers.office.code_blocks import CodeBlocks
from docshelf.parsers.office.docx_notes import Notes
from docshelf.parsers.office.docx_numbering import Numbering, flag, int_val, w, w_val
from docshelf.parsers.office.docx_styles import MAX_HEADING_LEVEL, StyleSheet, outline_level
from docshelf.parsers.office.docx_tables import children, convert_table, table_as_text
from docshelf.parsers.office.docx_text import PictureInfo, count_page_breaks, paragraph_content
from docshelf.parsers.office.embedded import embedded_blocks
from docshelf.parsers.office.mtef import ole_equation_latex
from docshelf.parsers.safe_zip import check_package
from docshelf.structure import numbered_headings

if TYPE_CHECKING:
    from docshelf.assets.prepare import PreparedImage
    from docshelf.parsers.office.docx_text import Cite

# A "heading" this long is a body paragraph wearing a heading style.
MAX_HEADING_CHARS = 300
_BLOCK_WRAPPERS = frozenset({w("sdt"), w("sdtContent"), w("customXml"), w("ins"), w("moveTo")})
# python-docx reports a damaged package part with whatever its XML accessors raise.
_OPEN_ERRORS = (
    OpcError,
    KeyError,
    ValueError,
    AttributeError,
    TypeError,
    etree.XMLSyntaxError,
    zipfile.BadZipFile,
    zlib.error,
    OSError,
)
_P_STYLE, _R_PR = w("pStyle"), w("rPr")
_CONTENTS_STYLE = re.compile(r"^(?:toc [1-9]|toc heading|table of figures)$", re.IGNORECASE)
_XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    what = f"DOCX file {filename!r}"
    check_package(data, limits, what=what)
    package, body, styles, numbering, notes = _open(data, what)
    title = _core_title(package)
    reader = BodyReader(StyleSheet(styles), Numbering(numbering), notes, section_ends=_new_page_section_ends(body))
    reader.image_part = _image_parts(package.main_document_part)
    reader.equation = lambda rel_id: ole_equation_latex(reader.image_part(rel_id))
    reader.embedded = lambda rel_id: embedded_blocks(reader.image_part(rel_id), limits)
    reader.read_blocks(body)
    if not title:
        title = reader.title_text
    assets = reader.collector.assets
    blocks = reader.blocks
    styled = not reads_formatting(blocks)
    if not styled:  # a bold or larger line typed in the body style
        blocks = formatted_headings(blocks, reader.looks())
    blocks = numbered_headings(blocks, headings_are_styled=styled)  # `第1章 総則` typed in the body style
    return ParsedContent(blocks=blocks, page_count=reader.page, title=title, assets=assets)


def _prepared(data: bytes) -> PreparedImage | None:
    from docshelf.assets.prepare import prepare_bytes  # Pillow, numpy: only for documents with pictures

    return prepare_bytes(data)


def _image_parts(main: Any) -> Callable[[str], bytes | None]:
    """The bytes of the part (an image, an embedded object) a relationship id of the main document names (None when
    external or absent)."""

    def image_bytes(rel_id: str) -> bytes | None:
        relationship = main.rels.get(rel_id) if rel_id else None
        if relationship is None or relationship.is_external:
            return None
        try:
            blob = relationship.target_part.blob
        except _OPEN_ERRORS:
            return None
        return blob if isinstance(blob, bytes) else None

    return image_bytes


def _open(data: bytes, what: str) -> tuple[Any, etree._Element, etree._Element | None, etree._Element | None, Notes]:
    try:
        package = OpcPackage.open(io.BytesIO(data))
        main = package.main_document_part
        root = _part_xml(main)
        body = root.find(w("body"))
        if body is None:
            raise CorruptDocumentError(f"{what} has no document body")
        notes = Notes(_related_xml(main, RT.FOOTNOTES), _related_xml(main, RT.ENDNOTES))
        return package, body, _related_xml(main, RT.STYLES), _related_xml(main, RT.NUMBERING), notes
    except CorruptDocumentError:
        raise
    except _OPEN_ERRORS as exc:
        raise CorruptDocumentError(f"{what} could not be read: {type(exc).__name__}: {exc}") from exc


def _part_xml(part: Any) -> etree._Element:
    element = getattr(part, "element", None)
    if isinstance(element, etree._Element):
        return element
    return etree.fromstring(part.blob, parser=_XML_PARSER)


def _related_xml(part: Any, reltype: str) -> etree._Element | None:
    try:
        related = part.part_related_by(reltype)
    except KeyError:
        return None
    return _part_xml(related)


def _core_title(package: Any) -> str:
    try:
        return " ".join((package.core_properties.title or "").split())
    except (KeyError, ValueError, AttributeError, etree.XMLSyntaxError):
        return ""


def _new_page_section_ends(body: etree._Element) -> set[etree._Element]:
    """Paragraphs that end a section whose successor starts on a new page (w:type is on the next sectPr)."""
    section_properties = [
        element for element in body.iter(w("sectPr")) if element.getparent() is body or _in_paragraph_pr(element)
    ]
    ends: set[etree._Element] = set()
    for current, following in itertools.pairwise(section_properties):
        properties = current.getparent()
        paragraph = properties.getparent() if properties is not None else None
        if paragraph is not None and w_val(following.find(w("type"))) != "continuous":
            ends.add(paragraph)
    return ends


def _in_paragraph_pr(element: etree._Element) -> bool:
    parent = element.getparent()
    return parent is not None and parent.tag == w("pPr") and parent.getparent() is not None


class BodyReader:
    """Walks block-level content in document order and emits typed blocks with their page."""

    def __init__(
        self, styles: StyleSheet, numbering: Numbering, notes: Notes, *, section_ends: set[etree._Element]
    ) -> None:
        self.styles = styles
        self.numbering = numbering
        self.notes = notes
        self.section_ends = section_ends
        self.blocks: list[Block] = []
        # Each body paragraph's style and runs, by its index in `blocks`: how its text is set, read when needed.
        self._set_as: dict[int, tuple[str | None, list[tuple[etree._Element, int]]]] = {}
        self.code = CodeBlocks()
        self.page = 1
        self.title_text = ""
        self._cell_pictures: list[PictureInfo] = []
        self._fresh_page = False
        self.collector = AssetCollector()
        self.image_part: Callable[[str], bytes | None] = lambda rel_id: None  # any related part's bytes
        self.equation: Callable[[str], str | None] = lambda rel_id: None  # an embedded equation object's LaTeX
        self.embedded: Callable[[str], list[Block]] = lambda rel_id: []  # an embedded document's blocks

    def read_blocks(self, container: etree._Element) -> None:
        for child in container:
            if child.tag == w("p"):
                self._paragraph(child)
            elif child.tag == w("tbl"):
                self._table(child)
            elif child.tag in _BLOCK_WRAPPERS:
                self.read_blocks(child)

    def _paragraph(self, p: etree._Element) -> None:
        ppr = p.find(w("pPr"))
        code = self.styles.is_code(w_val(ppr.find(w("pStyle"))) if ppr is not None else None)
        content = paragraph_content(p, self.notes.cite, code=code, equation=self.equation)
        if ppr is not None and flag(ppr.find(w("pageBreakBefore"))):
            content.breaks_before += 1
        # Word sometimes also marks a hard or section break with a rendered break on the new page: count it once.
        rendered = 0 if self._fresh_page else content.rendered_breaks_before
        self._turn_pages(content.breaks_before + rendered)
        emitted = len(self.blocks)
        self._pictures(content.pictures_before)
        if code:  # a line of code, or an empty one inside a code block
            self.code.add(self.blocks, content.text, self.page)
            self._cited_notes()
        elif content.text and not self._is_contents_entry(ppr):
            self._caption_previous_image(ppr, content.text)
            block = self._text_block(p, ppr, content.text)
            if isinstance(block, Paragraph) and block.list_level is None and content.runs:
                self._set_as[len(self.blocks)] = (w_val(ppr.find(_P_STYLE)) if ppr is not None else None, content.runs)
            self.blocks.append(block)
            self._cited_notes()
        self._pictures(content.pictures_after)
        for rel_id in content.embedded:
            self.blocks += [replace(block, page=self.page) for block in self.embedded(rel_id)]
        for box in content.text_boxes:
            self.read_blocks(box)
        if len(self.blocks) > emitted:
            self._fresh_page = False
        self._turn_pages(content.breaks_after + (1 if p in self.section_ends else 0))

    def _is_contents_entry(self, ppr: etree._Element | None) -> bool:
        """A line of a table of contents or of figures (Word's `toc 1`-`toc 9`, `TOC Heading`, `table of figures`
        styles): the headings again with page numbers, which would match every question about them."""
        style_id = w_val(ppr.find(w("pStyle"))) if ppr is not None else None
        return _CONTENTS_STYLE.match(self.styles.name(style_id)) is not None

    def _caption_previous_image(self, ppr: etree._Element | None, text: str) -> None:
        """A paragraph in Word's Caption style right after a picture is that picture's caption (it stays a
        paragraph of the text too)."""
        style_id = w_val(ppr.find(w("pStyle"))) if ppr is not None else None
        previous = self.blocks[-1] if self.blocks else None
        if isinstance(previous, Image) and not previous.caption and self.styles.name(style_id).lower() == "caption":
            self.blocks[-1] = replace(previous, caption=text)

    def _turn_pages(self, count: int) -> None:
        if count > 0:
            self.page += count
            self._fresh_page = True

    def _text_block(self, p: etree._Element, ppr: etree._Element | None, text: str) -> Heading | Paragraph:
        style_id = w_val(ppr.find(w("pStyle"))) if ppr is not None else None
        level = self._heading_level(ppr, style_id)
        numbering = self._numbering(ppr, style_id)
        label = ""
        if numbering is not None:
            label = self.numbering.next_label(*numbering)
        labelled = f"{label} {text}" if label else text
        if level is not None and len(text) <= MAX_HEADING_CHARS:
            if not self.title_text and self.styles.name(style_id).lower() == "title":
                self.title_text = " ".join(text.split())
            return Heading(text=labelled, level=level, page=self.page)
        list_level = None
        if numbering is not None:
            list_level = max(numbering[1], self.styles.list_level_hint(style_id))
        return Paragraph(text=labelled, page=self.page, list_level=list_level)

    def looks(self) -> dict[int, Look]:
        """How each body paragraph's text is set: all of it bold or not, and the size of most of its characters."""
        looks = {}
        for index, (style_id, runs) in self._set_as.items():
            characters: Counter[tuple[bool, float]] = Counter()
            for run, count in runs:
                characters[self.styles.run_bold_and_size(run.find(_R_PR), style_id)] += count
            look = Look.of(characters)
            if look is not None:
                looks[index] = look
        return looks

    def _heading_level(self, ppr: etree._Element | None, style_id: str | None) -> int | None:
        direct = outline_level(ppr)
        if direct is not None:
            return None if direct < 0 else direct + 1
        level = self.styles.heading_level(style_id)
        return min(level, MAX_HEADING_LEVEL) if level is not None else None

    def _numbering(self, ppr: etree._Element | None, style_id: str | None) -> tuple[str, int] | None:
        num_pr = ppr.find(w("numPr")) if ppr is not None else None
        from_style = self.styles.numbering(style_id)
        if num_pr is None:
            return from_style
        num_id = w_val(num_pr.find(w("numId")))
        ilvl = int_val(num_pr.find(w("ilvl")))
        if num_id is None:
            num_id = from_style[0] if from_style else None
        if num_id is None or num_id == "0":
            return None
        if ilvl is None:
            ilvl = from_style[1] if from_style else 0
        return num_id, max(0, min(ilvl, 8))

    def _cited_notes(self) -> None:
        """The notes the last block cited, each a paragraph `[^1]: text` (its paragraphs one line each)."""
        for mark, note in self.notes.take():
            text = _box_text(note, self._cell_text)
            if text:
                self.blocks.append(Paragraph(text=f"{mark}: {text}", page=self.page))

    def _pictures(self, pictures: list[PictureInfo]) -> None:
        for picture in pictures:
            data = self.image_part(picture.rel_id)
            prepared = _prepared(data) if data else None
            shown = (picture.width, picture.height)
            image = self.collector.image(prepared, page=self.page, alt_text=picture.alt_text, shown=shown)
            if image is not None:
                self.blocks.append(image)

    def _table(self, tbl: etree._Element) -> None:
        self._cell_pictures = []
        table = convert_table(tbl, self._cell_text, page=self.page)
        if table is not None:
            self.blocks.append(table)
            self._fresh_page = False
        self._cited_notes()
        self._pictures(self._cell_pictures)
        # A row that crosses a page boundary marks the break in each of its cells: count it once per row.
        for row in children(tbl, w("tr")):
            cells = list(children(row, w("tc")))
            self.page += max((count_page_breaks(tc) for tc in cells), default=0)

    def _cell_text(self, tc: etree._Element) -> str:
        """Text of a table cell; pictures inside it are kept to follow the table, nested tables are flattened."""
        parts: list[str] = []
        for child in _cell_blocks(tc):
            if child.tag == w("tbl"):
                parts.append(table_as_text(child, self._cell_text))
                continue
            content = paragraph_content(child, self.notes.cite, equation=self.equation)
            self._cell_pictures.extend(content.pictures_before + content.pictures_after)
            ppr = child.find(w("pPr"))
            style_id = w_val(ppr.find(w("pStyle"))) if ppr is not None else None
            numbering = self._numbering(ppr, style_id)
            label = self.numbering.next_label(*numbering) if numbering is not None else ""
            if content.text:
                parts.append(f"{label} {content.text}" if label else content.text)
            parts.extend(_box_text(box, self._cell_text, self.notes.cite) for box in content.text_boxes)
        return "\n".join(part for part in parts if part)


def _cell_blocks(container: etree._Element) -> list[etree._Element]:
    found: list[etree._Element] = []
    for child in container:
        if child.tag in (w("p"), w("tbl")):
            found.append(child)
        elif child.tag in _BLOCK_WRAPPERS:
            found.extend(_cell_blocks(child))
    return found


def _box_text(box: etree._Element, cell_text: Any, cite: Cite | None = None) -> str:
    texts = []
    for child in _cell_blocks(box):
        if child.tag == w("tbl"):
            texts.append(table_as_text(child, cell_text))
        else:
            texts.append(paragraph_content(child, cite).text)
    return "\n".join(text for text in texts if text)
