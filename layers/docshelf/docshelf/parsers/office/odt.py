"""OpenDocument text (.odt): content.xml headings, paragraphs, lists, tables with spans, images; encryption check.
Headings and list items carry the numbers the word processor shows (odt_numbering: the outline and list styles of
content.xml and styles.xml), or the label the file stores (text:number) when it has one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docshelf.assets.collect import ImageSource, data_uri_bytes
from docshelf.model import Block, Heading, Image, Paragraph, Table
from docshelf.parsers.base import ParsedContent, ParseLimits
from docshelf.parsers.detect import flat_mimetype
from docshelf.parsers.formatted_headings import formatted_headings, reads_formatting
from docshelf.parsers.markup.html_blocks import normalise_inline
from docshelf.parsers.markup.html_tables import RawCell, compact_table
from docshelf.parsers.office.code_blocks import CodeBlocks, is_code_style, verbatim
from docshelf.parsers.office.odf_charts import chart_blocks, frame_chart
from docshelf.parsers.office.odf_objects import inline_objects
from docshelf.parsers.office.odt_formulas import frame_formula, inline_formulas
from docshelf.parsers.office.odt_looks import OdtLooks
from docshelf.parsers.office.odt_numbering import Counters, LevelStyle, Numbering
from docshelf.parsers.office.opendocument import OpenDocument, element_text, frame_description, read_flat, read_package
from docshelf.parsers.package_images import member_images
from docshelf.parsers.safe_zip import open_zip
from docshelf.parsers.xml_safety import local
from docshelf.structure import numbered_headings
from docshelf.tables import table_text

if TYPE_CHECKING:
    from lxml import etree

TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0"
XLINK = "http://www.w3.org/1999/xlink"
_SKIPPED = frozenset(
    {
        "tracked-changes", "table-of-content", "alphabetical-index", "illustration-index", "table-index",
        "object-index", "user-index", "bibliography", "annotation", "annotation-end", "note-citation",
        "sequence-decls", "variable-decls", "user-field-decls", "forms",
    }
)  # fmt: skip
_HEADING_STYLE = re.compile(r"^Heading(?:_20_|\s)(\d)$")
# The title is a heading; its subtitle a paragraph under it, as in DOCX (it opens no section of its own).
_TITLE_STYLES = {"Title": 1}
_BREAK = "\ue000"
_XML_SPACE = re.compile(r"[ \t\r\n]+")


def parse(data: bytes, *, filename: str, limits: ParseLimits) -> ParsedContent:
    if flat_mimetype(data):  # a .fodt: its pictures and objects are inline data
        flat = read_flat(data, what="ODT")
        inline_formulas(flat.content)
        return _parsed(flat, ImageSource(data_uri_bytes))
    with open_zip(data, limits, what="ODT") as archive:
        package = read_package(archive, limits, what="ODT")
        inline_objects(package.content, archive, limits, what="ODT")
        inline_formulas(package.content)
        return _parsed(package, ImageSource(member_images(archive, limits, what="ODT")))


def _parsed(package: OpenDocument, images: ImageSource) -> ParsedContent:
    roots = package.roots
    walker = OdtWalker(heading_styles(package.content), images, Numbering.read(*roots), code_styles(roots))
    walker.walk(package.body("text", "ODT"))
    blocks = walker.blocks
    styled = not reads_formatting(blocks)
    if not styled:  # headings typed bold or larger in the body style
        looks = OdtLooks(roots)
        set_as = {index: looks.paragraph_look(node) for index, node in walker.paragraph_nodes.items()}
        blocks = formatted_headings(blocks, {index: look for index, look in set_as.items() if look is not None})
    blocks = numbered_headings(blocks, headings_are_styled=styled)  # `第1章 総則` typed in the body style
    assets = walker.images_found.collector.assets
    return ParsedContent(blocks=blocks, page_count=1, title=package.title or walker.title, assets=assets)


def code_styles(roots: list[etree._Element]) -> frozenset[str]:
    """Paragraph styles that are, or derive from, a code style (code_blocks: "Preformatted Text"…)."""
    parents: dict[str, str] = {}
    code: set[str] = set()
    for root in roots:
        for style in root.iter(f"{{{STYLE}}}style"):
            name = str(style.get(f"{{{STYLE}}}name", ""))
            parents[name] = str(style.get(f"{{{STYLE}}}parent-style-name", ""))
            if is_code_style(name) or is_code_style(str(style.get(f"{{{STYLE}}}display-name", ""))):
                code.add(name)
    found: set[str] = set()
    for name in parents:
        current, seen = name, 0
        while current and seen < 20 and current not in code:
            current, seen = parents.get(current, ""), seen + 1
        if current in code:
            found.add(name)
    return frozenset(found | code)


def heading_styles(root: etree._Element) -> dict[str, int]:
    """Automatic paragraph styles derived from "Heading N" styles, mapped to N."""
    levels: dict[str, int] = {}
    for style in root.iter(f"{{{STYLE}}}style"):
        for name in (style.get(f"{{{STYLE}}}name"), style.get(f"{{{STYLE}}}parent-style-name")):
            match = _HEADING_STYLE.match(str(name or ""))
            level = int(match.group(1)) if match else _TITLE_STYLES.get(str(name or ""))
            if level:
                levels[str(style.get(f"{{{STYLE}}}name"))] = level
    return levels


@dataclass(slots=True)
class _Item:
    counted: bool  # a text:list-item (a text:list-header is not numbered)
    value: int | None  # its own text:start-value
    stored: str  # the label the file stores for it (text:number), if any
    fresh: bool = True  # its first paragraph, which shows the label, is still to come


class OdtWalker:
    def __init__(
        self,
        heading_levels: dict[str, int],
        images: ImageSource,
        numbering: Numbering | None = None,
        code_styles: frozenset[str] = frozenset(),
    ) -> None:
        self.heading_levels = heading_levels
        self.code_styles = code_styles
        self.code = CodeBlocks()
        self.images_found = images
        self.numbering = numbering or Numbering()
        self.blocks: list[Block] = []
        self.paragraph_nodes: dict[int, etree._Element] = {}  # each body paragraph's element, by its block index
        self.list_depth = 0
        self.list_levels: dict[int, LevelStyle] = {}  # the level styles of the list being read
        self.counters = Counters()  # and its counters
        self.items: list[_Item] = []  # the list items being read, outermost first
        self.title = ""
        # A table cell's walker holds its notes here, to follow the whole table rather than sit inside the cell.
        self.held_notes: list[Paragraph] | None = None

    def walk(self, element: etree._Element) -> None:
        for child in element:
            self.block(child)

    def block(self, node: etree._Element) -> None:
        name = local(node.tag)
        if name in _SKIPPED:
            return
        if name == "h":
            outline = str(node.get(f"{{{TEXT}}}outline-level", "1"))
            level = int(outline) if outline.isdigit() else 1
            self.heading(node, level, self.heading_label(node, level))
        elif name == "p":
            style_name = str(node.get(f"{{{TEXT}}}style-name", ""))
            if style_name in self.code_styles:
                self.code_line(node)
            elif style_name in self.heading_levels or style_name in _TITLE_STYLES:
                level = self.heading_levels.get(style_name) or _TITLE_STYLES[style_name]
                if level == 1 and not self.title and not self.blocks:
                    self.title = inline_content(node)[0].replace("\n", " ")
                self.heading(node, level)
            else:
                self.paragraph(node)
        elif name == "list":
            self.read_list(node)
        elif name in ("list-item", "list-header"):
            value = _int(node.get(f"{{{TEXT}}}start-value"), 0) if name == "list-item" else 0
            self.items.append(_Item(name == "list-item", value or None, _stored_label(node)))
            self.walk(node)
            self.items.pop()
        elif name == "table":
            self.table(node)
        else:
            self.walk(node)

    def read_list(self, node: etree._Element) -> None:
        """A text:list: a top-level one counts with its style's levels, from 1 or on from the list it continues."""
        outer = self.list_depth == 0
        saved = self.list_levels, self.counters
        if outer:
            style = str(node.get(f"{{{TEXT}}}style-name", "")) or self._first_paragraph_list(node)
            self.list_levels = self.numbering.lists.get(style, {})
            self.counters = self.numbering.start_list(node, style)
        self.list_depth += 1
        self.walk(node)
        self.list_depth -= 1
        if outer:
            self.list_levels, self.counters = saved

    def _first_paragraph_list(self, node: etree._Element) -> str:
        """A list without a style takes the list style of its first paragraph's style."""
        first = next((n for n in node.iter(f"{{{TEXT}}}p", f"{{{TEXT}}}h")), None)
        style = str(first.get(f"{{{TEXT}}}style-name", "")) if first is not None else ""
        return self.numbering.paragraph_lists.get(style, "")

    def heading_label(self, node: etree._Element, level: int) -> str:
        """An outline heading's number: counted by the outline style (a list header is not numbered)."""
        if str(node.get(f"{{{TEXT}}}is-list-header", "")) == "true":
            return ""
        value = None
        if str(node.get(f"{{{TEXT}}}restart-numbering", "")) == "true":
            value = _int(node.get(f"{{{TEXT}}}start-value"), 1)
        counted = self.numbering.headings.advance(self.numbering.outline, level, value)
        return _stored_label(node) or counted

    def item_label(self) -> str:
        """The label of the list item whose first paragraph is being read ('' for later paragraphs, bullets)."""
        if not self.items or not self.items[-1].fresh:
            return ""
        item = self.items[-1]
        item.fresh = False
        if not item.counted:
            return ""
        counted = self.counters.advance(self.list_levels, self.list_depth, item.value)
        return item.stored or counted

    def heading(self, node: etree._Element, level: int, label: str = "") -> None:
        text, notes = inline_content(node)
        text = text.replace("\n", " ")
        if text:
            text = f"{label} {text}" if label else text
            self.blocks.append(Heading(text=text, level=max(1, min(level, 6)), page=1))
        self.notes(notes)
        self.images(node)

    def paragraph(self, node: etree._Element) -> None:
        text, notes = inline_content(node)
        label = self.item_label()
        if text:
            text = f"{label} {text}" if label else text
            level = self.list_depth - 1 if self.list_depth else None
            if level is None:
                self.paragraph_nodes[len(self.blocks)] = node
            self.blocks.append(Paragraph(text=text, page=1, list_level=level))
        self.notes(notes)
        self.images(node)
        for frame_text in (n for n in node.iter() if local(n.tag) == "text-box"):
            self.walk(frame_text)

    def code_line(self, node: etree._Element) -> None:
        """A paragraph in a code style: a line of code, joined to the code block before it."""
        text, notes = inline_content(node, code=True)
        self.code.add(self.blocks, text, 1, self.list_depth - 1 if self.list_depth else None)
        self.notes(notes)

    def notes(self, notes: list[Paragraph]) -> None:
        """Note paragraphs go right after the block citing them (after the table, for a note cited in a cell)."""
        if self.held_notes is None:
            self.blocks.extend(notes)
        else:
            self.held_notes.extend(notes)

    def images(self, node: etree._Element) -> None:
        for frame in (n for n in node.iter() if local(n.tag) == "frame"):
            alt = frame_description(frame)
            chart = frame_chart(frame)
            if chart is not None:  # not the picture of itself its frame holds for readers without charts
                self.blocks += chart_blocks(chart, alt, page=1)
                continue
            formula = frame_formula(frame, display=True)  # a formula of its own (a slide's; a text's are inline)
            if formula:
                self.blocks.append(Paragraph(text=formula, page=1))
                continue
            image = next((n for n in frame if local(n.tag) == "image"), None)
            if image is None:
                continue
            href = str(image.get(f"{{{XLINK}}}href", ""))
            data = next((n for n in image if local(n.tag) == "binary-data"), None)
            if not href and data is not None and data.text:  # a flat file's picture, inline in base64
                href = "data:image/png;base64," + "".join(data.text.split())  # any image type: read by its bytes
            block = self.images_found.image(href, page=1, alt_text=alt)
            if block is False and alt:
                block = Image(page=1, alt_text=alt, asset_ref=href)
            if isinstance(block, Image):
                self.blocks.append(block)

    def table(self, node: etree._Element) -> None:
        cells: list[RawCell] = []
        notes: list[Paragraph] = []
        pictures: list[Image] = []  # the cells' pictures, after the table as in DOCX
        rows = list(_table_rows(node))
        header_rows = sum(1 for _, in_header in rows if in_header)
        n_cols = 0
        for r, (row, _) in enumerate(rows):
            col = 0
            for cell in row:
                cell_name = local(cell.tag)
                if cell_name not in ("table-cell", "covered-table-cell"):
                    continue
                repeat = min(_int(cell.get(f"{{{TABLE}}}number-columns-repeated"), 1), 1024)
                if cell_name == "table-cell":
                    lines, cell_notes, cell_pictures = _cell_lines(
                        cell, self.heading_levels, self.numbering, self.images_found
                    )
                    pictures.extend(cell_pictures)
                    text = "\n".join(lines)
                    notes.extend(cell_notes)
                    rowspan = _int(cell.get(f"{{{TABLE}}}number-rows-spanned"), 1)
                    colspan = _int(cell.get(f"{{{TABLE}}}number-columns-spanned"), 1)
                    for _ in range(repeat if text else 1):
                        cells.append(RawCell(r, col, text, min(rowspan, len(rows) - r), colspan))
                        col += 1
                    col += 0 if text else repeat - 1
                else:
                    col += repeat
                n_cols = max(n_cols, col)
        if any(cell.text for cell in cells):
            n_cols = max(n_cols, max(cell.col + cell.colspan for cell in cells))
            self.blocks.append(compact_table(cells, len(rows), n_cols, header_rows=header_rows, page=1, caption=""))
        self.blocks.extend(pictures)
        self.notes(notes)


def _table_rows(table: etree._Element) -> list[tuple[etree._Element, bool]]:
    rows: list[tuple[etree._Element, bool]] = []
    for child in table:
        name = local(child.tag)
        if name == "table-row":
            rows.append((child, False))
        elif name in ("table-header-rows", "table-rows", "table-row-group"):
            rows.extend((row, name == "table-header-rows") for row in child if local(row.tag) == "table-row")
    return rows[:100_000]


def _cell_lines(
    cell: etree._Element,
    heading_levels: dict[str, int],
    numbering: Numbering | None = None,
    images: ImageSource | None = None,
) -> tuple[list[str], list[Paragraph], list[Image]]:
    """The text lines of a cell (or a note body), the notes they cite and, with `images`, its pictures."""
    walker = OdtWalker(heading_levels, images or ImageSource(lambda src: None), numbering)
    walker.held_notes = []
    walker.walk(cell)
    lines = [
        table_text(block) if isinstance(block, Table) else block.text
        for block in walker.blocks
        if block.kind in ("paragraph", "heading", "table")
    ]
    pictures = [block for block in walker.blocks if isinstance(block, Image) and images is not None]
    return lines, walker.held_notes, pictures


def _int(value: object, default: int) -> int:
    text = str(value or "")
    return max(1, min(int(text), 65_535)) if text.isdigit() else default


def inline_content(node: etree._Element, *, code: bool = False) -> tuple[str, list[Paragraph]]:
    """Paragraph text and its notes: text:s spaces, tabs and line breaks honoured; frames, annotations and ruby
    (furigana over a base text) left out; a cross-reference (bookmark-ref, sequence-ref, ...) is the text it shows;
    a note leaves its marker `[^1]` in the text and becomes a paragraph `[^1]: text` to place after the block.
    A line of `code` keeps its text:s spaces (its indentation) as written; only the file's own whitespace runs,
    which ODF collapses, are one space."""
    parts: list[str] = []
    notes: list[Paragraph] = []

    def literal(text: str | None) -> str:
        return _XML_SPACE.sub(" ", text or "") if code else text or ""

    def collect(element: etree._Element) -> None:
        name = local(element.tag)
        if name == "s":
            parts.append(" " * _int(element.get(f"{{{TEXT}}}c"), 1))
        elif name == "tab":
            parts.append("\t")
        elif name == "line-break":
            parts.append(_BREAK)
        elif name == "note":
            label = _note_label(element)
            parts.append(f"[^{label}]")
            notes.append(Paragraph(text=f"[^{label}]: {_note_text(element)}", page=1))
        elif name in _SKIPPED or name in ("frame", "list", "table", "ruby-text", "number"):
            pass
        else:
            parts.append(literal(element.text))
            for child in element:
                collect(child)
                parts.append(literal(child.tail))

    collect(node)
    if code:
        return verbatim("".join(parts).replace(_BREAK, "\n")), notes
    return normalise_inline("".join(parts)), notes


def _stored_label(node: etree._Element) -> str:
    """The label a heading or list item stores with it (text:number), as shown."""
    number = next((child for child in node if local(child.tag) == "number"), None)
    return " ".join(element_text(number).split()) if number is not None else ""


def _note_label(note: etree._Element) -> str:
    """The mark the note is cited with (its text:note-citation), else its id."""
    citation = next((child for child in note if local(child.tag) == "note-citation"), None)
    label = element_text(citation) if citation is not None else ""
    return label or str(note.get(f"{{{TEXT}}}id") or "*")


def _note_text(note: etree._Element) -> str:
    body = next((child for child in note if local(child.tag) == "note-body"), None)
    return "\n".join(_cell_lines(body, {})[0]) if body is not None else ""
